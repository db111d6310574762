"""A model directory's card, `bertforge.json`: what bertforge knows of a model beyond
`config.json`. One reader, one writer; every key the code acts on is a typed field,
checked when the card is read, and everything else (recipes, data, scores) is kept as it
was written, in `extra`.

    card = ModelCard.read("out/model")            # an empty card where there is none
    card.threshold, card.floors, card.window      # typed; None where the card is silent
    card.updated(floors={"CARD": 0.995}).write("out/model")   # written whole
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import CheckpointError
from .files import write_text

FILE = "bertforge.json"


@dataclass(frozen=True)
class ModelCard:
    bertforge_version: str | None = None
    head: str | None = None               # one of model.HEADS
    labels: list[str] | None = None       # the classifier's classes (BIO tags for a tagger)
    task: str | None = None               # "feature-tagging" for a frozen-encoder tagger
    window: int | None = None             # a task model's window and stride, in tokens
    stride: int | None = None
    token_types: str | None = None        # "case": segment ids carry each token's case
    threshold: float | None = None        # a redactor's P(not O) threshold
    floors: dict[str, float] = field(default_factory=dict)  # a redactor's per-group floors
    warning: str | None = None            # said whenever the model is loaded
    extra: dict[str, Any] = field(default_factory=dict)     # everything else, as written
    # the typed keys the card holds, so that a null ("head": null: a bare encoder) is
    # written back as it was read
    given: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    # ------------------------------------------------------------------ reading
    @classmethod
    def read(cls, directory: str | os.PathLike | None, required: bool = False) -> "ModelCard":
        """The card of `directory`; an empty one where it has none (an error instead
        when `required`). A card that is not valid JSON, or whose typed fields have the
        wrong kind of value, is an error naming the file and the key."""
        path = Path(directory or ".") / FILE
        if not path.is_file():
            if required:
                raise CheckpointError(f"{path} is missing: {Path(directory or '.')} is not a "
                                      f"model directory saved by bertforge")
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise CheckpointError(f"{path} cannot be read ({error}); restore it from the "
                                  f"model's source, or delete it to load the model without "
                                  f"its card") from None
        if not isinstance(data, dict):
            raise CheckpointError(f"{path} must hold a JSON object")
        return cls.from_dict(data, str(path))

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = FILE) -> "ModelCard":
        typed = {f.name for f in dataclasses.fields(cls)} - {"extra", "given"}
        values = {k: v for k, v in data.items() if k in typed}
        for name, value in values.items():
            valid, kind = _KINDS[name]
            if value is not None and not valid(value):
                raise CheckpointError(f"{where}: {name!r} is {value!r}, which is not {kind}")
        values["floors"] = dict(values.get("floors") or {})
        return cls(**values, extra={k: v for k, v in data.items() if k not in typed},
                   given=frozenset(k for k in data if k in typed))

    # ------------------------------------------------------------------ writing
    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
               if f.name not in ("extra", "given")}
        out = {k: v for k, v in out.items() if k in self.given or (v is not None and v != {})}
        return out | self.extra

    def updated(self, **fields: Any) -> "ModelCard":
        """A copy with `fields` set: typed ones in place, any other in `extra`."""
        merged = self.to_dict() | fields
        return ModelCard.from_dict(merged)

    def write(self, directory: str | os.PathLike) -> Path:
        """Write the card into `directory`, whole or not at all."""
        path = Path(directory) / FILE
        write_text(path, json.dumps(self.to_dict(), indent=2) + "\n")
        return path


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v > 0


# each typed field: (the values it takes, how an error names them)
_KINDS = {
    "bertforge_version": (lambda v: isinstance(v, str), "a string"),
    "head": (lambda v: isinstance(v, str), "a string"),
    "labels": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
               "a list of strings"),
    "task": (lambda v: isinstance(v, str), "a string"),
    "window": (_count, "a positive whole number"),
    "stride": (_count, "a positive whole number"),
    "token_types": (lambda v: v == "case", '"case"'),
    "threshold": (lambda v: _number(v) and 0 < v <= 1, "a probability in (0, 1]"),
    "floors": (lambda v: isinstance(v, dict) and all(
        isinstance(k, str) and _number(x) and 0 <= x <= 1 for k, x in v.items()),
        "an object of group: score in [0, 1]"),
    "warning": (lambda v: isinstance(v, str), "a string"),
}
