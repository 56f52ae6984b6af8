"""A feed driver that plays backgammon or long nardy with the engine, for ``serve --demo`` and tests.

:class:`DemoSession` is a small referee session of its own: each :meth:`DemoSession.step`
publishes one event (opening throw, throw, play, double, take, an injected illegal play and
its correction, end of game) with the whole state after it, and it answers referee actions
from the page (acknowledge, undo, correct, enter a play, amend a roll, correct the dice, state
a result or a double unseen, profile, players, match length, new game or match, mode,
calibration). It uses real engine positions and legal plays only.

>>> from web_ui.feed import LiveFeed
>>> feed = LiveFeed()
>>> demo = DemoSession(feed, seed=3)
>>> [demo.step()["type"] for _ in range(3)]
['opening', 'play', 'roll']
>>> feed.state()["plays"][0]["game"], len(feed.state()["board"]["points"])
(1, 24)
"""

from __future__ import annotations

import copy
import random
import threading
import time

from engine import VARIANTS, InvalidPlayError, Position
from engine.errors import EngineError
from engine.match import CALL_TEXT, crawford_game, dead_cube
from engine.xgid import XGID
from web_ui.board import board_state, crawford_flag, page_pips, transcript_from_state
from web_ui.feed import ActionRejected, LiveFeed

DEFAULT_PLAYERS = ("Ana Light", "Boris Dark")


class DemoSession:
    """Plays games step by step into a :class:`LiveFeed` and answers its referee actions."""

    def __init__(self, feed: LiveFeed, *, variant: str = "backgammon", profile: str = "tournament",
                 players=DEFAULT_PLAYERS, match_length: int = 7, seed: int | None = 1,
                 call_turn: int = 3, cube_turn: int = 6, frame_size=(1280, 720)):
        self.feed = feed
        self.rng = random.Random(seed)
        self.lock = threading.RLock()
        self.call_turn = call_turn
        self.cube_turn = cube_turn
        self.frame_size = frame_size
        self.profile = profile
        self.mode = "monitor"
        self.players = {"1": players[0], "2": players[1]}
        self._frame: bytes | None = None
        w, h = frame_size
        feed.corners = [[0.2 * w, 0.12 * h], [0.8 * w, 0.12 * h], [0.86 * w, 0.9 * h], [0.14 * w, 0.9 * h]]
        feed.on_referee_action = self.handle
        feed.transcript = self.transcript
        feed.ids = self.ids
        feed.frame_source = self.frame
        self._start_match(variant, match_length)
        self._publish({"type": "match_start"})

    # --- the game --------------------------------------------------------------------------
    def _start_match(self, variant: str, match_length: int) -> None:
        self.variant = variant
        self.match_length = match_length
        self.score = {"1": 0, "2": 0}
        self.crawford_now = False
        self.crawford_played = False
        self.game = 0
        self.plays: list[dict] = []
        self.calls: list[dict] = []
        self.results: dict[int, dict] = {}
        self.call_ids = 0
        self._start_game()

    def _start_game(self) -> None:
        self.game += 1
        self.position = Position.start(self.variant)
        self.mover = 1
        self.on_roll: int | None = None
        self.turn = 0
        self.dice: list[int] = []
        self.cube = {"value": 1, "owner": None, "offered": False}
        self.call: dict | None = None
        self.phase = "opening"
        self.history: list[tuple] = []
        self.injected = False
        self.results.setdefault(self.game, {"score": dict(self.score)})

    def _other(self, player: int) -> int:
        return 2 if player == 1 else 1

    def _board_position(self) -> tuple[Position, int]:
        return self.position, self.mover

    def state(self) -> dict:
        position, mover = self._board_position()
        board = board_state(position, mover)
        return {
            "variant": self.variant, "profile": self.profile, "mode": self.mode,
            "players": dict(self.players), "match_length": self.match_length,
            "score": dict(self.score),
            "crawford": crawford_flag(self.match_length, self.crawford_now, self.crawford_played),
            "game": self.game, "turn": self.turn, "on_roll": self.on_roll,
            "dice": list(self.dice), "cube": dict(self.cube), "board": board,
            "pips": page_pips(position, mover, self.profile),
            # shared, not copied: LiveFeed.publish serialises the state at once
            "plays": self.plays, "call": self.call, "calls": self.calls,
            "ids": self.ids(),
        }

    def _publish(self, event: dict) -> dict:
        event = {**event, "game": self.game, "turn": self.turn}
        event_id = self.feed.publish(event, self.state())
        return {**event, "id": event_id}

    def step(self) -> dict:
        """Publish the next event of the game; returns it (with its id)."""
        with self.lock:
            return getattr(self, "_step_" + self.phase)()

    def _step_opening(self) -> dict:
        while True:
            a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
            if a != b or self.variant == "long":
                break
        starter = 1 if a > b or (a == b and self.rng.random() < 0.5) else 2
        if self.variant == "long":  # RULES 2.2: the winner throws both dice
            a, b = self.rng.randint(1, 6), self.rng.randint(1, 6)
        self._to_turn(starter, sorted((a, b), reverse=True))
        return self._publish({"type": "opening", "player": starter, "dice": list(self.dice)})

    def _to_turn(self, player: int, dice: list[int]) -> None:
        if player != self.mover:
            self.position = self.position.swapped()
            self.mover = player
        if player == 1 or self.turn == 0:
            self.turn += 1
        self.on_roll = player
        self.dice = dice
        self.phase = "play"

    def _step_roll(self) -> dict:
        player = self.on_roll
        if (self.turn >= self.cube_turn and self.cube["value"] == 1 and not self.crawford_now
                and self.variant == "backgammon" and not self._dead_cube(player)):
            self.cube["offered"] = True
            self.phase = "take"
            return self._publish({"type": "double", "player": player, "value": 2})
        dice = sorted((self.rng.randint(1, 6), self.rng.randint(1, 6)), reverse=True)
        self.on_roll = player
        self.dice = dice
        self.phase = "play"
        return self._publish({"type": "roll", "player": player, "dice": dice})

    def _dead_cube(self, player: int) -> bool:
        return dead_cube(self.score[str(player)], self.cube["value"], self.match_length)

    def _step_take(self) -> dict:
        taker = self._other(self.on_roll)
        self.cube = {"value": self.cube["value"] * 2, "owner": taker, "offered": False}
        self.phase = "roll"
        return self._publish({"type": "take", "player": taker, "value": self.cube["value"]})

    def _choose(self, plays) -> object:
        def key(play):
            pos = play.position
            blots = sum(1 for c in pos.mover if c == 1)
            return (pos.mover_off, pos.opponent_bar, -blots, self.rng.random())
        return max(plays, key=key)

    def _step_play(self) -> dict:
        d1, d2 = self.dice
        plays = self.position.plays(d1, d2)
        if (self.game == 1 and not self.injected and self.turn >= self.call_turn
                and self.on_roll == 2):
            two_step = [p for p in plays if len(p.steps) >= 2]
            if two_step and not self.position.check(d1, d2, self.position.apply(two_step[0].steps[:1])).legal:
                return self._inject_call(two_step[0])
        return self._apply(self._choose(plays).position, author=None)

    def _inject_call(self, play) -> dict:
        """The player moves one checker for one die only: an illegal play (RULES 3.5)."""
        self.injected = True
        d1, d2 = self.dice
        wrong = self.position.apply(play.steps[:1])
        verdict = self.position.check(d1, d2, wrong)
        self.call_ids += 1
        self.call = {"id": self.call_ids, "kind": "illegal_play", "reason": verdict.reason,
                     "detail": verdict.detail, "game": self.game, "turn": self.turn,
                     "player": self.on_roll, "pending": True, "time": round(time.time(), 3)}
        self.calls.append(copy.deepcopy(self.call))
        self.history.append(self._snapshot())
        self.position = wrong
        self.phase = "illegal"
        return self._publish({"type": "call", "call": copy.deepcopy(self.call)})

    def _resolve_call(self, how: str, author: str | None) -> None:
        if self.call is None:
            return
        self.call.update({"pending": False, "resolution": how})
        if author:
            self.call["by"] = author
        for past in self.calls:
            if past["id"] == self.call["id"]:
                past.update(self.call)
        self.call = None

    def _step_illegal(self) -> dict:
        """The player takes the illegal play back (RULES 7.2)."""
        snap = self.history.pop()
        self._restore(snap)
        self.phase = "play"
        call_id = self.call["id"] if self.call else None
        self._resolve_call("corrected", None)
        return self._publish({"type": "call_resolved", "call_id": call_id, "resolution": "corrected"})

    def _snapshot(self) -> tuple:
        return (self.position, self.mover, self.on_roll, list(self.dice), self.turn, len(self.plays),
                self.phase if self.phase != "illegal" else "play")

    def _restore(self, snap: tuple) -> None:
        self.position, self.mover, self.on_roll, self.dice, self.turn, nplays, self.phase = snap
        del self.plays[nplays:]

    def _apply(self, after: Position, *, author: str | None) -> dict:
        d1, d2 = self.dice
        verdict = self.position.check(d1, d2, after)
        if not verdict.legal:
            raise ActionRejected(f"illegal play: {verdict.detail}", status=422)
        player = self.on_roll
        self.history.append(self._snapshot())
        entry = {"game": self.game, "turn": self.turn, "player": player, "dice": [d1, d2],
                 "play": verdict.play}
        if author:
            entry["entered_by"] = author
        self.plays.append(entry)
        self.position = after
        result = after.game_result()
        if result is not None:
            return self._end_game(player, result[1], entry)
        self.position = after.swapped()
        self.mover = self._other(player)
        self.on_roll = self.mover
        if self.mover == 1:
            self.turn += 1
        self.dice = []
        self.phase = "roll"
        event = {"type": "play", **{k: entry[k] for k in ("player", "dice", "play")}}
        if author:
            event["author"] = author
        return self._publish(event)

    def _end_game(self, winner: int, kind: str, entry: dict, points: int | None = None) -> dict:
        points = VARIANTS[self.variant].result_values[kind] * self.cube["value"] if points is None else points
        self.score[str(winner)] += points
        self.results[self.game].update({"winner": winner, "points": points, "kind": kind})
        self.crawford_played = self.crawford_played or self.crawford_now
        self.crawford_now = crawford_game((self.score["1"], self.score["2"]), self.match_length, self.crawford_played)
        self.dice = []
        self.on_roll = None
        over = bool(self.match_length) and self.score[str(winner)] >= self.match_length
        self.phase = "match_over" if over else "game_over"
        return self._publish({"type": "game_end", "player": winner, "play": entry["play"],
                              "dice": entry["dice"], "kind": kind, "points": points,
                              "match_over": over})

    def _step_game_over(self) -> dict:
        self._start_game()
        return self._publish({"type": "game_start"})

    def _step_match_over(self) -> dict:
        self._start_match(self.variant, self.match_length)
        return self._publish({"type": "match_start"})

    def replay(self, player: int, dice, play: str) -> list[dict]:
        """Publish a throw and play from a transcript (``player`` 1 or 2, e.g. ``[3, 1]``,
        ``"8/5 6/5"``); the play must be legal. Returns the events published."""
        with self.lock:
            dice = [int(d) for d in dice]
            events = []
            if self.phase == "opening":
                self._to_turn(player, dice)
                events.append(self._publish({"type": "opening", "player": player, "dice": dice}))
            elif self.phase == "roll" and self.on_roll == player:
                self.dice, self.phase = dice, "play"
                events.append(self._publish({"type": "roll", "player": player, "dice": dice}))
            else:
                raise ActionRejected(f"player {player} is not about to throw ({self.phase})")
            events.append(self._apply(self._parse(play), author=None))
            return events

    def run(self, stop: threading.Event, interval: float = 1.5) -> None:
        """Step every ``interval`` seconds until ``stop`` is set (a pending call waits longer)."""
        while not stop.wait(interval * (3 if self.phase == "illegal" else 1)):
            self.step()

    # --- what the page asks for ------------------------------------------------------------
    def ids(self) -> dict:
        with self.lock:
            try:
                return self._ids()
            except EngineError:  # an arrangement no ID can write (both colours on a point)
                return {"gnubg": None, "xgid": None}

    def _ids(self) -> dict:
        position, mover = self._board_position()
        if self.variant != "backgammon":
            return {"gnubg": position.position_id(), "xgid": None}
        dice = tuple(self.dice) if len(self.dice) == 2 else None
        owner = {None: 0, 1: 1, 2: -1}[self.cube["owner"]]
        xgid = XGID(position, cube_value=self.cube["value"], cube_owner=owner,
                    turn=1 if mover == 1 else -1, dice="D" if self.cube["offered"] else dice,
                    score_bottom=self.score["1"], score_top=self.score["2"],
                    crawford=self.crawford_now, match_length=self.match_length)
        return {"gnubg": position.position_id(), "xgid": str(xgid)}

    def transcript(self) -> str:
        with self.lock:
            return transcript_from_state(self.state(), results=self.results)

    def frame(self) -> bytes | None:
        """A drawn camera frame of the board (JPEG), made once; None without OpenCV."""
        if self._frame is None:
            try:
                import cv2
                import numpy as np
            except ImportError:  # pragma: no cover - OpenCV is a project dependency
                return None
            w, h = self.frame_size
            img = np.full((h, w, 3), (52, 60, 48), np.uint8)
            corners = np.array([[0.2 * w, 0.12 * h], [0.8 * w, 0.12 * h], [0.86 * w, 0.9 * h],
                                [0.14 * w, 0.9 * h]], np.int32)
            cv2.fillPoly(img, [corners], (60, 110, 160))
            cv2.polylines(img, [corners], True, (30, 60, 90), 8)
            cv2.putText(img, "demo camera frame", (30, 50), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                        (220, 220, 220), 2)
            ok, data = cv2.imencode(".jpg", img)
            self._frame = data.tobytes() if ok else b""
        return self._frame or None

    # --- referee actions -------------------------------------------------------------------
    def handle(self, action: str, params: dict, author: str) -> dict:
        with self.lock:
            method = getattr(self, "_act_" + action, None)
            if method is None:
                raise ActionRejected(f"the demo session does not know {action!r}", status=422)
            message = method(params, author)
            return {"message": message}

    def _act_acknowledge(self, params, author):
        call_id = params.get("call_id")
        if self.call is None or not self.call.get("pending"):
            raise ActionRejected("no call is waiting to be acknowledged")
        if call_id is not None and call_id != self.call["id"]:
            raise ActionRejected(f"call {call_id} is not the current call ({self.call['id']})")
        self.call["pending"] = False
        self.call["acknowledged_by"] = author
        for past in self.calls:
            if past["id"] == self.call["id"]:
                past.update(self.call)
        self._publish({"type": "call_ack", "call_id": self.call["id"], "author": author})
        return f"call {self.call['id']} acknowledged"

    def _act_undo(self, params, author):
        if not self.history:
            raise ActionRejected("there is no play to undo in this game")
        if self.phase == "illegal":
            self._resolve_call("undone", author)
        self._restore(self.history.pop())
        self.phase = "play"
        self._publish({"type": "undo", "author": author})
        return "the last play is undone"

    def _parse(self, text: str) -> Position:
        try:
            return self.position.apply(text)
        except (InvalidPlayError, EngineError) as exc:
            raise ActionRejected(str(exc), status=422) from None

    _SAVED = ("variant", "match_length", "score", "crawford_now", "crawford_played", "game",
              "plays", "calls", "call", "call_ids", "position", "mover", "on_roll", "turn", "dice",
              "cube", "phase", "history", "injected", "results")

    def _save(self) -> dict:
        return {name: copy.deepcopy(getattr(self, name)) for name in self._SAVED}

    def _load(self, saved: dict) -> None:
        for name, value in saved.items():
            setattr(self, name, value)

    def _act_correct(self, params, author):
        if not self.history:
            raise ActionRejected("there is no play to correct in this game")
        if self.phase in ("game_over", "match_over"):
            raise ActionRejected("the game is over")
        saved = self._save()
        if self.phase == "illegal":
            self._resolve_call("corrected", author)
        self._restore(self.history.pop())
        self.phase = "play"
        try:
            self._apply(self._parse(params["play"]), author=author)
        except ActionRejected:
            self._load(saved)
            raise
        return f"the last play is now {self.plays[-1]['play']}"

    def _act_enter_play(self, params, author):
        if self.phase not in ("play", "roll"):
            raise ActionRejected("no player is about to play")
        dice = params.get("dice")
        saved = self._save()
        if self.phase == "roll":
            if not dice:
                raise ActionRejected("the dice are not thrown yet: give the dice with the play", status=422)
            self.dice = list(dice)
            self.phase = "play"
        elif dice and sorted(dice) != sorted(self.dice):
            raise ActionRejected(f"the dice on the board are {self.dice[0]}-{self.dice[1]}", status=422)
        try:
            self._apply(self._parse(params["play"]), author=author)
        except ActionRejected:
            self._load(saved)
            raise
        return f"entered {self.plays[-1]['play']}"

    def _act_amend_roll(self, params, author):
        # a roll recorded wrong earlier in this game: the play stays, and must be legal for it
        game, turn, player = params["game"], params["turn"], params["player"]
        k = next((k for k, p in enumerate(self.plays) if (p["game"], p["turn"], p["player"]) == (game, turn, player)),
                 None)
        before = next((snap[0] for snap in self.history if snap[5] == k), None)
        if k is None or before is None:
            raise ActionRejected(f"game {game}, turn {turn}: no play of player {player} in this game to amend")
        entry, (d1, d2) = self.plays[k], params["dice"]
        try:
            verdict = before.check(d1, d2, before.apply(entry["play"]) if entry["play"] else before)
        except EngineError as exc:
            raise ActionRejected(str(exc)) from None
        foul, where = params.get("foul", False), f"game {game}, turn {turn}"
        if verdict.legal and foul:
            raise ActionRejected(f"{where}: the play recorded is legal for {d1}-{d2}: no foul to record")
        if not verdict.legal and not foul:
            raise ActionRejected(f"{where}: {entry['play'] or 'no play'} is not a legal play of {d1}-{d2} "
                                 f"({verdict.detail}); if the official saw it played so, amend it as a foul")
        was, entry["dice"], entry["amended_by"] = entry["dice"], sorted((d1, d2), reverse=True), author
        recorded = ""
        if foul:  # a foul the official saw: booked as theirs, never pending (the game went on, RULES 7.2)
            self.call_ids += 1
            self.calls.append({"id": self.call_ids, "kind": "illegal_play", "reason": verdict.reason,
                               "detail": verdict.detail, "game": game, "turn": turn, "player": player,
                               "pending": False, "resolution": "recorded", "recorded_by": author})
            recorded = f"; call {self.call_ids} recorded: {verdict.detail}"
        self._publish({"type": "amended", "game": game, "turn": turn, "player": player, "dice": entry["dice"],
                       "was": was, "foul": foul, "author": author})
        now = "-".join(map(str, entry["dice"]))
        return f"{where}: the roll is now {now} (was {was[0]}-{was[1]}){recorded}"

    def _act_state_result(self, params, author):
        # the demo sees every game end but the one on hand, which an official may end (a resignation agreed)
        game, winner, points = params["game"], params["winner"], params["points"]
        if game != self.game or self.phase in ("game_over", "match_over"):
            raise ActionRejected(f"game {game}: the record saw it end; only the game on hand (game {self.game}) "
                                 f"has its result stated")
        values = VARIANTS[self.variant].result_values
        most = 64 * max(values.values())  # the physical cube stops at 64 (RULES 5.8)
        if points > most:
            raise ActionRejected(f"game {game}: a game scores 1 to {most} points, not {points}")
        kind = next((k for k, v in values.items() if v * self.cube["value"] >= points), list(values)[-1])
        self._end_game(winner, kind, {"play": None, "dice": []}, points=points)
        return f"game {game}: player {winner} won {points} point(s); the score is {self.score['1']}-{self.score['2']}"

    def _act_state_double(self, params, author):
        # a double and take the demo did not show, as an official states it: the cube from now on
        player, value = params["player"], self.cube["value"] * 2
        if params.get("game") is not None or params.get("turn") is not None:
            raise ActionRejected("the demo states a double only while its game is played, not after a turn",
                                 status=409)
        if self.phase not in ("roll", "play", "illegal"):
            raise ActionRejected("a double and take are stated while a game is played" + (
                ", not while a double waits for its answer" if self.phase == "take" else ""), status=409)
        owner = self.cube["owner"]
        why = ("crawford_game" if self.crawford_now else "not_cube_owner" if owner not in (None, player)
               else "dead_cube" if self._dead_cube(player) else None)
        if why is not None:  # the demo makes no calls of its own: the page is told why
            raise ActionRejected(f"player {player}'s double to {value}: {CALL_TEXT[why]}", status=409)
        self.cube = {"value": value, "owner": self._other(player), "offered": False}
        self._publish({"type": "cube_unseen", "player": player, "value": value, "author": author})
        return f"player {player} doubled to {value} and player {self._other(player)} took: " \
               f"player {self._other(player)} owns the cube"

    def _act_correct_dice(self, params, author):
        # the throw about to be played was misread: it is played with the dice given
        player, dice = params["player"], sorted(params["dice"], reverse=True)
        if self.phase != "play" or self.on_roll != player:
            raise ActionRejected(f"no throw of player {player} is being played: the roll of a turn over is amended")
        if sorted(self.dice, reverse=True) == dice:
            raise ActionRejected(f"player {player}'s throw is {dice[0]}-{dice[1]} already")
        was, self.dice = list(self.dice), dice
        self._publish({"type": "dice_corrected", "player": player, "dice": dice, "recorded": was, "author": author})
        return f"player {player}'s throw is {dice[0]}-{dice[1]} (was {was[0]}-{was[1]})"

    def _act_set_profile(self, params, author):
        self.profile = params["profile"]
        self._publish({"type": "profile", "profile": self.profile, "author": author})
        return f"profile {self.profile}"

    def _act_set_players(self, params, author):
        self.players = {"1": params["player1"], "2": params["player2"]}
        self._publish({"type": "players", "author": author})
        return "players set"

    def _act_set_match_length(self, params, author):
        length = params["match_length"]
        if length and max(self.score.values()) >= length:
            raise ActionRejected(f"a player already has {max(self.score.values())} points")
        self.match_length = length
        self._publish({"type": "match_length", "match_length": length, "author": author})
        return f"match length {length or 'money play'}"

    def _act_new_game(self, params, author):
        self._start_game()
        self._publish({"type": "game_start", "author": author})
        return f"game {self.game} started"

    def _act_new_match(self, params, author):
        variant = params.get("variant") or self.variant
        length = params.get("match_length")
        self._start_match(variant, self.match_length if length is None else length)
        self._publish({"type": "match_start", "author": author})
        return f"new {variant} match"

    def _act_set_mode(self, params, author):
        self.mode = params["mode"]
        self._publish({"type": "mode", "mode": self.mode, "author": author})
        return f"{self.mode} mode"

    def _act_calibrate(self, params, author):
        self.feed.corners = [list(map(float, c)) for c in params["corners"]]
        self._publish({"type": "calibrated", "author": author})
        return "corners saved"
