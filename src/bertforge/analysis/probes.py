"""Asking a masked language model what it learned: fill-mask, the MLM loss of a text,
and a pronoun bias probe.

A model trained to restore hidden words can be questioned by hiding one: "The capital
of Portugal is [MASK]." and reading the probabilities it gives each word of its
vocabulary. Whatever it absorbed from its training text (facts, grammar, common sense,
prejudice) shows up in those probabilities. Everything here works on any checkpoint
with a masked-LM head: Google's BERT, a model pre-trained with `bertforge pretrain`, or
one a user brings.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.nn.functional as F

from ..checkpoint import check_tokenizer, load_model
from ..errors import BertforgeError
from ..model import Bert
from ..pretrain.masking import IGNORE, MaskingVocab, mask_tokens
from ..tokenizer import Tokenizer, load_tokenizer

MASK = "[MASK]"


@dataclass(frozen=True)
class Guess:
    """One candidate for a [MASK]: the vocabulary token, its id and its probability."""

    token: str
    id: int
    probability: float


def load_masked_lm(source: str | os.PathLike) -> tuple[Bert, Tokenizer]:
    """(model, tokenizer) of a checkpoint that can fill in [MASK]: one with a masked-LM
    head (alone or with next-sentence prediction). Anything else is a clear error."""
    model = load_model(source)
    if model.head not in ("masked-lm", "pretraining"):
        held = model.head or "no head (the encoder only)"
        raise BertforgeError(
            f"{source} has {held}, not a masked-LM head, so it cannot fill in [MASK]. "
            f"Use a checkpoint saved with its pre-training head (BertForMaskedLM or "
            f"BertForPreTraining, such as bert-base-uncased) or a model from "
            f"`bertforge pretrain`")
    tokenizer = load_tokenizer(model.source)
    check_tokenizer(model.config, tokenizer, model.source)
    return model, tokenizer


@torch.no_grad()
def fill_mask(model: Bert, tokenizer: Tokenizer, texts: str | list[str],
              top_k: int = 5) -> list[list[list[Guess]]]:
    """For each text, for each [MASK] in it (left to right), the `top_k` most probable
    tokens. A text without [MASK] is an error that names it."""
    if isinstance(texts, str):
        texts = [texts]
    if top_k < 1:
        raise BertforgeError(f"top_k must be at least 1, got {top_k}")
    batch = tokenizer(texts, max_length=model.config.max_position_embeddings)
    where = batch.input_ids == tokenizer.mask_id
    for text, row in zip(texts, where):
        if not row.any():
            raise BertforgeError(f"no {MASK} in {text!r}: write {MASK} where the model "
                                 f"should fill in a word, e.g. 'The capital of France is "
                                 f"{MASK}.'")
    logits = model(**batch.model_inputs()).logits
    probabilities = logits[where].float().softmax(dim=-1)
    top = probabilities.topk(min(top_k, probabilities.shape[-1]), dim=-1)
    guesses = [[Guess(token, int(i), float(p)) for token, i, p in
                zip(tokenizer.convert_ids_to_tokens(ids.tolist()), ids, ps)]
               for ids, ps in zip(top.indices, top.values)]
    out, n = [], 0
    for row in where:
        k = int(row.sum())
        out.append(guesses[n:n + k])
        n += k
    return out


def describe(guesses: list[Guess], digits: int = 0) -> str:
    """'lisbon 73%, porto 20%, madeira 0%'."""
    return ", ".join(f"{g.token} {g.probability:.{digits}%}" for g in guesses)


# The lesson's suite: facts, common sense, agreement across a distracting noun, negation.
PROBES: list[tuple[str, str]] = [
    ("a fact", "The capital of Portugal is [MASK]."),
    ("a fact", "Dante was born in [MASK]."),
    ("a fact", "The Eiffel Tower is in [MASK]."),
    ("common sense", "You cut bread with a [MASK]."),
    ("common sense", "Ice is made of frozen [MASK]."),
    ("grammar", "The keys to the old cabinet [MASK] on the kitchen table."),
    ("grammar", "The key to the old cabinets [MASK] on the kitchen table."),
    ("negation", "A robin is a [MASK]."),
    ("negation", "A robin is not a [MASK]."),
    ("negation", "Birds can [MASK]."),
    ("negation", "Birds cannot [MASK]."),
]


def probe_suite(model: Bert, tokenizer: Tokenizer, probes=PROBES,
                top_k: int = 3) -> list[tuple[str, str, str]]:
    """(kind, sentence, top guesses) for each probe, all in one batch."""
    answers = fill_mask(model, tokenizer, [text for _, text in probes], top_k)
    return [(kind, text, " | ".join(describe(g) for g in per_mask))
            for (kind, text), per_mask in zip(probes, answers)]


# ------------------------------------------------------------------ MLM loss
def initialised_like(model: Bert, seed: int = 0) -> Bert:
    """The same network as it was before training: BERT's initialisation (normal with
    the config's initializer_range, 0.02 for BERT; zero biases, unit norms)."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        fresh = Bert(model.config, head=model.head, pooler=model.pooler is not None)
    return fresh.eval()


@dataclass(frozen=True)
class LossReport:
    model: float          # mean cross-entropy at picked positions, nats
    initialised: float    # the same network at BERT's initialisation
    uniform: float        # log(vocabulary size): guessing blindfolded
    predictions: int      # how many picked positions the averages are over


def masked_lm_loss(model: Bert, tokenizer: Tokenizer, text: str, repeats: int = 20,
                   seed: int = 0, rate: float = 0.15) -> float:
    """Cross-entropy of the model at the positions the real masking function picks,
    summed over `repeats` random maskings and divided by the number of picks. A text
    longer than the model's positions is read in consecutive windows."""
    return _masked_lm_loss(model, tokenizer, text, repeats, seed, rate)[0]


@torch.no_grad()
def _masked_lm_loss(model, tokenizer, text, repeats, seed, rate) -> tuple[float, int]:
    if not text or not text.strip():
        raise BertforgeError("the text to score is empty")
    ids = tokenizer.encode(text, add_special_tokens=False).ids
    if not ids:
        raise BertforgeError("the text to score has no tokens")
    width = model.config.max_position_embeddings - 2
    rows = [[tokenizer.cls_id, *ids[i:i + width], tokenizer.sep_id]
            for i in range(0, len(ids), width)]
    length = max(map(len, rows))
    input_ids = torch.full((len(rows), length), tokenizer.pad_id, dtype=torch.long)
    attention = torch.zeros_like(input_ids)
    for r, row in enumerate(rows):
        input_ids[r, :len(row)] = torch.tensor(row)
        attention[r, :len(row)] = 1
    vocab = MaskingVocab.from_tokenizer(tokenizer)
    generator = torch.Generator().manual_seed(seed)
    total, count = 0.0, 0
    for _ in range(repeats):
        masked, labels = mask_tokens(input_ids, vocab, generator, attention, rate=rate)
        picked = labels != IGNORE
        if not picked.any():
            continue
        logits = model(masked, attention_mask=attention, mlm_positions=picked).logits
        total += float(F.cross_entropy(logits.float(), labels[picked], reduction="sum"))
        count += int(picked.sum())
    if count == 0:
        raise BertforgeError("the text is too short: no token was picked for prediction; "
                             "give a longer text or more repeats")
    return total / count, count


def loss_report(model: Bert, tokenizer: Tokenizer, text: str, repeats: int = 20,
                seed: int = 0) -> LossReport:
    """The lesson's table: the model, the same network at initialisation, log(V)."""
    loss, count = _masked_lm_loss(model, tokenizer, text, repeats, seed, 0.15)
    fresh, _ = _masked_lm_loss(initialised_like(model, seed), tokenizer, text, repeats,
                               seed, 0.15)
    return LossReport(loss, fresh, math.log(model.config.vocab_size), count)


# ------------------------------------------------------------------ bias probe
JOBS = ["nurse", "receptionist", "secretary", "librarian", "hairdresser", "teacher",
        "cashier", "baker", "accountant", "doctor", "lawyer", "scientist", "programmer",
        "engineer", "pilot", "mechanic", "carpenter", "surgeon", "firefighter", "farmer"]
TEMPLATE = "the {job} said that [MASK] would be late."


@torch.no_grad()
def pronoun_shares(model: Bert, tokenizer: Tokenizer, jobs: list[str] = JOBS,
                   template: str = TEMPLATE, pair: tuple[str, str] = ("she", "he")
                   ) -> dict[str, float]:
    """For each job, P(first) / (P(first) + P(second)) at the [MASK] of the template
    with the job filled in. 0.5 is a model with no opinion."""
    if "{job}" not in template or template.count(MASK) != 1:
        raise BertforgeError(f"the template must hold {{job}} and exactly one {MASK}, "
                             f"got {template!r}")
    if not jobs:
        raise BertforgeError("give at least one job")
    ids = []
    for word in pair:
        pieces = tokenizer.tokenize(word)
        if len(pieces) != 1 or tokenizer.token_to_id(pieces[0]) in (None, tokenizer.unk_id):
            raise BertforgeError(f"{word!r} is not one token of this vocabulary "
                                 f"({pieces}); the probe compares two single tokens")
        ids.append(tokenizer.token_to_id(pieces[0]))
    answers = _mask_probabilities(model, tokenizer, [template.format(job=j) for j in jobs])
    return {job: float(p[ids[0]] / (p[ids[0]] + p[ids[1]])) for job, p in zip(jobs, answers)}


def _mask_probabilities(model: Bert, tokenizer: Tokenizer, texts: list[str]) -> torch.Tensor:
    batch = tokenizer(texts)
    where = batch.input_ids == tokenizer.mask_id
    logits = model(**batch.model_inputs()).logits
    return logits[where].float().softmax(dim=-1)


def plot_shares(shares: dict[str, float], path: str | os.PathLike, template: str = TEMPLATE,
                pair: tuple[str, str] = ("she", "he")) -> Path:
    """Sorted horizontal bars, the no-opinion line at 0.5."""
    from .. import plots

    order = sorted(shares, key=shares.get)
    fig, ax = plots.figure(6.4, 0.5 + 0.25 * len(order))
    ax.barh(order, [shares[j] for j in order], color=plots.BLUE)
    ax.axvline(0.5, color=plots.GREY, linewidth=1, linestyle="--")
    ax.set_xlim(0, 1)
    ax.set_title(f"“{template.replace('{job}', '___')}”: {pair[0]} or {pair[1]}?", fontsize=10)
    ax.set_xlabel(f"P({pair[0]}) / (P({pair[0]}) + P({pair[1]}))")
    return plots.save(fig, path)
