"""The settle gate: is anything moving over the board, is a hand over it, has it settled?

It runs on every frame, so it is cheap: the frame is shrunk once (``cv2.resize``, area
averaging) and the board's quadrilateral, with a margin for dice thrown near the rails, is
warped to a small image (192x128 by default). Three numbers come from that image:

- *motion*: the share of its pixels that changed by more than ``delta`` grey levels, or more
  than ``colour_delta`` levels of one colour, since the previous frame;
- *foreign*: the share that differ by more than ``delta`` from the last *settled* image. A hand,
  a sleeve or a cup over the board covers far more of it than a moved checker or a pair of dice,
  so a large foreign share reaching in from the edge of the view (an arm comes from outside) is
  read as "hands over the board";
- *settled*: no motion for ``quiet`` consecutive frames (a time, so it does not depend on the
  frame rate) and no hand over the board. :attr:`GateReading.settled_now` is true on the one frame
  where the board becomes settled: the frame to recognise.

>>> import numpy as np
>>> gate = SettleGate(np.array([[10, 10], [110, 10], [110, 70], [10, 70]], float), fps=10)
>>> frame = np.full((80, 120, 3), 90, np.uint8)
>>> [gate(frame).settled_now for _ in range(4)]
[False, True, False, False]
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.corners import closest_turn

SIZE = (192, 128)  # the gate's image of the board: width, height
SHRINK = 2  # the frame is first shrunk by this factor
# The share of a die's square that must differ between two settled images for the die to have
# come since (:meth:`SettleGate.changed_since`): a die covers about half its square.
CHANGED_SHARE = 0.2


@dataclass(frozen=True)
class GateReading:
    """What the gate says about one frame."""

    motion: float  # share of the board image that changed since the previous frame
    foreign: float  # share that differs from the last settled image
    hands: bool  # something large (a hand) is over the board
    settled: bool  # quiet long enough and no hand
    settled_now: bool  # the first settled frame after motion: recognise this one
    ms: float = 0.0  # time this reading took

    def to_json(self) -> dict:
        return {"motion": round(self.motion, 4), "foreign": round(self.foreign, 4), "hands": self.hands,
                "settled": self.settled, "settled_now": self.settled_now}


def expand(corners: np.ndarray, margin: float) -> np.ndarray:
    """The quadrilateral grown by ``margin`` of its size round its centre."""
    c = np.asarray(corners, np.float64).reshape(4, 2)
    centre = c.mean(axis=0)
    return centre + (c - centre) * (1 + margin)


class SettleGate:
    """The gate for one camera view of the board (``corners`` TL, TR, BR, BL in frame pixels).

    ``quiet_s``: how long the board must be still to count as settled; ``delta``: grey levels a
    pixel must change by to count; ``colour_delta``: or levels of one colour, for motion (twice
    ``delta``: at 12, a video's colour noise on small, dim boards moved a quarter to three
    quarters of their still frames, vids 7801, 8401, and boards settled less often); ``still``:
    the share of changed pixels below which a frame is still (0.0004, about 10 pixels: a quarter
    of a small die, so dice still sliding to rest keep the board unsettled; at 0.0008 a blue die
    14 px across on a far board, moving 20 px a frame, settled the board twice in one rendered
    game and its throw was called as off the board);
    ``hand``: the foreign share above which a hand is over the board, when at least half of it
    touches the edge of the view (:meth:`_reaches_in`); ``hand_quiet_s``: how long such a still
    image must stay still to be taken (a hand at rest, a board moved or re-lit). The foreign
    share is measured against the last settled image, so a settle missed lets changes pile up
    (dice picked up, checkers moved) until only that wait can take the board again: at 1 s,
    longer than the pause between turns, a close view whose two dice alone are 3.5% of the image
    went 16 s unsettled through two whole turns (vid 7419). Such changes lie inside the view,
    apart from its edge, so they are no hand (counted as one, each throw in that view waited the
    0.6 s, and its call came 0.7 s after the board stilled).
    ``dim_level``: the grey level under which a pixel's motion thresholds shrink with its
    brightness, down to ``dim_floor`` of ``delta`` and ``colour_delta`` (8 and 16 levels; 0 keeps
    them whole): in a dim room (``--condition dim``, gamma 1.6) a dark die rolling or a dark
    checker carried over a dark field changed too few levels, and the board settled under them
    (``bench/settle_gate.py``: settles while something moved, vids 9998 9, 9950 10, 10013 8, 9924
    41 a game). A floor of half ``delta`` (6 levels) made a compressed video's grain in its dark
    parts move the board (vid 10000: 155 settles became 229).

    The view ends a little beyond the rails, so a die rolling further off (the dice finder looks
    a third of the field's height beyond them) moves nothing the gate sees: :meth:`look_again`
    watches such dice where they were read until the board settles again.
    """

    def __init__(self, corners, fps: float = 30.0, *, margin: float = 0.12, quiet_s: float = 0.1,
                 delta: int = 12, colour_delta: int = 24, still: float = 0.0004, hand: float = 0.03,
                 hand_quiet_s: float = 0.6, dim_level: float = 96.0, dim_floor: float = 0.67,
                 spot_moved: float = 0.03):
        self.fps = float(fps) if fps and fps > 0 else 30.0
        self.quiet = max(1, int(round(quiet_s * self.fps)))
        self.hand_quiet = max(self.quiet, int(round(hand_quiet_s * self.fps)))
        self.delta, self.colour_delta, self.still, self.hand = delta, colour_delta, still, hand
        self.dim_level, self.dim_floor, self.spot_moved = dim_level, dim_floor, spot_moved
        self.fine_levels: dict = {}  # delta -> (256,) thresholds by brightness
        self.margin = margin
        self.set_corners(corners)
        self.reset()

    def set_corners(self, corners) -> None:
        """Follow the board to a new place in the image (after re-localisation)."""
        self.corners = np.asarray(corners, np.float64).reshape(4, 2)
        self.homography = self._homography(self.corners)
        self.view = expand(self.corners, self.margin).astype(np.float32)  # in frame pixels
        self.edge = None  # (frame size, the view's edge within such a frame), made on the first frame
        self.reset()

    def _homography(self, corners) -> np.ndarray:
        quad = expand(corners, self.margin).astype(np.float32) / SHRINK
        w, h = SIZE
        dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
        return cv2.getPerspectiveTransform(quad, dst)

    def reset(self) -> None:
        self.previous: np.ndarray | None = None  # the last frame's gate image, and in grey
        self.previous_grey: np.ndarray | None = None
        self.reference: np.ndarray | None = None  # the last settled image
        self.still_frames = 0
        self.was_settled = False
        self.fine_before = False  # the last frame changed by the dim thresholds alone
        self.earlier = (None, None)  # the gate's images of the frame before the last
        self.spots: list = []  # boxes of the shrunk frame watched beyond the view (look_again)
        self.spot_images: list | None = None
        self.spots_moved = False
        self.second_look = False  # this settle ended a look again at spots that stayed still

    def image(self, frame: np.ndarray, homography: np.ndarray | None = None) -> np.ndarray:
        """The gate's small colour image of the board in ``frame`` (where ``homography`` puts it)."""
        board = cv2.warpPerspective(self.shrunk(frame), self.homography if homography is None else homography,
                                    SIZE, flags=cv2.INTER_LINEAR)
        return cv2.GaussianBlur(board, (3, 3), 0)

    @staticmethod
    def shrunk(frame: np.ndarray) -> np.ndarray:
        """The frame shrunk by :data:`SHRINK` (area averaging), as the gate looks at it."""
        h, w = frame.shape[:2]
        return cv2.resize(frame, (w // SHRINK, h // SHRINK), interpolation=cv2.INTER_AREA)

    def sees(self, point, inset: float = 0.0) -> bool:
        """Whether the frame pixel ``point`` lies in the gate's view, ``inset`` pixels or more
        inside its edge."""
        x, y = (float(c) for c in np.asarray(point, np.float64).reshape(2))
        return cv2.pointPolygonTest(self.view, (x, y), True) >= inset

    def look_again(self, spots) -> None:
        """Settle again only once the board and each of ``spots`` (frame pixels: centre x, y and
        side) stayed still for ``quiet_s``: dice read beyond the view may have been still rolling
        (vid 9993, its gate counting changes in the dark finely: light's dice rolling in from
        beyond the rail, read as a throw off the board, a false re-roll call). :attr:`second_look`
        tells the settle that ends it with the spots still throughout."""
        self.spots = []
        for x, y, side in spots:
            r = max(2, int(round(side / 2 / SHRINK)))
            cx, cy = int(round(x / SHRINK)), int(round(y / SHRINK))
            self.spots.append((max(cx - r, 0), max(cy - r, 0), cx + r + 1, cy + r + 1))
        self.spot_images, self.spots_moved = None, False
        self.still_frames, self.was_settled = 0, False

    def _spots_move(self, frame: np.ndarray) -> bool:
        """Whether anything moved in the watched spots since the last frame."""
        small = cv2.cvtColor(self.shrunk(frame), cv2.COLOR_BGR2GRAY)
        images = [small[y0:y1, x0:x1] for x0, y0, x1, y1 in self.spots]
        before, self.spot_images = self.spot_images, images
        if before is None:
            return False
        return any(a.size and a.shape == b.shape and self._changed(a, b, self.delta)[1].mean() > self.spot_moved
                   for a, b in zip(images, before))

    @staticmethod
    def grey(image: np.ndarray) -> np.ndarray:
        """A gate image in grey, as hands and the board last settled are compared."""
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

    def _reaches_in(self, changed: np.ndarray, frame_shape: tuple) -> float:
        """The share of the view in changed regions (``changed``, 0/1) that touch its edge, where
        the frame ends (a close view warps part of its margin from outside the frame) or the view
        does: an arm reaching over the board, not dice or checkers moved on it."""
        if self.edge is None or self.edge[0] != frame_shape[:2]:
            inside = np.full((frame_shape[0] // SHRINK, frame_shape[1] // SHRINK), 255, np.uint8)
            inside = cv2.warpPerspective(inside, self.homography, SIZE, flags=cv2.INTER_NEAREST)
            rim = (inside > 0) & ~(cv2.erode(inside, np.ones((5, 5), np.uint8), borderValue=0) > 0)
            self.edge = (frame_shape[:2], rim)
        edge = self.edge[1]
        _, regions = cv2.connectedComponents(cv2.dilate(changed, np.ones((3, 3), np.uint8)))
        touching = np.unique(regions[edge & (regions > 0)])
        return float(np.isin(regions, touching).mean()) if len(touching) else 0.0

    def _changed(self, a: np.ndarray, b: np.ndarray, delta: float) -> tuple[np.ndarray, np.ndarray]:
        """Where ``a`` and ``b`` (grey, or colour: in any channel) differ by more than ``delta``
        levels; and where they do so or, both darker than ``dim_level``, differ by as large a
        share of their brightness (at least ``dim_floor`` of ``delta``)."""
        diff = cv2.absdiff(a, b)
        plain = diff > delta
        fine = plain if not self.dim_level else diff > cv2.LUT(cv2.max(a, b), self._fine_levels(delta))
        if plain.ndim == 3:
            plain, fine = plain.any(axis=2), fine.any(axis=2)
        return plain, fine

    def _fine_levels(self, delta: float) -> np.ndarray:
        """The fine threshold for each brightness 0-255, whole levels (a table: the gate runs on
        every frame)."""
        if delta not in self.fine_levels:
            grey = np.arange(256, dtype=np.float64)
            levels = np.clip(grey * (delta / self.dim_level), delta * self.dim_floor, delta)
            self.fine_levels[delta] = np.floor(levels).astype(np.uint8)
        return self.fine_levels[delta]

    def changed_since(self, before: np.ndarray, point, side: float) -> bool:
        """Whether the last settled image differs from ``before`` (an earlier settled image) in
        the square of ``side`` frame pixels about frame pixel ``point``, by :attr:`delta` or, in
        the dark, as finely as motion is seen there, on at least :data:`CHANGED_SHARE` of it: a
        die found there came since. A square beyond the gate's image cannot tell, so counts as changed."""
        if self.reference is None:
            return True
        x, y = (float(c) for c in np.asarray(point, np.float64).reshape(2))
        h = side / 2
        square = np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]]) / SHRINK
        box = cv2.perspectiveTransform(square.reshape(-1, 1, 2), self.homography).reshape(-1, 2)
        (x0, y0), (x1, y1) = np.floor(box.min(axis=0)).astype(int), np.ceil(box.max(axis=0)).astype(int)
        if x0 < 0 or y0 < 0 or x1 > SIZE[0] or y1 > SIZE[1] or x1 <= x0 or y1 <= y0:
            return True
        _, fine = self._changed(self.reference[y0:y1, x0:x1], before[y0:y1, x0:x1], self.delta)
        return float(fine.mean()) >= CHANGED_SHARE

    def foreign_at(self, frame: np.ndarray, corners) -> float:
        """The share of the board's image at ``corners`` in ``frame`` that differs from the last
        settled image (1.0 when there is none): is the board as last seen there? Both images are
        first brought to the same mean and contrast, so a lamp switched on changes nothing."""
        if self.reference is None:
            return 1.0
        # in the gate's own corner order, whatever order the caller keeps them in
        corners = closest_turn(np.asarray(corners, np.float64).reshape(4, 2), self.corners)
        grey = self.grey(self.image(frame, self._homography(corners))).astype(np.float32)
        ref = self.reference.astype(np.float32)
        grey = (grey - grey.mean()) * (ref.std() / max(float(grey.std()), 1.0)) + ref.mean()
        return float((np.abs(grey - ref) > self.delta).mean())

    def __call__(self, frame: np.ndarray) -> GateReading:
        import time

        t0 = time.perf_counter()
        colour = self.image(frame)
        grey = self.grey(colour)
        if self.previous is None:
            motion = 1.0
        else:
            # in grey, or in any colour by ``colour_delta``: red dice rolling over a wood field of
            # their own grey changed no grey level by ``delta``, and the board settled under them
            # (vid 9924: a throw read while rolling, read again at rest, called as thrown again)
            plain, fine = self._changed(grey, self.previous_grey, self.delta)
            plain_colour, fine_colour = self._changed(colour, self.previous, self.colour_delta)
            motion = float((plain | plain_colour).mean())
            # A change only the dim thresholds see counts from its second frame running, where the
            # picture did not go back to what it was two frames before: a die rolling in the dark,
            # not a compressed video's grain in its dark parts, a frame's spike or flicker (vid
            # 9933 counting every such frame: settles 173 -> 227, its record 37 -> 32 of 40 right)
            fine_motion = float((fine | fine_colour).mean())
            if fine_motion > self.still and self.fine_before:
                _, net = self._changed(grey, self.earlier[1], self.delta)
                _, net_colour = self._changed(colour, self.earlier[0], self.colour_delta)
                motion = max(motion, min(fine_motion, float((net | net_colour).mean())))
            self.fine_before = fine_motion > self.still
        self.earlier = (self.previous, self.previous_grey)
        self.previous, self.previous_grey = colour, grey
        foreign, hands = 0.0, False
        if self.reference is not None:
            changed = (cv2.absdiff(grey, self.reference) > self.delta).astype(np.uint8)
            foreign = float(changed.mean())
            hands = foreign > self.hand and self._reaches_in(changed, frame.shape) > self.hand / 2
        spots_move = bool(self.spots) and self._spots_move(frame)
        self.spots_moved |= spots_move
        if motion <= self.still and not spots_move:
            self.still_frames += 1
        else:
            self.still_frames = 0
        # A still image that differs a lot from the last settled one, from the edge in, is a hand
        # at rest or a board moved or re-lit: wait for it to stay still much longer before taking it.
        needed = self.hand_quiet if hands else self.quiet
        settled = self.still_frames >= needed
        settled_now = settled and not self.was_settled
        if settled_now:
            self.second_look = bool(self.spots) and not self.spots_moved
            self.spots, self.spot_images = [], None
        if settled:
            self.reference = grey
            hands = False
        self.was_settled = settled
        return GateReading(motion, foreign, hands, settled, settled_now, (time.perf_counter() - t0) * 1000)
