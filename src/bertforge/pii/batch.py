"""Redacting files: plain documents, JSONL batches and tables, read and written
byte-faithfully.

What this module guarantees, whatever the input:

- text is read as bytes and decoded as UTF-8 with nothing translated: a CRLF file keeps
  its "\\r", and every span offset counts the characters that are really there;
- one bad input (a file that cannot be read, a line that is not JSON, nested too deeply,
  or holds a lone surrogate, a table's cell that is not text) gets its own clear error
  and the others go on;
- an output is written whole or not at all (`files.atomic_file`), never more readable
  than its input, and its place is checked before any detection runs; a JSONL batch or
  a table goes through in parts (`job.run`), so memory stays flat and a killed run
  resumes.

The command line maps its arguments onto these functions and prints what they return.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from pathlib import Path
from typing import Sequence

from ..errors import BertforgeError
from ..files import check_writable, write_text
from ..tokenizer import text_error
from .tables import (Cells, Jsonl, Part, Problem, TableSettings, column_list, format_of,
                     json_line, mask_map, open_table)

STDIN = "-"


def _reason(error: OSError) -> str:
    """An OSError as the few words a user needs."""
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, IsADirectoryError):
        return "is a directory; give files"
    if isinstance(error, PermissionError):
        return "permission denied"
    if error.errno == errno.ELOOP:
        return "a loop of symbolic links"
    return error.strerror or str(error)


def decode(raw: bytes, where: str) -> str:
    """UTF-8 text exactly as it is (a byte-order mark is dropped: it is no text)."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise BertforgeError(f"{where}: not UTF-8 text (byte {error.start}); convert it first, "
                             f"e.g. iconv -f latin1 -t utf-8") from None


def read_document(name: str) -> str:
    """A file's text (or standard input's, for "-"), as a clear error if it cannot be."""
    if name == STDIN:
        stream = getattr(sys.stdin, "buffer", None)
        if sys.stdin is None or sys.stdin.closed or stream is None:
            raise BertforgeError("standard input is closed; give FILE arguments or pipe text in")
        return decode(stream.read(), "standard input")
    try:
        return decode(Path(name).read_bytes(), name)
    except OSError as error:
        raise BertforgeError(f"{name}: {_reason(error)}") from None


def read_source(path: str | os.PathLike) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise BertforgeError(f"cannot read {path}: {_reason(error)}") from None


def parse_line(line: bytes, number: int, source: str) -> dict:
    """One JSONL line as its object (which has a "text" string), or as a record with an
    "error" that names the line."""
    where = f"{source}:{number}"
    try:
        record = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as error:
        return {"line": number, "error": f"{where}: not UTF-8 (byte {error.start})"}
    except json.JSONDecodeError as error:
        return {"line": number, "error": f"{where}: not valid JSON ({error.msg})"}
    except RecursionError:
        return {"line": number, "error": f"{where}: JSON nested too deeply to read"}
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        kept = {k: v for k, v in record.items() if k != "text"} if isinstance(record, dict) \
            else {"line": number}
        return kept | {"error": f"{where}: needs an object with a \"text\" string"}
    problem = text_error(record["text"])
    if problem:
        kept = {k: v for k, v in record.items() if k == "id"}
        return {"line": number} | kept | {"error": f"{where}: {problem}"}
    return record


class Documents(Jsonl):
    """The JSONL contract of `redact --jsonl`: each line `{"id", "text", ...}` becomes
    the same fields plus "spans" and "redacted", or plus "error" for a line that cannot
    be processed (blank lines are dropped). Read and written in parts (`job.run`)."""

    SEEN = 100_000  # ids remembered to warn about repeats: memory stays flat

    def __init__(self, path: str | os.PathLike, cells, warn=print):
        super().__init__(path, cells)
        self.header, self.warn, self.ids, self.warned = b"", warn, set(), False

    def describe(self) -> dict:
        return {"contract": "documents"}

    def _part(self, lines: list[bytes], first: int, end: int) -> Part:
        records = [(number, parse_line(line, number, str(self.path)))
                   for number, line in enumerate(lines, first) if line.strip()]
        for _, record in records:
            if "error" not in record and "id" in record and not self.warned:
                key = _hashable(record["id"])
                if key in self.ids:
                    self.warned = True
                    self.warn(f"{self.path}: id(s) appear on more than one line, e.g. "
                              f"{record['id']!r}: the output keeps every line, in order")
                elif len(self.ids) < self.SEEN:
                    self.ids.add(key)
        cells = [(number, "text", r["text"]) for number, r in records if "error" not in r]
        problems = [Problem(number, r["error"]) for number, r in records if "error" in r]
        return Part(first, len(lines), cells, records, end, problems)

    def write(self, part: Part, done) -> bytes:
        found = dict(zip((row for row, _, _ in part.cells), done))
        out = []
        for number, record in part.data:
            if number in found:
                record = record | {"spans": [s.to_dict() for s in found[number].spans],
                                   "redacted": found[number].value}
            out.append(json_line(record))
        return "".join(out).encode("utf-8")


def _hashable(value):
    return json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else value


def check_output(source: str | os.PathLike, target: str | os.PathLike) -> Path:
    """Refuse, before any work, an output that is the input or cannot be written."""
    source, target = Path(source), Path(target)
    if target.exists() and source.exists() and os.path.samefile(source, target):
        raise BertforgeError("--out must not be the input file")
    return check_writable(target)


def redact_jsonl(source: str | os.PathLike, out: str | os.PathLike, load, policy,
                 audit: str | os.PathLike | None = None, vault=None, warn=print,
                 rows: int = TableSettings.part_rows, resume: bool = False, progress: bool = True,
                 identity: dict | None = None) -> tuple[Path, int, list[str]]:
    """The JSONL contract (`Documents`), streamed in parts of `rows` documents: `out`
    grows part by part beside the input and appears whole at the end, and `resume`
    continues a stopped run (`job.run`). `out` is checked before any work; only then
    does `load()` give the redactor. `out` is never more readable than `source`;
    `audit` appends a line per document (`audit.Audit`); `vault` (a `vault.Vault`)
    keeps the replacements. Returns (out, lines written, the errors)."""
    from .audit import Audit
    from .job import run

    check_output(source, out)
    if not Path(source).is_file():
        read_source(source)  # its error says why
    redactor = load()
    cells = Cells(redactor, policy, vault=vault)
    documents = Documents(source, cells, warn=warn)
    audit = Audit(audit, redactor) if audit else None
    outcome = run(documents, cells, str(source), out, _identity(source, policy, identity),
                  rows, resume=resume, progress=progress, audit=audit, warn=warn,
                  audit_id=lambda row, column, part: dict(part.data).get(row, {}).get("id"))
    errors = [p.error for p in outcome.problems]
    return outcome.target, outcome.cells + len(errors), errors


def redact_table(source: str, out: str | os.PathLike, load, policy, settings: TableSettings,
                 kind: str | None = None, audit: str | os.PathLike | None = None, vault=None,
                 warn=print, progress: bool = True, identity: dict | None = None):
    """A table (CSV, TSV, Parquet or JSONL; `kind`, else from the name) redacted into
    `out` in the same format, in parts (`job.run`, resumable with `settings.resume`); the
    rows that could not be read wholly are listed in the errors file (`settings.errors`,
    default OUT.errors.jsonl), which is removed when a run has none. Returns the
    `job.Outcome`."""
    from .audit import Audit
    from .job import run

    kind = format_of(source, kind)
    if "://" not in str(source):
        check_output(source, out)
    errors = Path(settings.errors or f"{out}.errors.jsonl")
    check_writable(errors)
    redactor = load()
    cells = Cells(redactor, policy, column_list(settings.columns), mask_map(settings.mask_columns),
                  vault=vault)
    table = open_table(source, cells, kind, settings)
    audit = Audit(audit, redactor) if audit else None
    outcome = run(table, cells, str(source), out,
                  _identity(source, policy, identity) | {"mask_columns": cells.mask},
                  settings.part_rows, resume=settings.resume, progress=progress, audit=audit,
                  warn=warn, audit_id=lambda row, column, part: {"row": row, "column": column})
    if outcome.problems:
        write_text(errors, "".join(json.dumps(p.to_dict(), ensure_ascii=False) + "\n"
                                   for p in outcome.problems),
                   private_to=source if "://" not in str(source) else None)
    elif errors.exists() and settings.errors is None:
        errors.unlink()  # a stale list from an earlier run of this output
    outcome.errors = errors if outcome.problems else None
    return outcome


def _identity(source, policy, more: dict | None) -> dict:
    """What a stopped run must share with this one to be resumed by it."""
    if "://" in str(source):
        return {"input": str(source), "policy": policy.digest()} | (more or {})
    info = Path(source).stat()
    return {"input": str(Path(source).resolve()), "size": info.st_size,
            "modified_ns": info.st_mtime_ns, "policy": policy.digest()} | (more or {})


def read_documents(names: Sequence[str]) -> list[tuple[str, str | None, str | None]]:
    """(name, text, error) for each file name (or `STDIN`); a file that cannot be read
    gets its error and the others are still read. Standard input failing is an error."""
    if names.count(STDIN) > 1:
        raise BertforgeError("standard input (-) can be read once; name it once")
    out = []
    for name in names:
        try:
            out.append((name, read_document(name), None))
        except BertforgeError as error:
            if name == STDIN:
                raise
            out.append((name, None, str(error)))
    return out
