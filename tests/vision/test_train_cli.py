"""gammoncam train-vision: bad input refused with exit status 2 and one line, before any training."""

import pytest

from gammoncam.cli import main


@pytest.mark.parametrize("stage, init, says", [
    ("dice", "nowhere/dice.onnx", "no nowhere/dice_finder.onnx nor nowhere/dice_reader.onnx"),
    ("dice", "nowhere/run.ckpt", "no nowhere/run.ckpt"),
    ("checkers", "models/checkers.onnx", "takes a checkpoint (.ckpt), not an ONNX export"),
])
def test_an_init_that_cannot_be_used_is_refused(tmp_path, capsys, stage, init, says):
    assert main(["synth", "images", "--n", "1", "--seed", "4", "--out", str(tmp_path), "--size", "320x180",
                 "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["train-vision", stage, str(tmp_path), "--init", init]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and says in err[0]
