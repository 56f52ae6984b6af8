"""Board localisation: corners found on renders, nothing found on a blank frame, the geometry
that orders and completes them, and ``gammoncam recognize`` without ``--corners``."""

import json

import cv2
import numpy as np
import pytest

from gammoncam.cli import main
from vision import corners as C
from vision.evaluate import match_turn

needs_model = pytest.mark.skipif(not C.FINDER.exists(), reason="models/corners.onnx not trained")

# Frames of a fixed run (not a training or test seed), at 1280x720, with no hand over the board.
SEED, RENDERS = 20261201, 8


@pytest.fixture(scope="module")
def frames(hand_free_renders):
    return [(img, np.array(truth["field"])) for img, truth in hand_free_renders(SEED, RENDERS)]


@needs_model
def test_found_on_renders(frames):
    errs, turns = [], []
    for img, true in frames:
        found = C.find_corners(img)
        assert found is not None
        turn, err = match_turn(found, true)
        errs.append(err)
        turns.append(turn)
    errs = np.array(errs)
    assert len(errs) >= 4
    assert np.median(errs) < 1.5, errs.round(2)
    assert (errs.max(axis=1) < 6.0).mean() >= 0.8, errs.round(2)
    # The top edge is a long edge: the order is right or turned half round.
    assert sum(t % 2 == 0 for t in turns) >= len(turns) - 1


@needs_model
def test_nothing_found_without_a_board():
    assert C.find_corners(np.zeros((720, 1280, 3), np.uint8)) is None
    rng = np.random.default_rng(0)
    assert C.find_corners(cv2.GaussianBlur(rng.integers(0, 255, (540, 960, 3), dtype=np.uint8), (0, 0), 8)) is None


def test_order_puts_a_long_edge_on_top():
    field = np.array([[100, 50], [500, 60], [490, 380], [110, 370]], float)  # TL, TR, BR, BL
    shuffled = field[[2, 0, 3, 1]]
    # The bar's ends say which edges are the long ones ...
    got = C.order_field(shuffled, list(C.bar_ends_of(field)))
    assert np.abs(got - field).max() < 1e-9
    # ... even when the field is seen so slanted that its short edges look longer.
    tall = np.array([[200, 40], [260, 40], [280, 400], [180, 400]], float)
    ends = list(C.bar_ends_of(tall))
    got = C.order_field(tall[::-1], ends)
    assert {tuple(p) for p in got[:2]} in ({(200, 40), (260, 40)}, {(280, 400), (180, 400)})
    assert np.abs(got[:2].mean(axis=0) - [230, 40]).max() < 1e-9  # the long edge nearer the top


def test_a_hidden_corner_is_completed_from_three_and_the_bar():
    H = cv2.getPerspectiveTransform(C.UNIT_SQUARE.astype(np.float32),
                                    np.array([[120, 80], [610, 95], [650, 420], [90, 400]], np.float32))
    field = C.transform(H, C.UNIT_SQUARE)
    ends = list(C.bar_ends_of(field))
    for hidden in range(4):
        three = np.delete(field, hidden, axis=0)
        got = C.complete(three, ends)
        assert got is not None and np.abs(C.clockwise(got) - C.clockwise(field)).max() < 1e-3
    assert C.complete(field[:3], []) is None


@pytest.mark.parametrize("tray_at", ["right", "left"])
def test_a_field_found_over_a_tray_is_trimmed_by_its_bar(tray_at):
    """Seen in perspective, a field found with a tray's depth beyond one short end (vid 9928):
    one of its two trimmed fields is the field, whichever end the tray lies at, for the bar's
    ends lie in the field's middle, not in the find's."""
    H = cv2.getPerspectiveTransform(C.UNIT_SQUARE.astype(np.float32),
                                    np.float32([[300, 120], [900, 160], [980, 560], [220, 520]]))
    to_image = lambda uv: C.transform(H, uv)
    field = to_image([[0, 0], [1, 0], [1, 1], [0, 1]])
    ends = list(to_image([[0.5, 0], [0.5, 1]]))
    lo, hi = (0.0, 1.07) if tray_at == "right" else (-0.07, 1.0)
    found = to_image([[lo, 0], [hi, 0], [hi, 1], [lo, 1]])
    cuts = C.trimmed(found, ends)
    assert len(cuts) == 2
    assert min(np.abs(cut - field).max() for cut in cuts) < 1e-3
    assert C.trimmed(field, ends) == []  # the bar in its middle: nothing to trim


def test_peaks_to_a_fraction_of_a_cell():
    ys, xs = np.mgrid[0:20, 0:30]
    heat = np.exp(-((xs - 12.3) ** 2 + (ys - 7.8) ** 2) / 2)
    (x, y, v), = C.peaks(heat)
    assert abs(x - 12.3) < 0.01 and abs(y - 7.8) < 0.01 and v > 0.9
    assert C.peaks(heat * 0.1) == []


def test_corner_crop_puts_the_corner_in_the_middle_field_to_the_bottom_right():
    img = np.zeros((400, 600, 3), np.uint8)
    field = np.array([[100, 80], [500, 90], [520, 330], [90, 320]], float)
    cv2.fillPoly(img, [field.astype(np.int32)], (255, 255, 255))
    for k in range(4):
        crop, M = C.corner_crop(img, field, k)
        assert np.abs(C.transform(M, field[k]) - C.CROP / 2).max() < 1e-3
        q = C.CROP // 4
        assert crop[-q:, -q:].mean() > 200 and crop[:q, :q].mean() < 50  # the field at the bottom right


def test_convex():
    assert C.convex(np.array([[0, 0], [10, 0], [10, 6], [0, 6]], float))
    assert not C.convex(np.array([[0, 0], [10, 0], [0, 6], [10, 6]], float))  # self-crossing
    assert not C.convex(np.array([[0, 0], [10, 0], [10, 6], [0, 6]], float)[::-1])  # anticlockwise


@needs_model
def test_command_line_finds_the_board(tmp_path, capsys, frames):
    img, true = frames[0]
    path = tmp_path / "frame.jpg"
    cv2.imwrite(str(path), img)
    assert main(["recognize", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    _, err = match_turn(np.array(out["corners"]), true)
    assert err.max() < 8.0 and len(out["top"]) == 12


def test_command_line_without_a_board(tmp_path, capsys):
    path = tmp_path / "blank.png"
    cv2.imwrite(str(path), np.full((360, 640, 3), 90, np.uint8))
    assert main(["recognize", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert captured.out == "" and len(err) == 1 and err[0].startswith("gammoncam recognize: could not find the board")
