"""bertforge as a recognizer of Microsoft Presidio's `AnalyzerEngine`.

    from presidio_analyzer import AnalyzerEngine
    from bertforge.integrations.presidio import BertforgeRecognizer

    analyzer = AnalyzerEngine()
    analyzer.registry.add_recognizer(BertforgeRecognizer())
    analyzer.analyze(text="Pay Ann Lee", language="en")

Each span the redactor finds becomes a `RecognizerResult` of the Presidio entity type
its group falls in (`labels.presidio_entity`: PERSON, ORGANIZATION, IBAN_CODE,
US_BANK_NUMBER, ...; bertforge's ACCOUNT and DIGITAL keep their names), with the
redactor's score and its explanation. Presidio then resolves overlaps with its own
recognizers as it always does. `pip install 'bertforge[presidio]'`.
"""

from __future__ import annotations

from ..optional import require
from ..pii.labels import PRESIDIO_ENTITY, presidio_entity

presidio = require("presidio_analyzer", "the Presidio recognizer")

# every entity type a bertforge span can come out as
ENTITIES = sorted(set(PRESIDIO_ENTITY.values()) | {"IBAN_CODE", "IP_ADDRESS"})


class BertforgeRecognizer(presidio.EntityRecognizer):
    """The redactor (the bundled model and bertforge's recognizers, or the `redactor`
    given) as one Presidio recognizer, for English."""

    def __init__(self, redactor=None, supported_entities: list[str] | None = None,
                 name: str = "BertforgeRecognizer", supported_language: str = "en"):
        self.redactor = redactor
        super().__init__(supported_entities=supported_entities or list(ENTITIES), name=name,
                         supported_language=supported_language, version="bertforge")

    def load(self) -> None:
        if self.redactor is None:
            from ..pii import Redactor

            self.redactor = Redactor.load()

    def analyze(self, text: str, entities: list[str], nlp_artifacts=None):
        wanted = set(entities or self.supported_entities)
        results = []
        for span in self.redactor.detect(text, explain=True):
            entity = presidio_entity(span.label, span.text)
            if entity not in wanted:
                continue
            why = presidio.AnalysisExplanation(
                recognizer=self.name, original_score=span.score,
                textual_explanation=f"bertforge {span.label}: {span.explanation}")
            results.append(presidio.RecognizerResult(
                entity, span.start, span.end, span.score, analysis_explanation=why,
                recognition_metadata={presidio.RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                                      presidio.RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id}))
        return results


__all__ = ["BertforgeRecognizer", "ENTITIES"]
