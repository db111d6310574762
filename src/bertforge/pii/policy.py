"""A redaction policy: which data is masked and how, values always or never masked,
per-group floors, recognizers of one's own, and the key for hashes and tokens.

The same policy is a YAML file (`Policy.load`) or Python objects (`Policy(...)`); the
file's schema, version 1 (every key optional):

    threshold: 0.3                 # the model's token threshold (default: the card's)
    default: replace               # the operator of every group not named below
    groups:                        # group -> operator name, or a mapping
      DATE: keep
      CARD: {operator: mask, keep_last: 4}
      ACCOUNT: {operator: hash, length: 12}
      PERSON: encrypt
      COMPANY: {operator: replace, template: "<{group}_{n}>"}
    thresholds: {PERSON: 0.6}      # the lowest score a model span of the group may have
    allow: [Northwind Bank, 20-00-00]     # values never masked
    deny: {COMPANY: [Project Falcon]}     # values always masked, as this group
    disable: [handles]             # built-in recognizers that do not run (REGISTRY's names)
    recognizers:                   # found by form, beside the built-in ones
      - name: customer_number
        group: ACCOUNT
        regex: 'CUST-\\d{8}'        # or regexes: [...]
        context: [customer, client]   # one of them within `window` words (default 5)
        validator: luhn            # luhn, card, mod97, aba, verhoeff, ssn, bic
    presidio_recognizers: rules.yaml   # Presidio's YAML (`recognizers:`), beside this file,
                                   # or {file: rules.yaml, entities: {ZIP: ADDRESS}}
    key: {file: redact.key}        # or {env: REDACT_KEY}: for hash, encrypt and fakes
    fakes: document                # fakes linkable only within a document, or: key
    date_shift: 365                # fake dates move by one offset per document, up to
                                   # this many days either way (intervals survive)

An error names the file, the line and the key. Operators are `redact.Operator`.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Sequence

from ..errors import BertforgeError
from ..optional import require
from ..spans import Span
from .crypto import Key, key_from
from .labels import GROUPS, PRESIDIO_GROUP
from .recognizers import REGISTRY, Declared, Recognizer
from .redact import OPERATORS, Operator, replace_spans

KEYS = ("version", "threshold", "default", "groups", "thresholds", "allow", "deny",
        "disable", "recognizers", "presidio_recognizers", "key", "fakes", "date_shift")
RECOGNIZER_KEYS = ("name", "group", "regex", "regexes", "context", "window", "validator",
                   "trust", "ignore_case")
FAKES = ("document", "key")


class PolicyError(BertforgeError):
    """A policy file or object that cannot be used; the message says where and why."""


@dataclass
class Policy:
    default: Operator = field(default_factory=Operator)
    groups: dict[str, Operator] = field(default_factory=dict)
    threshold: float | None = None
    thresholds: dict[str, float] = field(default_factory=dict)
    allow: Sequence[str] = ()
    deny: dict[str, Sequence[str]] = field(default_factory=dict)
    recognizers: list[Recognizer] = field(default_factory=list)
    disable: Sequence[str] = ()
    key: Key | None = None
    fakes: str = "document"
    date_shift: int = 0
    source: str = "a policy given in code"

    def __post_init__(self):
        for group in [*self.groups, *self.thresholds, *self.deny]:
            if group not in GROUPS:
                raise PolicyError(f"{self.source}: {group!r} is not a group; the groups are "
                                  f"{', '.join(GROUPS)}")
        for name in self.disable:
            if name not in REGISTRY:
                raise PolicyError(f"{self.source}: {_not_built_in(name)}")
        both = {_norm(v) for v in self.allow} & {_norm(v) for vs in self.deny.values() for v in vs}
        if both:
            raise PolicyError(f"{self.source}: {sorted(both)[0]!r} is both allowed and denied")
        if self.fakes not in FAKES:
            raise PolicyError(f"{self.source}: fakes is one of {', '.join(FAKES)}")
        if isinstance(self.date_shift, bool) or not isinstance(self.date_shift, int) \
                or not 0 <= self.date_shift <= 36500:
            raise PolicyError(f"{self.source}: date_shift is a number of days from 0 to 36500")
        needs = sorted({g for g in GROUPS if self.operator(g).name in ("hash", "encrypt")})
        if needs and self.key is None:
            raise PolicyError(f"{self.source}: {', '.join(needs)} {'is' if len(needs) == 1 else 'are'} "
                              f"hashed or encrypted, which needs a key: add key: {{file: PATH}} "
                              f"or key: {{env: NAME}}")
        self._allowed = {_norm(v) for v in self.allow}
        self._denied = [(group, _phrase(v)) for group, vs in self.deny.items() for v in vs]

    def operator(self, group: str) -> Operator:
        return self.groups.get(group, self.default)

    @classmethod
    def from_style(cls, style: str) -> "Policy":
        """The policy of `bertforge redact --style`: one operator for every group."""
        from .redact import STYLES

        if style not in STYLES:
            raise BertforgeError(f"unknown redaction style {style!r}; choose one of "
                                 f"{', '.join(STYLES)}")
        return cls(default=STYLES[style], source=f"--style {style}")

    @classmethod
    def load(cls, path: str | os.PathLike) -> "Policy":
        """The policy in a YAML file; an error names the line and the key."""
        yaml = require("yaml", "policy files")
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise PolicyError(f"cannot read the policy {path}: "
                              f"{getattr(error, 'strerror', None) or error}") from None
        try:
            data, lines = yaml.safe_load(text), _lines(yaml.compose(text, Loader=yaml.SafeLoader))
        except yaml.YAMLError as error:
            mark = getattr(error, "problem_mark", None)
            line = f" line {mark.line + 1}" if mark is not None else ""
            raise PolicyError(f"{path}{line}: not YAML ({getattr(error, 'problem', error)})") from None
        return from_dict(data if data is not None else {}, str(path), lines, path.parent)

    def allows(self, value: str) -> bool:
        """Whether the allow-list keeps `value` in clear."""
        return _norm(value) in self._allowed

    def screen(self, text: str, spans: Sequence[Span]) -> list[Span]:
        """The spans less the allowed values, plus every denied value (which wins over
        whatever overlaps it)."""
        kept = [s for s in spans if not self.allows(text[s.start:s.end])]
        denied: list[Span] = []
        for group, phrase in self._denied:
            for m in phrase.finditer(text):
                if not any(m.start() < d.end and d.start < m.end() for d in denied):
                    denied.append(Span(m.start(), m.end(), group, m.group(), 1.0, "deny"))
        if not denied:
            return kept
        kept = [s for s in kept if not any(s.start < d.end and d.start < s.end for d in denied)]
        return sorted(kept + denied, key=lambda s: s.start)

    def redact(self, text: str, spans: Sequence[Span], fake_key: bytes | None = None,
               vault=None) -> tuple[str, list[str]]:
        """(the text with each span replaced by its group's operator, the operator of
        each span). Fakes, and the date shift, are drawn per document unless
        `fakes: key` (or a `fake_key` is given); a `vault.Vault` keeps numbered and fake
        replacements across documents, for `restore`."""
        import secrets

        if fake_key is None:
            fake_key = (self.key.material if self.fakes == "key" and self.key
                        else secrets.token_bytes(32))
        shift = None
        if self.date_shift:
            draw = random.Random(hashlib.sha256(b"date shift\0" + fake_key).digest())
            shift = draw.choice([d for d in range(-self.date_shift, self.date_shift + 1) if d])
        return replace_spans(text, spans, self.operator, self.key, fake_key, shift, vault)

    def describe(self) -> dict:
        """What the policy does, as plain data: what its hash is of. Whether it has a key
        is part of it; the key, and where it is kept, are not."""
        # "disable" only when set: a policy written before the key keeps its hash
        return {"default": asdict(self.default),
                "groups": {g: asdict(o) for g, o in self.groups.items()},
                "threshold": self.threshold, "thresholds": self.thresholds,
                "allow": sorted(self.allow), "deny": {g: sorted(v) for g, v in self.deny.items()},
                "recognizers": [repr(r) for r in self.recognizers], "fakes": self.fakes,
                "date_shift": self.date_shift,
                "keyed": self.key is not None} | (
                    {"disable": sorted(self.disable)} if self.disable else {})

    def digest(self) -> str:
        return hashlib.sha256(json.dumps(self.describe(), sort_keys=True).encode()).hexdigest()


def _norm(value: str) -> str:
    """A value compared without case, spacing or punctuation at its ends."""
    return " ".join(value.casefold().split()).strip(".,;:!?()[]{}\"'")


def _phrase(value: str) -> re.Pattern:
    """A denied value anywhere in a text: whole words, any case and spacing."""
    words = [re.escape(w) for w in value.split()]
    if not words:
        raise PolicyError("a denied value is empty")
    return re.compile(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", re.I)


# ------------------------------------------------------------------ the file
def _lines(node, path=()) -> dict[tuple, int]:
    """The line of every key and item of a composed YAML document."""
    import yaml

    out = {path: node.start_mark.line + 1} if node is not None else {}
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            out |= _lines(v, path + (k.value,))
            out[path + (k.value,)] = k.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            out |= _lines(v, path + (i,))
    return out


class _Where:
    def __init__(self, source: str, lines: dict[tuple, int]):
        self.source, self.lines = source, lines

    def error(self, path: tuple, message: str) -> PolicyError:
        known = [p for p in self.lines if p == path[:len(p)]]
        line = self.lines[max(known, key=len)] if known else None
        key = ".".join(str(p) for p in path)
        at = f"{self.source}" + (f" line {line}" if line else "") + (f", {key}" if key else "")
        return PolicyError(f"{at}: {message}")


def from_dict(data, source: str = "a policy", lines: dict | None = None,
              base: Path | None = None) -> Policy:
    """A policy from the file's schema as plain data (`Policy.load` reads the file)."""
    where = _Where(source, lines or {})
    if not isinstance(data, dict):
        raise where.error((), "a policy is a mapping of keys (threshold, default, groups, ...)")
    for key in data:
        if key not in KEYS:
            raise where.error((key,), f"unknown key; a policy's keys are {', '.join(KEYS)}")
    if data.get("version", 1) != 1:
        raise where.error(("version",), "this bertforge reads version 1")
    groups = _mapping(data, "groups", where)
    disable = [_built_in(str(v), ("disable", k), where)
               for k, v in enumerate(_list(data, "disable", where))]
    recognizers = [_recognizer(r, ("recognizers", k), where)
                   for k, r in enumerate(_list(data, "recognizers", where))]
    if "presidio_recognizers" in data:
        spec = data["presidio_recognizers"]
        spec = spec if isinstance(spec, dict) else {"file": spec}
        if not isinstance(spec.get("file"), str) or not isinstance(spec.get("entities", {}), dict):
            raise where.error(("presidio_recognizers",), "a file name, or {file: NAME, "
                                                         "entities: {PRESIDIO_ENTITY: GROUP}}")
        entities = {str(k): _group(v, ("presidio_recognizers", "entities", k), where)
                    for k, v in spec.get("entities", {}).items()}
        recognizers += presidio_recognizers((base or Path(".")) / spec["file"], entities)
    try:
        return Policy(
            default=_operator(data.get("default", "replace"), ("default",), where),
            groups={_group(g, ("groups", g), where): _operator(v, ("groups", g), where)
                    for g, v in groups.items()},
            threshold=_probability(data.get("threshold"), ("threshold",), where),
            thresholds={_group(g, ("thresholds", g), where): _probability(v, ("thresholds", g), where)
                        for g, v in _mapping(data, "thresholds", where).items()},
            allow=[str(v) for v in _list(data, "allow", where)],
            deny={_group(g, ("deny", g), where): [str(v) for v in _as_list(vs, ("deny", g), where)]
                  for g, vs in _mapping(data, "deny", where).items()},
            recognizers=recognizers, disable=disable,
            key=_key(data.get("key"), where, base),
            fakes=str(data.get("fakes", "document")), date_shift=data.get("date_shift", 0),
            source=source)
    except PolicyError as error:
        raise where.error((), str(error).removeprefix(f"{source}: ")) from None


def _mapping(data: dict, key: str, where: _Where) -> dict:
    value = data.get(key, {}) or {}
    if not isinstance(value, dict):
        raise where.error((key,), "must be a mapping (GROUP: value)")
    return value


def _list(data: dict, key: str, where: _Where) -> list:
    return _as_list(data.get(key, []) or [], (key,), where)


def _as_list(value, path: tuple, where: _Where) -> list:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list):
        raise where.error(path, "must be a list")
    return value


def _group(name, path: tuple, where: _Where) -> str:
    if name not in GROUPS:
        raise where.error(path, f"{name!r} is not a group; the groups are {', '.join(GROUPS)}")
    return name


def _not_built_in(name: str) -> str:
    return f"{name!r} is not a built-in recognizer; they are {', '.join(REGISTRY)}"


def _built_in(name: str, path: tuple, where: _Where) -> str:
    if name not in REGISTRY:
        raise where.error(path, _not_built_in(name))
    return name


def _probability(value, path: tuple, where: _Where) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise where.error(path, f"a score from 0 to 1, not {value!r}")
    return float(value)


def _operator(value, path: tuple, where: _Where) -> Operator:
    if isinstance(value, str):
        value = {"operator": value}
    if not isinstance(value, dict) or "operator" not in value:
        raise where.error(path, f"an operator ({', '.join(OPERATORS)}) or a mapping with "
                                f"operator: and its settings")
    settings = {k: v for k, v in value.items() if k != "operator"}
    allowed = ("template", "char", "keep_first", "keep_last", "length")
    for k in settings:
        if k not in allowed:
            raise where.error(path + (k,), f"unknown setting; an operator's are "
                                           f"{', '.join(allowed)}")
    try:
        return Operator(str(value["operator"]), **settings)
    except (BertforgeError, TypeError) as error:
        raise where.error(path, str(error)) from None


def _recognizer(spec, path: tuple, where: _Where) -> Recognizer:
    if not isinstance(spec, dict):
        raise where.error(path, "a recognizer is a mapping (name, group, regex, ...)")
    for k in spec:
        if k not in RECOGNIZER_KEYS:
            raise where.error(path + (k,), f"unknown key; a recognizer's are "
                                           f"{', '.join(RECOGNIZER_KEYS)}")
    for k in ("name", "group"):
        if k not in spec:
            raise where.error(path, f"a recognizer needs {k}:")
    regexes = _as_list(spec.get("regexes", spec.get("regex", [])), path + ("regex",), where)
    if not regexes:
        raise where.error(path, "a recognizer needs regex: (or regexes: [...])")
    try:
        return Declared(str(spec["name"]), _group(spec["group"], path + ("group",), where),
                        [str(r) for r in regexes],
                        [str(c) for c in _as_list(spec.get("context", []), path + ("context",), where)],
                        int(spec.get("window", 5)), spec.get("validator"), spec.get("trust"),
                        re.I if spec.get("ignore_case") else 0)
    except re.error as error:
        raise where.error(path + ("regex",), f"not a regular expression: {error}") from None
    except (ValueError, TypeError) as error:
        raise where.error(path, str(error)) from None


def _key(value, where: _Where, base: Path | None) -> Key | None:
    if value is None:
        return None
    if not isinstance(value, dict) or len(value) != 1 or not {"file", "env"} & set(value):
        raise where.error(("key",), "key: {file: PATH} or key: {env: NAME}")
    try:
        if "file" in value:
            return key_from(file=(base or Path(".")) / str(value["file"]))
        return key_from(env=str(value["env"]))
    except BertforgeError as error:
        raise where.error(("key",), str(error)) from None


# -------------------------------------------------------- Presidio's recognizers
def presidio_recognizers(path: str | os.PathLike,
                         entities: dict[str, str] | None = None) -> list[Recognizer]:
    """Pattern recognizers written for Presidio (`recognizers:` of its YAML, each with
    `supported_entity`, `patterns` of `regex`, optional `context`), as `Declared`
    recognizers of the group their entity falls in: `entities` ({"ZIP": "ADDRESS"}),
    else `labels.PRESIDIO_GROUP`, else a group's own name. Their scores are not used: a
    match is a shape, as ours are."""
    yaml = require("yaml", "Presidio's recognizer files")
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data, lines = yaml.safe_load(text), _lines(yaml.compose(text, Loader=yaml.SafeLoader))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        raise PolicyError(f"cannot read Presidio's recognizers from {path}: {error}") from None
    where = _Where(str(path), lines)
    specs = data.get("recognizers") if isinstance(data, dict) else None
    if not isinstance(specs, list):
        raise where.error((), "Presidio's recognizer file holds recognizers: [...]")
    out = []
    for k, spec in enumerate(specs):
        at = ("recognizers", k)
        if not isinstance(spec, dict) or not isinstance(spec.get("patterns"), list):
            raise where.error(at, "a recognizer with patterns: [{name, regex, score}] "
                                  "(deny-list recognizers go under the policy's deny:)")
        entity = spec.get("supported_entity") or (spec.get("supported_entities") or [None])[0]
        group = ((entities or {}).get(entity) or PRESIDIO_GROUP.get(entity)
                 or (entity if entity in GROUPS else None))
        if group is None:
            raise where.error(at + ("supported_entity",),
                              f"{entity!r} falls in none of the groups ({', '.join(GROUPS)}); "
                              f"map it: presidio_recognizers: {{file: {path.name}, entities: "
                              f"{{{entity}: GROUP}}}}")
        regexes = [str(p["regex"]) for p in spec["patterns"] if isinstance(p, dict) and "regex" in p]
        out.append(Declared(str(spec.get("name", f"presidio_{k}")), group, regexes,
                            [str(c) for c in spec.get("context", []) or []]))
    return out
