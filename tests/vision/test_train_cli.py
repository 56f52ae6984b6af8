"""gammoncam train-vision: bad input refused with exit status 2 and one line, before any training."""

import sys

import pytest

from gammoncam.cli import main


@pytest.mark.parametrize("stage, init, says", [
    ("dice", "nowhere/dice.onnx", "no nowhere/dice_finder.onnx nor nowhere/dice_reader.onnx"),
    ("dice", "nowhere/run.ckpt", "no nowhere/run.ckpt"),
    ("checkers", "nowhere/checkers.onnx", "no nowhere/checkers.onnx"),
])
def test_an_init_that_cannot_be_used_is_refused(tmp_path, capsys, stage, init, says):
    assert main(["synth", "images", "--n", "1", "--seed", "4", "--out", str(tmp_path), "--size", "320x180",
                 "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["train-vision", stage, str(tmp_path), "--init", init]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]


@pytest.fixture
def renders(tmp_path, capsys):
    assert main(["synth", "images", "--n", "1", "--seed", "4", "--out", str(tmp_path), "--size", "320x180",
                 "--workers", "1"]) == 0
    capsys.readouterr()
    return tmp_path


def test_training_without_torch_says_what_to_install(renders, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # as on a user's install: the product runs ONNX files
    assert main(["train-vision", "dice", str(renders)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "needs torch and onnx" in err[0]


def test_a_gpu_asked_for_where_there_is_none_is_refused(renders, capsys):
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA GPU")
    assert main(["train-vision", "dice", str(renders), "--train-on", "cuda"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "sees no CUDA GPU" in err[0]


def test_a_share_of_blurred_crops_outside_zero_to_one_is_refused(renders, capsys):
    assert main(["train-vision", "checkers", str(renders), "--defocus", "30"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--defocus 30.0: a share of the crops, 0 to 1" in err[0]
