"""Finding personal data: `Redactor`, the facade over the stages of detection.

`Redactor.detect` runs, for a batch of texts (a long one cut into segments, in bounded
memory):

1. recognize: the model (`recognizers.ModelRecognizer`) and every pattern recognizer
   (`recognizers.default_recognizers`, or the ones given);
2. tidy: the model's spans become whole values of the right shape (`tidy.tidy`);
3. floors: a model span under its group's floor is dropped (`tidy.above_floors`), and a
   name the model read as an email or a secret is then made a name (`tidy.name_shaped`);
4. merge: model spans and matches become one list of spans that never overlap
   (`merge.merge`, where the policy is written out);
5. mentions, over the whole document once its segments are merged: every other
   mention of a name the model found (`mentions.every_mention`).

The model tags a token as personal data when P(not O) reaches the threshold (0.3 for a
model whose card names none, chosen for recall: a missed account number costs more than
a masked word). Long documents go through overlapping windows; many documents are
batched together.
"""

from __future__ import annotations

import copy
import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import Sequence

from ..card import ModelCard
from ..compress import is_quantized, quantize_int8
from ..errors import BertforgeError
from ..finetune.tagging import Tagger
from ..spans import Span
from .labels import GROUPS
from .crypto import Key
from .mentions import every_mention
from .merge import merge
from .policy import Policy
from .recognizers import ModelRecognizer, Recognizer, default_recognizers, find
from .tidy import above_floors, name_shaped, tidy

log = logging.getLogger(__name__)
BUNDLED = Path(__file__).resolve().parent / "model"
THRESHOLD = 0.3


PRECISIONS = ("auto", "fp32", "bf16", "int8")

# A long text is read in segments of SEGMENT characters, each with MARGIN characters of
# context either side, GROUP segments' worth of text at a time: memory stays bounded
# whatever the document's size (about 40,000 tokens a group), and each group is batched
# like many short documents (so many short documents share a group, and their windows
# are sorted by length together: fewer, fuller passes). A margin is longer than any
# value (an address runs to a few hundred characters) and than the context any rule
# looks at (`_in_markup`: 200), so a segment's core is decided as if the whole text were
# there; a span that starts in a core belongs to that segment.
# Margins are read twice, so segments are long (at 16 KB the margins were an eighth
# of the work); a group holds as much text as 8 segments of 16 KB did.
SEGMENT, MARGIN, GROUP = 65_536, 1_024, 2


def _release_memory() -> None:
    """Give the freed temporaries of a group back to the OS. glibc keeps them, and over
    a long text its heap creeps up from the model's tokens, logits and spans of each
    group in turn; elsewhere this does nothing."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


def _libc():
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6")
        return libc if hasattr(libc, "malloc_trim") else None
    except OSError:
        return None


_LIBC = _libc()


def _groups(sizes: Sequence[int], budget: int) -> list[tuple[int, int]]:
    """[start, end) runs of consecutive pieces whose sizes add up to at most `budget`
    (a piece larger than the budget is a group of its own)."""
    groups, start, total = [], 0, 0
    for k, size in enumerate(sizes):
        if k > start and total + size > budget:
            groups.append((start, k))
            start, total = k, 0
        total += size
    if start < len(sizes):
        groups.append((start, len(sizes)))
    return groups


def segments(text: str) -> list[tuple[int, int, int, int]]:
    """(start, end, core start, core end) of each segment of `text`: the cores tile it,
    cut at a line break (or else a space) near every SEGMENT characters."""
    if len(text) <= SEGMENT + 2 * MARGIN:
        return [(0, len(text), 0, len(text))]
    cuts = [0]
    while len(text) - cuts[-1] > SEGMENT + MARGIN:
        nominal = cuts[-1] + SEGMENT
        low = nominal - MARGIN // 2
        cut = text.rfind("\n", low, nominal)
        if cut < 0:
            cut = text.rfind(" ", low, nominal)
        cuts.append(cut + 1 if cut >= 0 else nominal)
    cuts.append(len(text))
    return [(max(0, a - MARGIN), min(len(text), b + MARGIN), a, b)
            for a, b in zip(cuts, cuts[1:])]




class Redactor:
    """Finds and masks personal data. `Redactor.load()` is the bundled model, offline."""

    def __init__(self, tagger: Tagger | None, threshold: float = THRESHOLD,
                 use_patterns: bool = True, region: str = "US", precision: str = "auto",
                 floors: dict[str, float] | None = None,
                 recognizers: Sequence[Recognizer] | None = None, policy: Policy | None = None,
                 mentions: bool = True):
        """precision: "auto" (on a CPU the fastest of fp32, bf16 and int8 on this machine
        whose spans on a calibration text are fp32's, measured once and cached:
        `precision.choose`, `self.choice`; on a GPU bf16 where it has it, else fp16),
        "fp32", "bf16", or "int8" (a copy of the model with its dense layers quantised;
        see `compress.quantize_int8`).
        floors: the lowest score a model span of each group may have, e.g.
        {"ACCOUNT": 0.99}; groups not named have none.
        recognizers: the pattern recognizers to run (default: every registered one, for
        `region`); use_patterns=False runs none.
        policy: what to mask and how (`policy.Policy`): its floors and recognizers are
        added to these (those it disables taken out), its allow- and deny-lists screen
        what is found, and `redact` applies its operators.
        mentions: mask every other mention of a name the model found in a document
        (`mentions.every_mention`)."""
        recognizers = ([] if not use_patterns else default_recognizers(region)
                       if recognizers is None else list(recognizers))
        if policy is not None:
            recognizers = [r for r in recognizers if r.name not in policy.disable]
            recognizers += policy.recognizers
            floors = dict(floors or {}) | policy.thresholds
        if tagger is None and not recognizers:
            raise BertforgeError("a redactor needs a model, patterns, or both")
        if precision not in PRECISIONS:
            raise BertforgeError(f"precision must be one of {', '.join(PRECISIONS)}, "
                                 f"not {precision!r}")
        if not 0.0 < threshold <= 1.0:
            raise BertforgeError(f"the threshold is a probability in (0, 1], got {threshold}")
        floors = dict(floors or {})
        for group, floor in floors.items():
            if group not in GROUPS or not isinstance(floor, (int, float)) or not 0 <= floor <= 1:
                raise BertforgeError(f"a floor is a score in [0, 1] for one of the groups "
                                     f"{', '.join(GROUPS)}; got {group!r}: {floor!r}")
        if tagger is not None:
            unknown = sorted(set(tagger.labels) - set(GROUPS))
            if unknown:
                raise BertforgeError(f"{getattr(tagger.model, 'source', 'the model')} tags "
                                     f"{', '.join(unknown)}, which are not personal-data groups "
                                     f"({', '.join(GROUPS)}); train it with `bertforge pii train`")
        self.tagger, self.threshold, self.precision = tagger, threshold, "fp32"
        self._given = tagger  # as handed in: every precision is made from it
        self.use_patterns, self.region, self.floors = use_patterns, region, floors
        self.recognizers, self.policy, self.mentions = recognizers, policy, mentions
        self.choice = None
        if precision == "auto" and tagger is not None:  # the fastest on this machine, measured
            from .precision import choose

            self.choice = choose(self)
            precision = self.choice.precision
        self.tagger, self.precision = self._running_in(precision)

    def _running_in(self, precision: str) -> tuple[Tagger | None, str]:
        """(tagger, autocast precision) that run this redactor's model in `precision`:
        int8 is a quantised copy (the caller's tagger stays as it was, trainable and
        saveable) that takes fp32 inputs, so no autocast around it."""
        if precision != "int8" or self._given is None:
            return self._given, precision
        tagger = copy.copy(self._given)
        tagger.model = quantize_int8(self._given.model)
        return tagger, "fp32"

    @property
    def runs_in(self) -> str:
        """The precision the model runs in: fp32, bf16 or int8 ("auto" resolved)."""
        quantized = self.tagger is not None and is_quantized(self.tagger.model)
        return "int8" if quantized else self.precision

    def running_in(self, precision: str) -> "Redactor":
        """A copy of this redactor (recognizers, floors, policy) whose model runs in
        `precision` ("fp32", "bf16" or "int8"); the weights are shared."""
        other = copy.copy(self)
        other.tagger, other.precision = self._running_in(precision)
        return other

    @classmethod
    def load(cls, source: str | os.PathLike | None = None, threshold: float | None = None,
             use_patterns: bool = True, precision: str = "auto",
             device: str = "auto", floors: dict[str, float] | None = None,
             recognizers: Sequence[Recognizer] | None = None,
             policy: "Policy | str | os.PathLike | None" = None) -> "Redactor":
        """The model at `source` (a directory from `bertforge pii train`), or the bundled
        one; its card's threshold and floors unless given (or set by the policy);
        precision as for `Redactor`; device: cpu, cuda, or auto (a CUDA GPU when PyTorch
        sees one; the CPU for int8); policy: a `Policy` or the path of a policy file."""
        from ..training import resolve_device

        directory = Path(source) if source is not None else BUNDLED
        if source is None and not (BUNDLED / "config.json").is_file():
            raise BertforgeError(f"the bundled model is missing from {BUNDLED}; reinstall "
                                 f"bertforge or pass --model DIR")
        if device == "auto" and precision == "int8":
            device = "cpu"
        tagger = Tagger.load(directory, resolve_device(device))
        card = ModelCard.read(tagger.model.source)
        if card.warning:
            log.warning("%s: %s", directory, card.warning)
        if policy is not None and not isinstance(policy, Policy):
            policy = Policy.load(policy)
        if threshold is None:
            threshold = next((t for t in (policy.threshold if policy else None, card.threshold)
                              if t is not None), THRESHOLD)
        return cls(tagger, threshold, use_patterns, precision=precision,
                   floors=card.floors if floors is None else floors, recognizers=recognizers,
                   policy=policy)

    def detect(self, text: str, explain: bool = False) -> list[Span]:
        return self.detect_batch([text], explain=explain)[0]

    def detect_batch(self, texts: Sequence[str], batch: int | None = None,
                     progress: bool = False, explain: bool = False) -> list[list[Span]]:
        """Spans for each text; the windows of all texts are batched together, and a
        long text goes through in segments (`segments`), in bounded memory. explain:
        each span says why it is one (`explain.explain`)."""
        found = self._by_segments(texts, lambda part: self._detect(part, batch, explain),
                                  progress)
        return [self.with_mentions(text, spans, explain) for text, spans in zip(texts, found)]

    def with_mentions(self, text: str, spans: Sequence[Span], explain: bool = False) -> list[Span]:
        """The merged spans of a whole document, plus every other mention of a name the
        model found (`mentions.every_mention`; none when `self.mentions` is off), the
        policy's allow-list kept in clear."""
        if not self.mentions or self.tagger is None:
            return list(spans)
        out = every_mention(text, spans, allowed=self.policy.allows if self.policy else None)
        if explain and len(out) > len(spans):
            given = {(s.start, s.end) for s in spans}
            said = "another mention of a name the model found (score {:.2f})"
            out = [s if (s.start, s.end) in given else replace(s, explanation=said.format(s.score))
                   for s in out]
        return out

    def model_spans(self, texts: Sequence[str], batch: int | None = None,
                    progress: bool = False,
                    floors: dict[str, float] | None = None) -> list[list[Span]]:
        """The model's spans alone (tidied, above their floors: the redactor's, unless
        `floors` is given), none without a model."""
        return self._by_segments(texts, lambda part: self._model_spans(part, batch, floors),
                                 progress)

    def _detect(self, texts: Sequence[str], batch: int | None,
                explain: bool = False) -> list[list[Span]]:
        model = self._model_spans(texts, batch, None)               # recognize, tidy, floors
        matches = [find(text, self.recognizers) if self.recognizers else [] for text in texts]
        found = [merge(spans, m, text) if self.recognizers else spans  # merge
                 for text, spans, m in zip(texts, model, matches)]
        if self.policy is not None:                                   # allow and deny
            found = [self.policy.screen(text, spans) for text, spans in zip(texts, found)]
        if explain:
            from .explain import explain as why

            found = [why(spans, m_spans, m, self.recognizers, self.threshold, self.floors)
                     for spans, m_spans, m in zip(found, model, matches)]
        return found

    def _model_spans(self, texts: Sequence[str], batch: int | None,
                     floors: dict[str, float] | None) -> list[list[Span]]:
        if self.tagger is None:
            return [[] for _ in texts]
        model = ModelRecognizer(self.tagger, self.threshold, self.precision)
        floors = self.floors if floors is None else floors
        return [name_shaped(text, above_floors(tidy(text, spans), floors))
                for text, spans in zip(texts, model.find_batch(texts, batch))]

    @staticmethod
    def _by_segments(texts: Sequence[str], detect, progress: bool) -> list[list[Span]]:
        """`detect` over the segments of the texts, GROUP segments at a time; each
        segment's spans that start in its core, in the text's offsets."""
        from tqdm import tqdm

        for i, text in enumerate(texts):
            if not isinstance(text, str):
                raise BertforgeError(f"text {i} is {type(text).__name__}, not a string")
        pieces = [(i, piece) for i, text in enumerate(texts) for piece in segments(text)]
        out: list[list[Span]] = [[] for _ in texts]
        groups = _groups([b - a for _, (a, b, _, _) in pieces], GROUP * (SEGMENT + 2 * MARGIN))
        with tqdm(total=sum(map(len, texts)), unit="char", unit_scale=True,
                  disable=not progress, dynamic_ncols=True) as bar:
            for k, end in groups:
                group = pieces[k:end]
                found = detect([texts[i][a:b] for i, (a, b, _, _) in group])
                for (i, (a, _, core_start, core_end)), spans in zip(group, found):
                    kept = out[i]
                    for span in spans:
                        start = span.start + a
                        if core_start <= start < core_end and (not kept or start >= kept[-1].end):
                            kept.append(replace(span, start=start, end=span.end + a) if a else span)
                    bar.update(core_end - core_start)
                if end < len(pieces):  # between groups (after the last, the next call reuses it)
                    _release_memory()
        return out

    def redact(self, text: str, style: str | None = None, key: str | bytes | None = None) -> str:
        """The text with what `detect` finds replaced: by the policy's operators, or in
        one of the styles of `pii.redact` (default "group", also when a style is given
        with a policy); `key` seeds fakes."""
        from .redact import redact

        if self.policy is not None and style is None:
            return self.policy.redact(text, self.detect(text), key)[0]
        return redact(text, self.detect(text), style or "group", key)

    def restore(self, text: str, key: Key | None = None) -> str:
        """The text with every encryption token turned back into its value, under `key`
        or the policy's; a token that does not decrypt is an error."""
        from .crypto import restore

        key = key if key is not None else self.policy.key if self.policy is not None else None
        if key is None:
            raise BertforgeError("restoring needs the key the tokens were made with")
        return restore(text, key)


