"""The runs of `docs/experiments/2026-12-04-paragraphs-alone.md`: the bundled redactor with
paragraphs packed into windows (C, as shipped) and with each paragraph read in windows of
its own (P), on the validation splits.

    python experiments/paragraphs_alone.py
"""

from __future__ import annotations

import random
from dataclasses import replace

from bertforge.finetune import tagging
from bertforge.finetune.metrics import MICRO
from bertforge.finetune.tagging import BLANK_LINE
from bertforge.pii.dataset import marked_groups, read_documents
from bertforge.pii.detector import Redactor
from bertforge.pii.evaluate import scored
from bertforge.windows import Window, windows

REAL = ("wikigold:validation", "btc:validation", "wnut17:validation")
AFTER = "mean real PERSON after a paragraph"
PACKED = tagging.paragraph_windows


def alone(n_tokens, breaks, size, stride):
    """P: windows that never cross a paragraph break."""
    bounds = [0, *sorted({b for b in breaks if 0 < b < n_tokens}), n_tokens]
    return [Window(a + w.start, a + w.end) for a, b in zip(bounds, bounds[1:])
            for w in windows(b - a, size, stride)]


def as_paragraphs(document: dict) -> dict:
    """A document whose sentences (joined by newlines) are joined by blank lines instead."""
    text = document["text"]

    def at(i):  # where character i of the old text lands
        return i + text.count("\n", 0, i)

    return {**document, "text": text.replace("\n", "\n\n"),
            "spans": [replace(s, start=at(s.start), end=at(s.end)) for s in document["spans"]],
            "ignore": [(at(a), at(b)) for a, b in document.get("ignore", ())]}


def after_a_paragraph(redactor, documents, heads):
    found = redactor.detect_batch([h + d["text"] for h, d in zip(heads, documents)])
    return [[replace(s, start=s.start - len(h), end=s.end - len(h)) for s in spans
             if s.start >= len(h)] for h, spans in zip(heads, found)]


def scores(redactor) -> dict[str, float]:
    """The record's scores: (1) to (3), then (4) and (5) from `after_a_paragraph_scores`."""
    out = {}
    for name, source, key in [("generator micro", "bench/pii_validation.jsonl.gz", MICRO),
                              ("hand-written micro", "bench/pii_handwritten.txt", MICRO)]:
        documents = read_documents(source, split="validation")
        found = redactor.detect_batch([d["text"] for d in documents])
        out[name] = scored(documents, found, marked_groups(source))[key].f1
    articles = [as_paragraphs(d) for d in
                read_documents("wikigold:validation", split="validation", conll_docs=True)]
    out["wikigold articles as paragraphs PERSON"] = scored(
        articles, redactor.detect_batch([d["text"] for d in articles]),
        marked_groups("wikigold:validation"))["PERSON"].f1
    return out | after_a_paragraph_scores(redactor)


def after_a_paragraph_scores(redactor) -> dict[str, float]:
    """PERSON F1 of each real validation split read alone and after an unrelated paragraph
    of a generator document (a fixed draw), and the mean of the latter (`AFTER`)."""
    generated = read_documents("bench/pii_validation.jsonl.gz", split="validation")
    paragraphs = [p for d in generated for p in BLANK_LINE.split(d["text"]) if 80 < len(p) < 600]
    rng = random.Random(0)
    out, after = {}, []
    for source in REAL:
        documents = read_documents(source, split="validation")
        heads = [rng.choice(paragraphs) + "\n\n" for _ in documents]
        marked = marked_groups(source)
        after.append(scored(documents, after_a_paragraph(redactor, documents, heads),
                            marked)["PERSON"].f1)
        out[f"{source} PERSON"] = scored(
            documents, redactor.detect_batch([d["text"] for d in documents]), marked)["PERSON"].f1
        out[f"{source} after a paragraph PERSON"] = after[-1]
    out[AFTER] = sum(after) / len(after)
    return out


def main() -> None:
    redactor = Redactor.load(None, precision="fp32")
    rows = {}
    for arm, windowing in [("C packed", PACKED), ("P alone", alone)]:
        tagging.paragraph_windows = windowing
        try:
            rows[arm] = scores(redactor)
        finally:
            tagging.paragraph_windows = PACKED
        print(arm, {k: round(v, 4) for k, v in rows[arm].items()}, flush=True)
    print("\n| score | " + " | ".join(rows) + " |\n|---|" + "---:|" * len(rows))
    for key in rows["C packed"]:
        print(f"| {key} | " + " | ".join(f"{r[key]:.4f}" for r in rows.values()) + " |")


if __name__ == "__main__":
    main()
