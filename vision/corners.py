"""Board localisation: the field's four corners in the image, given or found, refined to sub-pixel.

- Given: ``x1,y1,...,x4,y4`` on the command line, or a JSON file holding ``{"corners": [[x, y] x 4]}``
  (the calibration page writes one), in the order TL, TR, BR, BL as light sees the board.
- Refined (:func:`refine`): each side of the field is a straight edge between the points and the
  rail; the line is re-fitted to the strongest gradient found along its normals near the given
  line, and the corners become the intersections of the four fitted lines. This turns clicks a
  few pixels off into sub-pixel corners.
- Found automatically (:func:`find_corners`), in two steps, each a small network run with
  onnxruntime (trained on renders by :mod:`vision.train_corners`):

  1. *Finder* (``models/corners.onnx``): the whole frame, letterboxed to :data:`VIEW`, to two heat
     maps at a quarter of that size: the field's corners and the two ends of the bar (where the
     bar meets the long edges). The strongest peaks that make a convex quadrilateral are the
     corners (a corner under a hand is completed from the other three and the bar's ends); the
     bar's ends tell which edges are the long ones. The order is TL, TR, BR, BL with the top edge
     the long edge nearer the top of the image; which turn is right (which row is which) is left
     to the opening position (:mod:`vision.orientation`, :mod:`vision.adapt`).
  2. *Refiner* (``models/corners_refiner.onnx``): around each corner a crop taken in the
     field's coordinates, mirrored so that every corner looks like a top-left one
     (:func:`corner_crop`), to the corner's position in the crop as the expectation of a
     soft-max heat map, hence sub-pixel; twice, in a wide crop (the finder may have taken a
     point's corner or a tray's for the field's) and then in a narrow one round the first's answer.

  It returns None when no plausible quadrilateral is seen (no board, or too much of it hidden),
  and the command line then asks for ``--corners``. A caller that can check a field (the watch,
  on the opening) is also offered the likeliest fields cut at one short end so that the bar's
  ends lie in their middle (:func:`trimmed`): a tray across that end looks like more field.

>>> import numpy as np
>>> img = np.zeros((200, 300, 3), np.uint8); img[50:150, 60:240] = 200
>>> got = refine(img, np.array([[62, 52], [237, 49], [241, 152], [58, 147]], float))
>>> bool(np.abs(got - [[59.5, 49.5], [239.5, 49.5], [239.5, 149.5], [59.5, 149.5]]).max() < 0.5)
True
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np


def load_corners(path: str | Path) -> np.ndarray:
    """Corners from a JSON file ``{"corners": [[x, y], ...]}`` or a bare list."""
    data = json.loads(Path(path).read_text())
    pts = np.asarray(data["corners"] if isinstance(data, dict) else data, np.float64)
    if pts.shape != (4, 2):
        raise ValueError("a corners file holds four [x, y] pairs")
    return pts


def _fit_edge(gray_grad: tuple, a: np.ndarray, b: np.ndarray, search: float, samples: int = 24,
              span: tuple = (0.1, 0.9)):
    """The line (point, direction) best fitting the gradient peaks along the normals of a..b."""
    gx, gy = gray_grad
    d = (b - a) / np.linalg.norm(b - a)
    n = np.array([-d[1], d[0]])
    pts = []
    offsets = np.arange(-search, search + 0.01, 0.5)
    for t in np.linspace(span[0], span[1], samples):
        p = a + t * (b - a)
        line = p[None] + offsets[:, None] * n[None]
        mx, my = line[:, 0].astype(np.float32), line[:, 1].astype(np.float32)
        sx = cv2.remap(gx, mx[None], my[None], cv2.INTER_LINEAR)[0]
        sy = cv2.remap(gy, mx[None], my[None], cv2.INTER_LINEAR)[0]
        mag = np.abs(sx * n[0] + sy * n[1])
        k = int(np.argmax(mag))
        if mag[k] <= 0:
            continue
        # parabola through the peak for the sub-pixel offset
        if 0 < k < len(mag) - 1:
            den = mag[k - 1] - 2 * mag[k] + mag[k + 1]
            k = k + (0.5 * (mag[k - 1] - mag[k + 1]) / den if den < 0 else 0.0)
        pts.append(p + (offsets[0] + 0.5 * k) * n)
    if len(pts) < samples // 2:
        return a, d
    pts = np.array(pts, np.float32)
    vx, vy, x0, y0 = cv2.fitLine(pts, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0]), np.array([vx, vy])


def _intersect(p1, d1, p2, d2) -> np.ndarray:
    A = np.array([d1, -d2]).T
    t = np.linalg.solve(A, p2 - p1)
    return p1 + t[0] * d1


def refine(image: np.ndarray, corners: np.ndarray, search: float | None = None) -> np.ndarray:
    """Corners re-fitted to the four straight edges of the field near the given ones."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    grad = (cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3))
    if search is None:
        search = max(3.0, 0.01 * np.linalg.norm(c[2] - c[0]))
    # Each corner from the quarter of each edge next to it: a lens bends long edges, and the
    # ends of an edge are what meet at the corner.
    out = []
    for i in range(4):
        before = _fit_edge(grad, c[(i - 1) % 4], c[i], search, span=(0.65, 0.98))
        after = _fit_edge(grad, c[i], c[(i + 1) % 4], search, span=(0.02, 0.35))
        out.append(_intersect(*before, *after))
    out = np.array(out)
    if np.abs(out - c).max() > 3 * search:  # a fit that ran away: keep what was given
        return c
    return out


def closest_turn(found: np.ndarray, old: np.ndarray) -> np.ndarray:
    """``found`` corners in the cyclic order closest to ``old``: a camera that was bumped turns
    a little, so the calibrated orientation (which corner is whose) carries over.

    >>> old = np.array([[0, 0], [10, 0], [10, 8], [0, 8]], float)
    >>> closest_turn(np.roll(old + 1, 2, axis=0), old)[0].tolist()
    [1.0, 1.0]
    """
    turns = [np.roll(found, -k, axis=0) for k in range(4)]
    return min(turns, key=lambda c: float(np.linalg.norm(c - old, axis=1).sum()))


# --- found automatically --------------------------------------------------------------------

MODELS = Path(__file__).resolve().parent.parent / "models"
FINDER = MODELS / "corners.onnx"
REFINER = MODELS / "corners_refiner.onnx"
VIEW = (320, 192)  # the finder's input, width x height: the frame letterboxed (top left, black pad)
STRIDE = 4  # the finder's heat maps are VIEW / STRIDE
CROP = 48  # the refiner's crop, pixels a side; its soft-max heat map is CROP / 2 a side
HALF = 0.07  # half a refiner crop's side, as a share of the field's mean side
PASSES = (0.14, 0.07)  # the refiner's passes: a wide crop (the finder may be a point off), then a narrow one
PEAK = 0.3  # the least heat of a peak, by default
CANDIDATE = 0.1  # the least heat a peak needs to be a candidate
# The finder's likeliest fields a caller that can check a field tries (the watch's calibration,
# :meth:`vision.recognize.Recognizer.find_board`): on 8709's first frame the field ranked second.
BOARDS_TRIED = 3
# A field found whose bar's ends, as the finder sees them, lie further than TRIM_AT of its length
# from its middle is also tried cut at either short end (:func:`trimmed`). The bar's ends are
# seen to about half a heat-map cell, so fields found right are often as far off (a cut field
# is only tried, the calibration tells); 9928's tray-wide find had them 0.045 from its middle.
TRIM_AT = 0.02
MIN_SCORE = 3.0  # the least score (see :func:`score`; at most 4 + 2 * END_WEIGHT) a field needs
END_WEIGHT = 2.0  # the bar ends' weight in the score: they check the four corners against each other
UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)


def letterbox(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame shrunk into :data:`VIEW` (top left, black pad) and the scale it was shrunk by."""
    h, w = image.shape[:2]
    s = min(VIEW[0] / w, VIEW[1] / h)
    small = cv2.resize(image, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    out = np.zeros((VIEW[1], VIEW[0], 3), np.uint8)
    out[:small.shape[0], :small.shape[1]] = small[:VIEW[1], :VIEW[0]]
    return out, s


def to_view(px, s: float) -> np.ndarray:
    """Image pixels to letterboxed view pixels (pixel centres on pixel centres)."""
    return (np.asarray(px, np.float64) + 0.5) * s - 0.5


def from_view(xy, s: float) -> np.ndarray:
    """Letterboxed view pixels to image pixels (the inverse of :func:`to_view`)."""
    return (np.asarray(xy, np.float64) + 0.5) / s - 0.5


def corner_window(corners: np.ndarray, k: int, half: float = HALF) -> np.ndarray:
    """The field quadrilateral (TL, TR, BR, BL of the crop) round corner ``k`` of ``corners``,
    mirrored so that the field lies to the crop's bottom right: every corner looks like a
    top-left one. About square in the image whatever the field's aspect."""
    from vision.rectify import quad

    c = np.asarray(corners, np.float64).reshape(4, 2)
    w = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    h = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
    r = half * (w + h) / 2
    a, b = r / max(w, 1e-6), r / max(h, 1e-6)
    u, v = UNIT_SQUARE[k]
    su, sv = (1 if u == 0 else -1), (1 if v == 0 else -1)
    return quad(u - su * a, u + su * a, v - sv * b, v + sv * b)


def corner_crop(image: np.ndarray, corners: np.ndarray, k: int, half: float = HALF) -> tuple[np.ndarray, np.ndarray]:
    """The refiner's :data:`CROP`-pixel crop round corner ``k`` and the homography image -> crop."""
    from vision.rectify import Field

    field = Field(corners)
    src = field.to_image(corner_window(corners, k, half)).astype(np.float32)
    dst = np.array([[0, 0], [CROP, 0], [CROP, CROP], [0, CROP]], np.float32)
    M = cv2.getPerspectiveTransform(src, dst)
    crop = cv2.warpPerspective(image, M, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return crop, M


def transform(M: np.ndarray, pts) -> np.ndarray:
    """(N, 2) points through the homography ``M``."""
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), M).reshape(-1, 2)


def peaks(heat: np.ndarray, threshold: float = PEAK, top: int = 8) -> list[tuple[float, float, float]]:
    """Local maxima of a heat map as ``(x, y, value)`` in cells, strongest first, each placed to
    a fraction of a cell by a parabola through it and its neighbours (on the log of the heat)."""
    h = heat.astype(np.float32)
    local = (h >= cv2.dilate(h, np.ones((3, 3), np.uint8))) & (h > threshold)
    ys, xs = np.nonzero(local)
    order = np.argsort(-h[ys, xs])[:top]
    out = []
    lg = np.log(np.clip(h, 1e-6, 1.0))
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        dx = dy = 0.0
        if 0 < x < h.shape[1] - 1:
            den = lg[y, x - 1] - 2 * lg[y, x] + lg[y, x + 1]
            dx = 0.5 * (lg[y, x - 1] - lg[y, x + 1]) / den if den < 0 else 0.0
        if 0 < y < h.shape[0] - 1:
            den = lg[y - 1, x] - 2 * lg[y, x] + lg[y + 1, x]
            dy = 0.5 * (lg[y - 1, x] - lg[y + 1, x]) / den if den < 0 else 0.0
        out.append((x + float(np.clip(dx, -0.5, 0.5)), y + float(np.clip(dy, -0.5, 0.5)), float(h[y, x])))
    return out


def clockwise(pts: np.ndarray) -> np.ndarray:
    """Four points ordered clockwise on the screen (y down) round their centroid."""
    p = np.asarray(pts, np.float64)
    c = p.mean(axis=0)
    return p[np.argsort(np.arctan2(p[:, 1] - c[1], p[:, 0] - c[0]))]


def convex(quad: np.ndarray, min_angle: float = 20.0) -> bool:
    """Is the (clockwise) quadrilateral convex with every angle above ``min_angle`` degrees?"""
    q = np.asarray(quad, np.float64)
    for i in range(4):
        a, b, c = q[i - 1], q[i], q[(i + 1) % 4]
        u, v = a - b, c - b
        cross = (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])  # > 0: a right turn on screen
        cos = u @ v / max(1e-9, np.linalg.norm(u) * np.linalg.norm(v))
        if cross <= 0 or np.degrees(np.arccos(np.clip(cos, -1, 1))) < min_angle:
            return False
    return True


def bar_ends_of(quad: np.ndarray) -> np.ndarray:
    """Where the bar meets edges 0-1 and 3-2 of a quadrilateral taken as the field TL, TR, BR, BL
    (the projective middles of those edges)."""
    H = cv2.getPerspectiveTransform(UNIT_SQUARE.astype(np.float32), np.asarray(quad, np.float32))
    return transform(H, [[0.5, 0.0], [0.5, 1.0]])


def order_field(quad: np.ndarray, bar_ends: list) -> np.ndarray:
    """A clockwise quadrilateral turned so that edge 0-1 is a long edge (the one the bar's ends
    say, else the longer pair as seen) and, of the two long edges, the nearer the image top."""
    q = clockwise(quad)
    costs = []
    for turn in (0, 1):
        r = np.roll(q, -turn, axis=0)
        if len(bar_ends):
            want = bar_ends_of(r)
            costs.append(sum(np.linalg.norm(want - b, axis=1).min() for b in bar_ends))
        else:  # no bar seen: the longer pair of edges
            costs.append(-(np.linalg.norm(r[1] - r[0]) + np.linalg.norm(r[2] - r[3])))
    r = np.roll(q, -int(np.argmin(costs)), axis=0)
    if (r[2, 1] + r[3, 1]) < (r[0, 1] + r[1, 1]):  # the other long edge is nearer the top
        r = np.roll(r, 2, axis=0)
    return r


def complete(three: np.ndarray, bar_ends: list) -> np.ndarray | None:
    """The field (clockwise) from three of its corners and both ends of the bar (a corner under a
    hand): of the ways to name the three (the hidden one taken as BL, by symmetry), the one whose
    homography from TL, TR, BR and the bottom end sends the top end nearest the one seen, if near.

    >>> sq = np.array([[0, 0], [4, 0], [4, 2], [0, 2]], float)
    >>> complete(sq[:3], [np.array([2.0, 0]), np.array([2.0, 2])]).round(6).tolist()
    [[0.0, 0.0], [4.0, 0.0], [4.0, 2.0], [0.0, 2.0]]
    """
    if len(bar_ends) < 2:
        return None
    from itertools import permutations

    src = np.array([[0, 0], [1, 0], [1, 1], [0.5, 1]], np.float32)
    best = None
    for perm in permutations(range(3)):
        for top, bottom in ((0, 1), (1, 0)):
            dst = np.vstack([three[list(perm)], bar_ends[bottom][None]]).astype(np.float32)
            H = cv2.getPerspectiveTransform(src, dst)
            err = float(np.linalg.norm(transform(H, [[0.5, 0.0]])[0] - bar_ends[top]))
            if best is None or err < best[0]:
                best = (err, transform(H, UNIT_SQUARE))
    size = np.sqrt(abs(cv2.contourArea(best[1].astype(np.float32))))
    if best[0] > 0.05 * size:
        return None
    q = clockwise(best[1])
    return q if convex(q) else None


def trimmed(quad: np.ndarray, bar_ends: list) -> list[np.ndarray]:
    """The field ``quad`` (TL, TR, BR, BL, edge 0-1 long) with one short end moved along the
    long edges so that the bar's ends seen lie in its middle: the end at TR-BR moved, then the
    end at TL-BL. A tray across a short end continues the field's long edges, and the finder
    may take its outer corners for the field's (vid 9928: both far corners, 14 px off, 7% of
    the length); the bar, which lies in the field's middle, tells by how much the field is too
    long (or short), not at which end. [] where the two ends of the bar are not seen on the long
    edges, or lie within :data:`TRIM_AT` of the middle.

    >>> field = np.array([[0, 0], [10, 0], [10, 4], [0, 4]], float)
    >>> [q[:, 0].round(6).tolist() for q in trimmed(field, [np.array([4.5, 0]), np.array([4.5, 4])])]
    [[0.0, 9.0, 9.0, 0.0], [-1.0, 10.0, 10.0, -1.0]]
    >>> trimmed(field, [np.array([5.1, 0]), np.array([4.95, 4])])
    []
    """
    if len(bar_ends) != 2:
        return []
    H = cv2.getPerspectiveTransform(UNIT_SQUARE.astype(np.float32), np.asarray(quad, np.float32))
    u, v = transform(np.linalg.inv(H), np.asarray(bar_ends, np.float64)).T
    middle = float(u.mean())
    if sorted(np.round(v).tolist()) != [0.0, 1.0] or np.abs(v - np.round(v)).max() > 0.1 \
            or abs(middle - 0.5) <= TRIM_AT or abs(middle - 0.5) > 0.2:
        return []
    spans = ((0.0, 2 * middle), (2 * middle - 1, 1.0))
    return [transform(H, [[lo, 0], [hi, 0], [hi, 1], [lo, 1]]) for lo, hi in spans]


def _sample(heat: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """The heat map's values at (N, 2) points in cells (bilinear, 0 outside)."""
    p = np.asarray(pts, np.float32).reshape(1, -1, 2)
    return cv2.remap(heat.astype(np.float32), p[..., 0], p[..., 1], cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=0)[0]


def score(heat: np.ndarray, quad: np.ndarray) -> tuple[float, np.ndarray]:
    """How well a clockwise quadrilateral (in cells) fits the heat maps: the corner heat at its
    corners plus the bar-end heat where the bar would meet its long edges, for the better of the
    two choices of long edges; and the quadrilateral turned so that edge 0-1 is long."""
    corner = float(_sample(heat[0], quad).sum())
    best = None
    for turn in (0, 1):
        r = np.roll(quad, -turn, axis=0)
        ends = float(_sample(heat[1], bar_ends_of(r)).sum())
        if best is None or ends > best[0]:
            best = (ends, r)
    return corner + END_WEIGHT * best[0], best[1]


def ranked(heat: np.ndarray, top: int = 1) -> list[np.ndarray]:
    """The field's likeliest corners in heat-map cells from the finder's two heat maps, best
    first: at most ``top`` quadrilaterals, each scoring at least :data:`MIN_SCORE`.

    Candidates: every convex quadrilateral of four corner peaks, and every one completed from
    three of the five strongest peaks and the two bar ends (:func:`complete`), for a corner under
    a hand or a false peak on the hand. They are ranked by :func:`score` and turned by
    :func:`order_field`. Those after the first are for a caller that can check a board
    (the opening's calibration): an empty tray's outer corner may outscore the field's (vid 8709)."""
    from itertools import combinations

    found = peaks(heat[0], CANDIDATE, 7)
    ends = peaks(heat[1], CANDIDATE, 2)
    pts = np.array([p[:2] for p in found]).reshape(-1, 2)
    scored = []
    for combo in combinations(range(len(pts)), 4):
        q = clockwise(pts[list(combo)])
        if convex(q):
            scored.append(score(heat, q))
    if len(ends) == 2 and len(pts) >= 3:
        e = [np.array(p[:2]) for p in ends]
        for combo in combinations(range(min(5, len(pts))), 3):
            q = complete(pts[list(combo)], e)
            if q is not None:
                scored.append(score(heat, q))
    scored.sort(key=lambda sq: -sq[0])
    return [order_field(q, list(bar_ends_of(q))) for sc, q in scored[:top] if sc >= MIN_SCORE]


def decode(heat: np.ndarray) -> np.ndarray | None:
    """The field's corners in heat-map cells from the finder's two heat maps (the best of
    :func:`ranked`), or None."""
    best = ranked(heat)
    return best[0] if best else None


class CornerFinder:
    """The two corner networks run with onnxruntime (one thread each); call it on a frame."""

    def __init__(self, finder: Path | str = FINDER, refiner: Path | str | None = REFINER):
        import onnxruntime as ort

        opts = ort.SessionOptions()
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        self.finder = ort.InferenceSession(str(finder), opts, providers=["CPUExecutionProvider"])
        self.refiner = (ort.InferenceSession(str(refiner), opts, providers=["CPUExecutionProvider"])
                        if refiner is not None and Path(refiner).exists() else None)

    def heat(self, image: np.ndarray) -> tuple[np.ndarray, float]:
        """The finder's (2, h, w) heat maps (corners, bar ends) and the letterbox scale."""
        view, s = letterbox(image)
        x = to_input(view[None])
        logits = self.finder.run(None, {self.finder.get_inputs()[0].name: x})[0][0]
        return 1 / (1 + np.exp(-logits)), s

    def coarse(self, image: np.ndarray, top: int = 1, trims: bool = False) -> list[np.ndarray]:
        """The finder's likeliest fields in the image, best first (at most ``top``; TL, TR, BR, BL
        as :func:`order_field` turns them), or with ``trims`` their :func:`trimmed` fields; none
        too small to be a board."""
        heat, s = self.heat(image)
        h, w = image.shape[:2]
        quads = ranked(heat, top)
        if trims:
            ends = [np.array(p[:2]) for p in peaks(heat[1], CANDIDATE, 2)]
            quads = [cut for q in quads for cut in trimmed(q, ends)]
        quads = [from_view(q * STRIDE + (STRIDE - 1) / 2, s) for q in quads]
        return [q for q in quads if cv2.contourArea(q.astype(np.float32)) >= 0.005 * w * h]

    def refine(self, image: np.ndarray, corners: np.ndarray, half: float = HALF) -> np.ndarray:
        """Each corner placed by the refiner in a crop round it, ``half`` of the field's mean side
        from the corner to the crop's sides (sub-pixel)."""
        crops, Ms = zip(*(corner_crop(image, corners, k, half) for k in range(4)))
        logits = self.refiner.run(None, {self.refiner.get_inputs()[0].name: to_input(np.stack(crops))})[0]
        xy = soft_argmax(logits[:, 0])
        out = np.array([transform(np.linalg.inv(M), p)[0] for M, p in zip(Ms, xy)])
        return out if convex(out, 10.0) else corners

    def refined(self, image: np.ndarray, corners: np.ndarray) -> np.ndarray:
        """The refiner's passes (:data:`PASSES`) from the finder's corners."""
        if self.refiner is None:
            return corners
        for half in PASSES:
            corners = self.refine(image, corners, half)
        return corners

    def __call__(self, image: np.ndarray, top: int = 1, trims: bool = False) -> list[np.ndarray]:
        """The likeliest fields (at most ``top``), or with ``trims`` their :func:`trimmed`
        fields, refined, best first, none within 2 px of one before it."""
        found: list[np.ndarray] = []
        for corners in self.coarse(image, top, trims):
            corners = self.refined(image, corners)
            if all(np.abs(closest_turn(corners, q) - q).max() > 2.0 for q in found):
                found.append(corners)
        return found


def soft_argmax(logits: np.ndarray) -> np.ndarray:
    """(N, h, w) logits to (N, 2) expected positions in crop pixels (cells at stride 2)."""
    n, h, w = logits.shape
    z = logits.reshape(n, -1).astype(np.float64)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    p = p.reshape(n, h, w)
    scale = CROP / w
    xs = (np.arange(w) + 0.5) * scale
    ys = (np.arange(h) + 0.5) * scale
    return np.stack([(p.sum(axis=1) * xs).sum(axis=1), (p.sum(axis=2) * ys).sum(axis=1)], axis=1)


def to_input(batch: np.ndarray) -> np.ndarray:
    """uint8 (N, h, w, 3) BGR to float32 (N, 3, h, w) RGB in [0, 1], as the networks take."""
    return np.ascontiguousarray(batch[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


_FINDER: CornerFinder | None = None


def find_corners(image: np.ndarray) -> np.ndarray | None:
    """The field's corners (TL, TR, BR, BL, the top edge a long edge) found without help, or None
    when no board is seen or the models are not installed.

    >>> find_corners(np.zeros((360, 640, 3), np.uint8)) is None
    True
    """
    found = boards_found(image)
    return found[0] if found else None


def boards_found(image: np.ndarray, top: int = 1, trims: bool = False) -> list[np.ndarray]:
    """The ``top`` likeliest fields in the frame, as :func:`find_corners` gives the first, or
    with ``trims`` their :func:`trimmed` fields: for a caller that checks each (the watch's
    calibration on the opening)."""
    finder = _finder()
    return [] if finder is None else finder(image, top, trims)


# Corners given by hand are re-fitted (:func:`refitted`) where the refiner moves one by at least
# REFIT_MOVES of the field's diagonal (less, and both read alike), and the re-fit kept where it
# reads surer by REFIT_SURER nats (:class:`vision.recognize.Recognizer`). Chosen on the 1,000
# calibration renders (seed 7001), corners exact and a hundredth of the diagonal off.
REFIT_MOVES = 0.005
REFIT_SURER = 0.5
# On a settled board, at the calibration, the re-fit is kept unless it calibrates worse by
# REFIT_WORSE nats (:func:`vision.adapt.calibrate_by_hand`). On the first frames of the 24
# watch-suite games given corners a hundredth of the diagonal off, the fit lay nearer the true
# corners on all 24 (0.5-3.7 px against 3.5-18.6) and calibrated worse on three, by 0.12, 0.41
# and 0.60 nats; at 0.5, vid 7511 kept clicks 9 px off, read the dark head at the wrong point,
# and no game was ever seen to begin. With the clicks exact, the fit (where it moved them)
# calibrated worse by at most 0.26 nats, or by 3 (7511 again: the clicks kept either way).
REFIT_WORSE = 1.0


def refitted(image: np.ndarray, corners: np.ndarray) -> np.ndarray | None:
    """Corners given by hand (a click is 5-15 px off on a 1280x720 frame) as the corner refiner
    re-fits them (1-2 px off on renders); None where it moves none of them by :data:`REFIT_MOVES`
    of the field's diagonal, or is not installed.

    >>> refitted(np.zeros((360, 640, 3), np.uint8), np.array([[0, 0], [9, 0], [9, 7], [0, 7]], float)) is None
    True
    """
    finder = _finder()
    if finder is None or finder.refiner is None:
        return None
    corners = np.asarray(corners, np.float64).reshape(4, 2)
    moved = finder.refined(image, corners)
    diagonal = float(np.linalg.norm(corners[2] - corners[0]))
    return moved if np.abs(moved - corners).max() >= REFIT_MOVES * diagonal else None


def _finder() -> CornerFinder | None:
    global _FINDER
    if _FINDER is None and FINDER.exists():
        _FINDER = CornerFinder()
    return _FINDER
