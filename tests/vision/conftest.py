"""Renders shared by the recognizer's tests."""

import pytest

from vision.synth.render import render_image


@pytest.fixture(scope="session")
def hand_free_renders():
    """``renders(seed, n)``: (image, truth) of the 1280x720 renders ``0..n-1`` of ``seed`` that
    have no hand over the board (a stack under a hand cannot be read), each drawn once a run."""
    drawn = {}

    def renders(seed: int, n: int) -> list:
        if (seed, n) not in drawn:
            frames = (render_image(seed, i, None, (1280, 720)) for i in range(n))
            drawn[seed, n] = [(img, truth) for img, truth in frames if not truth["hands_cover_board"]]
        return drawn[seed, n]

    return renders
