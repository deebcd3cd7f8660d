"""Train the book's small Transformers and write them for numpy.

    python training/train.py                     # everything: make models
    python training/train.py --variants rope --seeds 0 --steps 200   # a try
    python training/train.py --check rope 0      # the slow test's brief run

Five variants (``posenc.trained.VARIANTS``) x three seeds, each run on one
thread (two runs at a time on two cores: ``--jobs``), with the same data,
steps and seeds: for one seed, every variant sees the same batches in the
same order and starts from the same weights (``posenc.trained.
initial_weights``), the learned table apart. Each run writes
``<variant>-seed<s>.npz`` (weights as float16; every statistic measured on
those rounded weights) to ``--out``; the whole run also writes
``sample.npz`` (the validation bytes the chapter measures on) and
``manifest.json`` (every run's statistics, wall and CPU times).

Determinism: numpy generators seeded by the seed, ``torch.manual_seed``,
``random.seed``, ``torch.use_deterministic_algorithms(True)`` and one
thread per run. On one machine two runs give the same bits; on another CPU
the float32 sums may round differently (the slow test's tolerance).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import platform
import random
import resource
import sys
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import corpus as data  # noqa: E402  (training/corpus.py)
from model import Model, check_rotation_convention  # noqa: E402

from posenc import trained  # noqa: E402

#: Optimisation: the same for every variant and seed.
STEPS = 1200
BATCH = 16  # sequences of CONTEXT bytes: 12 text windows, 4 copy sequences
PEAK_LR = 6e-3
FINAL_LR_SHARE = 0.1  # cosine decay from PEAK_LR to 10 % of it
WARMUP = 50  # steps of linear warm-up from 0
BETAS = (0.9, 0.95)
WEIGHT_DECAY = 0.1  # on matrices and embeddings, not on LayerNorms
CLIP = 1.0
#: The slow test retrains to this step and compares with the full run.
CHECK_STEP = 300
#: Evaluation: validation windows of 512 + 1 bytes, copy sequences of 512.
VAL_WINDOWS = 48
COPY_EVAL_PER_OFFSET = 8
COPY_EVAL_SEED = 20241008
SAMPLE_TEXT_WINDOWS = 16
SAMPLE_COPY_PER_OFFSET = 4
#: The probe: torch's logits and attention rows on sample text[0, :128].
PROBE_ROWS = (0, 1, 2, 7, 31, 64, 126, 127)
HISTORY_EVERY = 25
#: The files whose SHA-256 is stored with every model.
CODE_FILES = ("corpus.py", "model.py", "train.py", "requirements.txt")


def code_sha256() -> str:
    """SHA-256 of the training files (name, NUL, bytes, in CODE_FILES order)."""
    digest = hashlib.sha256()
    for name in CODE_FILES:
        digest.update(name.encode() + b"\0" + (HERE / name).read_bytes())
    return digest.hexdigest()


def learning_rate(step: int, steps: int) -> float:
    if step < WARMUP:
        return PEAK_LR * (step + 1) / WARMUP
    progress = (step - WARMUP) / max(1, steps - WARMUP)
    share = FINAL_LR_SHARE + (1 - FINAL_LR_SHARE) * 0.5 * (
        1 + math.cos(math.pi * progress)
    )
    return PEAK_LR * share


def seed_everything(seed: int) -> None:
    random.seed(seed)
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)


def masked_losses(logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    """Cross-entropy per position (0 where the target is IGNORE)."""
    flat = F.cross_entropy(
        logits.reshape(-1, logits.shape[-1]),
        targets.reshape(-1).clamp(min=0),
        reduction="none",
    ).view(targets.shape)
    return flat * (targets != data.IGNORE)


# ------------------------------------------------------------ evaluation


def validation_windows(corpus: data.Corpus, count: int = VAL_WINDOWS) -> np.ndarray:
    length = trained.model_config("nope")["max_eval_length"] + 1
    starts = data.evenly_spaced(corpus.validation, count, length)
    return data.text_windows(corpus.validation, starts, length)


def copy_eval_set(per_offset: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    length = trained.model_config("nope")["max_eval_length"]
    offsets = np.repeat(np.array(data.COPY_OFFSETS), per_offset)
    return data.copy_sequences(np.random.default_rng(seed), offsets, length)


@torch.no_grad()
def loss_by_position(model: Model, windows: np.ndarray) -> np.ndarray:
    """Mean next-byte loss at each position over ``windows`` (n, L + 1)."""
    limit = model.config["context"] if model.config["variant"] == "learned" else None
    windows = windows if limit is None else windows[:, : limit + 1]
    tokens = torch.from_numpy(windows)
    total = torch.zeros(windows.shape[1] - 1, dtype=torch.float64)
    for chunk in tokens.split(8):
        logits = model(chunk[:, :-1])
        total += masked_losses(logits, chunk[:, 1:]).double().sum(0)
    return (total / len(windows)).numpy()


@torch.no_grad()
def copy_scores(model: Model, inputs: np.ndarray, targets: np.ndarray) -> dict:
    """Accuracy and loss of the copy task by offset, on the target positions
    within the trained context (t < 128) and beyond it (t >= 128)."""
    context = model.config["context"]
    length = context if model.config["variant"] == "learned" else inputs.shape[1]
    x = torch.from_numpy(inputs[:, :length])
    y = torch.from_numpy(targets[:, :length])
    logits = torch.cat([model(chunk) for chunk in x.split(8)])
    losses = masked_losses(logits, y)
    right = (logits.argmax(-1) == y) & (y != data.IGNORE)
    scores = {"accuracy": {}, "loss": {}}
    for k in data.COPY_OFFSETS:
        rows = torch.from_numpy(data.copy_offset(inputs) == k)
        for part, cols in (
            ("within", slice(0, context)),
            ("beyond", slice(context, None)),
        ):
            valid = (y[rows, cols] != data.IGNORE).sum().item()
            key = f"{k}/{part}"
            if valid == 0:
                scores["accuracy"][key] = scores["loss"][key] = None
                continue
            scores["accuracy"][key] = right[rows, cols].sum().item() / valid
            scores["loss"][key] = losses[rows, cols].sum().item() / valid
    return scores


@torch.no_grad()
def check_statistics(
    model: Model, corpus: data.Corpus, sample_text: np.ndarray
) -> dict:
    """What the slow test compares: validation loss at context 128 (16
    windows), copy accuracy at offset 1 and 8 (within the context), and the
    largest mean attention weight at offset 1 over the heads of layer 0 on
    the sample (a previous-byte head)."""
    windows = validation_windows(corpus)[:16, :129]
    val = float(loss_by_position(model, windows).mean())
    inputs, targets = copy_eval_set(4, COPY_EVAL_SEED)
    copy = copy_scores(model, inputs[:, :128], targets[:, :128])["accuracy"]
    record: list = []
    model(torch.from_numpy(sample_text[:4, :128].astype(np.int64)), record)
    offset1 = torch.diagonal(record[0], -1, -2, -1).mean(-1).mean(0)
    return {
        "val_loss_128": val,
        "copy_accuracy_1": copy["1/within"],
        "copy_accuracy_8": copy["8/within"],
        "previous_byte_attention": float(offset1.max()),
    }


# ------------------------------------------------------------ one run


def train_one(
    variant: str,
    seed: int,
    corpus: data.Corpus,
    sample_text: np.ndarray,
    steps: int = STEPS,
    stop_at: int | None = None,
    bar_position: int = 0,
) -> dict:
    """Train one model; return its weights, statistics and times."""
    seed_everything(seed)
    wall, cpu = time.perf_counter(), time.process_time()
    config = trained.model_config(variant)
    model = Model(config)
    start = trained.initial_weights(config, seed)
    model.load_numpy(start)
    decay = [p for n, p in model.named_parameters() if p.ndim == 2]
    rest = [p for n, p in model.named_parameters() if p.ndim != 2]
    optimiser = torch.optim.AdamW(
        [
            {"params": decay, "weight_decay": WEIGHT_DECAY},
            {"params": rest, "weight_decay": 0.0},
        ],
        lr=PEAK_LR,
        betas=BETAS,
    )
    rng = np.random.default_rng([seed, 1])
    context = config["context"]
    history = {"step": [], "text_loss": [], "copy_loss": []}
    sums = np.zeros(4)
    recent = []
    check = None
    last = steps if stop_at is None else stop_at
    bar = tqdm(
        range(last),
        desc=f"{variant} seed {seed}",
        position=bar_position,
        leave=False,
        mininterval=1.0,
        dynamic_ncols=True,
    )
    for step in bar:
        inputs, targets = data.training_batch(rng, corpus.train, step, BATCH, context)
        for group in optimiser.param_groups:
            group["lr"] = learning_rate(step, steps)
        logits = model(torch.from_numpy(inputs))
        y = torch.from_numpy(targets)
        losses = masked_losses(logits, y)
        counts = (y != data.IGNORE).sum(1)
        loss = losses.sum() / counts.sum()
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
        optimiser.step()
        is_copy = torch.arange(BATCH) >= BATCH - round(BATCH * data.COPY_SHARE)
        text = losses[~is_copy].sum().item() / counts[~is_copy].sum().item()
        copy = losses[is_copy].sum().item() / counts[is_copy].sum().item()
        sums += (text, copy, 1, 0)
        recent.append(text)
        if (step + 1) % HISTORY_EVERY == 0:
            history["step"].append(step + 1)
            history["text_loss"].append(sums[0] / sums[2])
            history["copy_loss"].append(sums[1] / sums[2])
            bar.set_postfix(
                text=f"{sums[0] / sums[2]:.3f}", copy=f"{sums[1] / sums[2]:.3f}"
            )
            sums[:] = 0
        if step + 1 == CHECK_STEP:
            model.eval()
            check = check_statistics(model, corpus, sample_text)
            model.train()
    bar.close()
    result = {
        "variant": variant,
        "seed": seed,
        "config": config,
        "check": check,
        "check_step": CHECK_STEP,
        "train_wall_s": time.perf_counter() - wall,
        "train_cpu_s": time.process_time() - cpu,
    }
    if stop_at is not None:
        return result
    # Round to float16 and measure the rounded model: what is shipped.
    rounded = {n: w.astype(np.float16) for n, w in model.numpy_weights().items()}
    model.load_numpy({n: w.astype(np.float32) for n, w in rounded.items()})
    model.eval()
    by_position = loss_by_position(model, validation_windows(corpus))
    at = {
        str(n): (float(by_position[:n].mean()) if n <= len(by_position) else None)
        for n in (128, 256, 512)
    }
    copy = copy_scores(model, *copy_eval_set(COPY_EVAL_PER_OFFSET, COPY_EVAL_SEED))
    probe_tokens = sample_text[0, :context].astype(np.int64)
    record: list = []
    with torch.no_grad():
        probe_logits = model(torch.from_numpy(probe_tokens)[None], record)[0]
    rows = list(PROBE_ROWS)
    tail = max(1, steps // 20)
    result.update(
        steps=steps,
        batch=BATCH,
        train_loss=float(np.mean(recent[-tail:])),
        val_loss=at["128"],
        val_loss_at=at,
        copy_accuracy=copy["accuracy"],
        copy_loss=copy["loss"],
        init_digest=trained.weights_digest(start),
        wall_s=time.perf_counter() - wall,
        cpu_s=time.process_time() - cpu,
        weights=rounded,
        arrays={
            "val_loss_by_position": np.pad(
                by_position, (0, 512 - len(by_position)), constant_values=np.nan
            ).astype(np.float32),
            "history_step": np.array(history["step"], np.int32),
            "history_text_loss": np.array(history["text_loss"], np.float32),
            "history_copy_loss": np.array(history["copy_loss"], np.float32),
            "probe_tokens": probe_tokens.astype(np.uint8),
            "probe_rows": np.array(rows, np.int32),
            "probe_logits": probe_logits[rows].numpy().astype(np.float32),
            "probe_attention": torch.stack(record)[:, 0][:, :, rows]
            .numpy()
            .astype(np.float32),
        },
    )
    return result


def save_model(result: dict, out: Path, provenance: dict) -> Path:
    meta = {k: v for k, v in result.items() if k not in ("weights", "arrays")}
    meta.update(provenance)
    arrays = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    arrays.update({f"w:{n}": w for n, w in result["weights"].items()})
    arrays.update(result["arrays"])
    path = out / f"{result['variant']}-seed{result['seed']}.npz"
    np.savez_compressed(path, **arrays)
    return path


# ------------------------------------------------------------ the whole run

_WORKER: dict = {}


def _init_worker() -> None:
    _WORKER["corpus"] = data.load_corpus()


def _run_job(job: tuple) -> dict:
    variant, seed, steps, sample_text = job
    position = multiprocessing.current_process()._identity[0] - 1  # its bar's line
    return train_one(
        variant, seed, _WORKER["corpus"], sample_text, steps, bar_position=position
    )


def write_sample(corpus: data.Corpus, out: Path, provenance: dict) -> np.ndarray:
    length = trained.model_config("nope")["max_eval_length"]
    starts = data.evenly_spaced(corpus.validation, SAMPLE_TEXT_WINDOWS + 2, length)[
        1:-1
    ]
    text = data.text_windows(corpus.validation, starts, length).astype(np.uint8)
    copy_tokens, _ = copy_eval_set(SAMPLE_COPY_PER_OFFSET, COPY_EVAL_SEED + 1)
    np.savez_compressed(
        out / "sample.npz",
        text=text,
        copy_tokens=copy_tokens.astype(np.uint8),
        copy_offsets=data.copy_offset(copy_tokens).astype(np.int32),
        meta=np.array(json.dumps(provenance, sort_keys=True)),
    )
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "posenc" / "models")
    parser.add_argument("--variants", nargs="+", default=list(trained.VARIANTS))
    parser.add_argument("--seeds", nargs="+", type=int, default=list(trained.SEEDS))
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--check",
        nargs=2,
        metavar=("VARIANT", "SEED"),
        help=f"train to step {CHECK_STEP} only; print the check statistics",
    )
    args = parser.parse_args(argv)
    check_rotation_convention()
    wall, cpu = time.perf_counter(), time.process_time()
    load_start = os.getloadavg()
    corpus = data.load_corpus()
    provenance = {
        "code_sha256": code_sha256(),
        "corpus_sha256": corpus.sha256,
        "python_version": corpus.python_version,
        "corpus_files": len(corpus.files),
        "validation_files": len(corpus.validation_files),
        "train_bytes": int(corpus.train.size),
        "validation_bytes": int(corpus.validation.size),
        "torch_version": torch.__version__,
        "numpy_version": np.__version__,
        "training": {
            "steps": args.steps,
            "batch": BATCH,
            "peak_lr": PEAK_LR,
            "warmup": WARMUP,
            "final_lr_share": FINAL_LR_SHARE,
            "betas": BETAS,
            "weight_decay": WEIGHT_DECAY,
            "clip": CLIP,
            "copy_share": data.COPY_SHARE,
            "copy_offsets": data.COPY_OFFSETS,
            "check_step": CHECK_STEP,
            "val_windows": VAL_WINDOWS,
        },
    }
    if args.check:
        variant, seed = args.check[0], int(args.check[1])
        sample = trained.load_sample(args.out)
        result = train_one(
            variant, seed, corpus, sample["text"], args.steps, stop_at=CHECK_STEP
        )
        print(
            json.dumps(
                {
                    "check": result["check"],
                    **provenance,
                    "wall_s": time.perf_counter() - wall,
                },
                sort_keys=True,
            )
        )
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    sample_text = write_sample(corpus, args.out, provenance)
    jobs = [(v, s, args.steps, sample_text) for s in args.seeds for v in args.variants]
    context = multiprocessing.get_context("spawn")
    with context.Pool(args.jobs, initializer=_init_worker) as pool:
        results = []
        for result in tqdm(
            pool.imap_unordered(_run_job, jobs),
            total=len(jobs),
            desc="runs",
            position=args.jobs,
            dynamic_ncols=True,
        ):
            path = save_model(result, args.out, provenance)
            tqdm.write(
                f"{path}: val loss {result['val_loss']:.4f}, {result['wall_s']:.0f} s"
            )
            results.append(result)
        pool.close()
        pool.join()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    total_wall = time.perf_counter() - wall
    runs = sorted(
        (
            {k: v for k, v in r.items() if k not in ("weights", "arrays", "config")}
            for r in results
        ),
        key=lambda r: (trained.VARIANTS.index(r["variant"]), r["seed"]),
    )
    manifest = {
        **provenance,
        "runs": runs,
        "timing": {
            "wall_s": total_wall,
            # every process: this one and the workers (imports, corpus, runs)
            "cpu_s": children.ru_utime + children.ru_stime + time.process_time() - cpu,
            "runs_cpu_s": sum(r["cpu_s"] for r in runs),
            "jobs": args.jobs,
            "threads_per_run": 1,
            "load_average_at_start": load_start,
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        },
        "steps": args.steps,
    }
    (args.out / "manifest.json").write_text(
        json.dumps(manifest, indent=1, sort_keys=True) + "\n"
    )
    size = sum(p.stat().st_size for p in args.out.glob("*.npz"))
    print(
        f"\n{len(runs)} models and sample.npz in {args.out} ({size / 1e6:.2f} MB), "
        f"{total_wall:.0f} s wall, {manifest['timing']['cpu_s']:.0f} s CPU"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
