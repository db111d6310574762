"""Personal data in financial documents: find it (a fine-tuned tagger and validated
patterns) and mask it, with nothing else changed.

    from bertforge.pii import Redactor
    r = Redactor.load()          # the bundled model, offline
    r.detect(text)               # [Span(start, end, label, text, score, source), ...]
    r.redact(text)               # "... [PERSON] ..."
    r = Redactor.load(policy="policy.yaml")   # per group: keep, mask, hash, encrypt...
    r.restore(r.redact(text))    # the encrypted values back
"""

from ..spans import Span
from .detector import Redactor
from .labels import FINE_LABELS, GROUPS
from .policy import Policy

__all__ = ["Redactor", "Policy", "Span", "GROUPS", "FINE_LABELS"]
