"""Redacting files: plain documents and JSONL batches, read and written byte-faithfully.

What this module guarantees, whatever the input:

- text is read as bytes and decoded as UTF-8 with nothing translated: a CRLF file keeps
  its "\\r", and every span offset counts the characters that are really there;
- one bad input (a file that cannot be read, a line that is not JSON, nested too deeply,
  or holds a lone surrogate) gets its own clear error and the others go on;
- an output is written whole or not at all (`files.atomic_file`), never more readable
  than its input, and its place is checked before any detection runs.

The command line maps its arguments onto these functions and prints what they return.
"""

from __future__ import annotations

import errno
import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Iterable, Sequence

from ..errors import BertforgeError
from ..files import atomic_file, check_writable

CHUNK = 64  # documents a detection call; the progress bar moves once per chunk
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


def text_error(text: str) -> str | None:
    """Why a string cannot be redacted, or None: a lone surrogate is no character."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return (f"its text holds a lone surrogate (\\u{ord(text[error.start]):04x} at "
                f"character {error.start}), which is not a character; fix the producer")
    return None


def parse_jsonl(raw: bytes, source: str) -> tuple[list[dict], list[str]]:
    """(records, warnings): one record a non-blank line, each either the line's object
    (which has a "text" string) or a record with an "error" that names the line."""
    records: list[dict] = []
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    for number, line in enumerate(raw.split(b"\n"), 1):
        if not line.strip():
            continue
        where = f"{source}:{number}"
        try:
            record = json.loads(line.decode("utf-8"))
        except UnicodeDecodeError as error:
            records.append({"line": number, "error": f"{where}: not UTF-8 (byte {error.start})"})
            continue
        except json.JSONDecodeError as error:
            records.append({"line": number, "error": f"{where}: not valid JSON ({error.msg})"})
            continue
        except RecursionError:
            records.append({"line": number, "error": f"{where}: JSON nested too deeply to read"})
            continue
        if not isinstance(record, dict) or not isinstance(record.get("text"), str):
            kept = {k: v for k, v in record.items() if k != "text"} if isinstance(record, dict) \
                else {"line": number}
            records.append(kept | {"error": f"{where}: needs an object with a \"text\" string"})
            continue
        problem = text_error(record["text"])
        if problem:
            kept = {k: v for k, v in record.items() if k == "id"}
            records.append({"line": number} | kept | {"error": f"{where}: {problem}"})
            continue
        records.append(record)
    ids = Counter(_hashable(r["id"]) for r in records if "id" in r and "error" not in r)
    repeated = [i for i, n in ids.items() if n > 1]
    warnings = [f"{source}: {len(repeated)} id(s) appear on more than one line, e.g. "
                f"{repeated[0]!r}: the output keeps every line, in order"] if repeated else []
    return records, warnings


def _hashable(value):
    return json.dumps(value, sort_keys=True) if isinstance(value, (dict, list)) else value


def redact_records(records: Sequence[dict], redactor, policy, progress: bool = True,
                   audit=None, vault=None) -> tuple[list[dict], list[str]]:
    """(each record without an error plus "spans" and "redacted" by `policy`, a
    `policy.Policy`, and the others as they are; the audit lines of the redacted ones,
    when an `audit.Audit` is given)."""
    from tqdm import tqdm

    todo = [r for r in records if "error" not in r]
    found: list = []
    with tqdm(total=len(todo), unit="doc", disable=not progress or len(todo) < 20) as bar:
        for start in range(0, len(todo), CHUNK):
            part = [r["text"] for r in todo[start:start + CHUNK]]
            found += redactor.detect_batch(part)
            bar.update(len(part))
    spans = iter(found)
    out, lines = [], []
    for record in records:
        if "error" not in record:
            these = next(spans)
            redacted, operators = policy.redact(record["text"], these, vault=vault)
            if audit is not None:
                lines.append(audit.line(record.get("id"), record["text"], these, operators))
            record = record | {"spans": [s.to_dict() for s in these], "redacted": redacted}
        out.append(record)
    return out, lines


def json_line(record: dict) -> str:
    """One JSON line; fields that hold no valid text are escaped, never lost."""
    line = json.dumps(record, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(record)
    return line + "\n"


def write_jsonl(target: str | os.PathLike, records: Iterable[dict],
                private_to: str | os.PathLike | None = None) -> int:
    """Write every record, whole or not at all; returns the lines written."""
    written = 0
    with atomic_file(target, private_to=private_to) as f:
        for record in records:
            f.write(json_line(record))
            written += 1
    return written


def check_output(source: str | os.PathLike, target: str | os.PathLike) -> Path:
    """Refuse, before any work, an output that is the input or cannot be written."""
    source, target = Path(source), Path(target)
    if target.exists() and source.exists() and os.path.samefile(source, target):
        raise BertforgeError("--out must not be the input file")
    return check_writable(target)


def redact_jsonl(source: str | os.PathLike, out: str | os.PathLike, load, policy,
                 audit: str | os.PathLike | None = None, vault=None,
                 warn=print) -> tuple[Path, int, list[str]]:
    """The JSONL contract: each line `{"id", "text", ...}` of `source` becomes the same
    fields plus "spans" and "redacted" in `out`, or plus "error" for a line that cannot
    be processed, and the rest go on. `out` is checked and `source` parsed before any
    work; only then does `load()` give the redactor. `out` is written whole and never
    more readable than `source`; `audit` appends a line per document (`audit.Audit`);
    `vault` (a `vault.Vault`) keeps the replacements, saved once the output is whole.
    Returns (out, lines written, the errors)."""
    target = check_output(source, out)
    records, warnings = parse_jsonl(read_source(source), str(source))
    for warning in warnings:
        warn(warning)
    from .audit import Audit

    redactor = load()
    audit = Audit(audit, redactor) if audit else None
    records, lines = redact_records(records, redactor, policy, audit=audit, vault=vault)
    written = write_jsonl(target, records, private_to=source)
    if vault is not None:  # only once the output is whole
        vault.save()
    if audit is not None:
        audit.append(lines)
    return target, written, [r["error"] for r in records if "error" in r]


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
