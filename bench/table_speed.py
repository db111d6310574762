"""Redacting a table: bertforge in one process, bertforge on Ray, and Microsoft Presidio's
`BatchAnalyzerEngine.analyze_dict`, on the same generated table, in one run.

The table: ROWS rows of an id, an amount and two free-text columns, "subject" (one line
of a generated financial document) and "body" (the two to four lines after it), cut from
the generator's test split, so every personal value in them has its gold span. It is
written as Parquet; bertforge reads it and writes the redacted table (`bertforge redact
--table`, in parts), Presidio is given the columns in memory and only analyses them (no
file, no replacement: the lighter job).

Prints rows/s and peak memory (RSS) for each, the ratios, and strict span F1 on the first
--score rows' cells for bertforge and Presidio. Ray's peak is the largest sum of its
workers' RSS seen while it ran, plus the driver's.

    pip install -e '.[bench,ray]'
    python bench/table_speed.py [--rows 100000] [--actors 2] [--skip-ray] [--skip-presidio]
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import presidio_analyzer, presidio_spans, tune_allocator  # noqa: E402

from bertforge.finetune.metrics import MICRO, span_scores  # noqa: E402
from bertforge.pii import Redactor  # noqa: E402
from bertforge.pii.labels import group  # noqa: E402
from bertforge.pii.synth import generate  # noqa: E402
from bertforge.spans import Span  # noqa: E402


def table(rows: int, seed: int = 1):
    """(the table's columns, gold spans of each subject and body)."""
    columns = {"id": [], "amount": [], "subject": [], "body": []}
    gold = {"subject": [], "body": []}
    for document in generate(rows * 2, seed=seed, split="test"):
        text, spans = document["generated_text"], json.loads(document["pii_spans"])
        starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        lines = [(a, (starts[k + 1] - 1) if k + 1 < len(starts) else len(text))
                 for k, a in enumerate(starts)]
        lines = [(a, b) for a, b in lines if text[a:b].strip()]
        for at in range(0, len(lines) - 1, 4):
            body = lines[at + 1:at + 4]
            cells = {"subject": lines[at], "body": (body[0][0], body[-1][1])}
            if any(s["start"] < b and a < s["end"] and not (a <= s["start"] and s["end"] <= b)
                   for a, b in cells.values() for s in spans):
                continue  # a value cut by a cell's edge has no gold span in the cell
            for name, (a, b) in cells.items():
                columns[name].append(text[a:b])
                gold[name].append([Span(s["start"] - a, s["end"] - a, group(s["label"]))
                                   for s in spans if a <= s["start"] and s["end"] <= b])
            columns["id"].append(len(columns["id"]))
            columns["amount"].append(round(len(text) * 1.25, 2))
            if len(columns["id"]) == rows:
                return columns, gold
    raise SystemExit(f"the generator gave fewer than {rows} rows; ask for fewer")


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class RayMemory:
    """The largest sum of the Ray workers' RSS seen while a run goes on."""

    def __init__(self):
        import psutil

        self.psutil, self.peak, self.stop = psutil, 0.0, threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)

    def watch(self):
        while not self.stop.wait(0.2):
            total = 0
            for process in self.psutil.process_iter(["name", "memory_info", "cmdline"]):
                try:
                    if "ray::" in " ".join(process.info["cmdline"] or []):
                        total += process.info["memory_info"].rss
                except (self.psutil.Error, TypeError):
                    pass
            self.peak = max(self.peak, total / 2**20)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--score", type=int, default=2000, help="rows whose cells are scored")
    parser.add_argument("--actors", type=int, default=2)
    parser.add_argument("--model", help="default: the bundled model")
    parser.add_argument("--precision", default="auto")
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--skip-presidio", action="store_true")
    args = parser.parse_args()
    tune_allocator()
    import pyarrow as pa
    import pyarrow.parquet as pq

    from bertforge.pii.batch import redact_table
    from bertforge.pii.policy import Policy
    from bertforge.pii.tables import RaySettings, TableSettings

    columns, gold = table(args.rows)
    print(f"{args.rows:,} rows; subject {sum(map(len, columns['subject'])) / args.rows:,.0f} and "
          f"body {sum(map(len, columns['body'])) / args.rows:,.0f} characters on average; "
          f"{sum(map(len, gold['subject'] + gold['body'])):,} gold spans")
    folder = Path(tempfile.mkdtemp(prefix="bertforge-table-"))
    source = folder / "table.parquet"
    pq.write_table(pa.table(columns), source, row_group_size=10_000)

    redactor = Redactor.load(args.model, precision=args.precision)
    print(f"bertforge precision: {args.precision} = {redactor.runs_in}")
    settings = TableSettings(columns="subject,body")
    started = time.perf_counter()
    redact_table(str(source), folder / "out.parquet", lambda: redactor, Policy(), settings,
                 warn=print)
    single = args.rows / (time.perf_counter() - started)
    single_peak = peak_mb()
    out = pq.read_table(folder / "out.parquet")
    assert out.column("id").to_pylist() == columns["id"], "the rows moved"

    ray_rate = ray_peak = None
    if not args.skip_ray:
        import ray

        from bertforge.pii.ray import redact_files

        ray.init(num_cpus=None, include_dashboard=False, logging_level="ERROR",
                 log_to_driver=False)
        started = time.perf_counter()
        with RayMemory() as memory:
            redact_files(str(source), str(folder / "ray.parquet"), "parquet", Policy(),
                         settings, RaySettings(actors=args.actors), model=args.model,
                         precision=args.precision)
        ray_rate = args.rows / (time.perf_counter() - started)
        ray_peak = memory.peak + peak_mb()
        ray.shutdown()
        same = pq.read_table(folder / "ray.parquet").column("id").to_pylist() == columns["id"]
        print(f"Ray's output in the input's order: {same}")

    n = min(args.score, args.rows)
    cells = columns["subject"][:n] + columns["body"][:n]
    truth = gold["subject"][:n] + gold["body"][:n]
    ours = span_scores(truth, redactor.detect_batch(cells))[MICRO].f1

    theirs_rate = theirs_f1 = None
    if not args.skip_presidio:
        from presidio_analyzer import BatchAnalyzerEngine

        engine = BatchAnalyzerEngine(presidio_analyzer())
        text_columns = {"subject": columns["subject"], "body": columns["body"]}
        started = time.perf_counter()
        results = list(engine.analyze_dict(text_columns, language="en"))
        theirs_rate = args.rows / (time.perf_counter() - started)
        by_column = {r.key: list(r.recognizer_results) for r in results}
        found = [presidio_spans(r) for r in by_column["subject"][:n] + by_column["body"][:n]]
        theirs_f1 = span_scores(truth, found)[MICRO].f1

    print(f"\n{'':28s} {'rows/s':>8s} {'peak MB':>8s} {'vs Presidio':>11s}")
    rows = [("bertforge, one process", single, single_peak)]
    if ray_rate:
        rows.append((f"bertforge on Ray, {args.actors} actors", ray_rate, ray_peak))
    if theirs_rate:
        rows.append(("Presidio analyze_dict", theirs_rate, None))
    for name, rate, peak in rows:
        ratio = f"{rate / theirs_rate:10.2f}x" if theirs_rate else ""
        shown = f"{peak:8,.0f}" if peak else f"{'-':>8s}"
        print(f"{name:28s} {rate:8.1f} {shown} {ratio:>11s}")
    print(f"\nstrict span F1 (micro) on the first {n:,} rows' cells: bertforge {ours:.3f}"
          + (f", Presidio {theirs_f1:.3f}" if theirs_f1 is not None else ""))
    print("Presidio's peak is not separable from bertforge's in one process (it is loaded "
          "last): see bench/redact_speed.py for its documents/s")


if __name__ == "__main__":
    main()
