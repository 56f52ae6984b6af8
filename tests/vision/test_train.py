"""vision.train: fine-tuning the shipped networks from their ONNX exports (needs the train extras)."""

import numpy as np
import pytest

from vision import dice

torch = pytest.importorskip("torch")
pytest.importorskip("onnx")

from vision.train import PairedRun, ResumeError, finder_net, onnx_state, reader_net  # noqa: E402


def test_the_shipped_reader_loads_into_its_torch_network_unchanged():
    # Its checkpoint is not kept: the folded batch norms become the identity, and the network in
    # eval mode gives the export's logits.
    import onnxruntime as ort

    net = reader_net(len(dice.READINGS))
    net.load_state_dict(onnx_state(net, dice.READER))
    net.eval()
    x = np.random.default_rng(1).random((6, 3, dice.CROP, dice.CROP), dtype=np.float32)
    session = ort.InferenceSession(str(dice.READER))
    expected = session.run(None, {session.get_inputs()[0].name: x})[0]
    assert np.allclose(net(torch.from_numpy(x)).detach().numpy(), expected, atol=1e-4)


def test_an_export_of_another_architecture_is_refused():
    with pytest.raises(ResumeError, match="another architecture"):
        onnx_state(reader_net(len(dice.READINGS)), dice.MODEL)  # the finder's export


def test_a_run_from_the_shipped_pair_trains_with_its_batch_norms_fixed(tmp_path):
    # Batch statistics would undo the statistics folded into the weights, and a resumed run
    # keeps them fixed too.
    def norms(net):
        return [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]

    nets = {"finder": finder_net(), "reader": reader_net(len(dice.READINGS))}
    run = PairedRun(nets, tmp_path / "r.onnx", 1e-3, 2, {"finder": 0, "reader": 3}, dice.MODELS / "dice.onnx",
                    only="reader")
    run.train()
    assert nets["reader"].training and not any(m.training for m in norms(nets["reader"]))
    run.end_epoch({"epoch": 1})
    again = {"finder": finder_net(), "reader": reader_net(len(dice.READINGS))}
    resumed = PairedRun(again, tmp_path / "r.onnx", 1e-3, 2, {"finder": 0, "reader": 3})
    resumed.train()
    assert resumed.start == 1 and not any(m.training for m in norms(again["reader"]))


def test_the_mixed_stack_network_trains_on_fouled_renders_and_exports_two_outputs(tmp_path):
    """``train-vision mixed`` on a few renders made with fouls: an ONNX the recognizer loads as
    the mixed-stack network; renders without fouls are refused (nothing mixed to learn)."""
    from vision import checkers
    from vision.synth.dataset import write_images
    from vision.train import train_checkers

    plain, fouled = tmp_path / "plain", tmp_path / "fouled"
    write_images(plain, 4, seed=3, size=(640, 360), workers=1, progress=False)
    write_images(fouled, 6, seed=3, size=(640, 360), workers=1, progress=False, fouls=1.0)
    with pytest.raises(ResumeError, match="no mixed stack"):
        train_checkers([plain], tmp_path / "none.onnx", epochs=1, samples=256, size="small", task="mixed")
    out = tmp_path / "mixed.onnx"
    result = train_checkers([fouled], out, epochs=1, batch=16, samples=64, size="small", task="mixed", val_fraction=0.2)
    assert set(result["history"][0]) >= {"val_mixed_found", "val_false_mixed"}
    model = checkers.CheckerModel(out, outputs=2)
    p = model(np.zeros((3, checkers.CROP[1], checkers.CROP[0], 3), np.uint8))
    assert p.shape == (3, 2) and np.allclose(p.sum(axis=1), 1.0)


def test_the_tray_network_trains_on_bear_off_renders_and_reads_sixteen_counts(tmp_path):
    """``train-vision trays`` on a few renders made with ``--bear-off``: each count drawn alike,
    an ONNX the recognizer loads as its tray reader (0 to 15 borne off, for each side)."""
    from vision import trays
    from vision.synth.dataset import write_images
    from vision.train import _checker_crops, train_checkers

    data = tmp_path / "bear_off"
    write_images(data, 6, seed=3, size=(640, 360), workers=1, progress=False, bear_off=1.0)
    crops, counts, image = _checker_crops([data], "trays")
    assert crops.shape[0] == counts.shape[0] == 12 and image.tolist() == [k // 2 for k in range(12)]
    assert counts.max() > 0  # the trays hold checkers
    out = tmp_path / "trays.onnx"
    train_checkers([data], out, epochs=1, batch=4, samples=8, size="small", task="trays", val_fraction=0.3)
    reader = trays.TrayReader(out)
    p = reader.model(np.zeros((2, *trays.CROP[::-1], 3), np.uint8))
    assert p.shape == (2, trays.COUNTS) and np.allclose(p.sum(axis=1), 1.0)


def test_a_reader_of_another_size_starts_from_scratch_beside_the_shipped_finder(tmp_path):
    # models/dice.onnx's finder is kept as shipped; a reader of other widths cannot take the
    # shipped reader's weights, so it trains from scratch, and a run that would keep it refuses.
    other = "wide"  # the shipped reader is "small" (models/dice.md)
    nets = {"finder": finder_net(), "reader": reader_net(len(dice.READINGS), other)}
    run = PairedRun(nets, tmp_path / "w.onnx", 1e-3, 1, {"finder": 0, "reader": 3}, dice.MODELS / "dice.onnx",
                    only="reader")
    assert run.folded == {"finder"}
    keep = {"finder": finder_net(), "reader": reader_net(len(dice.READINGS), other)}
    with pytest.raises(ResumeError, match="holds no reader of this architecture to keep"):
        PairedRun(keep, tmp_path / "k.onnx", 1e-3, 1, {"finder": 3, "reader": 3}, dice.MODELS / "dice.onnx",
                  only="finder")


def test_the_checker_network_fine_tunes_from_its_shipped_export(tmp_path, monkeypatch):
    """``train-vision checkers --init models/checkers.onnx``: the shipped network's checkpoint is not
    kept, so it starts from the export; at a learning rate too small to move a weight, the run
    (resumed after its first epoch, its batch norms still the identity) exports the network it
    started from."""
    import onnxruntime as ort

    from vision import checkers, train
    from vision.synth.dataset import write_images
    from vision.train import train_checkers

    data = tmp_path / "renders"
    write_images(data, 4, seed=3, size=(640, 360), workers=1, progress=False)
    out = tmp_path / "fine.onnx"
    checked = []

    def stopped_in_the_second_epoch(net, x):
        checked.append(len(x))
        if len(checked) == 2:
            raise KeyboardInterrupt
        return predict(net, x)

    predict = train.predict
    monkeypatch.setattr(train, "predict", stopped_in_the_second_epoch)
    with pytest.raises(KeyboardInterrupt):
        train_checkers([data], out, epochs=2, batch=8, samples=16, lr=1e-12, init=checkers.MODEL, val_fraction=0.5)
    monkeypatch.setattr(train, "predict", predict)
    result = train_checkers([data], out, epochs=2, batch=8, samples=16, lr=1e-12, init=checkers.MODEL,
                            val_fraction=0.5)
    assert [r["epoch"] for r in result["history"]] == [1, 2]
    x = checkers.to_input(np.random.default_rng(2).integers(0, 256, (5, checkers.CROP[1], checkers.CROP[0], 3),
                                                            dtype=np.uint8))
    shipped, fine = (ort.InferenceSession(str(p)) for p in (checkers.MODEL, out))
    assert np.allclose(fine.run(None, {fine.get_inputs()[0].name: x})[0],
                       shipped.run(None, {shipped.get_inputs()[0].name: x})[0], atol=1e-3)
