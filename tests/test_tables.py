"""Redacting data sets (`bertforge redact --table`): every format keeps what it does not
redact, a killed run resumes to the same bytes, bad rows are listed and the rest go on,
and Ray's output is the single process's."""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from bertforge.cli import main

CARD = "4111 1111 1111 1111"
PIECES = ["plain", "a, comma", 'a "quote"', "two\nlines", "crlf\r\nline", "", " ", "é 东京",
          "tab\there", ";semi", "'single'", '"', "x" * 40]


@pytest.fixture(scope="module")
def redactor(tiny_redactor_dir):
    from bertforge.pii import Redactor

    return Redactor.load(tiny_redactor_dir, precision="fp32")


@pytest.fixture(scope="module")
def patterns():
    from bertforge.pii import Redactor

    return Redactor(None)


def run_table(redactor, source, out, **options):
    from bertforge.pii.batch import redact_table
    from bertforge.pii.policy import Policy
    from bertforge.pii.tables import TableSettings

    return redact_table(str(source), out, lambda: redactor, Policy(), TableSettings(**options),
                        progress=False, warn=lambda w: None)


# ------------------------------------------------------------------ CSV and TSV
def field(value: str, delimiter: str, quote_all: bool) -> str:
    """A field as Python's csv writer writes it (QUOTE_ALL or QUOTE_MINIMAL)."""
    if quote_all or any(c in value for c in (delimiter, '"', "\r", "\n")):
        return '"' + value.replace('"', '""') + '"'
    return value


@settings(max_examples=30, deadline=None)
@given(rows=st.lists(st.tuples(*[st.sampled_from(PIECES)] * 3), min_size=1, max_size=8),
       delimiter=st.sampled_from([",", ";", "\t"]), quote_all=st.booleans(),
       terminator=st.sampled_from(["\r\n", "\n"]), bom=st.booleans())
def test_csv_keeps_every_byte_but_the_masked_cells(patterns, tmp_path_factory, rows, delimiter,
                                                   quote_all, terminator, bom):
    """Every column goes through detection (the patterns, which find nothing in these
    pieces) and "note" is masked whole: the output is the input's bytes but for the
    masked cells, whatever the quoting, line ends, delimiter or byte-order mark."""
    folder = tmp_path_factory.mktemp("csv")
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=terminator,
                        quoting=csv.QUOTE_ALL if quote_all else csv.QUOTE_MINIMAL)
    writer.writerows([("id", "note", "other"), *rows])
    text = buffer.getvalue()
    # the writer's bytes are the fields as `field` says: the expectation below is exact
    assert text == "".join(delimiter.join(field(v, delimiter, quote_all) for v in row) + terminator
                           for row in [("id", "note", "other"), *rows])
    source = folder / ("t.tsv" if delimiter == "\t" else "t.csv")
    source.write_bytes((codecs.BOM_UTF8 if bom else b"") + text.encode())
    out = folder / "o.csv"
    run_table(patterns, source, out, mask_columns="note", part_rows=3)
    expected = "".join(delimiter.join(
        [field(a, delimiter, quote_all),
         field("[REDACTED]" if b else b, delimiter, quote_all or field(b, delimiter, False) != b),
         field(c, delimiter, quote_all)]) + terminator for a, b, c in rows)
    header = delimiter.join(field(v, delimiter, quote_all) for v in ("id", "note", "other"))
    assert out.read_bytes() == (codecs.BOM_UTF8 if bom else b"") + \
        (header + terminator + expected).encode()


def test_csv_text_columns_are_redacted_and_the_others_kept(redactor, tmp_path):
    source = tmp_path / "t.csv"
    rows = [("id", "note", "amount")] + [(str(i), f"row {i}, card {CARD}", f"00{i}.50")
                                         for i in range(25)]
    with open(source, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    outcome = run_table(redactor, source, tmp_path / "o.csv", columns="note", part_rows=7)
    with open(tmp_path / "o.csv", newline="", encoding="utf-8") as f:
        out = list(csv.reader(f))
    assert outcome.rows == 25 and len(out) == 26 and out[0] == list(rows[0])
    assert [(r[0], r[2]) for r in out] == [(r[0], r[2]) for r in rows]  # order and bytes
    assert all("4111" not in r[1] and "[CARD]" in r[1] for r in out[1:])


def test_a_cell_that_is_not_text_is_masked_whole_and_listed(redactor, tmp_path, capsys):
    source = tmp_path / "t.csv"
    source.write_bytes(b"id,note\n1,fine\n2,bad \xff byte\n3,\"a quote that never closes\n4,x\n")
    assert main(["redact", "--table", str(source), "--out", str(tmp_path / "o.csv"),
                 "--model", str(redactor.tagger.model.source), "--columns", "note",
                 "--encoding", "utf-8"]) == 2
    out = (tmp_path / "o.csv").read_bytes()
    assert out.startswith(b"id,note\n1,") and b"2,[REDACTED]\n" in out and b"\xff" not in out
    assert b"never closes" not in out  # the rest of the file is no row, and is left out
    errors = [json.loads(line) for line in (tmp_path / "o.csv.errors.jsonl").read_text().splitlines()]
    assert [(e["row"], e.get("column")) for e in errors] == [(2, "note"), (3, None)]
    assert "not utf-8" in errors[0]["error"] and "never closes" in errors[1]["error"]
    assert "2 rows could not be read wholly" in capsys.readouterr().err


def test_unknown_columns_and_formats_are_refused_before_any_work(tmp_path, monkeypatch, capsys):
    from bertforge.pii import Redactor

    source = tmp_path / "t.csv"
    source.write_text("id,note\n1,x\n")
    monkeypatch.setattr(Redactor, "load", classmethod(lambda *a, **k: object()))
    assert main(["redact", "--table", str(source), "--out", str(tmp_path / "o.csv"),
                 "--columns", "notes"]) == 2
    assert "no column 'notes'; the columns are 'id', 'note'" in capsys.readouterr().err
    assert main(["redact", "--table", str(tmp_path / "t.xlsx"), "--out", "o"]) == 2
    assert "give --format" in capsys.readouterr().err
    assert not (tmp_path / "o.csv").exists()


# ------------------------------------------------------------------ Parquet and JSONL
def test_parquet_keeps_the_schema_types_and_nulls(redactor, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    table = pa.table({
        "id": pa.array(range(40), pa.int64()),
        "note": pa.array([None if i % 5 == 0 else f"pay card {CARD} ({i})" for i in range(40)]),
        "iban": pa.array([f"DE89370400440532013{i:03d}" for i in range(40)], pa.large_string()),
        "pin": pa.array([1234 + i for i in range(40)], pa.int32()),
        "when": pa.array([1_700_000_000_000 + i for i in range(40)], pa.timestamp("ms")),
        "tags": pa.array([[i, i + 1] for i in range(40)], pa.list_(pa.int16())),
    }).replace_schema_metadata({"owner": "crm export"})
    pq.write_table(table, tmp_path / "t.parquet", row_group_size=9)
    run_table(redactor, tmp_path / "t.parquet", tmp_path / "o.parquet", columns="note",
              mask_columns="iban=BANK,pin", part_rows=16)
    out, table = pq.read_table(tmp_path / "o.parquet"), pq.read_table(tmp_path / "t.parquet")
    assert out.schema.equals(table.schema, check_metadata=True)
    for name in ("id", "when", "tags"):
        assert out.column(name).equals(table.column(name))
    notes = out.column("note").to_pylist()
    assert [n is None for n in notes] == [i % 5 == 0 for i in range(40)]
    assert all("4111" not in n and "[CARD]" in n for n in notes if n)
    assert set(out.column("iban").to_pylist()) == {"[BANK]"} and out.column("pin").null_count == 40


def test_jsonl_rows_keep_their_bytes_and_bad_lines_are_listed(patterns, tmp_path):
    lines = [json.dumps({"id": 1, "note": f"card {CARD}", "n": 3}),
             "",
             '{"id":  2,   "note" : 7}',
             "[1, 2]",
             '{"id": 3, "other": "\u00e9"}',
             "{not json"]
    source = tmp_path / "t.jsonl"
    source.write_bytes(("\r\n".join(lines) + "\r\n").encode())
    outcome = run_table(patterns, source, tmp_path / "o.jsonl", columns="note", part_rows=2)
    out = (tmp_path / "o.jsonl").read_bytes().split(b"\r\n")
    assert json.loads(out[0]) == {"id": 1, "note": "card [CARD]", "n": 3}
    assert out[1] == b"" and json.loads(out[2]) == {"id": 2, "note": None}
    assert out[3] == lines[4].encode() and out[4:] == [b""]  # untouched: byte for byte
    assert [(p.row, p.column) for p in outcome.problems] == [(3, "note"), (4, None), (6, None)]


# ------------------------------------------------------------------ kill -9, then --resume
def table_of(path: Path, rows: int) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["id", "note", "other"])
        for i in range(rows):
            writer.writerow([i, f"Row {i}: pay card {CARD}, thanks", f"x,{i}\n{i * 7}"])
    return path


@pytest.mark.parametrize("kind", ["table", "jsonl"])
def test_a_killed_run_resumes_to_the_same_bytes(tiny_redactor_dir, tmp_path, kind):
    if kind == "table":
        source, name = table_of(tmp_path / "t.csv", 6000), "o.csv"
        what = ["--table", str(source), "--columns", "note"]
    else:
        source, name = tmp_path / "t.jsonl", "o.jsonl"
        source.write_text("".join(json.dumps({"id": i, "text": f"Row {i}: pay card {CARD}"})
                                  + "\n" for i in range(6000)))
        what = ["--jsonl", str(source)]
    command = [sys.executable, "-m", "bertforge", "redact", *what, "--model",
               str(tiny_redactor_dir), "--precision", "fp32", "--part-rows", "100"]
    whole = subprocess.run([*command, "--out", str(tmp_path / f"whole-{name}")],
                           capture_output=True, text=True, timeout=600)
    assert whole.returncode == 0, whole.stderr
    target = tmp_path / name
    run = subprocess.Popen([*command, "--out", str(target)], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while not list(tmp_path.glob(f".{name}.*.parts/part-000003.json")):
        assert run.poll() is None and time.monotonic() < deadline, "the run ended before a kill"
        time.sleep(0.01)
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    assert not target.exists()  # nothing that looks whole
    resumed = subprocess.run([*command, "--out", str(target), "--resume"], capture_output=True,
                             text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert "continuing the stopped run" in resumed.stderr
    assert target.read_bytes() == (tmp_path / f"whole-{name}").read_bytes()
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_a_stopped_run_of_another_job_is_not_resumed(redactor, tmp_path):
    from bertforge.errors import BertforgeError

    source = table_of(tmp_path / "t.csv", 30)
    stopped = tmp_path / ".o.csv.999999999.parts"  # a process id that runs no process
    stopped.mkdir()
    (stopped / "job.json").write_text(json.dumps({"input": "another file"}))
    with pytest.raises(BertforgeError, match="was another job"):
        run_table(redactor, source, tmp_path / "o.csv", resume=True)
    assert stopped.exists() and not (tmp_path / "o.csv").exists()


# ------------------------------------------------------------------ in memory
def test_data_frames_and_datasets_are_redacted_in_place_of_their_columns(patterns):
    import pandas as pd
    import polars as pl
    from datasets import Dataset

    from bertforge.pii.tables import Cells

    cells = Cells(patterns, columns=["note"], mask_columns={"iban": "BANK"})
    frame = pd.DataFrame({"note": [f"card {CARD}", None, "ok"], "iban": ["DE89", "GB29", None],
                          "n": [1, 2, 3]}, index=[10, 20, 30])
    out = cells.frame(frame)
    assert list(out.index) == [10, 20, 30] and (out.dtypes == frame.dtypes).all()
    assert out["note"][10] == "card [CARD]" and pd.isna(out["note"][20])
    assert list(out["iban"][:2]) == ["[BANK]", "[BANK]"] and out["n"].equals(frame["n"])
    assert frame["note"][10] == f"card {CARD}"  # a new frame; the caller's is untouched
    polar = cells.frame(pl.from_pandas(frame.reset_index(drop=True)))
    assert polar["note"].to_list() == ["card [CARD]", None, "ok"]
    assert polar["iban"].to_list() == ["[BANK]", "[BANK]", None] and polar["n"].to_list() == [1, 2, 3]
    mapped = Dataset.from_pandas(frame.reset_index(drop=True)).map(cells.batch, batched=True,
                                                                   batch_size=2)
    assert mapped["note"] == ["card [CARD]", None, "ok"] and mapped["n"] == [1, 2, 3]


def test_a_missing_extra_is_named(tmp_path, monkeypatch, capsys):
    import importlib

    real = importlib.import_module

    def without_ray(name, *args):
        if name.split(".")[0] == "ray":
            raise ModuleNotFoundError(f"No module named {name!r}", name="ray")
        return real(name, *args)

    monkeypatch.setattr(importlib, "import_module", without_ray)
    (tmp_path / "t.parquet").write_bytes(b"")
    assert main(["redact", "--table", str(tmp_path / "t.parquet"), "--out",
                 str(tmp_path / "o"), "--ray"]) == 2
    assert "pip install 'bertforge[ray]'" in capsys.readouterr().err


# ------------------------------------------------------------------ Ray
def test_ray_writes_what_the_single_process_writes(tiny_redactor_dir, tmp_path):
    ray = pytest.importorskip("ray")
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = 3000
    table = pa.table({"id": list(range(rows)),
                      "note": [f"Row {i}: pay card {CARD}" if i % 3 else None for i in range(rows)],
                      "other": [f"kept {i}" for i in range(rows)]})
    pq.write_table(table, tmp_path / "t.parquet", row_group_size=500)
    common = ["--model", str(tiny_redactor_dir), "--precision", "fp32", "--columns", "note"]
    assert main(["redact", "--table", str(tmp_path / "t.parquet"), "--out",
                 str(tmp_path / "one.parquet"), *common]) == 0
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR")
    try:
        assert main(["redact", "--table", str(tmp_path / "t.parquet"), "--out",
                     str(tmp_path / "ray.parquet"), "--ray", "--actors", "2", "--batch-size", "256",
                     *common]) == 0
    finally:
        ray.shutdown()
    single = pq.read_table(tmp_path / "one.parquet")
    spread = pq.read_table(tmp_path / "ray.parquet")
    assert spread.column("id").to_pylist() == list(range(rows))  # the order kept
    assert spread.equals(single)
    assert "4111" not in "".join(filter(None, spread.column("note").to_pylist()))


# ------------------------------------------------------------------ Spark (docs/redactor.md)
_cells = None


def redact_partition(frames):
    """The recipe in docs/redactor.md: the model once per Python worker."""
    global _cells
    if _cells is None:
        from bertforge.pii import Redactor
        from bertforge.pii.tables import Cells

        _cells = Cells(Redactor(None), columns=["note"])  # the patterns: no model to ship
    for frame in frames:
        yield _cells.frame(frame)


def test_the_spark_recipe_redacts_a_data_frame(tmp_path, monkeypatch):
    pytest.importorskip("pyspark")
    # Spark's Python workers import this module by name to find `redact_partition`
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)  # the workers run this Python
    if not shutil.which("java"):
        pytest.skip("Spark needs a JVM (java on the PATH)")
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")
             .config("spark.driver.host", "127.0.0.1").getOrCreate())
    try:
        rows = [(i, f"card {CARD} row {i}", f"kept {i}") for i in range(200)]
        frame = spark.createDataFrame(rows, "id long, note string, other string")
        out = frame.mapInPandas(redact_partition, schema=frame.schema).orderBy("id").collect()
    finally:
        spark.stop()
    assert [r.id for r in out] == list(range(200))
    assert all(r.note == f"card [CARD] row {r.id}" and r.other == f"kept {r.id}" for r in out)


@pytest.mark.model_output
def test_the_readmes_table_example_prints_what_it_shows(tmp_path):
    import re

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"\$ cat out/crm\.csv\n(.*?)\n```", readme, re.S)
    assert shown, "the README's table example went missing"
    source = Path(__file__).resolve().parents[1] / "examples" / "tables" / "crm.csv"
    assert main(["redact", "--table", str(source), "--out", str(tmp_path / "crm.csv"),
                 "--columns", "notes"]) == 0
    written = (tmp_path / "crm.csv").read_bytes()
    assert written.count(b"\r\n") == source.read_bytes().count(b"\r\n")  # CRLF kept
    assert written.decode().replace("\r\n", "\n").rstrip("\n") == shown.group(1)
