"""Redacting tables: CSV and TSV, Parquet, JSONL, and data frames in memory.

A table is read in parts of rows (`Format.parts`), the chosen cells of each part are
redacted together (`Cells`: one batched detection call for the part), and the part is
written in the table's own format (`Format.write`); `job.run` strings the parts together
so that a killed run can resume. What each format keeps:

- CSV / TSV: every byte that is not a redacted cell, read by a parser of our own that
  remembers where each field lies in the file (a CSV library, pyarrow's included, gives
  back values, not their quoting, line ends or bytes); a redacted cell keeps its quoting
  and is quoted where its new text needs it. The byte-order mark and encoding stay.
- Parquet: the schema, its metadata and every column's type, through pyarrow in record
  batches; a redacted column keeps its nulls.
- JSONL: each line an object; a line with nothing masked is written byte for byte, the
  others with the same keys in the same order (JSON is a format of values).

A cell that is not a string where text is expected, or whose bytes are not text in the
table's encoding, is reported with its row and column and its replacement is the whole
cell (`WHOLE`): nothing is left in clear because it could not be read, and the row stays
in its place.
"""

from __future__ import annotations

import codecs
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Sequence

from ..errors import BertforgeError
from ..optional import require
from ..options import setting
from ..tokenizer import text_error
from .labels import GROUPS

WHOLE = "[REDACTED]"           # a cell masked whole without a group to name
FORMATS = ("csv", "tsv", "parquet", "jsonl")
MAX_RECORD = 64 << 20          # a CSV record longer than this is an unclosed quote


@dataclass
class TableSettings:
    """What `bertforge redact --table` does with a table, and how it goes through."""
    columns: str | None = setting(None, "the text columns to redact, separated by commas "
                                        "(default: every string column)", metavar="A,B")
    mask_columns: str | None = setting(
        None, "columns wholly personal, replaced without detection: NAME (the cell becomes "
              f"{WHOLE}) or NAME=GROUP (the policy's operator for GROUP, e.g. iban=BANK)",
        metavar="A,B=GROUP")
    encoding: str | None = setting(None, "CSV/TSV encoding (default: from the byte-order mark, "
                                         "else UTF-8 if the file is, else cp1252)")
    delimiter: str | None = setting(None, "CSV delimiter (default: the one of , ; | and tab "
                                          "that the header holds most of)")
    part_rows: int = setting(1000, "rows a part: the unit written, and redone after a kill")
    resume: bool = setting(False, "continue a run that was stopped, from its last finished "
                                  "part: the output is the one an uninterrupted run writes")
    errors: str | None = setting(None, "where the rows that could not be read are listed, "
                                       "one JSON line each (default: OUT.errors.jsonl)",
                                 metavar="FILE")


@dataclass
class RaySettings:
    """How `bertforge redact --table ... --ray` spreads the work (`pii.ray`)."""
    actors: int = setting(2, "Ray workers, each with the model loaded once")
    batch_size: int = setting(256, "rows a worker redacts at a time")
    cpus_per_actor: float | None = setting(None, "CPUs each worker asks Ray for (default: one, "
                                                 "less where none would be left for reading "
                                                 "and writing)")


def format_of(path: str, given: str | None = None) -> str:
    """The table format: as given, else from the name's extension."""
    if given:
        if given not in FORMATS:
            raise BertforgeError(f"--format {given} is not a table format; choose one of "
                                 f"{', '.join(FORMATS)}")
        return given
    name = str(path).lower().removesuffix("/")
    for suffix, kind in ((".csv", "csv"), (".tsv", "tsv"), (".tab", "tsv"), (".parquet", "parquet"),
                         (".pq", "parquet"), (".jsonl", "jsonl"), (".ndjson", "jsonl")):
        if name.endswith(suffix):
            return kind
    raise BertforgeError(f"cannot tell the format of {path} from its name; give --format "
                         f"{'|'.join(FORMATS)}")


def mask_map(value: str | None) -> dict[str, str | None]:
    """--mask-columns "email,iban=BANK" -> {"email": None, "iban": "BANK"}."""
    out: dict[str, str | None] = {}
    for item in filter(None, (value or "").split(",")):
        name, _, group = item.partition("=")
        if group and group not in GROUPS:
            raise BertforgeError(f"--mask-columns {item}: {group!r} is not a group; the groups "
                                 f"are {', '.join(GROUPS)}")
        out[name.strip()] = group.strip() or None
    return out


def column_list(value: str | None) -> list[str] | None:
    return [c.strip() for c in value.split(",") if c.strip()] if value else None


# --------------------------------------------------------------------------- the cells
@dataclass
class Problem:
    """A cell or row that could not be read: where (1-based data row), and why."""
    row: int
    error: str
    column: str | None = None

    def to_dict(self) -> dict:
        return {"row": self.row, **({"column": self.column} if self.column else {}),
                "error": self.error}


class Unreadable:
    """A cell whose bytes are not text: it is masked whole, and reported."""
    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


@dataclass
class Done:
    """A redacted cell: its new value (None for a null), the spans found and the
    operators applied (for the audit)."""
    value: Any
    spans: list = field(default_factory=list)
    operators: list = field(default_factory=list)


class Cells:
    """Redacts cells: text columns through the redactor, in one batched call per part,
    and wholly personal columns without detection. The same object serves the files
    (`job.run`), data frames (`frame`), `datasets.Dataset.map` (`batch`), Arrow tables
    (`arrow`) and Ray's workers (`ray.redact_dataset`)."""

    def __init__(self, redactor, policy=None, columns: Sequence[str] | None = None,
                 mask_columns: dict[str, str | None] | None = None, vault=None):
        self.redactor, self.vault = redactor, vault
        self.policy = policy if policy is not None else (redactor.policy or _default_policy())
        self.columns = list(columns) if columns else None
        self.mask = dict(mask_columns or {})
        both = set(self.columns or ()) & set(self.mask)
        if both:
            raise BertforgeError(f"{sorted(both)[0]!r} is in both --columns and --mask-columns; "
                                 f"name it in one")

    def chosen(self, names: Sequence[str], text: Sequence[str]) -> list[str]:
        """The columns to redact by detection among `names` (`text`: those that hold
        strings); an unknown column named by the user is an error."""
        for wanted in [*(self.columns or ()), *self.mask]:
            if wanted not in names:
                raise BertforgeError(f"no column {wanted!r}; the columns are "
                                     f"{', '.join(map(repr, names))}")
        if self.columns is not None:
            return self.columns
        return [n for n in names if n in text and n not in self.mask]

    def redact(self, cells: Sequence[tuple[int, str, Any]]) -> tuple[list[Done], list[Problem]]:
        """Each (row, column, value) redacted; the problems met, by row and column."""
        done: list[Done | None] = [None] * len(cells)
        problems: list[Problem] = []
        todo: list[int] = []
        for i, (row, column, value) in enumerate(cells):
            if value is None:
                done[i] = Done(None)
            elif column in self.mask:
                done[i] = self._whole(value, self.mask[column])
            elif isinstance(value, Unreadable):
                problems.append(Problem(row, f"{value.reason}; masked whole as {WHOLE}", column))
                done[i] = Done(WHOLE)
            elif isinstance(value, str) and (problem := text_error(value)):
                problems.append(Problem(row, f"{problem}; masked whole as {WHOLE}", column))
                done[i] = Done(WHOLE)
            elif not isinstance(value, str):
                problems.append(Problem(row, f"not text ({type(value).__name__}); written as "
                                             f"null", column))
                done[i] = Done(None)
            elif not value.strip():
                done[i] = Done(value)
            else:
                todo.append(i)
        found = self.redactor.detect_batch([cells[i][2] for i in todo]) if todo else []
        for i, spans in zip(todo, found):
            text, operators = self.policy.redact(cells[i][2], spans, vault=self.vault)
            done[i] = Done(text, spans, operators)
        return done, problems

    def _whole(self, value, group: str | None) -> Done:
        if isinstance(value, str) and not value:
            return Done(value)
        if not isinstance(value, str) or group is None:
            return Done(WHOLE if isinstance(value, (str, Unreadable)) else None)
        from ..spans import Span

        span = Span(0, len(value), group, value, 1.0, "column")
        text, operators = self.policy.redact(value, [span], vault=self.vault)
        return Done(text, [span], operators)

    # ------------------------------------------------------------- tables in memory
    def batch(self, data: dict[str, list]) -> dict[str, list]:
        """A batch of columns (`datasets.Dataset.map(cells.batch, batched=True)`, or any
        dict of equal-length lists) with the chosen columns redacted."""
        names = list(data)
        text = [n for n in names if any(isinstance(v, str) for v in data[n])]
        chosen = self.chosen(names, text) + list(self.mask)
        cells = [(row + 1, c, v) for c in chosen for row, v in enumerate(data[c])]
        done, _ = self.redact(cells)
        out = {n: list(v) for n, v in data.items()}
        for (row, column, _), result in zip(cells, done):
            out[column][row - 1] = result.value
        return out

    def arrow(self, table):
        """A pyarrow Table (or RecordBatch) with the chosen columns redacted; every other
        column is the same Arrow data, and each column keeps its type."""
        chosen = self.arrow_columns(table.schema)
        cells = arrow_cells(table, chosen, 1)
        return arrow_rebuild(table, chosen, cells, self.redact(cells)[0], 1)

    def arrow_columns(self, schema) -> list[str]:
        """The columns of an Arrow schema to redact, by detection and whole."""
        pa = require("pyarrow", "tables")
        text = [f.name for f in schema if _is_text(pa, f.type)]
        chosen = self.chosen(schema.names, text)
        for name in chosen:
            if name not in text:
                raise BertforgeError(f"column {name!r} holds {schema.field(name).type}, not "
                                     f"text; name it in --mask-columns to replace it whole")
        return chosen + list(self.mask)

    def frame(self, frame):
        """A pandas or polars DataFrame with the chosen columns redacted (a new frame;
        the same index, columns and dtypes)."""
        kind = type(frame).__module__.split(".")[0]
        if kind == "polars":
            import polars  # a polars frame was given: polars is there

            return polars.from_arrow(self.arrow(frame.to_arrow()))
        if kind != "pandas":
            raise BertforgeError(f"a {type(frame).__name__} is not a pandas or polars DataFrame")
        names = [str(c) for c in frame.columns]
        text = [str(c) for c in frame.columns
                if any(isinstance(v, str) for v in frame[c].head(1000).tolist())]
        chosen = self.chosen(names, text) + list(self.mask)
        out = frame.copy()
        cells = [(row + 1, name, None if _missing(v) else v) for name in chosen
                 for row, v in enumerate(frame[name].tolist())]
        done = iter(self.redact(cells)[0])  # one detection call for every column
        for name in chosen:
            values = [next(done).value for _ in range(len(frame))]
            out[name] = type(frame[name])(values, index=frame.index, dtype=frame[name].dtype,
                                          name=frame[name].name)
        return out


def arrow_cells(table, columns: Sequence[str], first: int) -> list[tuple[int, str, Any]]:
    return [(first + row, c, v) for c in columns
            for row, v in enumerate(table.column(c).to_pylist())]


def arrow_rebuild(table, columns: Sequence[str], cells, done: Sequence[Done], first: int):
    """`table` with each of `columns` made from the redacted cells (a column that is not
    text, replaced whole, becomes nulls of its type)."""
    pa = require("pyarrow", "tables")
    new: dict[str, list] = {c: [None] * len(table) for c in columns}
    for (row, column, _), result in zip(cells, done):
        new[column][row - first] = result.value
    schema = table.schema
    arrays = [table.column(n) if n not in new
              else pa.array(new[n], type=schema.field(n).type) if _is_text(pa, schema.field(n).type)
              else pa.nulls(len(table), schema.field(n).type) for n in schema.names]
    kind = pa.RecordBatch if isinstance(table, pa.RecordBatch) else pa.Table
    return kind.from_arrays(arrays, schema=schema)


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and value != value)


def _is_text(pa, kind) -> bool:
    return pa.types.is_string(kind) or pa.types.is_large_string(kind) or \
        getattr(pa.types, "is_string_view", lambda k: False)(kind)


def _default_policy():
    from .policy import Policy

    return Policy()


# --------------------------------------------------------------------------- the formats
@dataclass
class Part:
    """Rows [first, first + rows) of a table: the cells to redact, what the format needs
    to write them back, and where the next part starts (`end`, for a resume)."""
    first: int
    rows: int
    cells: list[tuple[int, str, Any]]
    data: Any
    end: int
    problems: list[Problem] = field(default_factory=list)


class Csv:
    """CSV or TSV, byte-faithful: see the module's docstring."""

    def __init__(self, path: str | os.PathLike, cells: Cells, tsv: bool = False,
                 encoding: str | None = None, delimiter: str | None = None, block: int = 1 << 20):
        self.path, self.block = Path(path), block
        with open(self.path, "rb") as f:
            head = f.read(block)
        if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or \
                (encoding or "").lower().replace("-", "").startswith(("utf16", "utf32")):
            raise BertforgeError(f"{path} is UTF-16 or UTF-32; convert it first "
                                 f"(iconv -f utf-16 -t utf-8 {path})")
        self.bom = codecs.BOM_UTF8 if head.startswith(codecs.BOM_UTF8) else b""
        self.encoding = encoding or ("utf-8" if self.bom or _is_utf8(head) else "cp1252")
        try:
            codecs.lookup(self.encoding)
        except LookupError:
            raise BertforgeError(f"--encoding {self.encoding}: no such encoding") from None
        if delimiter is None:
            delimiter = "\t" if tsv else _sniff(head[len(self.bom):])
        if len(delimiter.encode(self.encoding)) != 1 or delimiter in '"\r\n':
            raise BertforgeError(f"--delimiter {delimiter!r}: one character, not a quote or "
                                 f"a line break")
        self.delimiter = delimiter.encode(self.encoding)
        d, q = re.escape(self.delimiter), re.escape(b'"')
        # a quoted field (with anything before the next delimiter after its closing
        # quote, as lenient readers take it), or an unquoted one
        self._field = re.compile(b'%s[^%s]*(?:%s%s[^%s]*)*%s[^%s\\r\\n]*|[^%s%s\\r\\n][^%s\\r\\n]*'
                                 % (q, q, q, q, q, q, d, d, q, d))
        self._quoted = re.compile(b'"([^"]*(?:""[^"]*)*)"')
        body = head[len(self.bom):]
        try:
            records, _ = self._split(body, 0, len(head) < block)
        except _Unclosed as unclosed:  # in a later row: parts() reports it there
            records = self._split(body[:unclosed.at], 0, True)[0] if unclosed.at else []
        if not records:
            raise BertforgeError(f"{path} has no header row; a table's first row names its "
                                 f"columns")
        raw, spans = records[0]
        self.header = self.bom + raw
        self.names = [self._value(raw[s:e]) for s, e in spans]
        self.names = [n if isinstance(n, str) else f"column {i + 1}"
                      for i, n in enumerate(self.names)]
        self.index = {n: i for i, n in enumerate(self.names)}
        self.chosen = cells.chosen(self.names, self.names)
        self.redacted = set(self.chosen) | set(cells.mask)
        self.start = len(self.header)
        self.size = self.path.stat().st_size

    def describe(self) -> dict:
        return {"encoding": self.encoding, "delimiter": self.delimiter.decode(self.encoding),
                "columns": self.chosen}

    def _split(self, buf: bytes, pos: int, eof: bool):
        """([(record bytes, field spans in it)], where the unread rest starts): whole
        records only, unless `eof`."""
        out, n, delimiter = [], len(buf), self.delimiter[0]
        while pos < n:
            start, fields = pos, []
            while True:
                m = self._field.match(buf, pos)
                end = m.end() if m else pos
                fields.append((pos - start, end - start))
                pos = end
                if pos >= n:
                    if not eof:
                        return out, start
                    break
                byte = buf[pos]
                if byte == delimiter:
                    pos += 1
                    continue
                if byte == 10:
                    pos += 1
                elif byte == 13:
                    if pos + 1 >= n and not eof:
                        return out, start
                    pos += 2 if buf[pos + 1:pos + 2] == b"\n" else 1
                elif not eof:  # a quote that closes further on
                    return out, start
                else:
                    raise _Unclosed(start)
                break
            out.append((buf[start:pos], fields))
        return out, pos

    def _value(self, raw: bytes):
        m = self._quoted.match(raw)
        if m:
            raw = m.group(1).replace(b'""', b'"') + raw[m.end():]
        try:
            return raw.decode(self.encoding)
        except UnicodeDecodeError as error:
            return Unreadable(f"not {self.encoding} text (byte {error.start} of the cell)")

    def _field_bytes(self, old: bytes, new: str) -> bytes:
        raw = new.encode(self.encoding, errors="replace")
        if old.startswith(b'"') or any(c in raw for c in (self.delimiter, b'"', b"\r", b"\n")):
            return b'"' + raw.replace(b'"', b'""') + b'"'
        return raw

    def parts(self, start: int, first: int, rows: int) -> Iterator[Part]:
        """Parts of `rows` rows, from byte `start` (where data row number `first` begins)."""
        with open(self.path, "rb") as f:
            f.seek(start)
            buf, offset, row, pending, eof = b"", start, first, [], False
            while True:
                chunk = f.read(self.block)
                eof, buf = len(chunk) < self.block, buf + chunk
                problem = None
                try:
                    found, used = self._split(buf, 0, eof)
                except _Unclosed as unclosed:
                    found, used = self._split(buf[:unclosed.at], 0, True)[0], len(buf)
                    problem = Problem(row + len(pending) + len(found),
                                      f"a quote opens and never closes: the last "
                                      f"{len(buf) - unclosed.at} bytes are not rows and are "
                                      f"left out")
                if not found and not eof and len(buf) > MAX_RECORD:
                    raise BertforgeError(f"{self.path}: no row ends in the {MAX_RECORD >> 20} MB "
                                         f"from byte {offset}; a quote that never closes?")
                for raw, spans in found:
                    offset += len(raw)
                    pending.append((raw, spans, offset))
                buf = buf[used:]
                while len(pending) >= rows or (eof and pending):
                    batch, pending = pending[:rows], pending[rows:]
                    part = self._part(batch, row, offset if not pending and eof else batch[-1][2])
                    row += part.rows
                    if problem is not None and not pending:
                        part.problems.append(problem)
                        part.end, problem = self.size, None
                    yield part
                if eof:
                    if problem is not None:  # nothing before it in this part
                        yield Part(row, 0, [], [], self.size, [problem])
                    return

    def _part(self, batch, first: int, end: int) -> Part:
        cells, index = [], self.index
        for row, (raw, spans, _) in enumerate(batch, first):
            for name in self.redacted:
                i = index[name]
                if i < len(spans):
                    s, e = spans[i]
                    cells.append((row, name, self._value(raw[s:e])))
        return Part(first, len(batch), cells, [(raw, spans) for raw, spans, _ in batch], end)

    def write(self, part: Part, done: Sequence[Done]) -> bytes:
        index = self.index
        new: dict[tuple[int, int], str] = {}
        for (row, name, value), result in zip(part.cells, done):
            if result.value != value:
                new[(row, index[name])] = result.value
        out = []
        for row, (raw, spans) in enumerate(part.data, part.first):
            pieces, last = [], 0
            for i, (s, e) in enumerate(spans):
                if (row, i) in new:
                    pieces += [raw[last:s], self._field_bytes(raw[s:e], new[(row, i)])]
                    last = e
            out.append(b"".join(pieces) + raw[last:] if pieces else raw)
        return b"".join(out)

    def assemble(self, target, parts: Iterator[bytes]) -> None:
        target.write(self.header)
        for blob in parts:
            target.write(blob)


class _Unclosed(Exception):
    def __init__(self, at: int):
        self.at = at


def _sniff(head: bytes) -> str:
    """The delimiter the header line holds most of, outside quotes (comma on a tie)."""
    line = re.sub(rb'"[^"]*"', b"", head).split(b"\n", 1)[0]
    counts = {d: line.count(d.encode()) for d in (",", "\t", ";", "|")}
    best = max(counts, key=lambda d: (counts[d], d == ","))
    return best


def _is_utf8(head: bytes) -> bool:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start >= len(head) - 3 and error.reason == "unexpected end of data"
    return True


class Jsonl:
    """JSON lines, each an object whose string fields are cells (`--columns` names
    them; by default every string field). A line that is not an object is reported and
    left out; a blank line stays."""

    def __init__(self, path: str | os.PathLike, cells: Cells):
        self.path, self.cells = Path(path), cells
        with open(self.path, "rb") as f:
            self.header = codecs.BOM_UTF8 if f.read(3) == codecs.BOM_UTF8 else b""
        self.start, self.size = len(self.header), self.path.stat().st_size

    def describe(self) -> dict:
        return {"columns": self.cells.columns}

    def parts(self, start: int, first: int, rows: int) -> Iterator[Part]:
        with open(self.path, "rb") as f:
            f.seek(start)
            offset, batch, row = start, [], first
            for line in f:
                offset += len(line)
                batch.append(line)
                if len(batch) == rows:
                    yield self._part(batch, row, offset)
                    row, batch = row + len(batch), []
            if batch:
                yield self._part(batch, row, offset)

    def _row(self, line: bytes, number: int) -> tuple[dict | None, str | None]:
        try:
            record = json.loads(line.decode("utf-8"))
        except UnicodeDecodeError as error:
            return None, f"not UTF-8 (byte {error.start}); the line is left out"
        except json.JSONDecodeError as error:
            return None, f"not valid JSON ({error.msg}); the line is left out"
        except RecursionError:
            return None, "JSON nested too deeply to read; the line is left out"
        if not isinstance(record, dict):
            return None, f"a JSON {type(record).__name__}, not an object; the line is left out"
        return record, None

    def _part(self, lines: list[bytes], first: int, end: int) -> Part:
        cells, data, problems = [], [], []
        for number, line in enumerate(lines, first):
            if not line.strip():
                data.append((line, None))
                continue
            record, error = self._row(line, number)
            if error:
                problems.append(Problem(number, error))
            data.append((line, record))
            if record is None:
                continue
            names = self.cells.columns or [k for k, v in record.items()
                                           if isinstance(v, str) and k not in self.cells.mask]
            cells += [(number, name, record[name]) for name in [*names, *self.cells.mask]
                      if name in record]
        return Part(first, len(lines), cells, data, end, problems)

    def write(self, part: Part, done: Sequence[Done]) -> bytes:
        new: dict[int, dict] = {}
        for (row, name, value), result in zip(part.cells, done):
            if result.value != value or type(result.value) is not type(value):
                new.setdefault(row, {})[name] = result.value
        out = []
        for row, (line, record) in enumerate(part.data, part.first):
            if record is None and line.strip():
                continue
            if row not in new:
                out.append(line)
                continue
            ending = b"\r\n" if line.endswith(b"\r\n") else b"\n" if line.endswith(b"\n") else b""
            out.append(json_line(record | new[row]).encode("utf-8")[:-1] + ending)
        return b"".join(out)

    def assemble(self, target, parts: Iterator[bytes]) -> None:
        target.write(self.header)
        for blob in parts:
            target.write(blob)


class Parquet:
    """Parquet through pyarrow, in record batches: the schema, its metadata and each
    column's type are kept."""

    def __init__(self, path: str, cells: Cells):
        pq = require("pyarrow.parquet", "Parquet tables")
        self.path = path
        try:
            self.file = pq.ParquetFile(open_input(path))
        except (OSError, ValueError) as error:  # pyarrow's ArrowInvalid is a ValueError
            raise BertforgeError(f"cannot read {path} as Parquet: {error}") from None
        self.schema = self.file.schema_arrow
        self.columns = cells.arrow_columns(self.schema)
        self.header, self.start = b"", 0
        self.size = self.total_rows = self.file.metadata.num_rows

    def describe(self) -> dict:
        return {"columns": self.columns, "schema": self.schema.to_string()}

    def parts(self, start: int, first: int, rows: int) -> Iterator[Part]:
        pa = require("pyarrow", "Parquet tables")
        seen, pending = 0, []
        for batch in self.file.iter_batches(batch_size=rows):
            if seen + len(batch) <= start:
                seen += len(batch)
                continue
            batch = batch.slice(max(0, start - seen))
            seen = max(seen, start) + len(batch)
            pending.append(batch)
            while sum(map(len, pending)) >= rows:
                table = pa.Table.from_batches(pending, schema=self.schema)
                yield self._part(table.slice(0, rows), first)
                first, pending = first + rows, table.slice(rows).to_batches()
        table = pa.Table.from_batches(pending, schema=self.schema)
        if len(table):
            yield self._part(table, first)

    def _part(self, table, first: int) -> Part:
        return Part(first, len(table), arrow_cells(table, self.columns, first), table,
                    first - 1 + len(table))

    def write(self, part: Part, done: Sequence[Done]) -> bytes:
        pa = require("pyarrow", "Parquet tables")
        table = arrow_rebuild(part.data, self.columns, part.cells, done, part.first)
        sink = pa.BufferOutputStream()
        with pa.ipc.new_stream(sink, self.schema) as writer:
            writer.write_table(table)
        return sink.getvalue().to_pybytes()

    def assemble(self, target, parts: Iterator[bytes]) -> None:
        pa = require("pyarrow", "Parquet tables")
        pq = require("pyarrow.parquet", "Parquet tables")
        with pq.ParquetWriter(target, self.schema) as writer:
            for blob in parts:
                writer.write_table(pa.ipc.open_stream(blob).read_all())


def open_input(path: str):
    """A path, or any URI pyarrow's file systems read (s3://, gs://, hdfs://, file://)."""
    if "://" not in str(path):
        return str(path)
    fs = require("pyarrow.fs", "tables on remote file systems")
    filesystem, where = fs.FileSystem.from_uri(str(path))
    return filesystem.open_input_file(where)


def json_line(record: dict) -> str:
    """One JSON line; fields that hold no valid text are escaped, never lost."""
    line = json.dumps(record, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(record)
    return line + "\n"


def open_table(path: str, cells: Cells, kind: str, settings: "TableSettings"):
    """The reader and writer of one table."""
    if kind == "parquet":
        return Parquet(path, cells)
    if "://" in str(path):
        raise BertforgeError(f"{path}: CSV, TSV and JSONL are read from local files; Parquet "
                             f"(or --ray) reads URIs")
    if not Path(path).is_file():
        raise BertforgeError(f"{path}: no such file")
    if kind == "jsonl":
        return Jsonl(path, cells)
    return Csv(path, cells, tsv=kind == "tsv", encoding=settings.encoding,
               delimiter=settings.delimiter)
