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
    """

    def __init__(self, corners, fps: float = 30.0, *, margin: float = 0.12, quiet_s: float = 0.1,
                 delta: int = 12, colour_delta: int = 24, still: float = 0.0004, hand: float = 0.03,
                 hand_quiet_s: float = 0.6):
        self.fps = float(fps) if fps and fps > 0 else 30.0
        self.quiet = max(1, int(round(quiet_s * self.fps)))
        self.hand_quiet = max(self.quiet, int(round(hand_quiet_s * self.fps)))
        self.delta, self.colour_delta, self.still, self.hand = delta, colour_delta, still, hand
        self.margin = margin
        self.set_corners(corners)
        self.reset()

    def set_corners(self, corners) -> None:
        """Follow the board to a new place in the image (after re-localisation)."""
        self.corners = np.asarray(corners, np.float64).reshape(4, 2)
        self.homography = self._homography(self.corners)
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

    def image(self, frame: np.ndarray, homography: np.ndarray | None = None) -> np.ndarray:
        """The gate's small colour image of the board in ``frame`` (where ``homography`` puts it)."""
        h, w = frame.shape[:2]
        small = cv2.resize(frame, (w // SHRINK, h // SHRINK), interpolation=cv2.INTER_AREA)
        board = cv2.warpPerspective(small, self.homography if homography is None else homography, SIZE,
                                    flags=cv2.INTER_LINEAR)
        return cv2.GaussianBlur(board, (3, 3), 0)

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
            moved = cv2.absdiff(grey, self.previous_grey) > self.delta
            moved |= cv2.absdiff(colour, self.previous).max(axis=2) > self.colour_delta
            motion = float(moved.mean())
        self.previous, self.previous_grey = colour, grey
        foreign, hands = 0.0, False
        if self.reference is not None:
            changed = (cv2.absdiff(grey, self.reference) > self.delta).astype(np.uint8)
            foreign = float(changed.mean())
            hands = foreign > self.hand and self._reaches_in(changed, frame.shape) > self.hand / 2
        if motion <= self.still:
            self.still_frames += 1
        else:
            self.still_frames = 0
        # A still image that differs a lot from the last settled one, from the edge in, is a hand
        # at rest or a board moved or re-lit: wait for it to stay still much longer before taking it.
        needed = self.hand_quiet if hands else self.quiet
        settled = self.still_frames >= needed
        settled_now = settled and not self.was_settled
        if settled:
            self.reference = grey
            hands = False
        self.was_settled = settled
        return GateReading(motion, foreign, hands, settled, settled_now, (time.perf_counter() - t0) * 1000)
