"""The audit record of a redaction: one JSON line per document, appended to a file.

What a compliance review asks of a run, and nothing it must not hold: the document's
id, the SHA-256 of its input, how many spans of each group each operator replaced, the
hash of the policy (`Policy.digest`: what it does, never its key), the model that
found them (its directory and the SHA-256 of its weights), bertforge's version and
the time. Never a detected value, nor any text of the document.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Sequence

from .. import __version__
from ..errors import BertforgeError
from ..spans import Span


def weights_digest(directory: str | os.PathLike | None) -> str | None:
    """The SHA-256 of a model directory's weights, read in chunks."""
    if directory is None:
        return None
    digest = hashlib.sha256()
    files = sorted(Path(directory).glob("*.safetensors")) or sorted(Path(directory).glob("*.bin"))
    for path in files:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                digest.update(chunk)
    return digest.hexdigest() if files else None


class Audit:
    """Appends one line per document to `path` (created if missing, never truncated)."""

    def __init__(self, path: str | os.PathLike, redactor):
        self.path = Path(path)
        source = getattr(getattr(redactor.tagger, "model", None), "source", None)
        self.model = {"directory": source, "weights_sha256": weights_digest(source)}
        self.policy = redactor.policy.digest() if redactor.policy is not None else None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8"):
                pass
        except OSError as error:
            raise BertforgeError(f"cannot append to the audit file {path}: "
                                 f"{error.strerror}") from None

    def record(self, document_id, text: str, spans: Sequence[Span],
               operators: Sequence[str]) -> dict:
        counts: dict[str, Counter] = {}
        for span, operator in zip(spans, operators):
            counts.setdefault(span.label, Counter())[operator] += 1
        return {"id": document_id,
                "input_sha256": hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(),
                "counts": {group: dict(c) for group, c in sorted(counts.items())},
                "policy_sha256": self.policy, "model": self.model, "bertforge": __version__,
                "time": datetime.now(timezone.utc).isoformat(timespec="seconds")}

    def line(self, document_id, text: str, spans: Sequence[Span],
             operators: Sequence[str]) -> str:
        return json.dumps(self.record(document_id, text, spans, operators)) + "\n"

    def append(self, lines: Sequence[str]) -> None:
        """The lines, written in one call to a file opened for appending: lines from
        processes that share the file do not interleave."""
        with open(self.path, "a", encoding="utf-8") as f:
            f.write("".join(lines))
