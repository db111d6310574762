"""Training the redactor's model: a token tagger for the 12 groups, fine-tuned from any
BERT on documents in Gretel's schema, saved with its card (recipe, data, scores)."""

from __future__ import annotations

import copy
import os
import random
import time
from dataclasses import dataclass, replace

import torch

from ..checkpoint import save_model
from ..errors import BertforgeError
from ..files import check_new_directory
from ..finetune.fit import BASE, FitSettings
from ..finetune.tagging import BLANK_LINE, Tagger, train_tagger
from ..spans import Span
from .dataset import read_documents
from .labels import GROUPS

# the bundled model's recipe: two passes at a higher rate than fine-tuning's default, in
# length-sorted batches (the bundled model was chosen on validation trained that way)
RECIPE = FitSettings(epochs=2.0, batch=16, lr=8e-5, sort_pool=50)
WINDOW, STRIDE = 254, 192  # 256 positions with [CLS] and [SEP]: most documents fit in one
# no sentence joined to another source's paragraph: doing so for 30% of them made the
# model steadier next to unrelated text and weaker alone
# (docs/experiments/2026-12-04-neighbours.md)
NEIGHBOURS = 0.0
# Under this validation F1 a model is flagged in its card and whenever it is loaded: the
# bundled recipe reaches 0.97 on its validation split and patterns alone about 0.6, so a
# model below 0.5 learned next to nothing (too few steps, or data that does not fit).
WEAK_F1 = 0.5


def _device_name(model) -> str:
    """Where the model was trained: "cpu", or the GPU's name."""
    device = next(model.parameters()).device
    return torch.cuda.get_device_name(device) if device.type == "cuda" else device.type


@dataclass(frozen=True)
class Source:
    """One body of training text: a file or a corpus split, its label map (CoNLL input;
    a public corpus has its own, `labels.CORPUS_LABELS`) and its weight, which is its
    share of the training windows against the other sources' weights."""
    data: str
    weight: float = 1.0
    labels: str | dict | None = None


def sources_of(train, weights=None, labels=None) -> list[Source]:
    """`train` (one source or several: Source objects or file names) as Sources, with
    the weights and label maps given beside them (one for all, or one each)."""
    items = [train] if isinstance(train, (str, os.PathLike, Source)) else list(train)
    if not items:
        raise BertforgeError("no training data: name at least one file or corpus split")

    def each(values, name):
        if values is None or isinstance(values, (str, dict, int, float)):
            return [values] * len(items)
        values = list(values)
        if len(values) == 1:
            return values * len(items)
        if len(values) != len(items):
            raise BertforgeError(f"{len(values)} {name} for {len(items)} training sources: "
                                 f"give one for all, or one for each")
        return values

    out = []
    for item, weight, label_map in zip(items, each(weights, "weights"), each(labels, "label maps")):
        if isinstance(item, Source):
            out.append(item)
            continue
        if weight is not None and not float(weight) >= 0:
            raise BertforgeError(f"weight {weight} for {item}: weights are zero or more")
        out.append(Source(str(item), 1.0 if weight is None else float(weight), label_map))
    return out


def corpora_of(sources: list[Source]) -> list[dict]:
    """The public corpora among the sources, with their licences and citations."""
    from ..finetune.conll import corpus_reference
    from ..finetune.corpora import CORPORA

    named = {s.data.partition(":")[0] for s in sources if corpus_reference(s.data)}
    return [{"name": c.name, "text": c.description, "licence": c.licence,
             "citation": c.citation} for name, c in CORPORA.items() if name in named]


def paragraphs(document: dict, shortest: int = 40, longest: int = 800
               ) -> list[tuple[str, list[Span]]]:
    """A document's paragraphs (split at blank lines) of `shortest` to `longest`
    characters, each with its spans counted from its own start; a paragraph that a span
    runs out of is left out."""
    text, out, start = document["text"], [], 0
    for end, after in [(m.start(), m.end()) for m in BLANK_LINE.finditer(text)] + \
            [(len(text), len(text))]:
        inside = [s for s in document["spans"] if s.start < end and s.end > start]
        if shortest <= end - start <= longest and \
                all(start <= s.start and s.end <= end for s in inside):
            out.append((text[start:end], [replace(s, start=s.start - start, end=s.end - start)
                                          for s in inside]))
        start = after
    return out


def with_neighbours(documents: list[dict], share: float, seed: int = 0) -> list[dict]:
    """The documents, with `share` of the partly annotated ones (CoNLL sources: those
    with "ignore" ranges) read next to an unrelated paragraph of a fully annotated
    document (Gretel's schema: the generator's, the legal prose), before or after it
    with a blank line between, each keeping its own spans. A sentence or tweet is
    otherwise always trained alone, and the model learns to read a paragraph's genre
    from the whole window: after a formal paragraph it reads a tweet's user names and
    "RT" as persons (docs/experiments/2026-12-04-neighbours.md)."""
    if not 0 <= share <= 1:
        raise BertforgeError(f"the share of sentences given a neighbour is in [0, 1], "
                             f"not {share}")
    if not share:
        return documents
    pool = [p for d in documents if "ignore" not in d for p in paragraphs(d)]
    if not pool:
        raise BertforgeError("giving sentences a neighbouring paragraph needs a source of "
                             "whole documents in Gretel's schema (bertforge pii generate) "
                             "to take the paragraphs from")
    rng = random.Random(f"neighbours/{seed}")
    out = []
    for d in documents:
        if "ignore" not in d or rng.random() >= share:
            out.append(d)
            continue
        text, spans = rng.choice(pool)
        if rng.random() < 0.5:  # the paragraph before the sentence
            joined, mine, theirs = text + "\n\n" + d["text"], len(text) + 2, 0
        else:
            joined, mine, theirs = d["text"] + "\n\n" + text, 0, len(d["text"]) + 2
        out.append(d | {"text": joined,
                        "spans": sorted([replace(s, start=s.start + mine, end=s.end + mine)
                                         for s in d["spans"]] +
                                        [replace(s, start=s.start + theirs, end=s.end + theirs)
                                         for s in spans]),
                        "ignore": [(a + mine, b + mine) for a, b in d["ignore"]]})
    return out


def _validated(tagger: Tagger, documents: list[dict], say) -> dict:
    """The card's validation scores, and a warning when they show a model too weak to
    redact with (it is said now, and whenever the model is loaded)."""
    scores = tagger.evaluate(documents)["strict"]
    out = {"validation_scores": {k: round(v.f1, 4) for k, v in scores.items()}}
    say(f"validation strict micro F1 {scores['micro'].f1:.3f}")
    if scores["micro"].f1 < WEAK_F1:
        out["warning"] = (f"validation strict micro F1 {scores['micro'].f1:.3f} is far "
                          f"below what this recipe reaches (0.97 for the bundled model): "
                          f"undertrained (train longer: --epochs, --steps) or wrong data; "
                          f"do not use this model to redact")
        say(f"warning: {out['warning']}")
    return out


def _read(sources: list[Source], conll_docs: bool, say) -> tuple[list[dict], list[dict]]:
    """(every source's documents, each marked with its source's index; what the card
    says of each source)."""
    documents, described = [], []
    for k, source in enumerate(sources):
        read = read_documents(source.data, labels=source.labels, conll_docs=conll_docs)
        documents += [d | {"source": k} for d in read]
        described.append({"data": source.data, "weight": source.weight,
                          "labels": source.labels, "documents": len(read)})
        say(f"{len(read):,} training documents from {source.data}" +
            (f" (weight {source.weight:g})" if len(sources) > 1 else ""))
    return documents, described


def train_redactor(train, out: str | os.PathLike, base: str = BASE,
                   settings: FitSettings | None = None, window: int = WINDOW,
                   stride: int = STRIDE, validation: str | None = None, half: bool = False,
                   card: dict | None = None, say=print,
                   layers: int | None = None, ffn: int | None = None,
                   teacher: str | None = None,
                   overwrite: bool = False, labels: str | dict | None = None,
                   conll_docs: bool = False, weights=None,
                   case: bool = False, neighbours: float = NEIGHBOURS) -> tuple[Tagger, dict]:
    """Fine-tune `base` (only its first `layers` layers and `ffn` feed-forward units
    per layer, if given) on the documents of `train` (one source, or several mixed by
    `weights`: see `Source`; `base` may be a redactor, whose head then goes on
    learning; `case`: tell it each token's case shape, `tagging.add_case_types`;
    `neighbours`: the share of CoNLL sentences read next to another source's paragraph,
    `with_neighbours`),
    learning the probabilities of
    `teacher` (a tagger for the same groups) as well as the labels, if given; save to
    `out` (fp16 weights when `half`, which halves the size and loses nothing a tagger's
    argmax can see).
    `out` must be new or empty unless `overwrite`. CoNLL input (`read_documents`) takes
    the label map `labels`, which applies to the validation set too. Returns (tagger, card)."""
    check_new_directory(out, overwrite)  # before the training, not after it
    settings = settings or RECIPE
    sources = sources_of(train, weights, labels)
    documents, described = _read(sources, conll_docs, say)
    documents = with_neighbours(documents, neighbours, settings.seed)
    mixed = {k: s.weight for k, s in enumerate(sources)} if len(sources) > 1 else None
    started = time.perf_counter()
    tagger = train_tagger(documents, base, settings, labels=GROUPS, size=window, stride=stride,
                          layers=layers, ffn=ffn, teacher=teacher, subtokens="all",
                          weights=mixed, case=case)
    minutes = (time.perf_counter() - started) / 60
    info = {"task": "pii-tagging", "base": str(base),
            "train_data": " + ".join(s.data for s in sources), "sources": described,
            "corpora": corpora_of(sources),
            "recipe": {"epochs": settings.epochs, "steps": settings.steps,
                       "batch": settings.batch, "lr": settings.lr,
                       "segment_lr": settings.segment_lr, "warmup": settings.warmup,
                       "weight_decay": settings.weight_decay, "clip": settings.clip,
                       "sort_pool": settings.sort_pool, "pack": settings.pack,
                       "seed": settings.seed, "precision": settings.precision,
                       "window": window, "stride": stride, "neighbours": neighbours,
                       "layers": layers, "ffn": ffn,
                       "teacher": None if teacher is None else str(teacher), "case": tagger.case,
                       "device": _device_name(tagger.model)},
            "training_minutes": round(minutes, 1), "documents": len(documents)} | (card or {})
    if validation:
        one_map = labels if labels is None or isinstance(labels, (str, dict)) else None
        info |= _validated(tagger, read_documents(validation, labels=one_map,
                                                  conll_docs=conll_docs), say)
    model = copy.deepcopy(tagger.model).half() if half else tagger.model
    save_model(model, tagger.tokenizer, out, info={"window": window, "stride": stride,
                                                   "entity_labels": tagger.labels}
               | tagger.input_card() | info)
    return tagger, info
