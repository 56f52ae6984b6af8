"""Frames from a camera, a video file or a network stream, with their times.

A source is a camera index (``0``), a video file path, or an ``rtsp://``, ``http://`` or
``https://`` URL; OpenCV's :class:`cv2.VideoCapture` reads them all. A source that cannot be
opened raises :class:`SourceError`; one that stops giving frames before its end (a camera
unplugged, a stream dropped) raises :class:`SourceLost`. A file that simply ends is not an error.

Frame times are the video's own clock for a file (frame index over its frame rate) and the
wall clock since the first frame for a camera or stream.

>>> FrameSource.describe("0"), FrameSource.describe("rtsp://cam/1"), FrameSource.describe("a.mp4")
('camera 0', 'stream rtsp://cam/1', 'video a.mp4')
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Iterator

import cv2
import numpy as np

STREAM_SCHEMES = ("rtsp://", "rtsps://", "http://", "https://", "udp://", "tcp://")
#: a live source that gives no frame for this long has vanished
LIVE_TIMEOUT_S = 5.0


class SourceError(Exception):
    """The source cannot be opened (no such camera, no such file, not a video, no stream)."""


class SourceLost(SourceError):
    """The source stopped giving frames before its end (unplugged camera, dropped stream)."""


@dataclass(frozen=True)
class Frame:
    index: int
    time: float  # seconds: the video's clock for a file, since the first frame when live
    image: np.ndarray


class FrameSource:
    """An opened source; iterate it for :class:`Frame` objects."""

    def __init__(self, source: str | int):
        self.source = source
        self.kind = self.kind_of(source)
        self.name = self.describe(source)
        if self.kind == "file" and not os.path.isfile(str(source)):
            raise SourceError(f"{self.name}: {'not a file' if os.path.exists(str(source)) else 'no such file'}")
        target = int(source) if self.kind == "camera" else str(source)
        self.capture = cv2.VideoCapture(target)
        if not self.capture.isOpened():
            self.capture.release()
            raise SourceError(f"{self.name}: cannot be opened")
        fps = self.capture.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps) if fps and 1 <= fps <= 240 else 30.0
        count = self.capture.get(cv2.CAP_PROP_FRAME_COUNT)
        self.frame_count = int(count) if self.kind == "file" and count and count > 0 else None
        self.size = (int(self.capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self.capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))

    @staticmethod
    def kind_of(source: str | int) -> str:
        if isinstance(source, int) or str(source).isdigit():
            return "camera"
        if str(source).lower().startswith(STREAM_SCHEMES):
            return "stream"
        return "file"

    @classmethod
    def describe(cls, source: str | int) -> str:
        return {"camera": "camera", "stream": "stream", "file": "video"}[cls.kind_of(source)] + f" {source}"

    @property
    def live(self) -> bool:
        return self.kind != "file"

    def __iter__(self) -> Iterator[Frame]:
        index = 0
        start = None
        last_ok = time.monotonic()
        while True:
            ok, image = self.capture.read()
            if not ok or image is None:
                if not self.live:
                    # headers may count a frame or two more
                    if self.frame_count is not None and index < self.frame_count - 2:
                        raise SourceLost(f"{self.name}: no frame after frame {index} of {self.frame_count}")
                    return
                if time.monotonic() - last_ok > LIVE_TIMEOUT_S or index == 0:
                    raise SourceLost(f"{self.name}: no frames for {LIVE_TIMEOUT_S:.0f} s, the source is gone")
                time.sleep(0.02)
                continue
            last_ok = time.monotonic()
            if self.live:
                start = last_ok if start is None else start
                t = last_ok - start
            else:
                t = index / self.fps
            yield Frame(index, t, image)
            index += 1

    def close(self) -> None:
        self.capture.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
