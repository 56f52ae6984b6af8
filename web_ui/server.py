"""Serving the page with waitress, a production WSGI server (never Flask's debug server).

>>> from web_ui.feed import LiveFeed
>>> from web_ui.app import create_app
>>> handle = serve(create_app(LiveFeed(), token="doctest-token"), port=0)
>>> handle.url.startswith("http://127.0.0.1:")
True
>>> handle.stop()
"""

from __future__ import annotations

import threading

from waitress.server import create_server

#: Worker threads: each Server-Sent Events viewer holds one while connected.
THREADS = 320
#: Open connections at most (viewers, overlays, API calls together).
CONNECTION_LIMIT = 1000
#: Seconds an idle connection stays open (SSE sends a comment every 15 s, well inside).
CHANNEL_TIMEOUT = 120


class ServerHandle:
    """A running server: ``url``, ``port``, ``stop()``, ``wait()``."""

    def __init__(self, server, app, host: str):
        self.server = server
        self.app = app
        self.host = host
        self.port = int(server.effective_port)
        shown = f"[{host}]" if ":" in host else host
        self.url = f"http://{shown}:{self.port}"
        self._thread = threading.Thread(target=self._run, name="waitress", daemon=True)
        self._done = threading.Event()
        self._stopping = False
        self._thread.start()

    def _run(self) -> None:
        try:
            self.server.run()
        except (OSError, ValueError):  # the sockets were closed by stop()
            pass
        finally:
            self._done.set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the server stops (or ``timeout``); True when it has."""
        return self._done.wait(timeout)

    def stop(self, timeout: float = 5.0) -> None:
        """Close the viewers' streams, end the worker threads and stop listening (once)."""
        if self._stopping:
            self._done.wait(timeout)
            return
        self._stopping = True
        ext = self.app.extensions.get("gammoncam", {})
        if "stop" in ext:
            ext["stop"].set()
        if "feed" in ext:
            ext["feed"].wake()  # the feed lives on: another server may serve it later
        # the streams end, their threads finish while the loop still flushes what they wrote
        self.server.task_dispatcher.shutdown(timeout=timeout)
        # then close every socket from the loop's own thread, which ends the loop
        try:
            self.server.trigger.pull_trigger(self._close_all)
        except OSError:  # the loop already ended and closed its trigger
            pass
        if not self._done.wait(timeout):
            self.server.close()

    def _close_all(self) -> None:
        from waitress import wasyncore

        wasyncore.close_all(self.server._map, ignore_all=True)


def serve(app, host: str = "127.0.0.1", port: int = 8080, *, threads: int = THREADS) -> ServerHandle:
    """Serve ``app`` on ``host:port`` (port 0: any free one) in a background thread.

    Raises :class:`OSError` when the address is taken or cannot be bound.
    """
    server = create_server(app, host=host, port=port, threads=threads,
                           connection_limit=CONNECTION_LIMIT, channel_timeout=CHANNEL_TIMEOUT,
                           cleanup_interval=10, ident="gammoncam", clear_untrusted_proxy_headers=True,
                           expose_tracebacks=False)
    return ServerHandle(server, app, host)
