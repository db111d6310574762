"""The runs of the records that train a candidate model: each model's deciding scores on
the validation sets of `mentions.SETS`, a probe of hand-written documents, and the
contract paragraph of `tests/test_realtext.py`, one row a model (fp32, every stage on).

    python experiments/compare_models.py MODEL [MODEL ...] [--threshold 0.6] \
        [--probe bench/pii_listings.txt] [--split validation]

MODEL is a model directory, or "bundled" for the bundled model with its card (its own
threshold and floors). Every other model runs at --threshold (default: the bundled
card's) with the floors of its own card (none for a fresh candidate), as the records say.
Prints the hybrid micro F1 of the generated and hand-written sets, PERSON F1 of the real
corpora and their mean, the probe's PERSON F1, and whether the contract paragraph comes
out as the test asks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mentions import SETS

from bertforge.pii.dataset import marked_groups, read_documents
from bertforge.pii.detector import Redactor
from bertforge.pii.evaluate import scored

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from test_realtext import CONTRACT  # noqa: E402

REAL = ("wikigold articles", "wnut17", "btc")


def row(redactor: Redactor, split: str, probe: str) -> dict[str, float | str]:
    out: dict[str, float | str] = {}
    for name, source, as_documents, decides in SETS[split]:
        if name == "wikigold sentences":  # the records decide on articles
            continue
        documents = read_documents(source, split=split, conll_docs=as_documents)
        found = redactor.detect_batch([d["text"] for d in documents])
        out[name] = scored(documents, found, marked_groups(source))[decides].f1
    out["mean real PERSON"] = sum(out[n] for n in REAL) / len(REAL)
    documents = read_documents(probe)
    found = redactor.detect_batch([d["text"] for d in documents])
    out["probe PERSON"] = scored(documents, found, marked_groups(probe))["PERSON"].f1
    spans = redactor.detect(CONTRACT)
    out["contract"] = "ok" if [(s.label, s.text) for s in spans] == \
        [("PERSON", "Margaret O'Connell")] * 2 else "; ".join(f"{s.label} {s.text!r}" for s in spans)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+", metavar="MODEL")
    parser.add_argument("--threshold", type=float, default=None)
    parser.add_argument("--probe", default="bench/pii_listings.txt")
    parser.add_argument("--split", choices=SETS, default="validation")
    args = parser.parse_args()
    bundled = Redactor.load(None, precision="fp32")
    threshold = bundled.threshold if args.threshold is None else args.threshold
    rows = {}
    for model in args.models:
        redactor = bundled if model == "bundled" else \
            Redactor.load(model, threshold=threshold, precision="fp32")
        rows[model] = row(redactor, args.split, args.probe)
        say(model, rows[model])
    table(rows)


def say(model: str, scores: dict) -> None:
    """One model's scores, as they come."""
    print(model, {k: (round(v, 4) if isinstance(v, float) else v) for k, v in scores.items()},
          flush=True)


def table(rows: dict[str, dict]) -> None:
    """Every model's scores as a Markdown table, a row a model."""
    keys = list(next(iter(rows.values())))
    print("\n| model | " + " | ".join(keys) + " |\n|---|" + "---:|" * len(keys))
    for model, scores in rows.items():
        print(f"| {model} | " + " | ".join(f"{v:.4f}" if isinstance(v, float) else v
                                          for v in scores.values()) + " |")


if __name__ == "__main__":
    main()
