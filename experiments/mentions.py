"""The runs of `docs/experiments/2026-12-02-mentions.md`: the redactor with and without
`mentions.every_mention` on the same model spans, set by set.

    python experiments/mentions.py [--split validation] [--model DIR]

Prints, for each set, PERSON F1 (the real corpora) or hybrid micro F1 (generated and
hand-written documents) without and with the stage, and PERSON precision and recall.
"""

from __future__ import annotations

import argparse

from bertforge.finetune.metrics import MICRO
from bertforge.pii.dataset import marked_groups, read_documents
from bertforge.pii.detector import Redactor
from bertforge.pii.evaluate import scored
from bertforge.pii.merge import merge
from bertforge.pii.recognizers import find

SETS = {  # name: (source, read as documents, the score that decides)
    "validation": [("generator", "bench/pii_validation.jsonl.gz", False, MICRO),
                   ("hand-written", "bench/pii_handwritten.txt", False, MICRO),
                   ("wikigold articles", "wikigold:validation", True, "PERSON"),
                   ("wikigold sentences", "wikigold:validation", False, "PERSON"),
                   ("wnut17", "wnut17:validation", False, "PERSON"),
                   ("btc", "btc:validation", False, "PERSON")],
    "test": [("generator", "bench/pii_test.jsonl.gz", False, MICRO),
             ("held-out", "bench/pii_heldout.txt", False, MICRO),
             ("fresh", "bench/pii_fresh.txt", False, MICRO),
             ("fourth", "bench/pii_fourth.txt", False, MICRO),
             ("wikigold articles", "wikigold:test", True, "PERSON"),
             ("wikigold sentences", "wikigold:test", False, "PERSON"),
             ("wnut17", "wnut17:test", False, "PERSON"),
             ("btc", "btc:test", False, "PERSON")],
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=SETS, default="validation")
    parser.add_argument("--model", default=None)
    args = parser.parse_args()
    redactor = Redactor.load(args.model, precision="fp32")
    rows = [("set", "score", "without", "with", "PERSON P/R without", "PERSON P/R with")]
    for name, source, as_documents, decides in SETS[args.split]:
        documents = read_documents(source, split=args.split, conll_docs=as_documents)
        texts = [d["text"] for d in documents]
        model = redactor.model_spans(texts)
        merged = [merge(m, find(t, redactor.recognizers), t) for m, t in zip(model, texts)]
        marked = marked_groups(source)
        without = scored(documents, merged, marked)
        with_ = scored(documents, [redactor.with_mentions(t, s) for t, s in zip(texts, merged)],
                       marked)
        pr = [f"{s['PERSON'].precision:.3f}/{s['PERSON'].recall:.3f}" for s in (without, with_)]
        rows.append((name, decides, f"{without[decides].f1:.4f}", f"{with_[decides].f1:.4f}", *pr))
        print(" | ".join(rows[-1]), flush=True)
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    print()
    for row in rows:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)))


if __name__ == "__main__":
    main()
