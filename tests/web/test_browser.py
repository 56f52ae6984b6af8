"""End to end in a real browser: Playwright driving Debian's Chromium headless.

The page follows a replayed transcript, a call appears within one second of its event (with
its sound), the overlay's background is transparent, and referee actions are refused without
the token and applied with it. Skipped, with the reason, only where Chromium or Playwright is
missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import re
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

from web_ui.app import create_app
from web_ui.server import serve
from web_helpers import CHROMIUM, CHROMIUM_ARGS, TOKEN, play_until

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
if not shutil.which(CHROMIUM):
    pytest.skip(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)

FIXTURE = (Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "matches" / "bglab"
           / "MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt")
_MOVE = re.compile(r"(\d)(\d): ((?:[0-9a-z/*()]+ ?)+)")


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    pg = context.new_page()
    yield pg
    context.close()


def transcript_moves(path: Path) -> list[tuple[int, list[int], str]]:
    """``(player, dice, play)`` of the first game, up to its first cube action."""
    moves = []
    in_game = False
    for line in path.read_text().splitlines():
        if line.strip() == "Game 1":
            in_game = True
            continue
        if not in_game or not re.match(r"\s*\d+\)", line):
            if in_game and moves and not line.strip():
                break
            continue
        for m in _MOVE.finditer(line):
            player = 1 if m.start() < 30 else 2
            moves.append((player, [int(m.group(1)), int(m.group(2))], m.group(3).strip()))
        if any(word in line for word in ("Doubles", "Drops", "Takes")):
            return moves
    return moves


def test_page_follows_a_replayed_transcript(server, page, feed):
    from web_ui.demo_feed import DemoSession

    if not FIXTURE.exists():
        pytest.skip(f"the transcript fixture is missing: {FIXTURE}")
    moves = transcript_moves(FIXTURE)
    assert len(moves) >= 15
    demo = DemoSession(feed, players=("MrPurple", "Lasse"), match_length=3, seed=1)
    page.goto(server.url + "/")
    page.wait_for_selector("#conn.live")
    for player, dice, play in moves:
        events = demo.replay(player, dice, play)
        last = events[-1]["id"]
        page.wait_for_function(f"() => document.body.dataset.lastEvent === '{last}'", timeout=5000)
        column = "p1" if player == 1 else "p2"
        cell = page.locator(f"#plays tbody tr:last-child td.{column}").inner_text()
        assert cell == f"{dice[0]}{dice[1]}: {play}"
    # the drawn board holds what the state says: 15 checkers a side, points included
    state = feed.state()
    drawn = page.evaluate("""() => ({
        light: document.querySelectorAll('#board circle.ck1:not(.ck-ring)').length,
        dark: document.querySelectorAll('#board circle.ck2:not(.ck-ring)').length,
        labels: Array.from(document.querySelectorAll('#board .ck-label')).map(t => t.textContent)})""")
    shown = {1: 0, 2: 0}
    for owner, count in state["board"]["points"]:
        if owner:
            shown[owner] += min(count, 5)
    for p in (1, 2):
        shown[p] += min(state["board"]["bar"][str(p)], 4)
    assert (drawn["light"], drawn["dark"]) == (shown[1], shown[2])
    assert page.inner_text("#name1") == "MrPurple" and page.inner_text("#length") == "3-point match"
    assert page.locator("#plays tbody tr").count() == max(t for t in [p["turn"] for p in state["plays"]])


def test_a_call_shows_its_banner_and_beeps_once(server, page, demo, record_property):
    """The banner and one beep on a call (the time it took is recorded, not asserted: tests
    judge behaviour; a loaded machine is slower)."""
    page.goto(server.url + "/")
    page.wait_for_selector("#conn.live")
    page.click("#sound")  # the user's gesture that lets WebAudio play
    page.evaluate("() => { window.__beeps = 0; const b = GC.beep; GC.beep = () => { window.__beeps++; return b(); }; }")
    assert page.locator("#banner").is_hidden()
    for _ in range(200):
        if demo.phase == "play" and demo.on_roll == 2 and demo.turn >= demo.call_turn and not demo.injected:
            break
        demo.step()
    t0 = time.monotonic()
    event = demo.step()
    assert event["type"] == "call"
    page.wait_for_selector("#banner:not([hidden])", timeout=30000)  # a bound against hanging, not a figure
    latency = time.monotonic() - t0
    record_property("call_latency_s", round(latency, 3))
    print(f"\ncall banner shown {latency * 1000:.0f} ms after the event was published")
    assert "Illegal play" in page.inner_text("#banner-title")
    assert event["call"]["detail"] in page.inner_text("#banner-detail")
    assert page.evaluate("window.__beeps") == 1
    assert page.locator("#calls li.pending").count() == 1
    demo.step()  # corrected: the banner goes, the history keeps it
    page.wait_for_selector("#banner", state="hidden", timeout=2000)
    page.wait_for_function("() => document.querySelector('#calls li .status').textContent === 'corrected'")


def test_sse_reconnects_and_catches_up(server, page, demo, app, feed):
    """The server goes away and comes back on the same port: the browser reconnects with
    Last-Event-ID and gets the events it missed."""
    page.goto(server.url + "/")
    page.wait_for_selector("#conn.live")
    first = demo.step()["id"]
    page.wait_for_function(f"() => document.body.dataset.lastEvent === '{first}'")
    port = server.port
    server.stop()
    missed = [demo.step()["id"] for _ in range(3)]
    assert page.evaluate("() => document.body.dataset.lastEvent") == str(first)
    again = serve(create_app(feed, token=TOKEN), port=port)
    try:
        page.wait_for_function(f"() => document.body.dataset.lastEvent === '{missed[-1]}'", timeout=10000)
        seen = page.evaluate("() => GC.seen")
        assert seen[-4:] == [first] + missed  # each missed event, in order, not a snapshot
    finally:
        again.stop()


def _alpha(png: bytes) -> np.ndarray:
    import cv2

    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    assert img is not None and img.shape[2] == 4, "the screenshot has no alpha channel"
    return img[:, :, 3]


def test_dice_read_but_not_yet_recorded_are_drawn_faded(server, page, feed):
    """A throw held until its play tells the roll (gammoncam watch) is on the board meanwhile."""
    from web_ui.board import empty_state

    page.goto(server.url + "/")
    page.wait_for_selector("#conn.live")
    state = {**empty_state(), "on_roll": 2, "dice_seen": {"dice": [4, 2], "player": 2}}
    feed.publish({"type": "throw_unsure", "player": 2, "dice": [4, 2]}, state)
    page.wait_for_selector(".dice-unsure .die2")
    assert page.locator(".dice-unsure .die").count() == 2
    feed.publish({"type": "roll", "player": 2, "dice": [4, 3]}, {**state, "dice": [4, 3], "dice_seen": None})
    page.wait_for_selector(".dice-unsure", state="detached")
    assert page.locator(".die").count() >= 2


def test_the_latest_warning_is_shown_until_there_is_none(server, page, feed):
    """What the watch warns the official of (dice read from too few pixels for a call on one
    die's face: gammoncam.readings.LEGIBLE_PX) stays on the page, the latest of them."""
    from web_ui.board import empty_state

    page.goto(server.url + "/")
    page.wait_for_selector("#conn.live")
    assert page.locator("#warning").is_hidden()
    text = "the dice are read from 26 px, under 30: a play one misread die could explain is not called"
    feed.publish({"type": "warning", "text": text}, {**empty_state(), "warnings": ["a score not given", text]})
    page.wait_for_selector("#warning:not([hidden])")
    assert page.locator("#warning").inner_text() == f"Warning: {text}"
    feed.publish({"type": "game_start"}, empty_state())
    page.wait_for_selector("#warning", state="hidden")


def test_the_referee_page_lists_every_warning(server, page, feed):
    """The official's page keeps all the warnings, oldest first (the live board shows the latest)."""
    from web_ui.board import empty_state

    page.goto(server.url + "/referee")
    page.wait_for_selector("#conn >> text=live")
    assert page.locator("#warnings-card").is_hidden()
    warnings = ["no score given: the Crawford game cannot be told", "the dice are read from 26 px, under 30"]
    feed.publish({"type": "warning", "text": warnings[1]}, {**empty_state(), "warnings": warnings})
    page.wait_for_selector("#warnings-card:not([hidden])")
    assert page.locator("#warnings li").all_inner_texts() == warnings


def test_a_watched_game_greys_out_the_actions_it_does_not_take(server, page, feed):
    """A watched game's state lists the actions its session takes (gammoncam.watch.WatchDesk):
    the others' forms are disabled, with the reason on hover."""
    from web_ui.board import empty_state

    page.goto(server.url + "/referee")
    page.wait_for_selector("#conn >> text=live")
    assert page.locator("form[data-action=undo] button").is_enabled()
    feed.publish({"type": "game_start"}, {**empty_state(), "actions": ["acknowledge", "set_mode", "set_players",
                                                                       "calibrate"]})
    page.wait_for_selector("form[data-action=undo] button:disabled")
    assert page.locator("form[data-action=correct] input").is_disabled()
    assert "the record follows the board" in page.get_attribute("form[data-action=new_game]", "title")
    assert page.locator("form[data-action=acknowledge] button").is_enabled()
    assert page.locator("form[data-action=set_players] button").is_enabled()


def test_a_roll_is_amended_from_the_referee_page_of_a_watched_game(server, page, feed, tmp_path, dark_turn):
    """The official amends a roll the watch recorded wrong through the page's form (the watched
    game's other play actions greyed out): the page says what changed and lists the play with
    the roll amended; a roll its play does not fit is refused with the reason, or taken as a foul
    the official saw when they tick it so, and the call is listed as theirs."""
    from engine.profiles import profile
    from gammoncam.referee import Referee
    from gammoncam.watch import WatchDesk

    with Referee.open(tmp_path / "log.sqlite", profile("money", condone=True)) as referee:  # as a watch judges
        desk = WatchDesk(referee, feed)  # the page's actions now go to the watched session
        dark_turn(referee, (4, 1), "13/8")
        page.goto(server.url + "/referee")
        page.wait_for_selector("#conn >> text=live")
        desk.hear({"t": 9.0, "frame": 135, "type": "play", "player": 2, "dice": [4, 1], "accepted": True,
                   "play": "13/8"})
        page.wait_for_selector("form[data-action=undo] button:disabled")
        page.fill("#token", TOKEN)
        form = "form[data-action=amend_roll]"
        page.fill(f"{form} input[name=game]", "1")
        page.fill(f"{form} input[name=turn]", "1")
        page.select_option(f"{form} select[name=player]", "2")
        page.fill(f"{form} input[name=dice]", "6-4")
        page.click(f"{form} button")
        page.wait_for_selector("#result.err")
        assert "13/8 is not a legal play of 6-4" in page.inner_text("#result")
        page.check(f"{form} input[name=foul]")  # the official saw the 6-4: 13/8 was a foul (RULES 7.2)
        page.click(f"{form} button")
        page.wait_for_selector("#result.ok")
        assert "the roll is now 6-4 (was 4-1); call 1 recorded" in page.inner_text("#result")
        page.wait_for_function("() => document.querySelector('#call-text').textContent.endsWith('— recorded')")
        page.uncheck(f"{form} input[name=foul]")
        page.fill(f"{form} input[name=dice]", "3-2")
        page.click(f"{form} button")
        page.wait_for_selector("#result >> text=the roll is now 3-2 (was 6-4); call 1 overruled")
        assert feed.state()["plays"][-1]["dice"] == [3, 2]
        assert [(n["author"], n["foul"]) for n in referee.notes if n.get("type") == "amended"] == \
            [("referee", True), ("referee", False)]


def test_a_game_that_ended_unseen_has_its_result_stated_from_the_referee_page(server, page, feed, tmp_path):
    """The watch saw the board set up again mid-game: the page lists the game's end as worth a
    second look with a "state result…" button, which names the game in the form; the official
    states dark's 2 points and the page shows the score."""
    from engine.match import EndUnseen, NewGame, OpeningThrow
    from engine.profiles import profile
    from gammoncam.referee import Referee
    from gammoncam.watch import WatchDesk

    with Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=5)) as referee:
        desk = WatchDesk(referee, feed)
        for event in (NewGame(), OpeningThrow(3, 1), EndUnseen()):
            referee.submit(event)
        page.goto(server.url + "/referee")
        page.wait_for_selector("#conn >> text=live")
        desk.hear({"t": 75.0, "frame": 1125, "type": "game_end_unseen", "accepted": True,
                   "what": "the game's end was not seen: its result is not in the record"})
        page.click("#doubts button >> text=state result…")
        form = "form[data-action=state_result]"
        assert page.input_value(f"{form} input[name=game]") == "1"
        page.fill("#token", TOKEN)
        page.select_option(f"{form} select[name=winner]", "2")
        page.fill(f"{form} input[name=points]", "2")
        page.click(f"{form} button")
        page.wait_for_selector("#result >> text=game 1: player 2 won 2 point(s); the score is 0-2")
        page.wait_for_function("() => document.querySelector('#summary').textContent.includes('0 – 2')")
        assert [(n["winner"], n["points"]) for n in referee.notes if n.get("type") == "result"] == [(2, 2)]


def test_a_double_the_watch_did_not_see_is_stated_from_the_referee_page(server, page, feed, tmp_path):
    """The watch read the cube at light's side with its face unread: the page lists it with a
    "state double…" button naming dark, who would have doubled; the official who saw dark double
    and light take states it, and light owns the cube at 2."""
    from engine.profiles import profile
    from gammoncam.referee import Referee
    from gammoncam.watch import Watcher, WatchDesk
    from looks import two_turns

    with Referee.open(tmp_path / "log.sqlite", profile("tournament", match_length=5)) as referee:
        desk = WatchDesk(referee, feed)
        desk.watcher = Watcher(None, None, referee, None, emit=desk.hear, lock=desk.lock)
        _, turns, _ = two_turns(52)
        for t, obs in enumerate(turns):
            desk.watcher.tracker.observe(obs, float(t))
        page.goto(server.url + "/referee")
        page.wait_for_selector("#conn >> text=live")
        desk.hear({"t": 114.0, "frame": 1710, "type": "unclear", "player": 2, "action": "state_double",
                   "what": "the cube lies at light's side, its face unread, where the record keeps it in the middle "
                           "at 1: a cube action may have gone unseen"})
        form = "form[data-action=state_double]"
        page.select_option(f"{form} select[name=player]", "1")
        page.click("#doubts button >> text=state double…")
        assert page.input_value(f"{form} select[name=player]") == "2"
        page.fill("#token", TOKEN)
        page.click(f"{form} button")
        page.wait_for_selector("#result >> text=player 2 doubled to 2 and player 1 took: player 1 owns the cube")
        assert (referee.state.cube, referee.state.owner) == (2, 0)


def test_a_call_logged_in_silent_mode_shows_no_banner_and_is_listed_as_logged(server, page, feed):
    """RULES 7.3: in silent mode a watched game's call is only logged (gammoncam.watch.CallBook):
    no banner on the live page, the history and the referee page say it was logged."""
    from web_ui.board import empty_state

    call = {"id": 1, "kind": "illegal_play", "reason": "no_such_play", "detail": "13/9 13/10 is not a play of 6-4",
            "game": 1, "turn": 4, "player": 2, "pending": False, "resolution": "logged"}
    state = {**empty_state(), "mode": "silent", "call": call, "calls": [call]}
    page.goto(server.url + "/")
    page.wait_for_selector("#conn.live")
    feed.publish({"type": "call", "call": call}, state)
    page.wait_for_function("() => document.querySelector('#calls li .status')?.textContent === 'logged'")
    assert page.locator("#banner").is_hidden()
    page.goto(server.url + "/referee")
    page.wait_for_selector("#conn >> text=live")
    page.wait_for_function("() => document.querySelector('#call-text').textContent.endsWith('— logged')")


def test_the_referee_page_lists_the_doubts_that_could_hide_a_foul_first(server, page, feed):
    """A play the watch did not call but could not square with the dice read is listed for the
    official (state "doubts"): first those whose play is a foul if the dice were read right,
    likeliest reading first, then the rest newest first."""
    from web_ui.board import empty_state

    page.goto(server.url + "/referee")
    page.wait_for_selector("#conn >> text=live")
    assert page.locator("#doubts-card").is_hidden()
    doubts = [{"t": 41.47, "game": 1, "type": "unclear", "player": 1,
               "what": "the play fits 6-2, a roll the dice were read less likely to show than 6-1",
               "dice": [6, 1], "foul_if_read": True, "probability": 0.55, "px": 24},
              {"t": 60.0, "game": 1, "type": "unclear", "player": 2,
               "what": "the dice were picked up with nothing played", "dice": [5, 5]},
              {"t": 97.0, "game": 2, "type": "dice_misread", "player": 2, "turn": 8,
               "what": "the play is a 4-3's, the dice were read 6-3: one die misread, or a foul",
               "dice": [6, 3], "foul_if_read": True, "probability": 0.93, "px": 26},
              {"t": 120.0, "game": 2, "type": "unclear", "player": 1, "turn": 9,
               "what": "the play fits 5-4, a roll the dice were read less likely to show than 5-3",
               "dice": [5, 3], "foul_if_read": False, "probability": 0.6, "px": 31},
              {"t": 130.0, "game": 2, "type": "unclear", "player": 2, "turn": 9,
               "what": "the throw was glimpsed; the board fits 1-1 as well as the 3-1 recorded (50% likely)",
               "dice": [3, 1], "foul_if_read": False, "probability": 0.17, "px": 25}]
    plays = [{"game": 2, "turn": 9, "player": 1, "dice": [5, 4], "play": "13/8 13/9"},
             {"game": 2, "turn": 9, "player": 2, "dice": [3, 1], "play": "24/23 24/21"}]
    feed.publish({"type": "unclear", **doubts[4]}, {**empty_state(), "doubts": doubts, "plays": plays})
    page.wait_for_selector("#doubts-card:not([hidden])")
    assert page.locator("#doubts li").all_inner_texts() == [
        "Could hide a foul: game 2, turn 8, at 1:37, Player 2: the play is a 4-3's, the dice were read 6-3: one die "
        "misread, or a foul (read 6-3 at 0.93, dice 26 px) amend roll…",
        "Could hide a foul: game 1, at 0:41, Player 1: the play fits 6-2, a roll the dice were read less likely to "
        "show than 6-1 (read 6-1 at 0.55, dice 24 px)",
        "game 2, turn 9, at 2:10, Player 2: the throw was glimpsed; the board fits 1-1 as well as the 3-1 recorded "
        "(50% likely) amend roll…",
        "game 2, turn 9, at 2:00, Player 1: the play fits 5-4, a roll the dice were read less likely to show than 5-3 "
        "amend roll…",
        "game 1, at 1:00, Player 2: the dice were picked up with nothing played"]
    # a doubt's turn fills the form that amends its roll; its play fits the roll read, so that is offered
    page.click("#doubts li:nth-child(4) button.amend-doubt")
    form = "form[data-action=amend_roll]"
    fields = lambda: [page.input_value(f"{form} [name={name}]") for name in ("game", "turn", "player", "dice")] + \
        [page.is_checked(f"{form} [name=foul]")]
    assert fields() == ["2", "9", "1", "5-3", False]
    page.click("#doubts li:nth-child(3) button.amend-doubt")  # the roll read is the one recorded: none offered
    assert fields() == ["2", "9", "2", "", False]
    page.click("#doubts li:nth-child(1) button.amend-doubt")  # its play is a foul of the roll read: ticked so
    assert fields() == ["2", "8", "2", "6-3", True]


def test_the_correct_dice_form_names_whose_throw_is_being_played(server, page, feed):
    """The referee page's "Correct dice" names the player whose throw is being played: the one
    held as unsure (``dice_seen``), then the one recorded, so the official types only the dice."""
    from web_ui.board import empty_state

    page.goto(server.url + "/referee")
    page.wait_for_selector("#conn >> text=live")
    player = "form[data-action=correct_dice] [name=player]"
    feed.publish({"type": "throw_unsure", "dice": [6, 4], "player": 2},
                 {**empty_state(), "on_roll": 1, "dice": [], "dice_seen": {"dice": [6, 4], "player": 2}})
    page.wait_for_function(f"() => document.querySelector('{player}').value === '2'")
    feed.publish({"type": "roll", "dice": [5, 2], "player": 1}, {**empty_state(), "on_roll": 1, "dice": [5, 2]})
    page.wait_for_function(f"() => document.querySelector('{player}').value === '1'")


def test_overlay_background_is_transparent(server, browser, demo):
    play_until(demo, "call")
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    try:
        page.goto(server.url + "/overlay?elements=board,score,call,plays&corner=br")
        page.wait_for_selector("#board .ck1")
        page.wait_for_selector("#ovcall:not([hidden])")
        assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
        alpha = _alpha(page.screenshot(omit_background=True))
        assert alpha.shape == (1080, 1920)
        assert alpha[0, 0] == 0 and alpha[540, 200] == 0 and alpha[20, 960] == 0  # the stage is clear
        box = page.locator("#board").bounding_box()
        assert alpha[int(box["y"] + box["height"] / 2), int(box["x"] + box["width"] / 2)] == 255
        transparent = float((alpha == 0).mean())
        assert 0.5 < transparent < 0.99, transparent
        assert page.locator("button, form, input").count() == 0
    finally:
        context.close()


def test_referee_actions_refused_without_token_applied_with_it(server, page, feed, browser):
    viewer = browser.new_page()
    viewer.goto(server.url + "/")
    viewer.wait_for_selector("#conn.live")
    page.goto(server.url + "/referee")
    page.wait_for_selector("#conn >> text=live")
    # no token: the server answers 401 (posted from the page, CSRF token and all)
    status = page.evaluate("""async () => {
        const data = new URLSearchParams({mode: 'silent', csrf: document.querySelector('.officials').dataset.csrf});
        return (await fetch('/api/referee/set_mode', {method: 'POST', body: data})).status; }""")
    assert status == 401
    # a wrong token through the form
    page.fill("#token", "wrong-token-123")
    page.fill("#author", "Chief TD")
    page.select_option("#mode-select", "silent")
    page.click("form[data-action=set_mode] button")
    page.wait_for_selector("#result.err")
    assert "403" in page.inner_text("#result")
    assert feed.state()["mode"] == "monitor"
    # the right token
    page.fill("#token", TOKEN)
    page.click("form[data-action=set_mode] button")
    page.wait_for_selector("#result.ok")
    assert feed.state()["mode"] == "silent"
    viewer.wait_for_function("() => document.querySelector('#mode').textContent === 'silent mode'", timeout=2000)
    page.wait_for_function("() => document.querySelector('#log li') && document.querySelector('#log li').textContent.includes('Chief TD')")
    # players through the form, checked on the viewer page
    page.fill("#p1", "Ana")
    page.fill("#p2", "Bea")
    page.click("form[data-action=set_players] button")
    viewer.wait_for_function("() => document.querySelector('#name2').textContent === 'Bea'", timeout=2000)
    viewer.close()


def test_calibrate_drag_and_save(server, page, feed):
    page.goto(server.url + "/calibrate")
    handle = page.locator("#handles circle").first
    handle.wait_for()
    box = handle.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 60, box["y"] + 40, steps=5)
    page.mouse.up()
    before = [list(c) for c in feed.corners]
    page.fill("#token", TOKEN)
    page.click("#calib button[type=submit]")
    page.wait_for_selector("#result.ok")
    after = feed.corners
    assert after[1:] == [[float(round(v)) for v in c] for c in before[1:]]
    assert after[0][0] > before[0][0] + 20 and after[0][1] > before[0][1] + 10
