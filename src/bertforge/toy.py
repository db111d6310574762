"""The bracket-language lab: BERT's argument, reproduced at toy scale in about a minute.

A sentence of the toy language is [CLS] followed by 8 bracket pairs: an opener (a..h)
and then its own closer (A..H); which opener comes next is a coin toss. So a closer is
predictable from the token on its left ("b ?" -> B) and an opener only from the token
on its right ("? E" -> e). Half the tokens need right-hand context, which a
left-to-right (causal) model never sees. That is the paper's case for a bidirectional
encoder, and six demonstrations make it with the project's own pieces: the real `Bert`
at a tiny size (2 layers, 32 wide, 2 heads), the real `mask_tokens`, and the real
`causal_mask`. So the lab also checks the library: a bug in masking or in the attention
mask shows up as a wrong number here.

    bertforge toy [--seed N] [--plot DIR]

Every demonstration returns its numbers in a dict (the tests read them) and prints a
short report through `say`. Runs are reproducible: data, masks and initial weights all
come from generators seeded by (seed, demonstration), and the lab runs on one thread.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import torch
import torch.nn.functional as F

from .config import BertConfig
from .model import Bert, causal_mask
from .pretrain.masking import IGNORE, MaskingVocab, mask_tokens

K = 8                          # pair types
PAIRS = 8                      # pairs per sentence
PAD, CLS, MASK = 0, 1, 2       # special ids ([PAD] is never used: every sentence is full)
OPEN0, CLOSE0 = 3, 3 + K       # openers a..h are ids 3..10, closers A..H are 11..18
VOCAB = 3 + 2 * K              # 19
LENGTH = 1 + 2 * PAIRS         # 17 tokens
NAMES = ["[PAD]", "[CLS]", "_"] + [chr(97 + i) for i in range(K)] + [chr(65 + i) for i in range(K)]
CHANCE = 1 / K

TOY_VOCAB = MaskingVocab(
    mask_id=MASK,
    special_ids=(PAD, CLS),
    ordinary_ids=torch.arange(OPEN0, VOCAB),
    continuation=torch.zeros(VOCAB, dtype=torch.bool),
)

# Kinds of position after masking, as `kinds` returns them.
UNTOUCHED, MASKED, RANDOM, KEPT = 0, 1, 2, 3

Say = Callable[[str], None]


# ------------------------------------------------------------------ the language
def generator(seed: int, stream: int) -> torch.Generator:
    """A generator for one stream of randomness of one run."""
    return torch.Generator().manual_seed(seed * 1000 + stream)


def sentences(n: int, gen: torch.Generator) -> torch.Tensor:
    """(n, 17) token ids: [CLS] then 8 opener/closer pairs."""
    openers = torch.randint(0, K, (n, PAIRS), generator=gen)
    ids = torch.empty(n, LENGTH, dtype=torch.long)
    ids[:, 0] = CLS
    ids[:, 1::2] = OPEN0 + openers
    ids[:, 2::2] = CLOSE0 + openers
    return ids


def show(ids) -> str:
    return " ".join(NAMES[int(i)] for i in ids)


def row(cells: list[str]) -> str:
    """One string per position, aligned under `show` (the [CLS] column is 5 wide)."""
    return " ".join(c.rjust(5) if j == 0 else c for j, c in enumerate(cells))


def mask(ids: torch.Tensor, gen: torch.Generator, rate: float = 0.15,
         split: tuple[float, float, float] = (0.8, 0.1, 0.1)):
    """The project's `mask_tokens` on toy sentences: (input, labels)."""
    return mask_tokens(ids, TOY_VOCAB, gen, rate=rate, split=split)


def kinds(original: torch.Tensor, masked: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """What happened at each position: UNTOUCHED, MASKED, RANDOM or KEPT. (A random
    replacement that drew the original token counts as kept: the model sees the truth.)"""
    picked = labels != IGNORE
    out = torch.full_like(original, UNTOUCHED)
    out[picked & (masked == MASK)] = MASKED
    out[picked & (masked != MASK) & (masked != original)] = RANDOM
    out[picked & (masked == original)] = KEPT
    return out


def held_out(seed: int, n: int = 2000, rate: float = 0.15) -> dict[str, torch.Tensor]:
    """A fixed evaluation set: original sentences, their masked input, labels, kinds."""
    gen = generator(seed, 42)
    original = sentences(n, gen)
    inp, labels = mask(original, gen, rate)
    return dict(original=original, inp=inp, labels=labels, kind=kinds(original, inp, labels))


def partner_intact(ev: dict[str, torch.Tensor]) -> torch.Tensor:
    """(n, 17) bool: does the position's partner still show its true token?"""
    pos = torch.arange(LENGTH)
    partner = torch.where(pos % 2 == 1, pos + 1, pos - 1)
    partner[0] = 0
    return ev["inp"][:, partner] == ev["original"][:, partner]


def broken_sentences(n: int, gen: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """The grammaticality task: half the sentences get one closer swapped for a wrong
    one. Labels: 1 = well-formed, 0 = broken."""
    ids = sentences(n, gen)
    broken = torch.rand(n, generator=gen) < 0.5
    column = 2 + 2 * torch.randint(0, PAIRS, (n,), generator=gen)
    rows = torch.arange(n)
    shift = torch.randint(1, K, (n,), generator=gen)
    wrong = (ids[rows, column] - CLOSE0 + shift) % K + CLOSE0
    ids[rows[broken], column[broken]] = wrong[broken]
    return ids, (~broken).long()


# ------------------------------------------------------------------ the model
def toy_config(labels: list[str] | None = None) -> BertConfig:
    """BERT's shape at toy size: 2 layers, 32 wide, 2 heads, no dropout."""
    return BertConfig(vocab_size=VOCAB, hidden_size=32, num_hidden_layers=2,
                      num_attention_heads=2, intermediate_size=128,
                      max_position_embeddings=LENGTH, type_vocab_size=1,
                      hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
                      pad_token_id=PAD, labels=labels, initializer_range=0.2)


def new_model(seed: int, stream: int, head: str = "masked-lm",
              labels: list[str] | None = None) -> Bert:
    """A freshly initialised toy Bert (BERT's initialisation), seeded."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed * 1000 + stream)
        return Bert(toy_config(labels), head=head)


def _attention(causal: bool, n: int) -> torch.Tensor | None:
    return causal_mask(torch.ones(n, LENGTH, dtype=torch.long)) if causal else None


def logits(model: Bert, ids: torch.Tensor, causal: bool = False) -> torch.Tensor:
    return model(ids, attention_mask=_attention(causal, len(ids))).logits


def pretrain(seed: int, stream: int, steps: int = 600, causal: bool = False,
             rate: float = 0.15, split=(0.8, 0.1, 0.1), batch: int = 64,
             lr: float = 3e-3) -> tuple[Bert, list[float]]:
    """Masked-LM training on fresh sentences each step; returns (model, losses). The
    loss is cross-entropy at the picked positions only; with nothing picked it is 0
    and nothing is learned."""
    model = new_model(seed, stream)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr)
    gen, losses = generator(seed, stream), []
    model.train()
    for _ in range(steps):
        inp, labels = mask(sentences(batch, gen), gen, rate, split)
        out = logits(model, inp, causal)
        if (labels != IGNORE).any():
            loss = F.cross_entropy(out.reshape(-1, VOCAB), labels.reshape(-1),
                                   ignore_index=IGNORE)
        else:
            loss = out.sum() * 0.0  # no blanks, no loss, no gradient
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        losses.append(loss.item())
    model.eval()
    return model, losses


@torch.no_grad()
def predict(model: Bert, inp: torch.Tensor, causal: bool = False) -> torch.Tensor:
    return logits(model, inp, causal).argmax(-1)


def accuracy(model: Bert, ev: dict[str, torch.Tensor], where: torch.Tensor | None = None,
             causal: bool = False) -> float:
    """Masked-token accuracy over the picked positions (or those of them in `where`);
    `causal` for a model trained with the causal mask."""
    picked = ev["labels"] != IGNORE
    sel = picked if where is None else picked & where
    if not sel.any():
        return float("nan")
    return float((predict(model, ev["inp"], causal)[sel] == ev["labels"][sel]).float().mean())


def classifier_from(encoder: Bert | None, seed: int, stream: int) -> Bert:
    """A sequence classifier (pooler + linear head on [CLS]) on a copy of the encoder's
    weights, or on random weights when encoder is None."""
    clf = new_model(seed, stream, head="sequence-classification", labels=["broken", "clean"])
    if encoder is not None:
        own = clf.state_dict()
        shared = {k: v for k, v in encoder.state_dict().items()
                  if k in own and not k.startswith(("pooler", "classifier"))}
        clf.load_state_dict(shared, strict=False)
    return clf


def finetune(clf: Bert, seed: int, stream: int, lr: float, steps: int = 300,
             batch: int = 64, eval_set=None) -> tuple[float, int]:
    """Train the trainable parameters on the grammaticality task; (accuracy on the
    evaluation set, trainable parameter count)."""
    params = [p for p in clf.parameters() if p.requires_grad]
    optimiser = torch.optim.AdamW(params, lr=lr)
    gen = generator(seed, stream)
    clf.train()
    for _ in range(steps):
        x, y = broken_sentences(batch, gen)
        loss = F.cross_entropy(clf(x).logits, y)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    clf.eval()
    x, y = eval_set
    with torch.no_grad():
        acc = float((clf(x).logits.argmax(-1) == y).float().mean())
    return acc, sum(p.numel() for p in params)


# ------------------------------------------------------------------ the demonstrations
def _title(say: Say, text: str) -> None:
    say("\n" + "=" * 72)
    say(text)
    say("=" * 72)


def demo_masking(seed: int, say: Say) -> dict:
    """1. The masking recipe on one sentence, then its shares over 10,000 sentences."""
    _title(say, "1. The masking recipe: pick 15%, then 80% [MASK] / 10% random / 10% kept")
    gen = generator(seed, 1)
    few = sentences(8, gen)
    inp, labels = mask(few, gen)
    kind = kinds(few, inp, labels)
    i = int((labels != IGNORE).sum(1).argmax())
    say(f"original : {show(few[i])}")
    say(f"input    : {show(inp[i])}")
    say("labels   : " + row([NAMES[int(t)] if t != IGNORE else "." for t in labels[i]]))
    say("kind     : " + row([".MRK"[int(k)] for k in kind[i]]))
    say("           (M = [MASK], R = random token, K = kept as it was, . = no loss here)")
    big = sentences(10_000, gen)
    inp, labels = mask(big, gen)
    kind = kinds(big, inp, labels)
    real = big.numel() - len(big)  # [CLS] is never picked
    shares = {name: float((kind == k).sum()) / real
              for k, name in ((MASKED, "mask"), (RANDOM, "random"), (KEPT, "kept"))}
    shares["picked"] = float((kind != UNTOUCHED).sum()) / real
    say(f"\nover 10,000 sentences ({real:,} real tokens):")
    for name, want in (("mask", 0.12), ("random", 0.015), ("kept", 0.015), ("picked", 0.15)):
        say(f"  {name:7s} {shares[name]:6.1%}   (the recipe: {want:.1%})")
    say("\nOnly the picked 15% carry a loss; the other 85% are context. One picked token in")
    say("five is not [MASK] (and a random draw sometimes hits the true token, so 'kept' is")
    say("a little over 1.5%): the model can never trust a token just because it is visible.")
    return shares


def demo_attention(seed: int, say: Say) -> dict:
    """2. The same attention, one argument apart: with and without the causal mask."""
    _title(say, "2. The same attention with and without the causal mask: who sees whom")
    model = new_model(seed, 2)
    ids = sentences(1, generator(seed, 2))
    ids[0, 1:7] = torch.tensor([OPEN0 + 1, CLOSE0 + 1, OPEN0 + 4, CLOSE0 + 4, OPEN0, CLOSE0])
    shown = 6
    tokens = [NAMES[int(t)] for t in ids[0, :shown]]
    grids = {}
    for name, causal in (("bidirectional", False), ("causal", True)):
        with torch.no_grad():
            out = model(ids, attention_mask=_attention(causal, 1), output_attentions=True)
        weights = out.attentions[0][0, 0]  # layer 1, head 1: (query, key)
        grids[name] = weights
        label = "no mask (BERT)" if not causal else "causal mask (GPT)"
        say(f"{label}: a freshly initialised tiny BERT, layer 1, head 1; each row is what that token attends to "
            f"(first {shown} of {LENGTH} positions)")
        say("         " + " ".join(f"{t:>5s}" for t in tokens))
        for q in range(shown):
            seen = int((weights[q] > 0).sum())
            cells = " ".join(f"{float(v):5.2f}" for v in weights[q, :shown])
            say(f"  {tokens[q]:>5s}  {cells}   sees {seen:2d} of {LENGTH}")
        say("")
    say("The same code with one argument changed. Without the mask every row is full, so")
    say("'b' reads the 'B' to its right. With it, 'b' sees only [CLS] and itself: it has no")
    say("way to know which closer comes. That argument is the whole paper.")
    return {name: (grid > 0).float().mean().item() for name, grid in grids.items()} | {
        "grids": grids, "tokens": [NAMES[int(t)] for t in ids[0]]}


def demo_bidirectional(seed: int, say: Say, ev: dict, steps: int) -> tuple[Bert, dict]:
    """3. Pre-train the tiny bidirectional BERT; accuracy with the partner visible vs
    hidden, and some filled-in sentences."""
    _title(say, "3. Pre-training the tiny BERT (bidirectional, 15%, 80/10/10)")
    model, losses = pretrain(seed, 3, steps)
    intact = partner_intact(ev)
    result = {"loss_first": losses[0], "loss_last": sum(losses[-20:]) / 20,
              "visible": accuracy(model, ev, intact), "hidden": accuracy(model, ev, ~intact),
              "all": accuracy(model, ev)}
    picked = ev["labels"] != IGNORE
    say(f"{steps} steps of 64 sentences: training loss {result['loss_first']:.2f} -> "
        f"{result['loss_last']:.2f} (last 20 steps)")
    say(f"\n  partner visible and intact   {result['visible']:6.1%}  "
        f"({int((picked & intact).sum())} targets)")
    say(f"  partner hidden or corrupted  {result['hidden']:6.1%}  "
        f"({int((picked & ~intact).sum())} targets; chance {CHANCE:.1%})")
    pred = predict(model, ev["inp"])
    hit = ((pred == ev["labels"]) | ~picked).all(1)
    busy = picked.sum(1) >= 2
    chosen = torch.nonzero(busy & hit).flatten()[:2].tolist() + \
        torch.nonzero(~hit).flatten()[:1].tolist()
    say("\nfilling in the blanks of held-out sentences:")
    for i in chosen:
        filled = torch.where(picked[i], pred[i], ev["inp"][i])
        marks = "".join("✓" if p == t else "✗"
                        for p, t in zip(pred[i][picked[i]], ev["labels"][i][picked[i]]))
        say(f"  original : {show(ev['original'][i])}")
        say(f"  input    : {show(ev['inp'][i])}")
        say(f"  filled   : {show(filled)}   {marks}")
    say("\nThe misses are pairs whose two halves were both hidden (or one was replaced by a")
    say("random token): no context, no answer. Anything with its partner in view is solved.")
    return model, result


def demo_causal(seed: int, say: Say, ev: dict, steps: int, bert: Bert) -> dict:
    """4. The same model and data with a causal mask: closers vs openers."""
    _title(say, "4. Break it: the same model and data, with the causal mask")
    gpt, _ = pretrain(seed, 3, steps, causal=True)  # stream 3: the same data as demo 3
    pos = torch.arange(LENGTH)
    visible = partner_intact(ev)
    closers = ((pos % 2 == 0) & (pos > 0)) & visible
    openers = (pos % 2 == 1) & visible
    result = {}
    say(f"  {'masked-token accuracy':36s}{'bidirectional':>14s}{'causal':>9s}")
    for name, key, where in (("all masked tokens", "all", None),
                             ("  closers (clue on the left)", "closers", closers),
                             ("  openers (clue on the right)", "openers", openers)):
        result[f"bidirectional_{key}"] = accuracy(bert, ev, where)
        result[f"causal_{key}"] = accuracy(gpt, ev, where, causal=True)
        say(f"  {name:36s}{result[f'bidirectional_{key}']:>14.1%}"
            f"{result[f'causal_{key}']:>9.1%}")
    say("  (closers and openers: those whose partner is in the input, so that the answer")
    say("  can be known at all)")
    say(f"  chance {CHANCE:.1%}")
    say("\nThe causal model closes brackets: the opener is on its left. It cannot name an")
    say("opener, because the only evidence is the closer on its right, which the mask")
    say("hides. That gap is the paper's argument for dropping the mask.")
    return result


def demo_recipes(seed: int, say: Say, ev: dict, steps: int, bert: Bert) -> dict:
    """5. Three broken recipes: always [MASK] (100/0/0), pick 50%, pick 0%."""
    _title(say, "5. Break it: three ways to get the masking recipe wrong")
    result = {}
    say("(a) always [MASK], never a random or kept token (100/0/0)")
    always, _ = pretrain(seed, 3, steps, split=(1.0, 0.0, 0.0))
    say(f"  {'accuracy where the picked token was':38s}{'80/10/10':>10s}{'100/0/0':>10s}")
    for kind, key, name in ((MASKED, "mask", "[MASK]"), (RANDOM, "random", "a random token"),
                            (KEPT, "kept", "kept as it was")):
        where = ev["kind"] == kind
        result[f"standard_{key}"] = accuracy(bert, ev, where)
        result[f"always_{key}"] = accuracy(always, ev, where)
        say(f"    {name:36s}{result[f'standard_{key}']:>10.1%}{result[f'always_{key}']:>10.1%}")
    say("  The 100/0/0 model was never asked about a visible token, so it copies nothing")
    say("  through and trusts a wrong one; fine-tuning shows it nothing but visible tokens.")

    say("\n(b) pick 50% instead of 15%")
    half, _ = pretrain(seed, 3, steps, rate=0.5)
    ev50 = held_out(seed + 1, rate=0.5)
    intact50 = partner_intact(ev50)
    picked50 = ev50["labels"] != IGNORE
    result |= {"half_on_15": accuracy(half, ev), "half_on_50": accuracy(half, ev50),
               "half_on_50_intact": accuracy(half, ev50, intact50),
               "half_intact_share": float((picked50 & intact50).sum() / picked50.sum())}
    say(f"  accuracy on the 15%-masked set   {result['half_on_15']:6.1%}   "
        f"(the 15% model: {accuracy(bert, ev):.1%})")
    say(f"  accuracy on a 50%-masked set     {result['half_on_50']:6.1%}")
    say(f"    where the partner is intact    {result['half_on_50_intact']:6.1%}   "
        f"(only {result['half_intact_share']:.0%} of the targets)")
    say("  The rule is still learned; the task got worse: about half the blanks have had")
    say("  their only clue blanked out too.")

    say("\n(c) pick 0%")
    nothing, losses = pretrain(seed, 3, steps // 2, rate=0.0)
    result |= {"none_loss_max": max(abs(x) for x in losses), "none_accuracy": accuracy(nothing, ev)}
    say(f"  largest training loss {result['none_loss_max']:.3f}; masked-token accuracy "
        f"{result['none_accuracy']:.1%} (chance {CHANCE:.1%})")
    say("  Nothing was hidden, so nothing had to be inferred: the loss lives only on the")
    say("  blanks. No blanks, no loss, no gradient, no learning.")
    return result


def demo_finetune(seed: int, say: Say, bert: Bert, steps: int) -> dict:
    """6. [CLS] fine-tuning on grammaticality: frozen encoder vs all of the pre-trained
    model vs the same network from random weights."""
    _title(say, "6. [CLS] and fine-tuning: is the sentence well formed?")
    x, y = broken_sentences(16, generator(seed, 6))
    say("task: one closer swapped for a wrong one -> label 0 (broken); else 1")
    for i in (int(y.argmax()), int(y.argmin())):  # one well-formed, one broken
        say(f"   {show(x[i])}   label {int(y[i])}")
    eval_set = broken_sentences(2000, generator(seed, 7))
    frozen = classifier_from(bert, seed, 60)
    for name, p in frozen.named_parameters():
        p.requires_grad_(name.startswith("classifier"))
    runs = (("frozen", "head only, encoder frozen", frozen, 3e-3),
            ("full", "everything (the paper)", classifier_from(bert, seed, 60), 1e-3),
            ("random", "everything, no pre-training", classifier_from(None, seed, 60), 1e-3))
    result = {}
    say(f"\n  {f'{steps} steps of fine-tuning':32s}{'trainable':>10s}{'accuracy':>10s}")
    for key, name, clf, lr in runs:
        acc, n = finetune(clf, seed, 8, lr, steps, eval_set=eval_set)
        result[key], result[f"{key}_parameters"] = acc, n
        say(f"  {name:32s}{n:>10,d}{acc:>10.1%}")
    say("  chance 50.0%")
    say("\n[CLS] had no job in pre-training here (no next-sentence task), so a linear head")
    say("on the frozen encoder finds little. Let the gradients into the encoder and it")
    say("learns the task, but only if it was pre-trained: from random weights the same")
    say("steps stay near chance. Pre-training makes fine-tuning cheap; fine-tuning all of")
    say("it makes pre-training usable.")
    return result


@contextmanager
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # a toy model gains nothing from more; and runs repeat exactly
    try:
        yield
    finally:
        torch.set_num_threads(threads)


MIN_STEPS = 50  # with fewer training steps a model learns nothing worth showing


def run_lab(seed: int = 0, say: Say = print, steps: int = 600) -> dict[str, dict]:
    """All six demonstrations; returns each one's numbers by name."""
    with _one_thread():
        ev = held_out(seed)
        results = {"masking": demo_masking(seed, say), "attention": demo_attention(seed, say)}
        bert, results["bidirectional"] = demo_bidirectional(seed, say, ev, steps)
        results["causal"] = demo_causal(seed, say, ev, steps, bert)
        results["recipes"] = demo_recipes(seed, say, ev, steps, bert)
        results["finetune"] = demo_finetune(seed, say, bert, steps)
    return results


# ------------------------------------------------------------------ figures
def plot_lab(results: dict[str, dict], out: str | Path) -> list[Path]:
    """One PNG per demonstration in `out`; returns the paths."""
    out = Path(out)
    return [plot(results, out) for plot in (_plot_masking, _plot_attention, _plot_bidirectional,
                                            _plot_causal, _plot_recipes, _plot_finetune)]


def _bars(ax, names, groups, colors, chance=None, percent=True):
    """Grouped bars with their values written on them, and a dashed line at chance."""
    from . import plots

    width = 0.8 / len(groups)
    for g, (label, values) in enumerate(groups.items()):
        xs = [i + (g - (len(groups) - 1) / 2) * width for i in range(len(names))]
        ax.bar(xs, values, width, label=label, color=colors[g])
        for x, v in zip(xs, values):
            if not math.isnan(v):
                ax.text(x, v, f"{v:.0%}" if percent else f"{v:.3f}", ha="center",
                        va="bottom", fontsize=8)
    ax.set_xticks(range(len(names)), names)
    if chance is not None:
        ax.axhline(chance, color=plots.GREY, linestyle="--", linewidth=1)
        ax.text(len(names) - 0.5, chance, " chance", va="bottom", ha="right",
                fontsize=8, color=plots.GREY)
    ax.set_ylim(0, 1.2 if percent and max(max(v) for v in groups.values()) > 0.5 else None)
    if len(groups) > 1:
        ax.legend(frameon=False, fontsize=8, loc="upper right", ncols=len(groups))


def _plot_masking(results: dict[str, dict], out: Path) -> Path:
    from . import plots

    m = results["masking"]
    fig, ax = plots.figure(6, 3.5)
    _bars(ax, ["[MASK]", "random", "kept", "picked"],
          {"measured": [m["mask"], m["random"], m["kept"], m["picked"]],
          "the recipe": [0.12, 0.015, 0.015, 0.15]}, [plots.BLUE, plots.GREY], percent=True)
    ax.set_ylabel("share of real tokens")
    ax.set_title("1. The masking recipe over 10,000 sentences")
    return plots.save(fig, out / "1-masking.png")


def _plot_attention(results: dict[str, dict], out: Path) -> Path:
    from . import plots

    a = results["attention"]
    fig, axes = plots.figure(9, 4, ncols=2)
    for ax, name in zip(axes, ("bidirectional", "causal")):
        grid = a["grids"][name].numpy()
        ax.imshow(grid, cmap="Blues", vmin=0)
        ticks = range(len(a["tokens"]))
        ax.set_xticks(ticks, a["tokens"], fontsize=7)
        ax.set_yticks(ticks, a["tokens"], fontsize=7)
        ax.set_xlabel("key (is seen)")
        ax.set_ylabel("query (looks)")
        ax.set_title({"bidirectional": "no mask (BERT)", "causal": "causal mask (GPT)"}[name])
    fig.suptitle("2. Attention weights, layer 1 head 1: who sees whom")
    return plots.save(fig, out / "2-attention.png")


def _plot_bidirectional(results: dict[str, dict], out: Path) -> Path:
    from . import plots

    b = results["bidirectional"]
    fig, ax = plots.figure(5, 3.5)
    _bars(ax, ["partner visible", "partner hidden"], {"": [b["visible"], b["hidden"]]},
          [plots.BLUE], chance=CHANCE)
    ax.set_ylabel("masked-token accuracy")
    ax.set_title("3. The tiny BERT after pre-training")
    return plots.save(fig, out / "3-bidirectional.png")


def _plot_causal(results: dict[str, dict], out: Path) -> Path:
    from . import plots

    c = results["causal"]
    fig, ax = plots.figure(6, 3.5)
    keys = ["all", "closers", "openers"]
    _bars(ax, ["all", "closers (clue left)", "openers (clue right)"],
          {"bidirectional": [c[f"bidirectional_{k}"] for k in keys],
          "causal": [c[f"causal_{k}"] for k in keys]}, [plots.BLUE, plots.ORANGE],
          chance=CHANCE)
    ax.set_ylabel("masked-token accuracy")
    ax.set_title("4. The same model with a causal mask")
    return plots.save(fig, out / "4-causal.png")


def _plot_recipes(results: dict[str, dict], out: Path) -> Path:
    from . import plots

    r = results["recipes"]
    fig, axes = plots.figure(10, 3.5, ncols=2)
    keys = ["mask", "random", "kept"]
    _bars(axes[0], ["[MASK]", "random token", "kept"],
          {"80/10/10": [r[f"standard_{k}"] for k in keys],
          "100/0/0": [r[f"always_{k}"] for k in keys]}, [plots.BLUE, plots.ORANGE],
          chance=CHANCE)
    axes[0].set_ylabel("accuracy where the picked token was")
    axes[0].set_title("(a) always [MASK]")
    _bars(axes[1], ["pick 15%", "pick 50%", "pick 0%"],
          {"": [results["bidirectional"]["all"], r["half_on_15"], r["none_accuracy"]]},
          [plots.BLUE], chance=CHANCE)
    axes[1].set_ylabel("accuracy on the 15%-masked set")
    axes[1].set_title("(b, c) how much to pick")
    fig.suptitle("5. Three broken recipes")
    return plots.save(fig, out / "5-recipes.png")


def _plot_finetune(results: dict[str, dict], out: Path) -> Path:
    from . import plots

    f = results["finetune"]
    fig, ax = plots.figure(6, 3.5)
    _bars(ax, ["head only,\nfrozen encoder", "everything,\npre-trained", "everything,\nrandom weights"],
          {"": [f["frozen"], f["full"], f["random"]]}, [plots.BLUE], chance=0.5)
    ax.set_ylabel("accuracy (grammaticality)")
    ax.set_title("6. Fine-tuning on [CLS]")
    return plots.save(fig, out / "6-finetune.png")
