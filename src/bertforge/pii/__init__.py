"""Personal data in financial documents: find it (a fine-tuned tagger and validated
patterns) and mask it, with nothing else changed.

    from bertforge.pii import Redactor
    r = Redactor.load()          # the bundled model, offline
    r.detect(text)               # [Span(start, end, label, text, score, source), ...]
    r.redact(text)               # "... [PERSON] ..."
"""

from ..finetune.tagging import Span
from .detector import Redactor
from .labels import FINE_LABELS, GROUPS

__all__ = ["Redactor", "Span", "GROUPS", "FINE_LABELS"]
