"""The field's geometry: the camera told by the field's corners, and where a raised thing stands."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.rectify import ASPECT, Field

SIZE = (1920, 1080)


def _camera(at, focal: float = 1500.0):
    """A pinhole centred on the image at ``at`` (u, v, height; field widths), looking at the
    field's middle: its projection of field-width metres (x, y down the field, z down into it)."""
    eye = np.array([at[0], at[1] * ASPECT, -at[2]])
    forward = np.array([0.5, 0.5 * ASPECT, 0.0]) - eye
    forward /= np.linalg.norm(forward)
    right = np.cross(forward, [0.0, 0.0, -1.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    R = np.stack([right, down, forward])
    K = np.array([[focal, 0, SIZE[0] / 2], [0, focal, SIZE[1] / 2], [0, 0, 1.0]])

    def project(points):
        rvec, _ = cv2.Rodrigues(R)
        image, _ = cv2.projectPoints(np.asarray(points, np.float64), rvec, -R @ eye, K, None)
        return image.reshape(-1, 2)

    return project


@pytest.mark.parametrize("at", [(2.4, 0.4, 1.6), (0.5, 1.9, 1.2), (-1.0, -0.6, 2.0)])
def test_the_camera_is_found_from_the_field_corners(at):
    project = _camera(at)
    field = Field(project([[0, 0, 0], [1, 0, 0], [1, ASPECT, 0], [0, ASPECT, 0]]))
    assert np.allclose(field.camera(SIZE), at, atol=0.01)


def test_a_die_by_the_far_rail_stands_on_the_field_though_its_middle_is_seen_beyond_it():
    # A camera low beyond the field's right end (vid 8207); a die's middle stands 0.02 high
    # over a spot 0.02 inside the left end, the far one: seen on the field it lies beyond the end.
    project = _camera((2.4, 0.4, 1.6))
    field = Field(project([[0, 0, 0], [1, 0, 0], [1, ASPECT, 0], [0, ASPECT, 0]]))
    seen = field.to_field(project([[0.02, 0.4 * ASPECT, -0.02]]))
    assert seen[0, 0] < 0
    assert np.allclose(field.beneath(seen, 0.02, SIZE), [[0.02, 0.4]], atol=1e-3)


def test_seen_straight_down_nothing_moves():
    field = Field(np.array([[400, 100], [1500, 100], [1500, 958], [400, 958]], float))
    assert field.camera(SIZE) is None
    uv = np.array([[-0.01, 0.5], [0.7, 1.02]])
    assert np.array_equal(field.beneath(uv, 0.02, SIZE), uv)
