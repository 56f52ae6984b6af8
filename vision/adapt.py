"""Per-board calibration from the opening position: orientation, colours, bar width, checker colours.

At the start of a game the position is known (each variant's starting position, RULES 1), so
one frame of it is enough to learn, for this board and camera:

- the corner order, i.e. which long edge carries which row and which side each colour plays
  (:mod:`vision.orientation`); light is the side whose checkers the network sees as the lighter;
- the bar's share of the field, searched round the edge estimate for the value under which the
  known position is likeliest;
- this board's two checker colours (:class:`CheckerColours`, in CIELAB). On a board whose
  colours the network cannot tell apart (two pale sides, white and ivory), the colour of every
  stack is read from them instead, and light is the lighter, less coloured side;
- a verdict: the calibration is *accepted* only if at most :data:`TOLERANCE` locations' best
  readings differ from the known position (and, where the colours are read from the learned
  ones, those tell every opening stack's side surely); otherwise it is reported as rejected with the number
  of locations that disagree, and the caller must not use it silently.

A camera that joins a game in progress sees no opening. Then the board is read as it stands
(:func:`calibrate` falls back on :func:`_in_play`): the corner order under which the stacks read
surest, turned half round or not as the position prior says a game is likelier to reach
(:mod:`vision.position_prior`), accepted only when the prior decides (:data:`DECIDES` nats), the
reading is a position a game can have, and at most :data:`TOLERANCE` locations read unsurely. Such
a calibration is marked ``in_play``: the caller keeps looking for the opening until a game is
followed, and the game it joins is checked by its plays (nothing called before a clearly legal one).

>>> cal = Calibration(np.zeros((4, 2)), 0.09, True, -1.0, 26, field_px=480.0)
>>> cal.to_json()["accepted"], cal.warning
(True, None)
>>> Calibration(np.zeros((4, 2)), 0.09, True, -1.0, 26, field_px=165.0).warning[:44]
"the board's playing area is 165 px wide in t"
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.variant import VARIANTS
from vision import checkers
from vision.layout import Physical, recognizer_form, start_board
from vision.orientation import (best_reading_matches, candidate_orders, expected_classes, log_likelihood,
                                pinned_reading, reading_position)
from vision.position_prior import DECIDES, load_default as position_priors
from vision.rectify import Field, estimate_bar

# Locations whose best reading may differ from the opening before the calibration is rejected.
# The orientation and colours come from the likelihood of the whole position, so one misread
# stack does not turn the board; a wrong board or a game in progress disagrees in many places.
TOLERANCE = 2
# The network tells a board's colours apart when it gives every opening stack its own colour
# at least this surely; below it the stacks' colours are read from the learned colours.
COLOURS_TOLD = 0.9
# A still frame's colours (no opening to learn from, :func:`untold_colours`): at least this many
# stacks seen surely, two sides this many spreads apart (white and ivory checkers: 5.7), and
# the network's light share of the two sides this close before the colours read the stacks.
# Chosen on the 1,000 calibration renders (seed 7001): without a hand, per-point errors
# 70 -> 62 and whole boards 97.3 -> 97.5% (the test renders: 16 -> 2, 98.1 -> 99.3%); with a
# hand 280 -> 275. Six spreads apart gave the same but missed white and ivory.
FRAME_STACKS = 4
FRAME_APART = 5.0
FRAME_TOLD = 0.5
# The counts alone (colours aside) tell an order from its twin turned half round when the twin
# is this many nats less likely: backgammon's opening turned round is its mirror image (100
# boards: the twin 83-100 nats less likely, the order the counts fit always right); long nardy's
# two heads look the same either way (0 nats), and there the colours decide. Before, pale pink
# and yellow checkers whose yellow looked lighter turned a backgammon board round (vid 7303:
# calibration rejected, nothing recorded).
TWIN_ALIKE = 10.0
# A field narrower than this in the image has dice too small to read surely: on renders without
# a hand (eval-vision, 1,400 frames), throws were read right 43-69% of the time on fields under
# 200 px, 71-88% at 200-250 px, 89-92% at 250-300 px and 92-96% wider.
SMALL_FIELD_PX = 250
# A location read in play is sure when its best reading has this probability (a board joined in
# progress has no known position to check the reading against).
SURE_IN_PLAY = 0.9


class CheckerColours:
    """This board's light and dark checkers in CIELAB, learned from stacks of known colour.

    A stack's colour is measured where its first checker lies, against the rail (the top of
    its crop, :func:`vision.checkers.crops`): the median L, a, b there. Each side is a normal
    law round its mean with a spread shared by both, never under :data:`SPREAD_FLOOR` (light
    changes over a session and over the board).

    >>> c = CheckerColours(np.array([[190.0, 125, 125], [190, 121, 136]]), np.array([6.0, 2, 2]))
    >>> lab = np.array([[189.0, 124, 126], [191, 121, 135], [60, 128, 128]])
    >>> np.round(c.light_probability(lab), 3).tolist()  # white, ivory, and a die on the stack
    [1.0, 0.0, 0.5]
    """

    SPREAD_FLOOR = np.array([6.0, 2.0, 2.0])
    OUTLIER = 5.0  # standard deviations: a patch this far from both sides is something else

    def __init__(self, mean: np.ndarray, spread: np.ndarray):
        self.mean = np.asarray(mean, np.float64).reshape(2, 3)  # light, dark
        self.spread = np.maximum(np.asarray(spread, np.float64).reshape(3), self.SPREAD_FLOOR)

    @staticmethod
    def measure(crops: np.ndarray) -> np.ndarray:
        """(N, 3) median CIELAB (OpenCV's 8-bit scale) of the first checker of each crop."""
        w, h = checkers.CROP
        patch = np.ascontiguousarray(crops[:, int(h * 0.01):int(h * 0.08), w // 4: 3 * w // 4])
        lab = cv2.cvtColor(patch.reshape(-1, patch.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(patch.shape)
        return np.median(lab.reshape(len(crops), -1, 3), axis=1).astype(np.float64)

    @classmethod
    def learn(cls, crops: np.ndarray, expected: np.ndarray) -> "CheckerColours":
        """From the crops of a known position (``expected`` class per location)."""
        lab = cls.measure(crops)
        return cls.of_sides(*(lab[(expected >= lo) & (expected < hi)] for lo, hi in ((1, 16), (16, 31))))

    @classmethod
    def of_sides(cls, light: np.ndarray, dark: np.ndarray) -> "CheckerColours":
        """From the measured colours of each side's stacks: their means and pooled spread."""
        mean = np.array([light.mean(axis=0), dark.mean(axis=0)])
        resid = np.vstack([light - mean[0], dark - mean[1]])
        return cls(mean, np.sqrt((resid ** 2).sum(axis=0) / max(1, len(resid) - 2)))

    @classmethod
    def split(cls, crops: np.ndarray) -> "CheckerColours | None":
        """The two colours of a frame's stacks with no position known: the stacks' measured
        colours split in two (2-means in CIELAB over :data:`SPREAD_FLOOR`, started across
        their widest spread), light the lighter side (:meth:`lightness`); None where fewer
        than :data:`FRAME_STACKS` stacks are given or the sides lie under :data:`FRAME_APART`
        spreads apart (one colour, or colours too alike to trust)."""
        if len(crops) < FRAME_STACKS:
            return None
        lab = cls.measure(crops)
        z = lab / cls.SPREAD_FLOOR
        axis = np.linalg.svd(z - z.mean(axis=0), full_matrices=False)[2][0]
        first = (z - z.mean(axis=0)) @ axis > 0  # which stacks lie on the first side
        for _ in range(20):
            if first.all() or not first.any():
                return None
            mean = np.array([z[first].mean(axis=0), z[~first].mean(axis=0)])
            nearer = ((z - mean[0]) ** 2).sum(axis=1) < ((z - mean[1]) ** 2).sum(axis=1)
            if (nearer == first).all():
                break
            first = nearer
        colours = cls.of_sides(lab[first], lab[~first])
        if np.sqrt((((colours.mean[0] - colours.mean[1]) / colours.spread) ** 2).sum()) < FRAME_APART:
            return None
        lighter_first = colours.lightness()[0] >= colours.lightness()[1]
        return colours if lighter_first else cls(colours.mean[::-1], colours.spread)

    def light_probability(self, lab: np.ndarray) -> np.ndarray:
        """(N,) probability that each measured stack is light (0.5 for one like neither side)."""
        d2 = (((lab[:, None, :] - self.mean[None]) / self.spread) ** 2).sum(axis=2)
        like = np.exp(-0.5 * d2) + np.exp(-0.5 * self.OUTLIER ** 2)
        return like[:, 0] / like.sum(axis=1)

    def separates(self, crops: np.ndarray, expected: np.ndarray, sure: float = 0.9) -> bool:
        """Whether these colours put every stack of a known position on its own side surely
        (the colours of a frame that is not the opening, learned as if it were, do not)."""
        stacks = (expected[:24] > 0).nonzero()[0]
        light = self.light_probability(self.measure(crops[stacks]))
        own = np.where(expected[stacks] >= 16, 1 - light, light)
        return bool(own.min() >= sure)

    def lightness(self) -> np.ndarray:
        """(2,) how light each side looks: L less its chroma (white beats ivory beats tan)."""
        return self.mean[:, 0] - np.hypot(self.mean[:, 1] - 128, self.mean[:, 2] - 128)

    def apply(self, probs: np.ndarray, crops: np.ndarray) -> np.ndarray:
        """The (26, 31) location probabilities with every point's colour read from this board's
        colours: a count keeps its probability, shared between the sides as the colours say
        (the bar's halves hold one colour each and are left as they are)."""
        out = probs.copy()
        light = self.light_probability(self.measure(crops[:24]))[:, None]
        count = probs[:24, 1:16] + probs[:24, 16:31]
        out[:24, 1:16], out[:24, 16:31] = count * light, count * (1 - light)
        return out

    def to_json(self) -> dict:
        return {"lab": {"light": np.round(self.mean[0], 1).tolist(), "dark": np.round(self.mean[1], 1).tolist()},
                "spread": np.round(self.spread, 2).tolist()}

    @classmethod
    def from_json(cls, data: dict) -> "CheckerColours":
        return cls([data["lab"]["light"], data["lab"]["dark"]], data["spread"])


@dataclass
class Calibration:
    """What the opening frame taught about this board."""

    corners: np.ndarray  # the field's corners in the order TL, TR, BR, BL
    bar: float  # the bar's share of the field's width
    accepted: bool
    log_likelihood: float
    matches: int  # locations (of 26) whose best reading is the known one
    colours: CheckerColours | None = None  # this board's checker colours
    colours_told: bool = True  # the network tells the colours apart; else they come from ``colours``
    field_px: float = 0.0  # the field's width in the image
    in_play: bool = False  # learned from a game in progress, not from the opening
    turn_evidence: float | None = None  # in play: nats for the turn taken over its half-turn

    @property
    def warning(self) -> str | None:
        """What the user should change before play, or None."""
        if self.field_px and self.field_px < SMALL_FIELD_PX:
            return (f"the board's playing area is {self.field_px:.0f} px wide in the image: dice that small "
                    f"are misread often (fewer throws seen, plays left unjudged); move the camera closer or "
                    f"raise its resolution to make it at least {SMALL_FIELD_PX} px")
        return None

    def colour_reader(self) -> CheckerColours | None:
        """The colours every later frame's stacks are read with, or None for the network's own
        (also when the calibration was rejected: colours learned from a frame that was not
        the opening are not this board's)."""
        return None if self.colours_told or not self.accepted else self.colours

    def to_json(self) -> dict:
        return {"corners": np.round(self.corners, 2).tolist(), "bar_share": round(self.bar, 4),
                "accepted": self.accepted, "matches": self.matches, "log_likelihood": round(self.log_likelihood, 3),
                "checker_colours": None if self.colours is None else self.colours.to_json(),
                "colours_told_by_network": self.colours_told, "field_px": round(self.field_px, 1),
                "from": "game in progress" if self.in_play else "opening",
                "turn_evidence": None if self.turn_evidence is None else round(self.turn_evidence, 1),
                "warning": self.warning}


def opening_form(variant: str) -> dict:
    """The starting position as the recognizer reports it (the same whoever moves first)."""
    return recognizer_form(Physical.from_board(start_board(variant), "light"), [], False, None)


def colourless(probs: np.ndarray, expected: np.ndarray) -> float:
    """log P(the expected count at every location), whatever the colours."""
    count = probs[:, 1:16] + probs[:, 16:31]
    n = np.where(expected == 0, 0, (expected - 1) % 15 + 1)
    p = np.where(n == 0, probs[:, 0], count[np.arange(len(n)), np.maximum(n, 1) - 1])
    return float(np.log(np.maximum(p, 1e-9)).sum())


def colours_told(probs: np.ndarray, expected: np.ndarray) -> bool:
    """Whether the network gives every stack of the known position its own colour surely."""
    light, dark = probs[:, 1:16].sum(axis=1), probs[:, 16:31].sum(axis=1)
    own = np.where(expected >= 16, dark, light) / np.maximum(light + dark, 1e-12)
    return bool(own[(expected > 0)[:24].nonzero()[0]].min() >= COLOURS_TOLD)


def untold_colours(probs: np.ndarray, crops: np.ndarray) -> CheckerColours | None:
    """A still frame's two checker colours when the network does not tell them apart, else None.

    With no opening to learn from, the stacks the network surely sees are split by colour
    (:meth:`CheckerColours.split`); the network tells the colours apart when the two sides'
    mean light share (its light probability over its checker probability) differs by
    :data:`FRAME_TOLD` or more. On two pale colours it reads both sides alike (cream and white
    all "light"), and the split colours read them instead, light the lighter (as a calibrated
    board's are, :func:`calibrate`).

    >>> light, dark = np.full((144, 24, 3), (215, 225, 240), np.uint8), np.full((144, 24, 3), (180, 195, 235), np.uint8)
    >>> crops = np.stack([light] * 3 + [dark] * 3 + [np.zeros_like(light)] * 20)
    >>> probs = np.zeros((26, 31)); probs[:, 0] = 1; probs[:6, 0] = 0; probs[:6, 2] = 1  # all six "light 2"
    >>> cc = untold_colours(probs, crops)
    >>> [checkers.CLASSES[k] for k in cc.apply(probs, crops)[:6].argmax(axis=1)]
    [('light', 2), ('light', 2), ('light', 2), ('dark', 2), ('dark', 2), ('dark', 2)]
    >>> probs[3:6, 2], probs[3:6, 17] = 0, 1  # the network tells them: left as it reads them
    >>> untold_colours(probs, crops) is None
    True
    """
    checkers_p = 1 - probs[:24, 0]
    stacks = np.flatnonzero(checkers_p >= COLOURS_TOLD)
    colours = CheckerColours.split(crops[stacks])
    if colours is None:
        return None
    lighter = colours.light_probability(colours.measure(crops[stacks])) >= 0.5
    share = probs[stacks, 1:16].sum(axis=1) / checkers_p[stacks]
    if lighter.all() or not lighter.any() or abs(share[lighter].mean() - share[~lighter].mean()) >= FRAME_TOLD:
        return None
    return colours


def calibrate(image: np.ndarray, corners, variant: str, model: checkers.CheckerModel,
              in_play: bool = True) -> Calibration:
    """Calibrate from a frame of ``variant``'s starting position seen with the field ``corners``
    or, with ``in_play``, where no opening is seen, from a game in progress (:func:`_in_play`).

    The turn and bar are those under which the stacks' counts are likeliest. Long nardy's
    opening looks the same turned half round with the colours exchanged, so between that turn
    and its twin light is where the network sees the lighter side start or, when the network
    cannot tell the colours apart, where the lighter of the two learned colours starts
    (backgammon's counts tell the turn, :data:`TWIN_ALIKE`)."""
    expected = expected_classes(opening_form(variant))

    def look(order, bar):
        crops = checkers.crops(image, Field(order, bar))
        return _Look(order, bar, crops, model(crops))

    looks = []
    for order in candidate_orders(np.asarray(corners, np.float64)):
        b0 = estimate_bar(image, order)
        looks += [look(order, b) for b in sorted({round(b, 4) for b in np.clip(b0 + np.array([-0.01, 0.0, 0.01]),
                                                                                0.04, 0.16)})]
    seen = max(looks, key=lambda s: colourless(s.probs, expected))
    twin = look(np.roll(seen.order, 2, axis=0), seen.bar)
    colours = CheckerColours.learn(seen.crops, expected)
    told = colours_told(seen.probs, expected) or colours_told(twin.probs, expected)
    if colourless(twin.probs, expected) < colourless(seen.probs, expected) - TWIN_ALIKE:
        lighter_twin = False  # the counts tell the turn: backgammon's opening turned round is its mirror
    elif told:
        lighter_twin = log_likelihood(twin.probs, expected) > log_likelihood(seen.probs, expected)
    else:
        lighter_twin = colours.lightness()[1] > colours.lightness()[0]
    if lighter_twin:
        seen, colours = twin, CheckerColours.learn(twin.crops, expected)
    probs = seen.probs if told else colours.apply(seen.probs, seen.crops)
    matches = best_reading_matches(probs, expected)
    accepted = matches >= len(expected) - TOLERANCE and (told or colours.separates(seen.crops, expected))
    opening = Calibration(seen.order, float(seen.bar), accepted, log_likelihood(probs, expected), matches, colours,
                          told, Field(seen.order, seen.bar).pixels_per_u())
    if accepted or not in_play:
        return opening
    return _in_play(looks, variant, look) or opening


def calibrate_by_hand(image: np.ndarray, corners, variant: str, model: checkers.CheckerModel,
                      in_play: bool = True) -> Calibration:
    """:func:`calibrate` with corners given by hand: the corner refiner's fit of them
    (:func:`vision.corners.refitted`) is kept unless it calibrates worse by
    :data:`~vision.corners.REFIT_WORSE` nats; but where one of the two reads the opening and
    the other a game in progress, the opening's is kept. The board is settled when a game
    calibrates, so no hand over a corner misleads the refiner. Measured on ten rendered games
    given corners a hundredth of the field's diagonal off (vids 8301-8310): 287 of 308 turns
    right with the clicks as given (8303 recorded nothing, 8306 lost the board at its 22nd turn,
    8308's foul went uncalled), 339 of 339 with the fit (kept only where it read surer, as for a
    still: 318 of 339)."""
    from vision.corners import REFIT_WORSE, refitted

    cal = calibrate(image, corners, variant, model, in_play)
    moved = refitted(image, corners)
    if moved is None:
        return cal
    other = calibrate(image, moved, variant, model, in_play)
    if not other.accepted:
        return cal
    if not cal.accepted:
        return other
    if cal.in_play != other.in_play:
        # A board read as the opening is known, one read in play only guessed: their surety is
        # not compared (vid 8707, corners a hundredth off: a fit 44 px off read in play surer).
        return cal if other.in_play else other
    return other if other.log_likelihood >= cal.log_likelihood - REFIT_WORSE else cal


def _in_play(looks: list, variant: str, look) -> Calibration | None:
    """The calibration of a board in play (no opening in view), or None where it cannot be told:
    the order under which the stacks read surest and its half-turn, the one the position prior
    finds likelier by at least :data:`DECIDES` nats; colours as the network tells them or, where
    it cannot, as the stacks' split colours (:func:`untold_colours`). Accepted where all but
    :data:`TOLERANCE` locations are read at :data:`SURE_IN_PLAY` or surer, or where the fifteen
    checkers a side pin the reading down that surely (:func:`vision.orientation.pinned_reading`:
    vid 7705 joined at 40%, its heads of twelve read 0.6-0.9 at 252 px, calibrated 140 s late)."""

    def sure(probs):  # how surely every location is read, whatever its colour
        count = np.concatenate([probs[:, :1], probs[:, 1:16] + probs[:, 16:31]], axis=1)
        return float(np.log(np.maximum(count.max(axis=1), 1e-9)).sum())

    def read(seen):  # the split colours (None: the network's), the probabilities, the reading, and if it is sure
        colours = untold_colours(seen.probs, seen.crops)
        probs = seen.probs if colours is None else colours.apply(seen.probs, seen.crops)
        classes = probs.argmax(axis=1)
        if (probs.max(axis=1) >= SURE_IN_PLAY).sum() >= len(classes) - TOLERANCE:
            return colours, probs, classes, True
        pinned = pinned_reading(np.log(np.maximum(probs, 1e-12)), "light", VARIANTS[variant], SURE_IN_PLAY)
        return colours, probs, classes if pinned is None else pinned[0], pinned is not None

    seen = max(looks, key=lambda s: sure(s.probs))
    colours, probs, classes, sure_enough = read(seen)
    position = reading_position(classes, "light", VARIANTS[variant])
    # A long nardy checker misread gone (Position.problem) still leaves the stacks that tell the
    # board's turn: waiting for a board a game can have calibrated vid 7504, joined at 40%, three
    # turns later, with nothing gained.
    if position is None or position.shared_points() or position.game_result():
        return None
    evidence = float(position_priors()[variant].turn_evidence(position.board))
    if abs(evidence) < DECIDES:
        return None
    if evidence < 0:  # the half-turn is the likelier board: its stacks, read again
        seen = look(np.roll(seen.order, 2, axis=0), seen.bar)
        colours, probs, classes, sure_enough = read(seen)
    sure_reads = int((probs.max(axis=1) >= SURE_IN_PLAY).sum())
    accepted = sure_enough and reading_position(classes, "light", VARIANTS[variant]) is not None
    learned = colours if colours is not None else CheckerColours.learn(seen.crops, classes)
    return Calibration(seen.order, float(seen.bar), accepted, float(np.log(probs.max(axis=1)).sum()), sure_reads,
                       learned, colours is None, Field(seen.order, seen.bar).pixels_per_u(), in_play=True,
                       turn_evidence=abs(evidence))


@dataclass
class _Look:
    """The field under one corner order and bar share, and the network's reading of it."""

    order: np.ndarray
    bar: float
    crops: np.ndarray
    probs: np.ndarray
