"""Match transcripts in the JellyFish / eXtreme Gammon text format (".mat", RULES 9).

Both dialects of ``fixtures/matches/`` are read: Backgammon Galaxy (bar 25, off 0, each
checker of a double written separately, an empty play after the dice) and Backgammon Studio
(``bar/21*``, ``13/9(2)``, ``Cannot Move``). Each game is a list of :class:`Action`: what one
player did in one numbered turn (Player 1 is the left column). Export writes the same layout
with the tags XG writes; long nardy is marked ``; [Variation "LongNardy"]``, and a record begun
after the match's Crawford game (an official who joined between games said so) is marked
``; [CrawfordPlayed "Yes"]``, so that its first game at N - 1 is not taken for it (RULES 6.2).
A game whose record begins in progress (a camera that joined mid-game) has a ``; [Start "..."]``
line under its score line: where it stood, who was on roll and the cube (:class:`GameStart`).

>>> text = '''; [Player 1 "ann"]
... ; [Player 2 "bob"]
...
... 3 point match
...
...  Game 1
...  ann : 0                         bob : 0
...   1)                             51: 24/23 13/8
...   2) 64: 24/18 13/9              Doubles => 2
...   3)  Drops
...       Wins 1 point
... '''
>>> t = parse_transcript(text)
>>> t.match_length, t.players, [a.kind for a in t.games[0].actions]
(3, ('ann', 'bob'), ['play', 'play', 'double', 'drop', 'wins'])
>>> parse_transcript(write_transcript(t)).games == t.games
True
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.errors import EngineError
from engine.match import GameStart, InvalidEventError
from engine.variant import BACKGAMMON, LONG_NARDY, Variant


class TranscriptError(EngineError):
    """A transcript that cannot be read: names the line and what was expected there."""

    def __init__(self, line: int, expected: str, text: str = ""):
        shown = f": {text.strip()[:60]!r}" if text.strip() else ""
        super().__init__(f"line {line}: expected {expected}{shown}")
        self.line = line
        self.expected = expected


@dataclass(frozen=True)
class Action:
    """One player's entry in one numbered turn.

    ``kind``: play, double, take, drop, beaver, raccoon, wins, losses. A play has ``dice``
    and ``play`` (notation as written; "" when nothing could be played; None for a throw
    written ``????`` that was never played). ``value``: the cube offered, or points won.
    """

    number: int
    side: int
    kind: str
    dice: tuple[int, int] | None = None
    play: str | None = None
    value: int | None = None
    match: bool = False  # "Wins N point and the match"
    line: int = field(default=0, compare=False)
    event: int | None = field(default=None, compare=False)  # a session's event that gave a play its dice


@dataclass(frozen=True)
class GameRecord:
    number: int
    score: tuple[int, int]
    actions: tuple[Action, ...]
    line: int = field(default=0, compare=False)
    start: GameStart | None = None  # where a game joined in progress stood when its record began

    @property
    def result(self) -> Action | None:
        """The "Wins" entry, if the game has one."""
        return next((a for a in self.actions if a.kind == "wins"), None)


@dataclass(frozen=True)
class Transcript:
    tags: tuple[tuple[str, str], ...]
    match_length: int
    games: tuple[GameRecord, ...]
    players: tuple[str, str] = ("Player 1", "Player 2")
    #: Lines the reader passed over as known quirks: (line, what).
    quirks: tuple[tuple[int, str], ...] = field(default=(), compare=False)

    def tag(self, name: str, default: str | None = None) -> str | None:
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return default

    @property
    def variant(self) -> Variant:
        return LONG_NARDY if (self.tag("Variation") or "").replace(" ", "").lower() == "longnardy" \
            else BACKGAMMON


_TAG = re.compile(r'^;\s*\[(?P<key>[^"\]]+?)\s+"(?P<value>[^"]*)"\]\s*$')
_MATCH = re.compile(r"^\s*(\d+)\s+point\s+match\s*$", re.IGNORECASE)
_GAME = re.compile(r"^\s*Game\s+(\d+)\s*$", re.IGNORECASE)
# A name may be empty (Galaxy writes " lasse : 0     : 0" for a deleted account).
_SCORE = re.compile(r"^\s*(?P<n1>.*?)\s*:\s*(?P<s1>\d+)\s+(?P<n2>.*?)\s*:\s*(?P<s2>\d+)\s*$")
_NUMBERED = re.compile(r"^\s*(\d+)\)(.*)$")
_ROLL = re.compile(r"^([1-6])([1-6]):$")
_MOVE = re.compile(r"^(?:bar|off|\d{1,2})\*?(?:/(?:bar|off|\d{1,2})\*?)+(?:\(\d\))?$", re.IGNORECASE)
_STARTS = {"Doubles", "Takes", "Drops", "Beavers", "Raccoons", "Wins", "Losses"}


def _tokens(text: str, offset: int) -> list[tuple[int, str]]:
    return [(m.start() + offset, m.group()) for m in re.finditer(r"\S+", text)]


def _items(tokens: list[tuple[int, str]], lineno: int, line: str, quirks: list):
    """Group tokens into entries, each starting with a roll or a cube/result word."""
    items: list[tuple[int, list[str]]] = []
    for col, tok in tokens:
        if _ROLL.match(tok) or tok in _STARTS:
            items.append((col, [tok]))
        elif re.fullmatch(r"\d+\)", tok):
            # Galaxy sometimes repeats the turn number before a result: a quirk, skipped
            quirks.append((lineno, f"a second turn number {tok!r}"))
        elif items:
            items[-1][1].append(tok)
        else:
            raise TranscriptError(lineno, "a roll ('52:'), Doubles, Takes, Drops or Wins", line)
    return items


def _action(words: list[str], number: int, side: int, lineno: int, line: str) -> Action:
    head, rest = words[0], words[1:]
    roll = _ROLL.match(head)
    if roll:
        dice = (int(roll.group(1)), int(roll.group(2)))
        if rest == ["????"]:
            return Action(number, side, "play", dice, None, line=lineno)
        if [w.lower() for w in rest] == ["cannot", "move"]:
            rest = []
        for w in rest:
            if not _MOVE.match(w):
                raise TranscriptError(lineno, f"a move like 13/7, bar/22* or 6/off, not {w!r}", line)
        return Action(number, side, "play", dice, " ".join(rest), line=lineno)
    if head in ("Doubles", "Beavers", "Raccoons"):
        if len(rest) != 2 or rest[0] != "=>" or not rest[1].isdigit():
            raise TranscriptError(lineno, f"'{head} => N'", line)
        kind = {"Doubles": "double", "Beavers": "beaver", "Raccoons": "raccoon"}[head]
        return Action(number, side, kind, value=int(rest[1]), line=lineno)
    if head in ("Takes", "Drops"):
        if rest:
            raise TranscriptError(lineno, f"nothing after {head!r}", line)
        return Action(number, side, head.lower().rstrip("s"), line=lineno)
    # Wins / Losses N point[s] [and the match]
    if not rest or not rest[0].isdigit() or rest[1:2] not in (["point"], ["points"]) \
            or rest[2:] not in ([], ["and", "the", "match"]):
        raise TranscriptError(lineno, f"'{head} N point' or '{head} N point and the match'", line)
    return Action(number, side, head.lower(), value=int(rest[0]), match=bool(rest[2:]), line=lineno)


def parse_transcript(text: str) -> Transcript:
    """Read a transcript; :class:`TranscriptError` names the line and what was expected."""
    tags: list[tuple[str, str]] = []
    quirks: list[tuple[int, str]] = []
    match_length: int | None = None
    games: list[GameRecord] = []
    players: tuple[str, str] | None = None
    game: dict | None = None  # the game being read
    lines = text.splitlines()

    def close():
        if game is not None:
            if game["score"] is None:
                raise TranscriptError(game["line"] + 1, "the score line 'name : 0   name : 0'")
            games.append(GameRecord(game["number"], game["score"], tuple(game["actions"]), game["line"],
                                    game["start"]))

    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if line.lstrip().startswith(";"):
            m = _TAG.match(line.strip())
            if m and game is None:
                tags.append((m.group("key"), m.group("value")))
            elif m and m.group("key") == "Start":
                if game["score"] is None or game["actions"] or game["start"] is not None:
                    raise TranscriptError(lineno, "a game's Start tag once, between its score line and first turn",
                                          line)
                try:
                    game["start"] = GameStart.parse(m.group("value"), _variant_of(tags))
                except InvalidEventError as exc:
                    raise TranscriptError(lineno, f"a game start ({exc})", line) from None
            continue
        m = _MATCH.match(line)
        if m and game is None and match_length is None:
            match_length = int(m.group(1))
            continue
        m = _GAME.match(line)
        if m:
            if match_length is None:
                raise TranscriptError(lineno, "'N point match' before the first game", line)
            close()
            game = {"number": int(m.group(1)), "line": lineno, "score": None, "split": 0, "actions": [],
                    "start": None}
            continue
        if game is None:
            raise TranscriptError(lineno, "header tags, 'N point match' or 'Game 1'", line)
        if game["score"] is None:
            m = _SCORE.match(line)
            if not m:
                raise TranscriptError(lineno, "the score line 'name : 0   name : 0'", line)
            game["score"] = (int(m.group("s1")), int(m.group("s2")))
            game["split"] = m.start("n2")
            if players is None:
                players = (m.group("n1") or _tag(tags, "Player 1", "Player 1"),
                           m.group("n2") or _tag(tags, "Player 2", "Player 2"))
            continue
        m = _NUMBERED.match(line)
        if m:
            number = int(m.group(1))
            body_at = m.start(2)
            body = m.group(2)
        else:
            number = game["actions"][-1].number if game["actions"] else 0
            body_at, body = 0, line
        items = _items(_tokens(body, body_at), lineno, line, quirks)
        sides = _sides(items, game["split"])
        if len(items) > 2 and not all(w[0] in ("Wins", "Losses") for _, w in items[1:]):
            raise TranscriptError(lineno, "at most one entry for each player", line)
        actions = [_action(words, number, side, lineno, line) for (col, words), side in zip(items, sides)]
        if not m and any(a.kind not in ("wins", "losses") for a in actions):
            raise TranscriptError(lineno, "a numbered turn like ' 12) 52: 13/8 13/11'", line)
        game["actions"].extend(actions)
    close()
    if match_length is None:
        raise TranscriptError(len(lines) + 1, "'N point match'")
    return Transcript(tuple(tags), match_length, tuple(games), players or ("Player 1", "Player 2"),
                      tuple(quirks))


def _tag(tags, name: str, default: str) -> str:
    return next((value for key, value in tags if key == name and value), default)


def _variant_of(tags) -> Variant:
    return Transcript(tuple(tags), 0, ()).variant


def _sides(items, split: int) -> list[int]:
    """Player 1 writes in the left column, Player 2 from the score line's second name on."""
    if len(items) == 2:
        return [0, 1]
    sides = [0 if col < split - 3 else 1 for col, _ in items]
    # Galaxy can write "Losses N point" and then "Wins N point" far to the right on one
    # line: the winner is the other side of the loser.
    words = [w[0] for _, w in items]
    if "Losses" in words and "Wins" in words:
        loser = sides[words.index("Losses")]
        sides[words.index("Wins")] = 1 - loser
    return sides


# --- export -------------------------------------------------------------------------------
#: XG's header tags, in XG's order; the ones a transcript lacks are written with these values.
XG_TAGS = ("Site", "Match ID", "Player 1", "Player 2", "Player 1 Elo", "Player 2 Elo",
           "TimeControl", "EventDate", "EventTime", "Variation", "Unrated", "Jacoby", "Beaver",
           "Crawford", "CubeLimit")


def _entry(action: Action) -> str:
    if action.kind == "play":
        play = "????" if action.play is None else action.play
        return f"{action.dice[0]}{action.dice[1]}: {play}".rstrip()
    if action.kind in ("double", "beaver", "raccoon"):
        word = {"double": "Doubles", "beaver": "Beavers", "raccoon": "Raccoons"}[action.kind]
        return f" {word} => {action.value}"
    if action.kind in ("take", "drop"):
        return f" {action.kind.title()}s"
    word = "Wins" if action.kind == "wins" else "Losses"
    return f" {word} {action.value} point" + (" and the match" if action.match else "")


def _numbered(actions: list[Action]) -> tuple[Action, ...]:
    """``actions`` numbered as a transcript's lines number them: Player 1 opens a new numbered
    line; Player 2 writes on the right of the current one."""
    out, number, left, right = [], 0, False, False
    for action in actions:
        if number == 0 or right or (action.side == 0 and left):
            number, left, right = number + 1, False, False
        left, right = left or action.side == 0, right or action.side == 1
        out.append(dataclasses.replace(action, number=number))
    return tuple(out)


def write_transcript(transcript: Transcript, width: int = 33) -> str:
    """The transcript as text: XG's tags, ``N point match``, then each game's turns with
    Player 1 in the left column (``width`` characters) and Player 2 in the right."""
    tags = dict(transcript.tags)
    tags.setdefault("Player 1", transcript.players[0])
    tags.setdefault("Player 2", transcript.players[1])
    if transcript.variant is LONG_NARDY:
        tags["Variation"] = "LongNardy"
    out = [f'; [{key} "{tags[key]}"]' for key in XG_TAGS if key in tags]
    out += [f'; [{key} "{value}"]' for key, value in transcript.tags if key not in XG_TAGS]
    out += ["", f"{transcript.match_length} point match", ""]
    for game in transcript.games:
        out += ["", f" Game {game.number}"]
        left = f" {transcript.players[0]} : {game.score[0]}"
        out.append(left.ljust(width) + f"{transcript.players[1]} : {game.score[1]}")
        if game.start is not None:
            out.append(f'; [Start "{game.start}"]')
        rows: list[list] = []  # [number, left entry, right entry]
        for action in game.actions:
            if not rows or rows[-1][0] != action.number or rows[-1][1 + action.side] is not None \
                    or (action.side == 0 and rows[-1][2] is not None):
                rows.append([action.number, None, None])
            rows[-1][1 + action.side] = _entry(action)
        for number, a, b in rows:
            prefix = f"{number:3d}) "
            left = (a or "").ljust(width - len(prefix))
            if b and len(left) >= width - len(prefix) and not left.endswith("  "):
                left += "  "  # a long play pushes Player 2's entry right, still apart
            line = prefix + left + (b or "")
            out.append(line.rstrip())
    return "\n".join(out) + "\n"



# --- a session as a transcript ------------------------------------------------------------
def _written_play(before, after) -> str:
    """Notation for a play the engine called illegal (it has no legal play to name): each
    checker that left a point paired with a point that gained one, highest first."""
    sources, targets = [], []
    b, a = list(before.mover) + [before.mover_bar], list(after.mover) + [after.mover_bar]
    for point in range(25, 0, -1):
        change = a[point - 1] - b[point - 1]
        sources += [point] * max(0, -change)
        targets += [point] * max(0, change)
    targets += [0] * max(0, after.mover_off - before.mover_off)
    return " ".join(f"{'bar' if s == 25 else s}/{'off' if t == 0 else t}"
                    for s, t in zip(sources, sorted(targets, reverse=True)))


def session_transcript(profile, events, players=("Player 1", "Player 2"), tags=()) -> Transcript:
    """A referee session as a transcript: the events replayed through the match state.

    Called doubles (they had no effect, RULES 6.4) are left out; a play stands as made.
    ``tags`` are extra header tags, e.g. ``(("EventDate", "2025.01.31"),)``.
    """
    from engine.match import (Beaver, CubeUnseen, DiceCorrected, Double, Drop, MatchState, NewGame, OpeningThrow,
                              Played, Raccoon, Take, Throw)

    state = MatchState.new(profile)
    games: list[GameRecord] = []
    actions: list[Action] = []
    score = (0, 0)
    start = None  # the game's GameStart, when it was joined in progress
    crawford_played = False

    def add(side: int, kind: str, **fields) -> None:
        actions.append(Action(0, side, kind, **fields))  # numbered as the game closes

    def close_game() -> None:
        if actions or games or state.game:
            games.append(GameRecord(len(games) + 1, score, _numbered(actions), start=start))

    for index, event in enumerate(events):
        before = state
        state, ruling = state.apply(event)
        if isinstance(event, NewGame) and ruling.accepted:
            crawford_played = crawford_played or (not before.game and event.crawford_played)
            if before.game:
                close_game()
            actions, score, start = [], state.score, event.start
            continue
        if isinstance(event, Throw) and before.phase == "moving" and state.phase != "moving":
            actions.pop()  # a throw found not to count before its play (RULES 2.3): never played
            continue
        if not ruling.accepted and not isinstance(event, (Played, DiceCorrected)):
            continue
        if isinstance(event, (Throw, OpeningThrow)) and state.phase == "moving":
            add(state.on_roll, "play", dice=state.dice, play=None, event=index)
        elif isinstance(event, (Played, DiceCorrected)):
            # a play stands as made; dice corrected stand in for those first recorded
            last = next(k for k in range(len(actions) - 1, -1, -1) if actions[k].kind == "play")
            play = actions[last].play if state.phase == "moving" else (
                ruling.play if ruling.accepted else _written_play(state.before, state.position))
            corrected = isinstance(event, DiceCorrected)
            dice, source = (state.dice, index) if corrected else (actions[last].dice, actions[last].event)
            actions[last] = Action(0, actions[last].side, "play", dice, play, event=source)
        elif isinstance(event, Double):
            add(state.on_roll, "double", value=state.cube * 2)
        elif isinstance(event, CubeUnseen):
            # written where it was stated, or before the doubler's turn in hand: a double comes
            # before the throw (RULES 5.2)
            at = len(actions)
            if before.on_roll == event.doubler and before.phase in ("moving", "played"):
                at = next(k for k in range(len(actions) - 1, -1, -1) if actions[k].kind == "play")
            actions[at:at] = [Action(0, event.doubler, "double", value=state.cube),
                              Action(0, 1 - event.doubler, "take")]
        elif isinstance(event, (Take, Drop, Beaver, Raccoon)):
            kind = {Take: "take", Drop: "drop", Beaver: "beaver", Raccoon: "raccoon"}[type(event)]
            value = state.cube if kind in ("beaver", "raccoon") else None
            add(1 - before.on_roll if kind != "raccoon" else before.on_roll, kind, value=value)
        if state.result is not None and before.result is None and state.phase in ("game_over", "match_over"):
            result = state.result
            add(result.winner, "wins", value=result.points, match=state.phase == "match_over")
    close_game()
    header = [("Site", "gammoncam"), ("Player 1", players[0]), ("Player 2", players[1]), *tags,
              ("Variation", "LongNardy" if profile.variant is LONG_NARDY else "Backgammon"),
              ("Unrated", "Off"), ("Jacoby", "On" if profile.jacoby else "Off"),
              ("Beaver", "On" if profile.beaver else "Off"),
              ("Crawford", "On" if profile.crawford and profile.is_match else "Off"),
              *((("CrawfordPlayed", "Yes"),) if crawford_played else ()),
              ("CubeLimit", str(profile.cube_limit))]
    return Transcript(tuple(header), profile.match_length, tuple(games), tuple(players))


class AmendmentError(EngineError):
    """An official's amendment that the record cannot take (:func:`amend_roll`, :func:`state_result`,
    :func:`state_double`)."""


class Amendment(NamedTuple):
    """What :func:`amend_roll`, :func:`state_result` or :func:`state_double` makes of a session's events."""

    events: list  # the events amended
    index: int  # the event amended
    withdrawn: tuple  # the events whose calls fall with the amendment
    called: tuple  # (event, ruling): the events called that the record took before


def amend_roll(profile, events, game: int, turn: int, player: int, dice, foul: bool = False) -> Amendment:
    """``events`` with the roll of ``player``'s turn ``turn`` in game ``game`` (numbered as
    :func:`session_transcript` numbers them) made ``dice``: an official's word on a roll the
    record got wrong (a die misread whose play fits either roll, a dance recorded with another
    roll that leaves no play, a play called on dice misread). Only the roll changes: every
    position and the score must stand as recorded, or :class:`AmendmentError` says why. No call
    may come of it unless ``foul``: the official saw that roll thrown and the play it recorded is
    a foul for it (RULES 7.2), one the watch took for another roll's legal play; that play is then
    called (``called``) and the game goes on from the board as it stood, as a watch judges.
    A turn still being played is not amended: its play may still change.

    >>> from engine.match import NewGame, OpeningThrow, Played, Throw
    >>> from engine.profiles import profile
    >>> from engine.position import Position
    >>> opened = Position.start().apply("8/5 6/5")
    >>> events = [NewGame(), OpeningThrow(3, 1), Played(opened), Throw(6, 3),   # a 4-3 read 6-3
    ...           Played(opened.swapped().apply("13/9 13/10")), Throw(5, 2)]
    >>> watched = profile("money", condone=True)  # as a watch judges: the call stood, play went on
    >>> fixed = amend_roll(watched, events, 1, 1, 2, (4, 3))
    >>> fixed.events[fixed.index], fixed.withdrawn   # the play's call (event 4) is withdrawn
    (Throw(die1=4, die2=3, valid=True), (4,))
    >>> amend_roll(watched, fixed.events, 1, 1, 2, (5, 4))
    Traceback (most recent call last):
    ...
    engine.transcript.AmendmentError: game 1, turn 1: 13/10 13/9 is not a legal play of 5-4 (...); if the ...
    >>> [(k, ruling.reason) for k, ruling in amend_roll(watched, fixed.events, 1, 1, 2, (5, 4), foul=True).called]
    [(4, 'no_such_play')]
    """
    from engine.match import MatchState, OpeningThrow, Played, _dice

    try:
        d1, d2 = _dice(*dice)
    except (TypeError, InvalidEventError) as exc:
        raise AmendmentError(f"not a roll: {exc}") from None
    where = f"game {game}, turn {turn}"
    record = session_transcript(profile, events)  # numbers the turns as the official reads them
    action = next((a for g in record.games if g.number == game for a in g.actions
                   if a.number == turn and a.side == player - 1 and a.kind == "play" and a.event is not None), None)
    if action is None:
        raise AmendmentError(f"{where}: the record has no roll of player {player} there")
    final = MatchState.new(profile)
    for event in events:
        final, _ = final.apply(event)
    if final.phase in ("moving", "played") and action is record.games[-1].actions[-1]:
        raise AmendmentError(f"{where}: the turn is still being played; amend its roll once it is over")
    if sorted(action.dice) == sorted((d1, d2)):
        raise AmendmentError(f"{where}: the record already has {max(d1, d2)}-{min(d1, d2)} for player {player}")
    if d1 == d2 and isinstance(events[action.event], OpeningThrow):
        raise AmendmentError(f"{where}: an opening roll is never a double (RULES 2.1)")
    new = with_roll(events[action.event], (d1, d2), player)
    amended = [*events[:action.event], new, *events[action.event + 1:]]
    # the turn's play: the one event a foul the official saw may be called on
    play = next((k for k in range(action.event + 1, len(events)) if isinstance(events[k], Played)), None)

    def standing(state):  # what a roll must leave as it was: the call awaiting correction aside
        return dataclasses.replace(state, dice=None, pending=None)

    was, now, withdrawn, called, foul_ruling = MatchState.new(profile), MatchState.new(profile), [], [], None
    for index, (before, after) in enumerate(zip(events, amended)):
        was, ruling_was = was.apply(before)
        try:
            now, ruling_now = now.apply(after)
        except InvalidEventError as exc:
            raise AmendmentError(f"{where}: the record does not stand with {d1}-{d2}: {exc}") from None
        if index == play:
            foul_ruling = ruling_now
        if not ruling_now.accepted and (ruling_was.accepted or ruling_now.reason != ruling_was.reason):
            if not isinstance(after, Played):  # a later event the board as it stood no longer takes
                raise AmendmentError(f"{where}: the record does not stand with {d1}-{d2} ({ruling_now.text})")
            if not (foul and index == play):
                what = _written_play(now.before, now.position) or "the dance recorded (no play)"
                seen = "; if the official saw it played so, amend it as a foul" if index == play else ""
                raise AmendmentError(f"{where}: {what} is not a legal play of {d1}-{d2} ({ruling_now.text}){seen}")
            called.append((index, ruling_now))
        if standing(was) != standing(now):
            raise AmendmentError(f"{where}: the record does not stand with {d1}-{d2} "
                                 f"(a roll that leaves a play where the record has none, or none where it has one)")
        if ruling_now.accepted and not ruling_was.accepted:
            withdrawn.append(index)
    if foul and (foul_ruling is None or foul_ruling.accepted):
        raise AmendmentError(f"{where}: the play recorded is legal for {d1}-{d2}: no foul to record")
    return Amendment(amended, action.event, tuple(withdrawn), tuple(called))


def state_result(profile, events, game: int, winner: int, points: int) -> Amendment:
    """``events`` with the result of game ``game`` (numbered as :func:`session_transcript`
    numbers it) stated by an official: player ``winner`` (1 light, 2 dark) won ``points``. Only
    a game the record saw end unseen (:class:`engine.match.EndUnseen`: the board set up again
    after a resignation agreed at the table, a double dropped out of sight) has its result
    stated, or stated again. Every position stands; the score counts the points, and what the
    score decides is judged again: a double the record took in what is now the Crawford game
    (RULES 6.2) or on a cube now dead (6.3) is called (``called``), a call the score no longer
    bears out is withdrawn (``withdrawn``). :class:`AmendmentError` says why a result is
    refused (a game still being played has its result stated by ending it:
    :class:`engine.match.EndUnseen` with the result, submitted).

    >>> from engine.match import EndUnseen, NewGame, OpeningThrow, Double, Played
    >>> from engine.position import Position
    >>> from engine.profiles import profile
    >>> events = [NewGame(), OpeningThrow(3, 1), EndUnseen(), NewGame(), OpeningThrow(5, 2),
    ...           Played(Position.start().apply("13/8 13/11")), Double()]   # dark doubles in game 2
    >>> fixed = state_result(profile("tournament", match_length=3), events, 1, 2, 1)
    >>> fixed.events[fixed.index], fixed.called
    (EndUnseen(winner=1, points=1), ())
    >>> fixed = state_result(profile("tournament", match_length=3), events, 1, 2, 2)
    >>> [(k, ruling.reason) for k, ruling in fixed.called]   # 0-2 in 3: game 2 is the Crawford game
    [(6, 'crawford_game')]
    """
    from engine.match import EndUnseen, MatchState

    where = f"game {game}"
    if winner not in (1, 2):
        raise AmendmentError(f"{where}: the winner is player 1 or 2, not {winner!r}")
    state, index = MatchState.new(profile), None
    for k, event in enumerate(events):
        before = state
        state, _ = state.apply(event)
        if before.game == game and state.phase in ("game_over", "match_over") \
                and before.phase not in ("game_over", "match_over"):
            index = k
    if not 1 <= game <= state.game:
        raise AmendmentError(f"{where}: the record has {state.game} game(s)")
    if index is None:
        raise AmendmentError(f"{where}: the game has not ended in the record; its result is stated by ending it")
    seen = events[index]
    if not isinstance(seen, EndUnseen):
        result = MatchState.new(profile)
        for event in events[:index + 1]:
            result, _ = result.apply(event)
        result = result.result
        raise AmendmentError(f"{where}: the record saw it end (player {result.winner + 1} won {result.points} "
                             f"point(s), {result.how.replace('_', ' ')}); only a game that ended unseen has "
                             f"its result stated")
    if (seen.winner, seen.points) == (winner - 1, points):
        raise AmendmentError(f"{where}: the record already has {points} point(s) to player {winner}")
    amended = [*events[:index], EndUnseen(winner - 1, points), *events[index + 1:]]
    refusal = f"{where}: the record does not stand with that result"
    ended = MatchState.new(profile)
    try:
        for event in amended[:index + 1]:
            ended, _ = ended.apply(event)
    except InvalidEventError as exc:
        raise AmendmentError(f"{refusal}: {exc}") from None
    if ended.phase == "match_over" and index + 1 < len(events):
        raise AmendmentError(f"{where}: {points} point(s) win player {winner} the match, "
                             f"but the record goes on after it ({len(events) - index - 1} event(s))")
    withdrawn, called = _judged_again(profile, events, amended, refusal)
    return Amendment(amended, index, withdrawn, called)


def state_double(profile, events, game: int, turn: int, player: int) -> Amendment:
    """``events`` with a double and take the record did not see, stated by an official: player
    ``player`` (1 light, 2 dark) doubled at the start of their turn ``turn`` of game ``game``
    (numbered as :func:`session_transcript` numbers them), before that turn's throw (RULES 5.2),
    and the other player took (5.3): :class:`engine.match.CubeUnseen` put before the throw
    (``index``). Every position stands; the cube stands at twice its value at the taker's side
    from then on, so the game's points and what the score decides are judged again: a later
    double by the doubler, who no longer owns the cube, is called (``called``), a redouble by the
    taker that was called for want of the cube is no longer (``withdrawn``). A double the rules
    forbid then (not the cube's owner, the Crawford game, a dead cube, the cube's limit: 5.2,
    5.8, 6.2, 6.3), before the opening throw, or where the record already has that double, is
    refused with :class:`AmendmentError`; a double that was dropped ended the game:
    :func:`state_result` states it.

    >>> from engine.match import NewGame, OpeningThrow, Played, Throw, Double, Take
    >>> from engine.position import Position
    >>> from engine.profiles import profile
    >>> opened = Position.start().apply("8/5 6/5")
    >>> dark = opened.swapped().apply("24/14")
    >>> events = [NewGame(), OpeningThrow(3, 1), Played(opened), Throw(6, 4), Played(dark),
    ...           Throw(5, 2), Played(dark.swapped().apply("13/8 13/11")), Double(), Take()]
    >>> fixed = state_double(profile("money"), events, 1, 1, 2)   # dark doubled before their 6-4
    >>> fixed.events[fixed.index], [(k, ruling.reason) for k, ruling in fixed.called]   # and again
    (CubeUnseen(doubler=1), [(8, 'not_cube_owner')])
    >>> write_transcript(session_transcript(profile("money"), fixed.events)).splitlines()[-3:]   # 6-4 now turn 2
    ['  1) 31: 8/5 6/5                  Doubles => 2', '  2)  Takes                      64: 24/14', '  3) 52: 13/11* 13/8']
    >>> state_double(profile("money"), fixed.events, 1, 2, 2)
    Traceback (most recent call last):
    ...
    engine.transcript.AmendmentError: game 1, turn 2: the record already has player 2's double there
    """
    from engine.match import CubeUnseen, MatchState, OpeningThrow

    where = f"game {game}, turn {turn}"
    record = session_transcript(profile, events)  # numbers the turns as the official reads them
    actions = next((g.actions for g in record.games if g.number == game), ())
    at = next((k for k, a in enumerate(actions) if a.number == turn and a.side == player - 1
               and a.kind == "play" and a.event is not None), None)
    if at is None:
        raise AmendmentError(f"{where}: the record has no roll of player {player} there")
    index = actions[at].event
    if isinstance(events[index], OpeningThrow):
        raise AmendmentError(f"{where}: no double comes before the opening throw (RULES 2.1, 5.2)")
    before = [(a.kind, a.side) for a in actions[max(0, at - 2):at]]
    if before == [("double", player - 1), ("take", 2 - player)]:
        raise AmendmentError(f"{where}: the record already has player {player}'s double there")
    amended = [*events[:index], CubeUnseen(doubler=player - 1), *events[index:]]
    state = MatchState.new(profile)
    for event in amended[:index]:
        state, _ = state.apply(event)
    try:
        ruling = state.apply(amended[index])[1]
    except InvalidEventError as exc:
        raise AmendmentError(f"{where}: {exc}") from None
    if not ruling.accepted:
        raise AmendmentError(f"{where}: player {player} could not double then ({ruling.text})")
    withdrawn, called = _judged_again(profile, events, amended, f"{where}: the record does not stand with "
                                         f"that double", inserted=index)
    return Amendment(amended, index, withdrawn, called)


def _judged_again(profile, events, amended, refusal: str, inserted: int | None = None) -> tuple:
    """``amended`` (``events`` with one event replaced, or one ``inserted`` at that index)
    judged beside ``events``: the events of ``amended`` whose calls fall with the change, those
    newly called ``(index, ruling)`` (the answer to a double goes with it, not on its own).
    Every event must leave the board, the player on roll, the dice and
    the game as before, or :class:`AmendmentError` (``refusal`` and why)."""
    from engine.match import Beaver, Drop, MatchState, Raccoon, Take

    was, now, withdrawn, called = MatchState.new(profile), MatchState.new(profile), [], []
    try:
        for k, after in enumerate(amended):
            now, ruling_now = now.apply(after)
            if k == inserted:
                continue
            was, ruling_was = was.apply(events[k - (inserted is not None and k > inserted)])
            if (ruling_now.accepted, ruling_now.reason) != (ruling_was.accepted, ruling_was.reason):
                answer = isinstance(after, (Take, Drop, Beaver, Raccoon))
                if not ruling_was.accepted and not (answer and withdrawn and withdrawn[-1] == k - 1):
                    withdrawn.append(k)
                if not ruling_now.accepted and not (answer and called and called[-1][0] == k - 1):
                    called.append((k, ruling_now))
            if (was.position, was.on_roll, was.dice, was.game) != (now.position, now.on_roll, now.dice, now.game):
                raise AmendmentError(f"{refusal} (event {k + 1} would leave another board)")
    except InvalidEventError as exc:
        raise AmendmentError(f"{refusal}: {exc}") from None
    return tuple(withdrawn), tuple(called)


def with_roll(event, dice, player: int):
    """The event that gave ``player`` a roll (a throw, an opening throw, dice corrected) with
    ``dice`` instead: the one place an amended roll is written back into a session's events.

    >>> from engine.match import OpeningThrow
    >>> with_roll(OpeningThrow(3, 1), (2, 5), 2)  # player 2's die is the higher: they move first
    OpeningThrow(die1=2, die2=5)
    """
    from engine.match import DiceCorrected, OpeningThrow, Throw

    high, low = max(dice), min(dice)
    if isinstance(event, OpeningThrow):
        return OpeningThrow(high, low) if player == 1 else OpeningThrow(low, high)
    if isinstance(event, Throw):
        return Throw(high, low, event.valid)
    if isinstance(event, DiceCorrected):
        return DiceCorrected(high, low)
    raise AmendmentError(f"a {type(event).__name__} event gives no roll")
