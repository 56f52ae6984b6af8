"""The Flask application: the viewer page, the overlay, the referee and calibration pages, the API.

``create_app(feed, token=...)`` builds it around a :class:`web_ui.feed.LiveFeed`; it never
imports vision, device or the wiring. Viewer and overlay pages and every GET are read-only;
``POST /api/referee/<action>`` needs the referee token (bearer header, or form field plus the
page's CSRF token) and hands the validated action to ``feed.act``.
"""

from __future__ import annotations

import hmac
import json
import logging
import math
import re
import secrets
import threading

from flask import Flask, Response, abort, jsonify, render_template, request, session
from werkzeug.exceptions import HTTPException

from engine import VARIANTS, InvalidPlayError, parse_play
from engine.match import MODES
from web_ui.board import PROFILES, transcript_from_state
from web_ui.feed import ActionRejected, LiveFeed

log = logging.getLogger("gammoncam.web")

#: Seconds between SSE comments that keep idle connections open (and find dead ones).
HEARTBEAT_S = 15.0
#: Milliseconds a browser waits before reconnecting (the SSE ``retry:`` field).
RETRY_MS = 1500
MAX_BODY = 16 * 1024

OVERLAY_THEMES = ("dark", "light", "glass")
OVERLAY_ELEMENTS = ("board", "score", "call", "plays", "pips")
OVERLAY_CORNERS = ("tl", "tr", "bl", "br")
_NAME = re.compile(r"^[^\x00-\x1f\x7f<>]{1,40}$")
_PLAY = re.compile(r"^[0-9A-Za-z/*() ]{0,64}$")


class Invalid(Exception):
    """A field of a request is missing or wrong: HTTP 422 (400 for a malformed body)."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.message = message
        self.status = status


# --- field validators: (raw value, from a form?) -> clean value ---------------------------
def _int(low: int, high: int):
    def check(name, value, form):
        if isinstance(value, str) and form and re.fullmatch(r"\s*-?\d{1,6}\s*", value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise Invalid(f"{name} must be a whole number from {low} to {high}")
        if not low <= value <= high:
            raise Invalid(f"{name} must be from {low} to {high}, not {value}")
        return value
    return check


def _enum(choices):
    def check(name, value, form):
        if not isinstance(value, str) or value not in choices:
            raise Invalid(f"{name} must be one of {', '.join(choices)}")
        return value
    return check


def _name(name, value, form):
    if not isinstance(value, str) or not _NAME.match(value.strip() or "\x00"):
        raise Invalid(f"{name} must be 1 to 40 characters, without < > or control characters")
    return value.strip()


def _play(name, value, form):
    if not isinstance(value, str) or not _PLAY.match(value):
        raise Invalid(f"{name} must be play notation such as '8/5 6/5' (at most 64 characters)")
    try:
        parse_play(value)
    except InvalidPlayError as exc:
        raise Invalid(f"{name}: {exc}") from None
    return " ".join(value.split())


def _dice(name, value, form):
    if isinstance(value, str) and form:
        digits = re.fullmatch(r"\s*([1-6])\s*[-, ]?\s*([1-6])\s*", value)
        if not digits:
            if value.strip() == "":
                return None
            raise Invalid(f"{name} must be two dice such as 5-2")
        value = [int(digits.group(1)), int(digits.group(2))]
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in value)):
        raise Invalid(f"{name} must be two dice from 1 to 6")
    return value


def _yes(name, value, form):
    if isinstance(value, str) and form:  # a checkbox: sent when ticked, with its value
        value = {"yes": True, "on": True, "true": True, "no": False, "false": False}.get(value.strip().lower(), value)
    if not isinstance(value, bool):
        raise Invalid(f"{name} must be true or false")
    return value


def _corners(name, value, form):
    if isinstance(value, str) and form:
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            raise Invalid(f"{name} must be JSON: [[x, y], [x, y], [x, y], [x, y]]") from None
    ok = isinstance(value, list) and len(value) == 4 and all(
        isinstance(c, list) and len(c) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                and 0 <= v <= 20000 for v in c) for c in value)
    if not ok:
        raise Invalid(f"{name} must be four [x, y] pairs of frame pixels (0 to 20000)")
    return [[float(v) for v in c] for c in value]


#: action -> {field: (validator, required)}. Every action also takes ``author``.
ACTIONS: dict[str, dict] = {
    "acknowledge": {"call_id": (_int(1, 10**9), False)},
    "undo": {},
    "correct": {"play": (_play, True)},
    "enter_play": {"play": (_play, True), "dice": (_dice, False)},
    "amend_roll": {"game": (_int(1, 999), True), "turn": (_int(1, 999), True), "player": (_int(1, 2), True),
                   "dice": (_dice, True), "foul": (_yes, False)},
    "correct_dice": {"player": (_int(1, 2), True), "dice": (_dice, True)},
    "state_result": {"game": (_int(1, 999), True), "winner": (_int(1, 2), True), "points": (_int(1, 10**4), True)},
    "state_double": {"player": (_int(1, 2), True), "game": (_int(1, 999), False), "turn": (_int(1, 999), False)},
    "set_profile": {"profile": (_enum(tuple(PROFILES)), True)},
    "set_players": {"player1": (_name, True), "player2": (_name, True)},
    "set_match_length": {"match_length": (_int(0, 64), True)},
    "new_game": {},
    "new_match": {"variant": (_enum(tuple(VARIANTS)), False), "match_length": (_int(0, 64), False)},
    "set_mode": {"mode": (_enum(MODES), True)},
    "calibrate": {"corners": (_corners, True)},
}
_ENVELOPE = ("token", "csrf", "author")


def validate_action(action: str, body: dict, *, form: bool) -> tuple[dict, str]:
    """``(params, author)`` of an action's body, or :class:`Invalid`."""
    fields = ACTIONS[action]
    unknown = sorted(set(body) - set(fields) - set(_ENVELOPE))
    if unknown:
        raise Invalid(f"{action} takes no field {unknown[0]!r} (it takes: "
                      f"{', '.join(list(fields) + ['author']) or 'author'})")
    params = {}
    for name, (check, required) in fields.items():
        value = body.get(name)
        if value is None or (form and value == ""):
            if required:
                raise Invalid(f"{action} needs {name}")
            continue
        params[name] = check(name, value, form)
    author = body.get("author")
    author = "referee" if author in (None, "") else _name("author", author, form)
    return params, author


def _overlay_options(args) -> dict:
    """The overlay's query string, validated: theme, elements, corner, scale, sound."""
    unknown = sorted(set(args) - {"theme", "elements", "corner", "scale", "sound"})
    if unknown:
        raise Invalid(f"the overlay takes no parameter {unknown[0]!r}", 400)
    theme = args.get("theme", "dark")
    if theme not in OVERLAY_THEMES:
        raise Invalid(f"theme must be one of {', '.join(OVERLAY_THEMES)}", 400)
    elements = [e for e in args.get("elements", "board,score,call").split(",") if e]
    if not elements or any(e not in OVERLAY_ELEMENTS for e in elements) or len(elements) > 5:
        raise Invalid(f"elements must be a comma list of {', '.join(OVERLAY_ELEMENTS)}", 400)
    corner = args.get("corner", "br")
    if corner not in OVERLAY_CORNERS:
        raise Invalid(f"corner must be one of {', '.join(OVERLAY_CORNERS)}", 400)
    try:
        scale = float(args.get("scale", "1"))
    except ValueError:
        scale = float("nan")
    if not 0.25 <= scale <= 3:
        raise Invalid("scale must be a number from 0.25 to 3", 400)
    sound = args.get("sound", "0")
    if sound not in ("0", "1"):
        raise Invalid("sound must be 0 or 1", 400)
    return {"theme": theme, "elements": list(dict.fromkeys(elements)), "corner": corner,
            "scale": scale, "sound": sound == "1"}


def _csp(frame_ancestors: str) -> str:
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            f"frame-ancestors {frame_ancestors}")


def create_app(feed: LiveFeed, *, token: str, calibration=None) -> Flask:
    """The page's Flask application around ``feed``; ``token`` guards the referee actions.

    ``calibration`` (optional) is ``(corners) -> None``, called after a confirmed calibration
    as well as the feed's action handler (which gets it as the ``calibrate`` action).
    """
    if not isinstance(token, str) or len(token) < 8:
        raise ValueError("the referee token has at least 8 characters")
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(
        SECRET_KEY=secrets.token_bytes(32), MAX_CONTENT_LENGTH=MAX_BODY, DEBUG=False,
        TESTING=False, PROPAGATE_EXCEPTIONS=False, SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict", SESSION_COOKIE_NAME="gammoncam_session",
        JSON_SORT_KEYS=False, SEND_FILE_MAX_AGE_DEFAULT=0,
    )
    stop = threading.Event()
    app.extensions["gammoncam"] = {"feed": feed, "stop": stop}
    token_bytes = token.encode()

    def csrf_token() -> str:
        if "csrf" not in session:
            session["csrf"] = secrets.token_urlsafe(24)
        return session["csrf"]

    # --- headers and errors -------------------------------------------------------------
    @app.after_request
    def headers(response: Response) -> Response:
        h = response.headers
        h.setdefault("X-Content-Type-Options", "nosniff")
        h.setdefault("Referrer-Policy", "no-referrer")
        h.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        if request.path == "/overlay":
            h["Content-Security-Policy"] = _csp("*")  # OBS and stream tools embed it
        else:
            h["Content-Security-Policy"] = _csp("'none'")
            h["X-Frame-Options"] = "DENY"
        if request.path.startswith("/api/") or request.path in ("/referee", "/calibrate"):
            h["Cache-Control"] = "no-store"
        return response

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if request.path.startswith("/api/"):
            response = jsonify({"ok": False, "error": exc.description or exc.name})
        else:
            response = Response(f"{exc.code} {exc.name}: {exc.description}\n", mimetype="text/plain")
        response.status_code = exc.code or 500
        if exc.code == 405:
            response.headers["Allow"] = ", ".join(exc.valid_methods or [])
        return response

    @app.errorhandler(Invalid)
    def invalid(exc: Invalid):
        if request.path.startswith("/api/"):
            return jsonify({"ok": False, "error": exc.message}), exc.status
        return Response(exc.message + "\n", status=exc.status, mimetype="text/plain")

    # --- pages --------------------------------------------------------------------------
    @app.get("/")
    def index():
        return render_template("index.html")

    @app.get("/overlay")
    def overlay():
        return render_template("overlay.html", opts=_overlay_options(request.args))

    @app.get("/referee")
    def referee():
        return render_template("referee.html", csrf=csrf_token(), actions=ACTIONS,
                               profiles=PROFILES, modes=MODES, variants=list(VARIANTS))

    @app.get("/calibrate")
    def calibrate():
        return render_template("calibrate.html", csrf=csrf_token())

    # --- read-only API ------------------------------------------------------------------
    @app.get("/api/state")
    def api_state():
        last_id, text = feed.snapshot()
        return Response(text, mimetype="application/json", headers={"X-Last-Event-Id": str(last_id)})

    @app.get("/api/events")
    def api_events():
        since = request.args.get("since", "0")
        if not re.fullmatch(r"\d{1,12}", since):
            raise Invalid("since must be a whole number of 0 or more", 400)
        events = feed.events_since(int(since))
        return jsonify({"events": events, "last_id": feed.last_id, "oldest_id": feed.oldest_id()})

    @app.get("/api/match.txt")
    def api_transcript():
        text = feed.transcript() if feed.transcript else transcript_from_state(feed.state())
        return Response(text, mimetype="text/plain", headers={
            "Content-Disposition": 'inline; filename="match.txt"'})

    @app.get("/api/ids")
    def api_ids():
        ids = feed.ids() if feed.ids else (feed.state().get("ids") or {})
        return jsonify({"gnubg": ids.get("gnubg"), "xgid": ids.get("xgid")})

    @app.get("/api/frame.jpg")
    def api_frame():
        data = feed.frame_jpeg()
        if not data:
            abort(404, description="no camera frame yet")
        return Response(data, mimetype="image/jpeg")

    @app.get("/api/calibration")
    def api_calibration():
        return jsonify({"corners": feed.corners, "frame": bool(feed.frame_jpeg())})

    @app.get("/api/stream")
    def api_stream():
        header = request.headers.get("Last-Event-ID") or request.args.get("last_id")
        resume = None
        if header is not None:
            if not re.fullmatch(r"\d{1,12}", header.strip()):
                raise Invalid("Last-Event-ID must be a whole number", 400)
            resume = int(header)
        return Response(_stream(feed, stop, resume), mimetype="text/event-stream", headers={
            "Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    # --- referee actions ----------------------------------------------------------------
    @app.post("/api/referee/<action>")
    def api_referee(action: str):
        who = request.remote_addr
        given, via = _credentials()
        if given is None:
            log.warning("referee %s from %s refused: no token", action, who)
            return _json_error("the referee token is required (Authorization: Bearer TOKEN "
                               "or the form field 'token')", 401,
                               {"WWW-Authenticate": 'Bearer realm="gammoncam referee"'})
        if not hmac.compare_digest(given.encode(), token_bytes):
            log.warning("referee %s from %s refused: wrong token", action, who)
            return _json_error("wrong referee token", 403)
        if action not in ACTIONS:
            return _json_error(f"no referee action {action!r} (actions: {', '.join(ACTIONS)})", 404)
        body, form = _body()
        if via == "form":
            sent = body.get("csrf")
            expected = session.get("csrf")
            if not isinstance(sent, str) or not expected or not hmac.compare_digest(
                    sent.encode(), expected.encode()):
                log.warning("referee %s from %s refused: CSRF token missing or wrong", action, who)
                return _json_error("the form's CSRF token is missing or stale: reload the page", 403)
        params, author = validate_action(action, body, form=form)
        try:
            result = feed.act(action, params, author)
        except ActionRejected as exc:
            log.info("referee %s by %s from %s rejected: %s", action, author, who, exc.message)
            feed.note({"type": "referee", "action": action, "author": author, "params": params,
                       "result": "rejected", "message": exc.message})
            return _json_error(exc.message, exc.status)
        message = str(result.get("message") or "done")
        if action == "calibrate" and calibration is not None:
            calibration(params["corners"])
        log.info("referee %s by %s from %s: %s %s", action, author, who, message,
                 json.dumps(params, separators=(",", ":")))
        event_id = feed.note({"type": "referee", "action": action, "author": author,
                              "params": params, "result": "applied", "message": message})
        return jsonify({"ok": True, "action": action, "author": author, "message": message,
                        "event_id": event_id})

    return app


def _json_error(message: str, status: int, headers: dict | None = None):
    response = jsonify({"ok": False, "error": message})
    response.status_code = status
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def _credentials() -> tuple[str | None, str | None]:
    """``(token, "header" | "form")`` as the request gives it, or ``(None, None)``."""
    auth = request.headers.get("Authorization")
    if auth is not None:
        scheme, _, value = auth.strip().partition(" ")
        if scheme.lower() == "bearer" and value.strip():
            return value.strip(), "header"
        return None, None
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        value = request.form.get("token")
        if value:
            return value, "form"
    return None, None


def _body() -> tuple[dict, bool]:
    """The action's fields and whether they came from a form (strings) or JSON (typed)."""
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        if request.files:
            raise Invalid("referee actions take no files", 400)
        body = {}
        for key in request.form:
            values = request.form.getlist(key)
            if len(values) != 1:
                raise Invalid(f"field {key!r} is given {len(values)} times", 400)
            body[key] = values[0]
        return body, True
    if request.mimetype == "application/json":
        try:
            body = json.loads(request.get_data(cache=False) or b"{}")
        except (ValueError, RecursionError):
            raise Invalid("the body is not valid JSON", 400) from None
        if not isinstance(body, dict):
            raise Invalid("the JSON body is an object", 400)
        return body, False
    if request.get_data(cache=False):
        raise Invalid("send the fields as a form or as JSON", 415)
    return {}, False


def _stream(feed: LiveFeed, stop: threading.Event, resume: int | None):
    """The SSE body: a snapshot (or the events missed since ``resume``), then every event."""
    def snapshot_frame() -> tuple[int, bytes]:
        last_id, text = feed.snapshot()
        return last_id, f'id: {last_id}\nevent: state\ndata: {{"state":{text}}}\n\n'.encode()

    head = f"retry: {RETRY_MS}\n\n".encode()
    if resume is None or resume > feed.last_id or (resume < feed.oldest_id() - 1):
        last, frame = snapshot_frame()
        yield head + frame
    else:
        last = resume
        frames = feed.frames_since(last)
        yield head + b"".join(f for _, f in frames)
        if frames:
            last = frames[-1][0]
    while not stop.is_set() and not feed.closed:
        frames = feed.wait(last, HEARTBEAT_S)
        if stop.is_set():
            return
        if not frames:
            yield b": ping\n\n"
            continue
        if frames[0][0] > last + 1:  # the viewer fell behind the kept history
            last, frame = snapshot_frame()
            yield frame
            continue
        yield b"".join(f for _, f in frames)
        last = frames[-1][0]
