"""The pre-training program: model, optimiser, schedule, steps, checkpoints, logs.

The recipe is the original one: AdamW (weight decay 0.01, none on LayerNorm and
biases), linear warm-up then linear decay to zero, gradients clipped at 1.0. Three
choices make it fast, restartable and distributable without changing what it computes:

- The masked LM is scored only at the picked positions (`Bert(mlm_positions=...)`).
- The randomness of step s (which examples, which masks, which dropout) is drawn from
  generators seeded by (seed, s[, process]); a checkpoint needs to hold only the model,
  the optimiser, the schedule and s, and a resumed run repeats an uninterrupted one.
- Every process builds the same global batch and trains on its share of the rows; the
  loss of each share is a *sum* divided by the global number of predictions, so
  accumulation over micro-batches and data parallelism over processes add up to
  exactly the single-process gradient.

Run it on one process, or on many with `torchrun --nproc_per_node N` (gloo on CPU,
NCCL on GPU): the same command, the same global batch.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import torch
import torch.distributed as dist
import torch.nn.functional as F
from tqdm import tqdm

from .. import plots, training
from ..checkpoint import check_fits, save_model
from ..config import PRESETS, BertConfig
from ..errors import BertforgeError
from ..optional import require
from ..options import setting
from ..files import atomic_file, write_text
from ..model import Bert
from ..tokenizer import Tokenizer, load_tokenizer, read_vocab
from ..training import PRECISIONS, adamw, autocast_for, linear_schedule
from .data import Batch, Batches, build_examples, eval_batches, hash_seed, read_corpus
from .masking import IGNORE, VARIANTS, MaskingVocab

log = logging.getLogger(__name__)


@dataclass
class Recipe:
    """Everything a pre-training run is; saved with every checkpoint and the model."""

    corpus: list[str] = setting(help="text files (a blank line ends a document), JSONL "
                                     "files with a 'text' field, or a `datasets` source",
                                positional=True, metavar="CORPUS")
    out: str = setting(help="the run's folder: model/, checkpoints/, train.jsonl, loss.png",
                       metavar="DIR")
    size: str = setting("mini", "a preset (tiny, mini, small, medium, base, large) or a "
                                "config.json", metavar="PRESET|config.json")
    vocab: str | None = setting(None, "a tokenizer to use (a directory or vocab.txt); "
                                      "default: train one on the corpus", metavar="DIR|vocab.txt")
    vocab_size: int = setting(8192, "the size of a vocabulary trained here")
    cased: bool = setting(False, "a vocabulary trained here keeps case")
    seq_len: int = setting(128, "tokens per example")
    batch: int = setting(32, "the global batch, over all processes and micro-batches")
    micro_batch: int | None = setting(None, "rows per forward pass (gradient accumulation); "
                                            "default: the process's share of the batch")
    steps: int = setting(1000, "updates")
    lr: float = setting(5e-4, "peak learning rate")
    warmup: float = setting(0.1, "a share of the steps (< 1) or a number of steps")
    weight_decay: float = setting(0.01, "AdamW's weight decay (none on norms and biases)")
    clip: float = setting(1.0, "gradient norm clipping")
    objective: str = setting("mlm+nsp", "masked LM alone, or with next-sentence prediction",
                             choices=("mlm", "mlm+nsp"))
    masking: str = setting("token", "which tokens are picked: 15% of tokens at random, "
                                    "exactly 15% a sequence, or whole words",
                           choices=VARIANTS)
    precision: str = setting("auto", "auto: bf16 where the hardware has it, else fp32",
                             choices=PRECISIONS)
    dropout: float | None = setting(None, "override the model's dropouts (0 for exact "
                                          "comparisons)")
    eval_every: int = setting(200, "steps between held-out evaluations")
    save_every: int = setting(500, "steps between checkpoints")
    keep: int = setting(2, "checkpoints kept on disk")
    seed: int = setting(0, "the same seed, the same run")
    num_proc: int = setting(1, "processes for tokenizing the corpus")
    progress: bool = setting(True, "no progress bars", negate="quiet")

    # what may change between a run and its resumption
    RESUMABLE_CHANGES = ("eval_every", "save_every", "keep", "num_proc", "progress", "out")

    def check(self) -> None:
        if self.objective not in ("mlm", "mlm+nsp"):
            raise BertforgeError(f"--objective must be mlm or mlm+nsp, not {self.objective!r}")
        if self.masking not in VARIANTS:
            raise BertforgeError(f"--masking must be one of {', '.join(VARIANTS)}")
        if self.precision not in PRECISIONS:
            raise BertforgeError(f"--precision must be one of {', '.join(PRECISIONS)}")
        for name in ("seq_len", "batch", "steps"):
            if getattr(self, name) < 1:
                raise BertforgeError(f"--{name.replace('_', '-')} must be at least 1")
        if self.seq_len < 8:
            raise BertforgeError("--seq-len must be at least 8 tokens")
        if self.lr <= 0:
            raise BertforgeError("--lr must be positive")


@dataclass
class Metrics:
    """Sums over predictions (and sequences), added up over micro-batches and processes."""

    mlm_loss: float = 0.0
    mlm_correct: float = 0.0
    predictions: float = 0.0
    nsp_loss: float = 0.0
    nsp_correct: float = 0.0
    sequences: float = 0.0
    tokens: float = 0.0

    def as_tensor(self) -> torch.Tensor:
        return torch.tensor(dataclasses.astuple(self), dtype=torch.float64)

    def __add__(self, other: "Metrics") -> "Metrics":
        return Metrics(*(a + b for a, b in zip(dataclasses.astuple(self),
                                               dataclasses.astuple(other))))

    @classmethod
    def from_tensor(cls, t: torch.Tensor) -> "Metrics":
        return cls(*t.tolist())

    def summary(self, nsp: bool) -> dict[str, float]:
        out = {"mlm_loss": self.mlm_loss / max(self.predictions, 1),
               "mlm_accuracy": self.mlm_correct / max(self.predictions, 1)}
        if nsp:
            out["nsp_loss"] = self.nsp_loss / max(self.sequences, 1)
            out["nsp_accuracy"] = self.nsp_correct / max(self.sequences, 1)
            out["loss"] = out["mlm_loss"] + out["nsp_loss"]
        else:
            out["loss"] = out["mlm_loss"]
        return out


@dataclass
class Run:
    recipe: Recipe
    rank: int = 0
    world: int = 1
    device: torch.device = field(default_factory=lambda: torch.device("cpu"))

    @property
    def main(self) -> bool:
        return self.rank == 0


# --------------------------------------------------------------------- setup
def start_processes(recipe: Recipe) -> Run:
    """One process, or one of many started by torchrun (RANK / WORLD_SIZE set)."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    rank = int(os.environ.get("RANK", "0"))
    if torch.cuda.is_available():
        local = int(os.environ.get("LOCAL_RANK", "0"))
        torch.cuda.set_device(local)
        device = torch.device("cuda", local)
    else:
        device = torch.device("cpu")
    if world > 1 and not dist.is_initialized():
        dist.init_process_group("nccl" if device.type == "cuda" else "gloo")
    if recipe.batch % world:
        raise BertforgeError(f"--batch {recipe.batch} must divide evenly over {world} processes")
    share = recipe.batch // world
    if recipe.micro_batch is not None and share % recipe.micro_batch:
        raise BertforgeError(f"each process trains {share} rows a step; --micro-batch "
                             f"{recipe.micro_batch} must divide it")
    return Run(recipe, rank, world, device)


def barrier(run: Run) -> None:
    if run.world > 1:
        dist.barrier()


def prepare_tokenizer(run: Run) -> Tokenizer:
    """The given vocabulary, or one trained on the corpus by the first process."""
    r, out = run.recipe, Path(run.recipe.out)
    if r.vocab is not None:
        path = Path(r.vocab)
        if path.is_file():
            return Tokenizer.from_vocab(read_vocab(path), lowercase=not r.cased)
        return load_tokenizer(r.vocab)
    saved = out / "tokenizer"
    if run.main and not (saved / "vocab.txt").is_file():
        corpus = read_corpus(r.corpus, out / "data-cache" / "raw")
        if r.progress:
            print(f"training a WordPiece vocabulary of {r.vocab_size:,} on the corpus")
        tokenizer = Tokenizer.train_from_texts(
            (t for t in corpus["text"]), vocab_size=r.vocab_size, lowercase=not r.cased,
            show_progress=r.progress)
        tokenizer.save(saved)
    barrier(run)
    return load_tokenizer(saved)


def model_config(recipe: Recipe, tokenizer: Tokenizer) -> BertConfig:
    path = Path(recipe.size)
    if recipe.size in PRESETS and not path.is_file():
        config = BertConfig.preset(recipe.size, vocab_size=tokenizer.vocab_size,
                                   pad_token_id=tokenizer.pad_id)
    else:
        config = BertConfig.from_json(path)
        if config.vocab_size != tokenizer.vocab_size:
            raise BertforgeError(f"{path} says vocab_size {config.vocab_size}, but the "
                                 f"vocabulary has {tokenizer.vocab_size} tokens: they must "
                                 f"match (leave vocab_size to the vocabulary with a preset size)")
    if config.max_position_embeddings < recipe.seq_len:
        raise BertforgeError(f"--seq-len {recipe.seq_len} is longer than the model's "
                             f"{config.max_position_embeddings} positions")
    if recipe.dropout is not None:
        config = config.replace(hidden_dropout_prob=recipe.dropout,
                                attention_probs_dropout_prob=recipe.dropout)
    check_fits(config, str(recipe.size), dtype_bytes=16)  # weights, gradients, Adam's two
    return config


# --------------------------------------------------------------- checkpoints
def checkpoint_dir(recipe: Recipe) -> Path:
    return Path(recipe.out) / "checkpoints"


def save_checkpoint(run: Run, step: int, model, optimizer, scheduler, scaler) -> Path:
    """Written to a temporary name and renamed: a checkpoint file is whole or absent."""
    directory = checkpoint_dir(run.recipe)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"step-{step:08d}.pt"
    state = {"step": step, "recipe": dataclasses.asdict(run.recipe),
             "model": model.state_dict(), "optimizer": optimizer.state_dict(),
             "scheduler": scheduler.state_dict(),
             "scaler": scaler.state_dict() if scaler is not None else None}
    with atomic_file(path, text=False) as handle:
        torch.save(state, handle)
    for old in sorted(directory.glob("step-*.pt"))[:-run.recipe.keep]:
        old.unlink(missing_ok=True)
    return path


def latest_checkpoint(recipe: Recipe) -> dict | None:
    """The newest checkpoint that loads whole; damaged ones are skipped with a warning."""
    for path in sorted(checkpoint_dir(recipe).glob("step-*.pt"), reverse=True):
        try:
            state = torch.load(path, map_location="cpu", weights_only=True)
            if not {"step", "model", "optimizer", "scheduler", "recipe"} <= set(state):
                raise ValueError("fields are missing")
        except Exception as error:  # truncated zip, bad pickle, missing fields
            log.warning("skipping damaged checkpoint %s (%s)", path, str(error).split("\n")[0])
            continue
        state["path"] = str(path)
        return state
    return None


def _check_same_recipe(saved: dict, recipe: Recipe, step: int) -> None:
    """A resumed run keeps its recipe, except what `RESUMABLE_CHANGES` names and more
    --steps: a run extended from N to M steps continues on the schedule of an M-step
    run (warm-up and linear decay to zero at M), from where the N-step run stopped."""
    now = dataclasses.asdict(recipe)
    if recipe.steps < step:
        raise BertforgeError(f"--resume: the run is already at step {step}; give --steps "
                             f"{step} or more to continue it")
    changed = [k for k in now if k not in Recipe.RESUMABLE_CHANGES and saved.get(k) != now[k]
               and not (k == "steps" and now[k] >= saved.get(k, now[k]))]
    if changed:
        details = ", ".join(f"{k}: {saved.get(k)!r} then, {now[k]!r} now" for k in changed)
        raise BertforgeError(f"--resume with a different recipe ({details}); resume with the "
                             f"same settings, or start a new --out directory")


# ---------------------------------------------------------------------- steps
def train_step(run: Run, model, batch: Batch, nsp: bool, autocast, scaler) -> Metrics:
    """Forward and backward over this process's rows of the global batch, in
    micro-batches; returns this process's sums."""
    r = run.recipe
    share = r.batch // run.world
    micro = r.micro_batch or share
    rows = batch.rows(run.rank * share, (run.rank + 1) * share)
    predictions = max(1, int((batch.labels != IGNORE).sum()))  # over the global batch
    metrics = Metrics()
    chunks = range(0, share, micro)
    for k, start in enumerate(chunks):
        part = rows.rows(start, start + micro)
        last = k == len(chunks) - 1
        sync = model.no_sync() if run.world > 1 and not last else nullcontext()
        with sync:
            with autocast():
                loss, m = batch_loss(model, part, nsp, run.device)
            # the sums over this part, over the global counts: the parts add up to the
            # mean of the global batch (DDP averages over processes, so undo that)
            loss = (loss[0] / predictions + (loss[1] / r.batch if nsp else 0.0)) * run.world
            (scaler.scale(loss) if scaler is not None else loss).backward()
        metrics = metrics + m
    return metrics


def batch_loss(model, batch: Batch, nsp: bool, device: torch.device):
    """(mlm loss sum, nsp loss sum) as tensors, and the metrics of the batch."""
    ids = batch.input_ids.to(device)
    picked = (batch.labels != IGNORE).to(device)
    targets = batch.labels.to(device)[picked]
    out = model(ids, token_type_ids=batch.token_type_ids.to(device),
                attention_mask=batch.attention_mask.to(device), mlm_positions=picked)
    mlm_sum = F.cross_entropy(out.logits.float(), targets, reduction="sum")
    metrics = Metrics(mlm_loss=mlm_sum.item(),
                      mlm_correct=(out.logits.argmax(-1) == targets).sum().item(),
                      predictions=float(targets.numel()),
                      tokens=float(batch.attention_mask.sum()))
    nsp_sum = torch.zeros((), device=device)
    if nsp:
        labels = batch.next_sentence_label.to(device)
        nsp_sum = F.cross_entropy(out.nsp_logits.float(), labels, reduction="sum")
        metrics.nsp_loss = nsp_sum.item()
        metrics.nsp_correct = (out.nsp_logits.argmax(-1) == labels).sum().item()
        metrics.sequences = float(labels.numel())
    return (mlm_sum, nsp_sum), metrics


@torch.no_grad()
def evaluate(model, batches: list[Batch], nsp: bool, device: torch.device, autocast) -> dict:
    was_training = model.training
    model.eval()
    total = Metrics()
    for batch in batches:
        with autocast():
            _, m = batch_loss(model, batch, nsp, device)
        total = total + m
    model.train(was_training)
    return total.summary(nsp)


# ------------------------------------------------------------------------ run
def pretrain(recipe: Recipe) -> dict:
    """Run (or resume) pre-training; returns the final held-out metrics. Writes to
    recipe.out: model/ (the Hugging Face directory), checkpoints/, train.jsonl,
    loss.png, tokenizer/ (when trained here) and data-cache/. When recipe.out already
    holds checkpoints, the run resumes from the newest whole one (the command line
    asks for --resume to make that explicit)."""
    recipe.check()
    if not recipe.progress:
        require("datasets", "pre-training").disable_progress_bars()
    run = start_processes(recipe)
    out = Path(recipe.out)
    out.mkdir(parents=True, exist_ok=True)
    nsp = recipe.objective == "mlm+nsp"

    tokenizer = prepare_tokenizer(run)
    config = model_config(recipe, tokenizer)
    examples, batches, held_out = _data(run, tokenizer, out)

    torch.manual_seed(recipe.seed)
    model = Bert(config, head="pretraining" if nsp else "masked-lm").to(run.device)
    optimizer = adamw(model, recipe.lr, recipe.weight_decay)
    scheduler = linear_schedule(optimizer, recipe.steps, recipe.warmup)
    autocast, scaler, precision = autocast_for(recipe.precision, run.device)

    log_path = out / "train.jsonl"
    start = _resume(run, model, optimizer, scheduler, scaler, log_path)
    trained = model
    if run.world > 1:
        trained = torch.nn.parallel.DistributedDataParallel(
            model, device_ids=[run.device.index] if run.device.type == "cuda" else None)

    def write(record: dict) -> None:
        if run.main:
            with open(log_path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(record) + "\n")

    if run.main and start == 0:
        write({"step": 0, "eval": evaluate(model, held_out, nsp, run.device, autocast),
               "unigram_entropy": examples.unigram_entropy})
    if run.main:
        _announce(run, config, model, len(examples.train), precision)
    state = _State(model, trained, optimizer, scheduler, scaler, autocast, nsp)
    last_eval = _train_steps(run, state, batches, held_out, start, write)

    result = last_eval or (evaluate(model, held_out, nsp, run.device, autocast) if run.main else {})
    if run.main:
        card = {"recipe": dataclasses.asdict(recipe), "held_out": result,
                "unigram_entropy": examples.unigram_entropy, "steps": recipe.steps,
                "precision": precision, "processes": run.world}
        _finish(model, tokenizer, out, card, log_path, examples.unigram_entropy)
    barrier(run)
    if run.world > 1:
        dist.destroy_process_group()
    return result


@dataclass
class _State:
    """What the training loop updates and runs with: the model (and its data-parallel
    wrapper, `trained`), the optimizer, schedule and gradient scaler, the autocast
    context and whether next-sentence prediction is trained."""

    model: Bert
    trained: torch.nn.Module
    optimizer: torch.optim.Optimizer
    scheduler: object
    scaler: object
    autocast: object
    nsp: bool


def _announce(run: "Run", config: BertConfig, model: Bert, examples: int, precision: str) -> None:
    recipe = run.recipe
    print(f"pre-training a {config.num_hidden_layers}-layer, {config.hidden_size}-wide BERT "
          f"({sum(p.numel() for p in model.parameters()):,} parameters) on "
          f"{examples:,} examples of up to {recipe.seq_len} tokens; objective "
          f"{recipe.objective}, masking {recipe.masking}, {precision}, {run.world} "
          f"process(es), global batch {recipe.batch}")


def _train_steps(run: "Run", st: _State, batches, held_out, start: int, write) -> dict | None:
    """The steps from `start` to the recipe's last: each logged, evaluated and saved as
    the recipe says; returns the last held-out evaluation (None if there was none)."""
    recipe = run.recipe
    bar = tqdm(total=recipe.steps, initial=start, disable=not (run.main and recipe.progress),
               unit="step", dynamic_ncols=True)
    st.model.train()
    window_tokens, window_start = 0.0, time.perf_counter()
    last_eval = None
    for step in range(start, recipe.steps):
        torch.manual_seed(hash_seed(recipe.seed, step, run.rank))  # this step's dropout
        batch = batches(step)
        metrics = train_step(run, st.trained, batch, st.nsp, st.autocast, st.scaler)
        grad_norm = training.step(list(st.model.parameters()), st.optimizer, st.scheduler,
                                  st.scaler, recipe.clip)

        totals = metrics.as_tensor()
        if run.world > 1:
            dist.all_reduce(totals)
        summary = Metrics.from_tensor(totals).summary(st.nsp)
        window_tokens += float(totals[-1])
        elapsed = time.perf_counter() - window_start
        record = {"step": step + 1, "lr": st.scheduler.get_last_lr()[0],
                  "grad_norm": float(grad_norm), **summary,
                  "tokens_per_s": window_tokens / max(elapsed, 1e-9)}
        done = step + 1
        if done % recipe.eval_every == 0 or done == recipe.steps:
            if run.main:
                last_eval = evaluate(st.model, held_out, st.nsp, run.device, st.autocast)
                record["eval"] = last_eval
            barrier(run)
            window_tokens, window_start = 0.0, time.perf_counter()
        write(record)
        if run.main and (done % recipe.save_every == 0 or done == recipe.steps):
            save_checkpoint(run, done, st.model, st.optimizer, st.scheduler, st.scaler)
        barrier(run)
        bar.set_postfix(loss=f"{summary['loss']:.3f}", tok_s=f"{record['tokens_per_s']:,.0f}")
        bar.update(1)
    bar.close()
    return last_eval


def _data(run: "Run", tokenizer: Tokenizer, out: Path):
    """(examples, training batches, held-out batches); the first process builds the
    cache, the others wait for it, then read it."""
    recipe = run.recipe
    if not run.main:
        barrier(run)
    examples = build_examples(recipe.corpus, tokenizer, recipe.seq_len, recipe.objective,
                              out / "data-cache", recipe.seed, recipe.num_proc)
    if run.main:
        barrier(run)
    vocab = MaskingVocab.from_tokenizer(tokenizer)
    batches = Batches(examples.train, recipe.batch, vocab, tokenizer.pad_id, recipe.seed,
                      recipe.masking)
    held_out = eval_batches(examples.valid, max(8, recipe.batch), vocab, tokenizer.pad_id,
                            recipe.seed, recipe.masking)
    return examples, batches, held_out


def _resume(run: "Run", model, optimizer, scheduler, scaler, log_path: Path) -> int:
    """The step to start from: the newest whole checkpoint's, its state loaded into the
    model, optimizer, schedule and scaler (a longer run gets the new schedule from
    there); 0, with the log started afresh, when there is none."""
    recipe = run.recipe
    resumed = latest_checkpoint(recipe) if (checkpoint_dir(recipe)).is_dir() else None
    if resumed is None:
        if run.main:
            log_path.unlink(missing_ok=True)
        return 0
    _check_same_recipe(resumed["recipe"], recipe, resumed["step"])
    model.load_state_dict(resumed["model"])
    optimizer.load_state_dict(resumed["optimizer"])
    scheduler.load_state_dict(resumed["scheduler"])
    if scaler is not None and resumed.get("scaler"):
        scaler.load_state_dict(resumed["scaler"])
    start = resumed["step"]
    if recipe.steps != resumed["recipe"]["steps"]:  # extended: the new schedule from here
        for group, base, factor in zip(optimizer.param_groups, scheduler.base_lrs,
                                       scheduler.lr_lambdas):
            group["lr"] = base * factor(start)
    if run.main:
        print(f"resuming from {resumed['path']} at step {start}")
        _truncate_log(log_path, start)
    return start


def _finish(model, tokenizer, out: Path, card: dict, log_path: Path, entropy: float) -> None:
    """The model saved (fp32, on the CPU) with its card, the loss curve, the summary."""
    save_model(model.float().cpu().eval(), tokenizer, out / "model", info=card)
    plot_losses(log_path, out / "loss.png", entropy)
    _print_summary(log_path, card["held_out"], entropy, out)


def _truncate_log(path: Path, step: int) -> None:
    """Drop log lines past the checkpoint we resume from (they will be written again)."""
    if not path.is_file():
        return
    lines = [l for l in path.read_text(encoding="utf-8").splitlines()
             if l and json.loads(l)["step"] <= step]
    write_text(path, "".join(l + "\n" for l in lines))


def _print_summary(log_path: Path, result: dict, entropy: float, out: Path) -> None:
    first = json.loads(log_path.read_text(encoding="utf-8").splitlines()[0])
    print(f"\n{'held-out':<20}{'step 0':>10}{'end':>10}")
    for key in result:
        print(f"{key:<20}{first['eval'].get(key, float('nan')):>10.3f}{result[key]:>10.3f}")
    print(f"{'unigram entropy':<20}{entropy:>10.3f}   (a model that only knows word counts)")
    print(f"\nmodel: {out / 'model'}   log: {out / 'train.jsonl'}   curve: {out / 'loss.png'}")


def plot_losses(log_path: Path, png: Path, entropy: float) -> Path:
    """Training MLM loss (raw and smoothed), held-out MLM loss, and the unigram entropy."""
    records = [json.loads(l) for l in log_path.read_text(encoding="utf-8").splitlines() if l]
    train = [(r["step"], r["mlm_loss"]) for r in records if "mlm_loss" in r]
    held = [(r["step"], r["eval"]["mlm_loss"]) for r in records if "eval" in r]
    fig, ax = plots.figure()
    if train:
        steps, losses = zip(*train)
        width = max(1, len(losses) // 50)
        smooth = [sum(losses[max(0, i - width + 1):i + 1]) / len(losses[max(0, i - width + 1):i + 1])
                  for i in range(len(losses))]
        ax.plot(steps, losses, color=plots.BLUE, alpha=0.25, linewidth=0.8)
        ax.plot(steps, smooth, color=plots.BLUE, label="training MLM loss")
    if held:
        ax.plot(*zip(*held), "o-", color=plots.ORANGE, label="held-out MLM loss")
    ax.axhline(entropy, color=plots.GREY, linestyle="--", linewidth=1,
               label=f"unigram entropy ({entropy:.2f})")
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy (nats)")
    ax.set_title("Pre-training")
    ax.legend()
    return plots.save(fig, png)


__all__ = ["Recipe", "pretrain", "latest_checkpoint", "plot_losses"]
