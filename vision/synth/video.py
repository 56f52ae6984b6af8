"""Whole games as video: scene events animated with a moving hand, with truth for every frame.

A game is a list of *scene events*, each a physical action at the board: set up a position,
throw the dice, move one checker (a hit blot then goes to the bar, a checker borne off goes to
the tray), pick the dice up, turn the cube and offer it, take it, put it back. Events are
rendered as told, even when the play is illegal, so the referee can be tested on irregularities.

:func:`game_events` turns plays (dice and steps in a side's own numbering, 25 the bar, 0 off)
into events; it is the hook for the transcript parser and the engine.

>>> events = game_events("backgammon", [Turn("light", (3, 1), [(8, 5), (6, 5)])])
>>> [type(e).__name__ for e in events]
['SetUp', 'Throw', 'Move', 'Move', 'PickUpDice']
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from engine import VARIANTS
from vision.layout import COLOURS, Physical, other, point_slot, start_board
from vision.synth.dice import die, place_cube, throw
from vision.synth.geometry import D, Checker
from vision.synth.hands import SKINS, SLEEVES, Hand
from vision.synth.render import Stage
from vision.synth.scene import Content
from vision.synth.styles import rgb

BAR, OFF = 25, 0


@dataclass
class SetUp:
    phys: Physical
    mover: str


@dataclass
class Throw:
    colour: str
    values: tuple
    invalid: str | None = None


@dataclass
class Move:
    colour: str
    src: int  # the colour's own point number; 25 the bar
    dst: int  # 0 is off


@dataclass
class TakeBack:
    """``colour`` takes back its step ``src`` -> ``dst``: the checker goes back to ``src``, and a
    blot it hit on ``dst`` comes back from the bar."""

    colour: str
    src: int
    dst: int


@dataclass
class PickUpDice:
    colour: str


@dataclass
class Double:
    colour: str  # the doubler: turns the cube up and offers it


@dataclass
class Take:
    colour: str  # the taker: the cube comes to its side


@dataclass
class CubeBack:
    colour: str  # the doubler takes back a double the referee called: the cube goes back as it lay


@dataclass
class Turn:
    """One turn of a game: a throw and its play, or a cube action ("double", "take", "drop")."""

    colour: str
    dice: tuple = ()
    steps: list = field(default_factory=list)
    cube: str | None = None


def game_events(variant: str, turns: list[Turn], start: Physical | None = None, rerolls: dict | None = None,
                put_right: dict | None = None, doubles_after_throw: set | None = None) -> list:
    """The scene events of a game from its turns (light moves first unless the turns say otherwise).

    ``rerolls`` maps a turn's index to a throw that does not count (RULES 2.3) made before its
    real one: (one of :data:`INVALID_KINDS`, the two values shown), picked up and thrown again.
    ``put_right`` maps a turn's index to the steps of the legal play its illegal play is put
    right to once the dice are picked up (RULES 7.2): the steps are taken back, the last first
    (a blot hit coming back from the bar), and the legal play is made.
    ``doubles_after_throw`` holds turns whose player, the throw at rest, turns the cube and
    offers it (RULES 5.2: a double comes before the throw), then, the double called, puts the
    cube back as it lay and plays.

    >>> fixed = game_events("backgammon", [Turn("light", (3, 1), [(8, 5), (6, 4)])], put_right={0: [(8, 5), (6, 5)]})
    >>> [(type(e).__name__, e.src, e.dst) for e in fixed if isinstance(e, (Move, TakeBack))]
    [('Move', 8, 5), ('Move', 6, 4), ('TakeBack', 6, 4), ('TakeBack', 8, 5), ('Move', 8, 5), ('Move', 6, 5)]
    >>> late = game_events("backgammon", [Turn("light", (3, 1), [(8, 5), (6, 5)])], doubles_after_throw={0})
    >>> [type(e).__name__ for e in late]
    ['SetUp', 'Throw', 'Double', 'CubeBack', 'Move', 'Move', 'PickUpDice']
    """
    first = turns[0].colour if turns else "light"
    events: list = [SetUp(start or Physical.from_board(start_board(variant), first), first)]
    for i, turn in enumerate(turns):
        if turn.cube == "double":
            events.append(Double(turn.colour))
        elif turn.cube == "take":
            events.append(Take(turn.colour))
        elif turn.dice:
            if rerolls and i in rerolls:
                kind, values = rerolls[i]
                events += [Throw(turn.colour, tuple(values), kind), PickUpDice(turn.colour)]
            events.append(Throw(turn.colour, tuple(turn.dice)))
            if doubles_after_throw and i in doubles_after_throw:
                events += [Double(turn.colour), CubeBack(turn.colour)]
            events += [Move(turn.colour, a, b) for a, b in turn.steps]
            events.append(PickUpDice(turn.colour))
            if put_right and i in put_right:
                events += [TakeBack(turn.colour, a, b) for a, b in reversed(turn.steps)]
                events += [Move(turn.colour, a, b) for a, b in put_right[i]]
    return events


def ease(t: float) -> float:
    return t * t * (3 - 2 * t)


class Animator:
    """Plays scene events on a stage, yielding one (image, truth) per frame."""

    def __init__(self, stage: Stage, rng: np.random.Generator, fps: int = 15):
        self.stage, self.rng, self.fps = stage, rng, fps
        self.geo = stage.geo
        self.content: Content | None = None
        self.frame = 0
        self.cube_before = (1, None)  # the cube's value and owner before the latest double
        self.hits: list = []  # this turn's steps that hit: (mover, point), for a take-back
        skins = {c: rgb(SKINS[rng.integers(len(SKINS))]) for c in COLOURS}
        sleeves = {c: rgb(SLEEVES[rng.integers(len(SLEEVES))]) for c in COLOURS}
        self.hand_look = {c: (skins[c], sleeves[c]) for c in COLOURS}

    # -- frames ---------------------------------------------------------------------------
    def shot(self, event: str):
        img, truth = self.stage.render(self.content, frame=self.frame)
        truth.update(frame=self.frame, time=round(self.frame / self.fps, 3), event=event)
        self.frame += 1
        return img, truth

    def hold(self, seconds: float, event: str):
        for _ in range(max(1, int(seconds * self.fps))):
            yield self.shot(event)

    def seat(self, colour: str, x: float) -> np.ndarray:
        """Where a hand rests, off the board in front of ``colour``'s seat."""
        y = self.geo.board[2, 1] + 4 * D if colour == "light" else self.geo.board[0, 1] - 4 * D
        return np.array([x, y])

    def reach(self, colour: str, path: list, seconds: float, event: str, grip: float = 0.0, carry=None):
        """Move ``colour``'s hand along ``path`` (plane points) over ``seconds``, maybe carrying."""
        skin, sleeve = self.hand_look[colour]
        angle = -90.0 if colour == "light" else 90.0
        n = max(2, int(seconds * self.fps))
        path = np.asarray(path, float)
        for i in range(n):
            t = ease(i / (n - 1)) * (len(path) - 1)
            k = min(int(t), len(path) - 2)
            xy = path[k] + (path[k + 1] - path[k]) * (t - k)
            height = D * (0.5 + 1.5 * np.sin(np.pi * i / (n - 1)))
            self.content.hands = [Hand(xy[0], xy[1], angle, height, skin, sleeve, grip)]
            lift = max(0.0, height - 0.3 * D)
            self.content.held = [] if carry is None else [(Checker(carry, *map(float, xy), 0.0, "held"), lift)]
            yield self.shot(event)
        self.content.hands = []
        self.content.held = []

    # -- events ---------------------------------------------------------------------------
    def play(self, event):
        name = type(event).__name__
        if isinstance(event, SetUp):
            self.content = Content(event.phys.copy(), event.mover)
            self.content.cube, self.content.cube_spot = place_cube(self.rng, self.geo, 1, None)
            yield from self.hold(1.0, "set_up")
        elif isinstance(event, Throw):
            yield from self.throw(event)
        elif isinstance(event, Move):
            yield from self.move(event)
        elif isinstance(event, TakeBack):
            yield from self.take_back(event)
        elif isinstance(event, PickUpDice):
            if self.content.dice:
                target = np.mean([d.box.centre[:2] for d in self.content.dice], axis=0)
                seat = self.seat(event.colour, target[0])
                yield from self.reach(event.colour, [seat, target], 0.6, name)
                self.content.dice = []
                yield from self.reach(event.colour, [target, seat], 0.5, name, grip=1.0)
        elif isinstance(event, (Double, Take, CubeBack)):
            yield from self.cube(event)
        yield from self.hold(0.3, "rest")

    def throw(self, event: Throw):
        c = self.content
        c.mover = event.colour
        checkers = self.geo.checkers(c.phys)
        rest = throw(self.rng, self.geo, checkers, event.colour, event.values, event.invalid, c.phys.variant)
        seat = self.seat(event.colour, float(np.mean([d.box.centre[0] for d in rest])))
        c.invalid, c.rolling = event.invalid, True
        self.hits = []
        n = max(2, int(0.8 * self.fps))
        for i in range(n):
            t = 1 - (1 - i / (n - 1)) ** 2  # the dice slow down as they roll out
            tumbling = []
            for d in rest:
                xy = seat + (d.box.centre[:2] - seat) * t
                value = int(self.rng.integers(1, 7))
                tumbling.append(die(self.rng, value, xy, d.box.half[0] * 2))
            c.dice = tumbling
            yield self.shot("throw_rolling")
        c.dice, c.rolling = rest, False
        yield from self.hold(0.6, "throw_at_rest")

    def top_of(self, colour: str, point: int) -> np.ndarray:
        """Plane centre of the checker a hand would take from (or lay on) ``colour``'s ``point``."""
        phys = self.content.phys
        placed = self.geo.checkers(phys)
        if point == BAR:
            mine = [k for k in placed if k.where == "bar" and k.colour == colour]
        elif point == OFF:
            mine = [k for k in placed if k.where == "off" and k.colour == colour]
        else:
            row, slot = point_slot(colour, point, phys.variant)
            x = self.geo.slot_x(slot)
            mine = [k for k in placed if k.where == "point" and abs(k.x - x) < D / 2
                    and (k.y < (self.geo.field_top + self.geo.field_bottom) / 2) == (row == "top")]
        if mine:
            return np.array([mine[-1].x, mine[-1].y])
        return self._empty_spot(colour, point)

    def _empty_spot(self, colour: str, point: int) -> np.ndarray:
        if point in (BAR, OFF):
            probe = self.content.phys.copy()
            (probe.bar if point == BAR else probe.off)[colour] += 1
            spot = [k for k in self.geo.checkers(probe) if k.colour == colour
                    and k.where == ("bar" if point == BAR else "off")][-1]
            return np.array([spot.x, spot.y])
        row, slot = point_slot(colour, point, self.content.phys.variant)
        y, sign = self.geo.rail_y(row)
        return np.array([self.geo.slot_x(slot), y + sign * D / 2])

    def _take(self, colour: str, point: int) -> bool:
        """Lift ``colour``'s checker off ``point``; False if it has none there."""
        phys = self.content.phys
        if point in (BAR, OFF):
            pile = phys.bar if point == BAR else phys.off
            if not pile[colour]:
                return False
            pile[colour] -= 1
            return True
        stack = phys.stack(colour, point)
        if colour not in stack:
            return False
        del stack[len(stack) - 1 - stack[::-1].index(colour)]  # its topmost, even from a mixed stack
        return True

    def _put(self, colour: str, point: int) -> None:
        phys = self.content.phys
        if point == BAR:
            phys.bar[colour] += 1
        elif point == OFF:
            phys.off[colour] += 1
        else:
            phys.stack(colour, point).append(colour)

    def carry(self, colour: str, hand_of: str, src: int, dst: int, event: str):
        """``hand_of``'s hand takes ``colour``'s checker from ``src`` and lays it on ``dst``."""
        a = self.top_of(colour, src)
        seat = self.seat(hand_of, a[0])
        yield from self.reach(hand_of, [seat, a], 0.5, event)
        if not self._take(colour, src):
            # A play from an empty point cannot be shown: the hand comes back empty, and says so.
            yield from self.reach(hand_of, [a, seat], 0.4, f"{event} (no checker there)")
            return
        b = self._empty_spot(colour, dst)
        yield from self.reach(hand_of, [a, b], 0.7, event, grip=1.0, carry=colour)
        self._put(colour, dst)
        yield from self.reach(hand_of, [b, self.seat(hand_of, b[0])], 0.4, event)

    def move(self, event: Move):
        phys = self.content.phys
        opp = other(event.colour)
        hit = False
        if event.dst not in (BAR, OFF) and phys.variant == "backgammon":
            stack = phys.stack(event.colour, event.dst)
            hit = stack.count(opp) == 1 and len(stack) == 1
        yield from self.carry(event.colour, event.colour, event.src, event.dst, f"move {event.src}/{event.dst}")
        if hit:  # the mover lifts the blot it hit onto the bar
            self.hits.append((event.colour, event.dst))
            yield from self.carry(opp, event.colour, VARIANTS[phys.variant].opponent_point(event.dst), BAR, "hit")

    def take_back(self, event: TakeBack):
        yield from self.carry(event.colour, event.colour, event.dst, event.src, f"take back {event.src}/{event.dst}")
        if (event.colour, event.dst) in self.hits:  # the blot it hit goes back where it stood
            self.hits.remove((event.colour, event.dst))
            point = VARIANTS[self.content.phys.variant].opponent_point(event.dst)
            yield from self.carry(other(event.colour), event.colour, BAR, point, "take back hit")

    def cube(self, event):
        c = self.content
        if c.cube is None:
            return
        if isinstance(event, CubeBack):  # the call and the word before the doubler takes it back
            yield from self.hold(0.8, "called")
        start = c.cube.box.centre[:2].copy()
        seat = self.seat(event.colour, start[0])
        yield from self.reach(event.colour, [seat, start], 0.5, "cube")
        if isinstance(event, Double):
            self.cube_before = (c.cube_value, c.cube_owner)
            c.cube_value = min(c.cube_value * 2, 64)
            owner = other(event.colour)  # offered: laid in front of the opponent
        elif isinstance(event, CubeBack):
            c.cube_value, owner = self.cube_before
        else:
            owner = event.colour
        c.cube = None
        c.cube_owner = owner
        new, spot = place_cube(self.rng, self.geo, c.cube_value, owner)
        yield from self.reach(event.colour, [start, new.box.centre[:2]], 0.6, "cube", grip=1.0)
        c.cube, c.cube_spot = new, spot
        yield from self.reach(event.colour, [new.box.centre[:2], seat], 0.4, "cube")


STILL = ("corners", "field", "points", "bar", "trays", "camera", "style", "variant", "yolo")


def write_video(events: list, out: Path, seed: int, variant: str, size: tuple = (1280, 720), fps: int = 15,
                progress: bool = True) -> int:
    """Render ``events`` to ``out/game.mp4``, ``out/frames.jsonl`` (one truth per frame) and
    ``out/stage.json`` (what stays still: corners, points, camera). Returns the frame count."""
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng([seed, 0, 1])
    stage = Stage(rng, variant, size)
    animator = Animator(stage, rng, fps)
    writer = cv2.VideoWriter(str(out / "game.mp4"), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise OSError(f"cannot write {out / 'game.mp4'}")
    bar = tqdm(desc="video", unit="frame", disable=not progress)
    with open(out / "frames.jsonl", "w") as lines:
        for event in events:
            for img, truth in animator.play(event):
                if truth["frame"] == 0:
                    (out / "stage.json").write_text(json.dumps({k: truth[k] for k in STILL if k != "yolo"}))
                writer.write(img)
                moving = {k: v for k, v in truth.items() if k not in STILL}
                lines.write(json.dumps(moving, separators=(",", ":")) + "\n")
                bar.update()
    writer.release()
    bar.close()
    return animator.frame
