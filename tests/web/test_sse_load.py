"""Load on loopback: 200 concurrent SSE viewers receive every event, in order.

A real waitress server on 127.0.0.1 and 200 client threads on raw sockets; the demo session
publishes 60 events as fast as it can. Everything has a deadline, so the test stops by itself.
"""

from __future__ import annotations

import json
import socket
import threading
import time

from web_ui.app import create_app
from web_ui.demo_feed import DemoSession
from web_ui.feed import LiveFeed
from web_ui.server import serve
from web_helpers import TOKEN

CLIENTS = 200
EVENTS = 60
DEADLINE_S = 60


class Viewer(threading.Thread):
    """One EventSource-like client: records the ids of the ``update`` messages it gets."""

    def __init__(self, port: int, until_id_box: dict, connected: threading.Semaphore):
        super().__init__(daemon=True)
        self.port = port
        self.box = until_id_box
        self.connected = connected
        self.snapshot_id: int | None = None
        self.ids: list[int] = []
        self.states_ok = True
        self.error: str | None = None

    def run(self) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=DEADLINE_S)
            sock.sendall(b"GET /api/stream HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
            buffer = b""
            header_done = False
            deadline = time.monotonic() + DEADLINE_S
            while time.monotonic() < deadline:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                buffer += chunk
                if not header_done:
                    if b"\r\n\r\n" not in buffer:
                        continue
                    head, buffer = buffer.split(b"\r\n\r\n", 1)
                    if b" 200 " not in head.split(b"\r\n")[0]:
                        self.error = head.split(b"\r\n")[0].decode()
                        return
                    header_done = True
                while b"\n\n" in buffer:
                    raw, buffer = buffer.split(b"\n\n", 1)
                    fields = dict(line.split(": ", 1) for line in raw.decode().split("\n")
                                  if ": " in line and not line.startswith(":"))
                    if fields.get("event") == "state":
                        self.snapshot_id = int(fields["id"])
                        self.connected.release()
                    elif fields.get("event") == "update":
                        event_id = int(fields["id"])
                        data = json.loads(fields["data"])
                        self.states_ok &= data["event"]["id"] == event_id and "board" in data["state"]
                        self.ids.append(event_id)
                        if event_id >= self.box.get("last", 1 << 60):
                            sock.close()
                            return
            self.error = "deadline or connection closed before the last event"
        except OSError as exc:
            self.error = repr(exc)


def test_200_viewers_receive_every_event_in_order(record_property):
    feed = LiveFeed()
    demo = DemoSession(feed, seed=11)
    handle = serve(create_app(feed, token=TOKEN), port=0)
    box: dict = {}
    connected = threading.Semaphore(0)
    viewers = [Viewer(handle.port, box, connected) for _ in range(CLIENTS)]
    try:
        t0 = time.monotonic()
        for viewer in viewers:
            viewer.start()
        for _ in viewers:
            assert connected.acquire(timeout=DEADLINE_S), "a viewer never got its first snapshot"
        t_connected = time.monotonic() - t0
        first = feed.last_id + 1
        t1 = time.monotonic()
        for _ in range(EVENTS):
            demo.step()
        box["last"] = feed.last_id
        for viewer in viewers:
            viewer.join(DEADLINE_S)
        t_delivered = time.monotonic() - t1
    finally:
        handle.stop()
    expected = list(range(first, first + EVENTS))
    errors = [v.error for v in viewers if v.error]
    assert not errors, errors[:3]
    assert all(v.snapshot_id < first for v in viewers)  # all connected before the burst
    for viewer in viewers:
        # every event after the viewer's snapshot, none missing, none repeated, in order
        assert viewer.ids == expected
        assert viewer.states_ok
    record_property("sse_clients", CLIENTS)
    record_property("sse_events", EVENTS)
    print(f"\nSSE load: {CLIENTS} viewers connected in {t_connected:.2f} s; {EVENTS} events "
          f"({CLIENTS * EVENTS} messages) delivered to all in {t_delivered:.2f} s")
