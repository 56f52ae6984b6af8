"""Training the recognizer's networks on renders, from scratch, resumable, exported to ONNX.

Torch is needed only here (``pip install torch onnx``); the product runs the exported ONNX files
with onnxruntime. A dataset directory is one written by ``gammoncam synth images``; its crops
are cut once with the same code the recognizer runs (:func:`vision.checkers.crops`, with the
bar found by :func:`vision.rectify.estimate_bar`) and cached next to it.

Retrain the checker network from scratch::

    gammoncam synth images --n 3000 --seed 101 --out data/train
    gammoncam train-vision checkers data/train --epochs 12 --out models/checkers.onnx   # --net small: the first design

The mixed-stack and tray networks are trained the same way on their own renders
(``train-vision mixed``, ``train-vision trays``: ``models/mixed.md``, ``models/trays.md``).

A run saves ``<out>.ckpt`` after every epoch and resumes from it when started again.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from vision import checkers, trays
from vision.pool import worker_pool
from vision.rectify import Field, estimate_bar


def _cut(job):
    directory, index, seed = job
    name = f"{index:06d}"
    truth = json.loads((directory / "truth" / f"{name}.json").read_text())
    image = cv2.imread(str(directory / "images" / f"{name}.jpg"))
    field = Field(np.array(truth["field"]), estimate_bar(image, np.array(truth["field"])))
    rng = np.random.default_rng([seed, index])
    return (checkers.crops(image, field, jitter=rng), checkers.labels(truth["recognized"]),
            checkers.mixed_labels(truth), trays.crops(image, field), trays.labels(truth["recognized"]))


def checker_dataset(directory: Path, workers: int = 2, jitter_seed: int = 0) -> Path:
    """The location crops, labels and mixed-stack flags of a synth directory, and its tray
    crops and borne-off counts, cut once into ``checker_crops.npz`` (its path; one cut before
    the trays were read is cut again)."""
    cache = directory / "checker_crops.npz"
    if cache.exists():
        with np.load(cache) as data:
            if "t" in data:
                return cache
    n = len(list((directory / "truth").glob("*.json")))
    jobs = [(directory, i, jitter_seed) for i in range(n)]
    cut = [[], [], [], [], []]
    with worker_pool(workers, cv2.setNumThreads, (1,)) as pool:
        for parts in tqdm(pool.map(_cut, jobs, chunksize=8), total=n, desc="cutting crops", unit="img"):
            for kept, part in zip(cut, parts):
                kept.append(part)
    np.savez(cache, **{key: np.concatenate(kept) for key, kept in zip("xymto", cut)})
    return cache


CHECKER_NETS = {
    # name: (channels of the five convolutions, hidden units); "small" made the first models,
    # "wide" the shipped one (models/checkers.md)
    "small": ((16, 24, 32, 40, 48), 128),
    "wide": ((32, 48, 64, 96, 128), 256),
}


def checker_net(size: str = "wide", classes: int = len(checkers.CLASSES)):
    """An all-convolutional network for a 24x144 crop (strided convolutions, cheap on a CPU);
    the last layers keep where along the column a checker lies. ``size`` names a row of
    :data:`CHECKER_NETS`."""
    import torch.nn as nn

    def block(i, o, s=1):
        return [nn.Conv2d(i, o, 3, stride=s, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    (c1, c2, c3, c4, c5), hidden = CHECKER_NETS[size]
    layers = block(3, c1, 2) + block(c1, c2, 2) + block(c2, c3) + block(c3, c4, 2) + block(c4, c5, 2)
    # 144x24 -> 9x2
    return nn.Sequential(*layers, nn.Flatten(), nn.Dropout(0.2), nn.Linear(c5 * 9 * 2, hidden),
                         nn.ReLU(inplace=True), nn.Linear(hidden, classes))


#: A lens out of focus on a location's crop, in crop pixels: a small board's crop has about one
#: pixel per pixel of a 854x480 frame (vid 9998: a point 17 px wide), so a 2 px defocus
#: (:mod:`vision.conditions`) is up to 2 crop pixels there, on top of the render's own blur.
CHECKER_BLUR = (0.5, 2.5)


def _augment(xb, rng, defocus: float = 0.0):
    """A lens out of focus on a ``defocus`` share of the crops (:data:`CHECKER_BLUR`), colour and
    light jitter, a mirror (a stack mirrored is the same stack), noise, on uint8 (N,h,w,3)."""
    import torch

    if defocus:
        xb = _degrade(xb, rng, CHECKER_BLUR, (0.0, defocus, 0.0))
    x = _gamma(torch.from_numpy(checkers.to_input(xb)), rng)
    n = x.shape[0]
    gain = torch.from_numpy(rng.uniform(0.7, 1.3, (n, 1, 1, 1)).astype(np.float32))
    chan = torch.from_numpy(rng.uniform(0.88, 1.12, (n, 3, 1, 1)).astype(np.float32))
    bias = torch.from_numpy(rng.uniform(-0.08, 0.08, (n, 1, 1, 1)).astype(np.float32))
    x = (x * gain * chan + bias).clamp(0, 1)
    flip = torch.from_numpy(rng.random(n) < 0.5)
    x[flip] = x[flip].flip(3)
    x = x + torch.randn_like(x) * float(rng.uniform(0, 0.03))
    return x


def _checker_crops(directories: list[Path], task: str = "stacks") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The crops and labels (``task``: "stacks", the 31 readings; "mixed", the mixed-stack flags;
    "trays", the tray crops and their borne-off counts) of all ``directories`` in one array each
    (filled in place: a copy of many sets would not fit in memory), and which image each crop
    comes from."""
    crop, label = ("t", "o") if task == "trays" else ("x", "y" if task == "stacks" else "m")
    per_image = len(trays.COLOURS) if task == "trays" else len(checkers.LOCATIONS)
    sizes = []
    for d in directories:
        with np.load(checker_dataset(d)) as data:
            sizes.append(len(data[crop]))
    x = np.empty((sum(sizes), checkers.CROP[1], checkers.CROP[0], 3), np.uint8)
    y = np.empty(sum(sizes), np.int64)
    at = 0
    for d, n in zip(directories, sizes):
        with np.load(checker_dataset(d)) as data:
            x[at:at + n] = data[crop]
            y[at:at + n] = data[label]
        at += n
    return x, y, np.arange(len(y)) // per_image


TASKS = {
    # task: (outputs, label smoothing, how much likelier a crop of each kind is drawn than an empty
    # stack, resp. a stack of one colour; None: every class drawn equally often)
    "stacks": (len(checkers.CLASSES), 0.02, 2.0),  # non-empty stacks, the minority and the hard part
    # Mixed stacks drawn about as often as the rest (a board rendered with ``--fouls 0.5`` has
    # half a mixed stack among its 26 locations), so the network's odds are the likelihood ratio
    # the tracker weighs (:func:`gammoncam.decoding.mixed_stack_play`), not skewed by a prior.
    "mixed": (2, 0.0, 40.0),
    # Each count borne off drawn equally often, so the tray network gives a likelihood, which the
    # joint reading weighs with how often real play has that many off (vision.observation.BORNE_OFF).
    "trays": (trays.COUNTS, 0.02, None),
}


def train_checkers(directories: list[Path], out: Path, epochs: int = 12, batch: int = 128, lr: float = 3e-3,
                   val_fraction: float = 0.03, threads: int = 2, seed: int = 0, samples: int = 25600,
                   init: Path | None = None, size: str = "wide", task: str = "stacks", defocus: float = 0.3) -> dict:
    """Train (or resume) a network on the location crops of the synth ``directories``; export
    ONNX to ``out``. ``task`` (:data:`TASKS`): "stacks", the checker network (colour and count);
    "mixed", the mixed-stack network (checkers of both colours on one point, renders made with
    ``synth images --fouls``); "trays", the tray network (checkers borne off, renders made with
    ``synth images --bear-off``).

    ``init`` starts from an earlier run's checkpoint, or from an ONNX export whose checkpoint is
    not kept (a shipped model, :func:`onnx_state`), to fine-tune, e.g. with a lower ``lr``;
    ``size`` names the network (:data:`CHECKER_NETS`); ``defocus`` is the share of each batch's
    crops blurred as by a lens out of focus (:func:`_augment`; the shipped networks' first runs
    had none, ``models/checkers.md``)."""
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    outputs, smoothing, drawn = TASKS[task]
    x, y, image = _checker_crops(directories, task)
    if task == "mixed" and not y.any():
        raise ResumeError("no mixed stack in these renders: make them with `gammoncam synth images --fouls 0.5`")
    rng = np.random.default_rng(seed)
    val = (rng.random(image[-1] + 1) < val_fraction)[image]  # whole images held out, not single crops
    train_at, val_at = np.flatnonzero(~val), np.flatnonzero(val)
    if drawn is None:
        weights = 1.0 / np.bincount(y[train_at], minlength=outputs)[y[train_at]]
    else:
        weights = np.where(y[train_at] == 0, 1.0, drawn)
    weights /= weights.sum()
    steps = min(len(train_at), samples) // batch  # an 'epoch' is ``samples`` crops drawn by weight
    net = checker_net(size, outputs)
    folded = init is not None and init.suffix == ".onnx"
    if folded:
        net.load_state_dict(onnx_state(net, init))
        print(f"starting from the weights in {init}")
    elif init is not None:  # fine-tune from weights this project trained before (a .ckpt)
        state = torch.load(init, weights_only=False)
        if (state.get("size", "small"), state.get("task", "stacks")) != (size, task):
            raise ResumeError(f"{init} holds a {state.get('size', 'small')} {state.get('task', 'stacks')} network, "
                              f"not a {size} {task} one")
        net.load_state_dict(state["net"])
        print(f"starting from the weights in {init}")
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=epochs * steps, pct_start=0.15)
    out.parent.mkdir(parents=True, exist_ok=True)
    ckpt = out.with_suffix(".ckpt")
    start, history = 0, []
    if ckpt.exists():
        state = torch.load(ckpt, weights_only=False)
        if (state.get("size", "small"), state.get("task", "stacks")) != (size, task):
            raise ResumeError(f"{ckpt} holds a {state.get('size', 'small')} {state.get('task', 'stacks')} network: "
                              f"resume it with --net {state.get('size', 'small')}")
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        start, history = state["epoch"], state["history"]
        folded = state.get("folded", False)
        print(f"resuming after epoch {start}")
    for epoch in range(start, epochs):
        net.train()
        if folded:
            _hold_folded_norms(net)
        t0 = time.time()
        erng = np.random.default_rng([seed, epoch])
        order = train_at[erng.choice(len(train_at), steps * batch, p=weights)]
        bar = tqdm(range(steps), desc=f"epoch {epoch + 1}/{epochs}", unit="batch")
        total = 0.0
        for k in bar:
            idx = np.sort(order[k * batch:(k + 1) * batch])
            xb = _augment(x[idx], erng, defocus)
            loss = F.cross_entropy(net(xb), torch.from_numpy(y[idx]), label_smoothing=smoothing)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss)
            if k % 20 == 0:
                bar.set_postfix(loss=f"{total / (k + 1):.4f}")
        right = predict(net, x[val_at]) == y[val_at]
        acc = float(right.mean())
        record = {"epoch": epoch + 1, "loss": total / steps, "val_accuracy": acc, "seconds": time.time() - t0}
        if task == "mixed":  # the rare class apart: mixed stacks found, and single-colour ones taken for mixed
            mixed = y[val_at] == 1
            record.update(val_mixed_found=f"{int(right[mixed].sum())}/{int(mixed.sum())}",
                          val_false_mixed=f"{int((~right[~mixed]).sum())}/{int((~mixed).sum())}")
        history.append(record)
        print(f"epoch {epoch + 1}: loss {total / steps:.4f}, held-out crop accuracy {acc:.5f}",
              *(f"{k} {v}" for k, v in record.items() if k.startswith("val_mixed") or k.startswith("val_false")))
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
                    "epoch": epoch + 1, "history": history, "size": size, "task": task, "folded": folded}, ckpt)
    export_onnx(net, out)
    return {"train_crops": int(len(train_at)), "val_crops": int(len(val_at)), "history": history}


def predict(net, x: np.ndarray) -> np.ndarray:
    """The network's likeliest class of every crop of ``x`` (on the device the network is on)."""
    import torch

    net.eval()
    device = next(net.parameters()).device
    with torch.no_grad():
        return np.concatenate([net(torch.from_numpy(checkers.to_input(x[k:k + 512])).to(device)).argmax(1).cpu()
                               .numpy() for k in range(0, len(x), 512)] or [np.zeros(0, np.int64)])


def torch_device(name: str = "auto"):
    """The torch device to train on: ``"auto"`` is a CUDA GPU where torch sees one, else the CPU."""
    import torch

    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    return torch.device(name)


def export_onnx(net, out: Path) -> None:
    import torch

    net.eval()
    dummy = torch.zeros(1, 3, checkers.CROP[1], checkers.CROP[0])
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(net, dummy, str(out), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)


# --- dice and cube -------------------------------------------------------------------------

DICE_CUT = 2  # what a dice cache holds: 2 added false finds on the bar and on checkers


def _cut_dice(job):
    from vision import dice

    directory, index, seed = job
    name = f"{index:06d}"
    truth = json.loads((directory / "truth" / f"{name}.json").read_text())
    image = cv2.imread(str(directory / "images" / f"{name}.jpg"))
    field = Field(np.array(truth["field"]), estimate_bar(image, np.array(truth["field"])))
    rng = np.random.default_rng([seed, index, 1])
    found, cube = dice.targets(truth, field)
    view = dice.view(image, field)
    heat = dice.heatmaps(found, cube).astype(np.float16)
    crops, labels = [], []
    for uv, label in found + cube:
        for _ in range(3):
            crops.append(dice.reading_crop(image, field, uv, jitter=rng))
            labels.append(label)
    # False finds, away from dice and cube: random places on and round the board, and where the
    # finder's false finds were read as a cube on test renders: the bar (its hinges, its ends
    # where an owned cube lies) and checkers.
    taken = [uv for uv, _ in found + cube]
    checker_places = [field.to_field([[(o["box"][0] + o["box"][2]) / 2, (o["box"][1] + o["box"][3]) / 2]])[0]
                      for o in truth["objects"] if o["class"].startswith("checker") and o["box"] is not None]
    places = [np.array([rng.uniform(-0.1, 1.1), rng.uniform(-0.3, 1.3)]) for _ in range(6)]
    places += [np.array([0.5 + rng.normal(0, 0.01), rng.uniform(0.03, 0.97)]) for _ in range(2)]
    places += [checker_places[i] for i in rng.choice(len(checker_places), min(2, len(checker_places)), replace=False)]
    for uv in places:
        if all(np.hypot(*(uv - t)) > 0.05 for t in taken):
            crops.append(dice.reading_crop(image, field, uv, jitter=rng))
            labels.append(len(dice.READINGS) - 1)
    return view, heat, np.array(crops, np.uint8).reshape(-1, dice.CROP, dice.CROP, 3), np.array(labels, np.int64)


def dice_dataset(directory: Path, workers: int = 2, jitter_seed: int = 0):
    """Finder views and heat maps, reader crops and labels of a synth directory, cached in
    ``dice_data.npz``: a mapping that reads ``views``, ``heats``, ``crops`` and ``labels`` when
    asked (the views are most of it, and a reader alone does not need them)."""
    from vision import dice

    cache = directory / "dice_data.npz"
    if cache.exists():
        d = np.load(cache)
        if (d["crops"].shape[1] == dice.CROP and d["heats"].shape[2] * dice.STRIDE == dice.VIEW_SIZE
                and "version" in d.files and int(d["version"]) == DICE_CUT):
            return d
        print(f"{cache} was cut for other view or crop sizes, or other false finds: cutting again")
    n = len(list((directory / "truth").glob("*.json")))
    jobs = [(directory, i, jitter_seed) for i in range(n)]
    views, heats, crops, labels = [], [], [], []
    with worker_pool(workers, cv2.setNumThreads, (1,)) as pool:
        for v, h, c, lab in tqdm(pool.map(_cut_dice, jobs, chunksize=8), total=n, desc="cutting dice", unit="img"):
            views.append(v)
            heats.append(h)
            crops.append(c)
            labels.append(lab)
    np.savez(cache, views=np.stack(views), heats=np.stack(heats), crops=np.concatenate(crops),
             labels=np.concatenate(labels), version=DICE_CUT)
    return np.load(cache)


def finder_net():
    """Heat maps of die and cube centres at a quarter of the view (fully convolutional: it trains
    on patches of the view and runs on the whole of it)."""
    import torch.nn as nn

    def block(i, o, s=1, d=1):
        return [nn.Conv2d(i, o, 3, stride=s, padding=d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    layers = (block(3, 16, 2) + block(16, 32, 2) + block(32, 32) + block(32, 32, d=2)
              + block(32, 32, d=4) + block(32, 32) + [nn.Conv2d(32, 2, 1)])
    net = nn.Sequential(*layers)
    net[-1].bias.data.fill_(-4.0)
    return net


READER_NETS = {
    # name: the widths of the reader's four stages; "small" is the design of models/dice.md's
    # first shipped reader (about 29 MFLOPs a crop), "wide" about twice its multiply-adds
    "small": (32, 64, 96, 128),
    "wide": (48, 96, 128, 192),
}


def reader_net(classes: int, size: str = "small"):
    """A 40x40 crop to its reading: six convolutions over three poolings, of the widths
    :data:`READER_NETS` names (the first design, narrower still, under-fitted 15,000 renders)."""
    import torch.nn as nn

    def block(i, o):
        return [nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True)]

    c1, c2, c3, c4 = READER_NETS[size]
    return nn.Sequential(*block(3, c1), nn.MaxPool2d(2), *block(c1, c2), nn.MaxPool2d(2), *block(c2, c3),
                         *block(c3, c3), nn.MaxPool2d(2), *block(c3, c4), *block(c4, c4), nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Dropout(0.2), nn.Linear(c4, classes))


def _patches(views, heats, idx, rng, size: int = 160):
    """Square patches of the finder's views, most round a die or the cube (where the hard cases
    are), with their heat maps cut to match (offsets are multiples of the output stride)."""
    from vision import dice

    s = dice.STRIDE
    n = dice.VIEW_SIZE
    xs, hs = [], []
    for i in idx:
        hot = np.argwhere(heats[i].max(axis=0) > 0.99)
        if len(hot) and rng.random() < 0.7:
            cy, cx = hot[rng.integers(len(hot))] * s + rng.integers(-size // 2 + 8, size // 2 - 8, 2)
        else:
            cy, cx = rng.integers(0, n, 2)
        y0 = int(np.clip(cy - size // 2, 0, n - size)) // s * s
        x0 = int(np.clip(cx - size // 2, 0, n - size)) // s * s
        k = int(rng.integers(4))  # a quarter turn: the board's look does not depend on it
        xs.append(np.rot90(views[i, y0:y0 + size, x0:x0 + size], k))
        hs.append(np.rot90(heats[i, :, y0 // s:(y0 + size) // s, x0 // s:(x0 + size) // s], k, axes=(1, 2)))
    return np.ascontiguousarray(np.stack(xs)), np.ascontiguousarray(np.stack(hs), dtype=np.float32)


def heat_focal(logits, target, peak: float = 0.99):
    """CenterNet's penalty-reduced focal loss on Gaussian heat-map targets; cells at ``peak``
    or above are the positives."""
    import torch

    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.ge(peak).float()
    pos_loss = -(torch.log(p) * (1 - p) ** 2 * pos).sum()
    neg_loss = -(torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * (1 - pos)).sum()
    return (pos_loss + neg_loss) / pos.sum().clamp(min=1)


class ResumeError(ValueError):
    """A checkpoint that cannot be resumed as asked."""


def onnx_state(net, path: Path) -> dict:
    """A state dict for ``net`` from its ONNX export (``path``), to fine-tune shipped weights whose
    checkpoint is gone. The export folds each batch norm into the convolution before it, so the
    convolutions and linear layers take the exported weights in order, a folded convolution's bias
    goes to its batch norm, and that batch norm becomes the identity (train it in eval mode)."""
    import onnx
    import torch
    import torch.nn as nn
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in graph.initializer}
    exported = [[weights[k] for k in node.input[1:]] for node in graph.node if node.op_type in ("Conv", "Gemm")]
    modules = [m for m in net.modules() if isinstance(m, (nn.Conv2d, nn.Linear, nn.BatchNorm2d))]
    layers = [i for i, m in enumerate(modules) if not isinstance(m, nn.BatchNorm2d)]
    if len(layers) != len(exported):
        raise ResumeError(f"{path} holds {len(exported)} layers, this network {len(layers)}: another architecture")
    names = {m: n for n, m in net.named_modules()}
    state = net.state_dict()
    for i, (w, *b) in zip(layers, exported):
        layer = modules[i]
        if tuple(w.shape) != tuple(layer.weight.shape):
            raise ResumeError(f"{path}: a layer of shape {tuple(w.shape)} where this network has "
                              f"{tuple(layer.weight.shape)}: another architecture")
        state[f"{names[layer]}.weight"] = w
        norm = modules[i + 1] if i + 1 < len(modules) and isinstance(modules[i + 1], nn.BatchNorm2d) else None
        if norm is None:
            state[f"{names[layer]}.bias"] = b[0]
            continue
        n = names[norm]
        state[f"{n}.weight"] = torch.ones_like(norm.weight)
        state[f"{n}.bias"] = b[0] if b else torch.zeros_like(norm.bias)
        state[f"{n}.running_mean"] = torch.zeros_like(norm.running_mean)
        state[f"{n}.running_var"] = torch.full_like(norm.running_var, 1 - norm.eps)
    return state


def _hold_folded_norms(net) -> None:
    """Keep the batch norms of a network loaded by :func:`onnx_state` the identity while it trains:
    batch statistics would undo the statistics folded into its weights."""
    import torch.nn as nn

    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


class PairedRun:
    """Two networks trained side by side on their own batches (a heat-map finder and a reader or
    refiner of what it finds): AdamW and a one-cycle schedule each, weights from ``init`` to
    fine-tune, resumed from ``<out>.ckpt`` after the last finished epoch and saved after each.
    ``init`` is a checkpoint, or an ONNX path ``DIR/STEM.onnx`` standing for the exports
    ``DIR/STEM_<name>.onnx`` (``models/dice.onnx``: the shipped finder and reader, whose
    checkpoints are not kept; :func:`onnx_state`).

    ``nets`` and ``steps`` (optimiser steps an epoch) are keyed by the networks' names. With
    ``only`` (a name) that network alone trains: the other has no steps (``self.steps``) and is
    kept as loaded from ``init``; a network of another architecture than ``init``'s (a new
    design) starts from scratch.
    """

    def __init__(self, nets: dict, out: Path, lr: float, epochs: int, steps: dict, init: Path | None = None,
                 only: str | None = None):
        import torch

        self.nets = nets
        self.steps = steps = {n: (k if only in (None, n) else 0) for n, k in steps.items()}
        out.parent.mkdir(parents=True, exist_ok=True)
        self.ckpt = out.with_suffix(".ckpt")
        self.folded: set[str] = set()  # networks loaded from an ONNX export: their BN stays the identity
        if init is not None and init.suffix == ".onnx":
            state = {}
            for name, net in nets.items():
                export = init.parent / f"{init.stem}_{name}.onnx"
                try:
                    state[name] = onnx_state(net, export)
                    self.folded.add(name)
                except (FileNotFoundError, ResumeError):  # no export, or another architecture: see below
                    pass
        elif init is not None:
            state = torch.load(init, weights_only=False, map_location="cpu")
        if init is not None:
            for name, net in nets.items():
                try:
                    net.load_state_dict(state[name])
                except (KeyError, RuntimeError):  # another architecture: only a network trained here may
                    if not steps[name]:
                        raise ResumeError(f"{init} holds no {name} of this architecture to keep") from None
                    print(f"{init} holds no {name} of this architecture: the {name} starts from scratch")
            print(f"starting from the weights in {init}")
        self.opts = {n: torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4) for n, net in nets.items()}
        self.scheds = {n: torch.optim.lr_scheduler.OneCycleLR(self.opts[n], lr, total_steps=max(1, epochs * steps[n]),
                                                              pct_start=0.15) for n in nets}
        self.start, self.history = 0, []
        self.epochs = epochs
        if self.ckpt.exists():
            state = torch.load(self.ckpt, weights_only=False, map_location="cpu")
            if state.get("epochs", epochs) != epochs:  # the schedules were laid out for that length
                raise ResumeError(f"{self.ckpt} holds a run of {state['epochs']} epochs: resume it with --epochs "
                                 f"{state['epochs']}, or start a new run from its weights with --init")
            for n, net in nets.items():
                net.load_state_dict(state[n])
                self.opts[n].load_state_dict(state[f"opt_{n}"])
                self.scheds[n].load_state_dict(state[f"sched_{n}"])
            self.start, self.history = state["epoch"], state["history"]
            self.folded = set(state.get("folded", ()))
            print(f"resuming after epoch {self.start}")

    def train(self) -> None:
        for name, net in self.nets.items():
            net.train()
            if name in self.folded:
                _hold_folded_norms(net)

    def step(self, name: str, loss) -> float:
        """One optimiser step of network ``name`` on ``loss``; the loss as a number."""
        opt = self.opts[name]
        opt.zero_grad()
        loss.backward()
        opt.step()
        self.scheds[name].step()
        return loss.item()

    def end_epoch(self, record: dict) -> None:
        """Add ``record`` (with its ``epoch``) to the history and save the checkpoint."""
        import torch

        self.history.append(record)
        print(record)
        state = {"epoch": record["epoch"], "epochs": self.epochs, "history": self.history,
                 "folded": sorted(self.folded)}
        for n, net in self.nets.items():
            state.update({n: net.state_dict(), f"opt_{n}": self.opts[n].state_dict(),
                          f"sched_{n}": self.scheds[n].state_dict()})
        torch.save(state, self.ckpt)


def _gamma(x, rng):
    """Half of a float batch (N, 3, h, w) in 0..1 under another gamma: an under-exposed room
    (:mod:`vision.conditions`' "dim" is 1.6) or a washed-out one darkens or lifts the mid-tones,
    which a gain alone does not."""
    import torch

    n = x.shape[0]
    gamma = np.where(rng.random(n) < 0.5, np.exp(rng.uniform(np.log(0.7), np.log(1.8), n)), 1.0)
    return x ** torch.from_numpy(gamma.astype(np.float32)).view(n, 1, 1, 1).to(x.device)


def _degrade(xb: np.ndarray, rng, blur: tuple[float, float] = (0.5, 1.3),
             shares: tuple[float, float, float] = (0.3, 0.2, 0.2)) -> np.ndarray:
    """What a camera loses of an object's few pixels, more than the renders' own blur and JPEG
    (:mod:`vision.synth.effects`), on some of a batch of uint8 crops (N, h, w, 3): fewer pixels
    (a die far off in a small frame, up-scaled again), a lens out of focus (a Gaussian of
    ``blur`` crop pixels), a stream's JPEG, each on its ``shares`` of the crops."""
    out = xb.copy()
    h, w = xb.shape[1:3]
    for i, (fewer, blurred, jpeg) in enumerate(rng.random((len(xb), 3)) < shares):
        crop = out[i]
        if fewer:
            s = rng.uniform(0.45, 0.85)
            crop = cv2.resize(cv2.resize(crop, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA),
                              (w, h), interpolation=cv2.INTER_LINEAR)
        if blurred:
            crop = cv2.GaussianBlur(crop, (0, 0), rng.uniform(*blur))
        if jpeg:
            crop = cv2.imdecode(cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 75))])[1],
                                cv2.IMREAD_COLOR)
        out[i] = crop
    return out


def _colour_jitter(x, rng):
    """Light, per-channel colour and sensor noise on a float batch (N, 3, h, w) in 0..1."""
    import torch

    n = x.shape[0]
    gain = torch.from_numpy(rng.uniform(0.7, 1.3, (n, 1, 1, 1)).astype(np.float32)).to(x.device)
    chan = torch.from_numpy(rng.uniform(0.88, 1.12, (n, 3, 1, 1)).astype(np.float32)).to(x.device)
    x = x * gain * chan + torch.randn_like(x) * float(rng.uniform(0, 0.03))
    return x.clamp(0, 1)


def train_dice(directories: list[Path], out: Path, epochs: int = 4, threads: int = 1, seed: int = 0,
               init: Path | None = None, lr: float = 3e-3, only: str | None = None, reader_size: str = "small",
               device: str = "auto", workers: int = 2) -> dict:
    """Train (or resume) the dice finder and reader; export ``<out stem>_finder.onnx`` and
    ``<out stem>_reader.onnx``. ``only`` ("finder" or "reader") trains that network alone, the
    other exported as loaded from ``init``; ``reader_size`` names the reader's widths
    (:data:`READER_NETS`); ``device`` is where it trains (:func:`torch_device`); ``workers``
    processes cut a directory's crops the first time."""
    import torch
    import torch.nn.functional as F

    from vision import dice

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    on = torch_device(device)
    parts = [dice_dataset(d, workers) for d in directories]
    train_finder = only in (None, "finder")  # the views are most of the data: only the finder needs them
    views = np.concatenate([p["views"] for p in parts]) if train_finder else np.zeros((0,))
    heats = np.concatenate([p["heats"] for p in parts]) if train_finder else np.zeros((0,))
    crops = np.concatenate([p["crops"] for p in parts])
    labels = np.concatenate([p["labels"] for p in parts])
    # The last images' crops are held out to follow the reader's accuracy.
    held = max(1, len(crops) // 40)
    crops, labels, val_x, val_y = crops[:-held], labels[:-held], crops[-held:], labels[-held:]
    finder_path, reader_path = out.parent / f"{out.stem}_finder.onnx", out.parent / f"{out.stem}_reader.onnx"
    finder, reader = finder_net().to(on), reader_net(len(dice.READINGS), reader_size).to(on)
    fb, rb = 32, 128
    # two patches of each view an epoch
    run = PairedRun({"finder": finder, "reader": reader}, out, lr, epochs,
                    {"finder": 2 * len(views) // fb, "reader": len(crops) // rb}, init, only)
    steps_f, steps_r = run.steps["finder"], run.steps["reader"]
    for epoch in range(run.start, epochs):
        t0 = time.time()
        rng = np.random.default_rng([seed, epoch, 7])
        run.train()
        order_f = np.concatenate([rng.permutation(len(views)) for _ in range(2)])
        order_r = rng.permutation(len(crops))
        lf = lr_ = 0.0
        bar = tqdm(range(max(steps_f, steps_r)), desc=f"dice epoch {epoch + 1}/{epochs}", unit="batch")
        for k in bar:
            if k < steps_f:
                xb, hb = _patches(views, heats, order_f[k * fb:(k + 1) * fb], rng)
                x = _colour_jitter(torch.from_numpy(checkers.to_input(xb)).to(on), rng)
                lf += run.step("finder", heat_focal(finder(x), torch.from_numpy(hb).to(on)))
            if k < steps_r:
                idx = np.sort(order_r[k * rb:(k + 1) * rb])
                # Quarter turns change no reading: a die's pips and the cube's figure stay what they are;
                # nor does a mirror change a die's count (the cube's figures would read backwards).
                xb = np.rot90(crops[idx], int(rng.integers(4)), axes=(1, 2))
                mirror = (labels[idx] < 12) | (labels[idx] == len(dice.READINGS) - 1)
                mirror &= rng.random(len(idx)) < 0.5
                xb[mirror] = xb[mirror].transpose(0, 2, 1, 3)
                # a camera's losses and another light on the reader's crops (models/dice.md, the
                # fifty-ninth stop; the shipped finder was trained without them)
                x = torch.from_numpy(checkers.to_input(_degrade(xb, rng))).to(on)
                x = _colour_jitter(_gamma(x, rng), rng)
                lr_ += run.step("reader", F.cross_entropy(reader(x), torch.from_numpy(labels[idx]).to(on),
                                                          label_smoothing=0.02))
            if k % 10 == 0:
                bar.set_postfix(finder=f"{lf / max(1, min(k + 1, steps_f)):.3f}",
                                reader=f"{lr_ / max(1, min(k + 1, steps_r)):.3f}")
        val_accuracy = float((predict(reader, val_x) == val_y).mean()) if len(val_y) else 0.0
        run.end_epoch({"epoch": epoch + 1, "finder_loss": lf / max(1, steps_f), "reader_loss": lr_ / max(1, steps_r),
                       "reader_val_accuracy": val_accuracy, "seconds": time.time() - t0})
    for net, path, name, shape in ((finder, finder_path, "view", (1, 3, dice.VIEW_SIZE, dice.VIEW_SIZE)),
                                   (reader, reader_path, "crops", (1, 3, dice.CROP, dice.CROP))):
        net.cpu().eval()
        torch.onnx.export(net, torch.zeros(*shape), str(path), input_names=[name], output_names=["out"],
                          dynamic_axes={name: {0: "n"}, "out": {0: "n"}}, opset_version=17, dynamo=False)
    return {"views": int(len(views)), "reader_crops": int(len(crops)), "history": run.history}
