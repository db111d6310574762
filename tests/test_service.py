"""The HTTP service: each endpoint, Presidio's shapes, limits and error codes, batching,
health before and after the model loads, and a real server on loopback. The model is a
tiny random one (`tiny_redactor_dir`): what is checked here does not depend on what it
finds, and checksummed patterns (cards, IBANs) are found whatever the model says."""

from __future__ import annotations

import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
from fastapi.testclient import TestClient  # noqa: E402

from bertforge.pii import Redactor  # noqa: E402
from bertforge.pii.service import ServiceSettings, create_app  # noqa: E402

CARD = "4111 1111 1111 1111"
TEXT = f"Pay Ann Lee by card {CARD}, IBAN DE89 3704 0044 0532 0130 00."
# Values from TEXT as they would appear if leaked; long enough that a port number or a
# timing in the log ("127.0.0.1:54111", "4111.2 ms") cannot match one by chance.
LEAKS = ("Ann Lee", "4111 1111", "DE89 3704")


def client(tiny_redactor_dir, **settings):
    app = create_app(ServiceSettings(**settings), load=lambda: Redactor.load(tiny_redactor_dir))
    test = TestClient(app)
    test.__enter__()
    deadline = time.monotonic() + 60
    while test.get("/health").status_code != 200:
        assert time.monotonic() < deadline, "the model never loaded"
        time.sleep(0.05)
    return test


@pytest.fixture(scope="module")
def api(tiny_redactor_dir):
    test = client(tiny_redactor_dir, max_body_bytes=20_000, max_text_chars=5_000, max_texts=10)
    yield test
    test.__exit__(None, None, None)


def test_redact_and_detect_answer_in_the_span_contract(api):
    one = api.post("/redact", json={"text": TEXT}).json()
    assert "[CARD]" in one["redacted"] and CARD not in one["redacted"]
    assert all(TEXT[s["start"]:s["end"]] == s["text"] for s in one["spans"])
    assert {"start", "end", "label", "text", "score", "source"} == set(one["spans"][0])
    many = api.post("/redact", json={"texts": [TEXT, "nothing here"], "style": "mask"}).json()
    assert len(many["results"]) == 2 and "*" * 4 in many["results"][0]["redacted"]
    spans = api.post("/detect", json={"text": TEXT}).json()["spans"]
    assert [s["label"] for s in spans if s["source"] == "pattern"] == ["CARD", "BANK"]
    assert api.post("/detect", json={"texts": [TEXT], "threshold": 0.99}).status_code == 200


@pytest.mark.parametrize("body, status, message", [
    ({"texts": ["a"], "text": "b"}, 422, "give either"),
    ({}, 422, "give either"),
    ({"text": 5}, 422, "text: Input should be a valid string"),
    ({"text": "a", "policy": "p.yaml"}, 422, "policy: Extra inputs are not permitted"),
    ({"text": "a", "threshold": 0}, 422, "threshold"),
    ({"text": "a", "style": "blur"}, 422, "style"),
    ({"texts": ["a"] * 11}, 413, "at most 10"),
    ({"text": "a" * 5_001}, 413, "at most 5,000"),
    ({"text": "lone \ud800"}, 422, "lone surrogate"),
])
def test_bad_requests_get_4xx_naming_the_problem(api, body, status, message):
    response = api.post("/redact", content=json.dumps(body), headers={
        "content-type": "application/json"})
    assert response.status_code == status and message in response.json()["error"], response.text


def test_bodies_that_are_too_large_not_utf8_or_not_json(api):
    big = api.post("/redact", content=b'{"text": "' + b"a" * 30_000 + b'"}',
                   headers={"content-type": "application/json"})
    assert big.status_code == 413 and "larger than 20,000 bytes" in big.json()["error"]
    latin = api.post("/redact", content='{"text": "Jürgen"}'.encode("latin-1"),
                     headers={"content-type": "application/json"})
    assert latin.status_code == 400 and "not UTF-8" in latin.json()["error"]
    broken = api.post("/redact", content=b'{"text": ', headers={"content-type": "application/json"})
    assert broken.status_code == 422 and "JSON" in broken.json()["error"]
    assert "Traceback" not in big.text + latin.text + broken.text


def test_presidio_analyzer_and_anonymizer_shapes(api):
    found = api.post("/analyze", json={"text": TEXT, "language": "en"}).json()
    card = next(r for r in found if r["entity_type"] == "CREDIT_CARD")
    assert set(card) == {"entity_type", "start", "end", "score", "analysis_explanation",
                         "recognition_metadata"} and TEXT[card["start"]:card["end"]] == CARD
    assert any(r["entity_type"] == "IBAN_CODE" for r in found)
    only = api.post("/analyze", json={"text": TEXT, "language": "en",
                                      "entities": ["CREDIT_CARD"]}).json()
    assert [r["entity_type"] for r in only] == ["CREDIT_CARD"]
    assert api.post("/analyze", json={"text": TEXT, "language": "de"}).status_code == 422
    out = api.post("/anonymize", json={
        "text": TEXT, "analyzer_results": [card],
        "anonymizers": {"CREDIT_CARD": {"type": "mask", "masking_char": "#",
                                        "chars_to_mask": 12, "from_end": False}}}).json()
    assert out["text"] == TEXT.replace(CARD, "#" * 12 + CARD[12:])
    assert out["items"] == [{"start": card["start"], "end": card["end"],
                             "entity_type": "CREDIT_CARD", "text": "#" * 12 + CARD[12:],
                             "operator": "mask"}]
    default = api.post("/anonymize", json={"text": TEXT, "analyzer_results": [card]}).json()
    assert "<CREDIT_CARD>" in default["text"]
    found_here = api.post("/anonymize", json={"text": TEXT}).json()  # bertforge finds them
    assert CARD not in found_here["text"]
    bad = api.post("/anonymize", json={"text": TEXT, "analyzer_results": [card],
                                       "anonymizers": {"DEFAULT": {"type": "shred"}}})
    assert bad.status_code == 422 and "shred" in bad.json()["error"]


def test_the_analyzer_matches_presidio_field_by_field(api):
    presidio = pytest.importorskip("presidio_analyzer")
    theirs = presidio.RecognizerResult("CREDIT_CARD", 0, 4, 1.0).to_dict()
    ours = api.post("/analyze", json={"text": TEXT, "language": "en"}).json()[0]
    assert set(theirs) <= set(ours), (theirs, ours)


def test_health_version_and_metrics(tiny_redactor_dir):
    release = threading.Event()

    def slow_load():
        release.wait(30)
        return Redactor.load(tiny_redactor_dir)

    with TestClient(create_app(ServiceSettings(), load=slow_load)) as test:
        assert test.get("/health").status_code == 503
        assert test.get("/health").json()["status"] == "loading"
        assert test.post("/redact", json={"text": "a"}).status_code == 503
        release.set()
        deadline = time.monotonic() + 30
        while test.get("/health").status_code != 200:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        assert test.post("/redact", json={"text": TEXT}).status_code == 200
        version = test.get("/version").json()
        assert version["model"]["source"] == str(tiny_redactor_dir)
        metrics = test.get("/metrics").text
        assert 'bertforge_requests_total{path="/redact",code="200"} 1' in metrics
        assert "bertforge_request_seconds_bucket" in metrics and "bertforge_documents_total 1" in metrics


def test_a_model_that_fails_to_load_is_reported_not_hidden(tmp_path):
    with TestClient(create_app(ServiceSettings(model=str(tmp_path / "none")))) as test:
        deadline = time.monotonic() + 30
        while test.get("/health").json()["status"] == "loading":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        health = test.get("/health")
        assert health.status_code == 503 and "no model directory" in health.json()["error"]


def test_concurrent_requests_share_model_calls(tiny_redactor_dir):
    test = client(tiny_redactor_dir, max_wait_ms=300)
    try:
        batcher = test.app.state.service["batcher"]
        before = batcher.calls
        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(lambda i: test.post("/redact", json={"text": f"{TEXT} {i}"}),
                                    range(16)))
        assert all(a.status_code == 200 for a in answers)
        assert all(CARD not in a.json()["redacted"] for a in answers)
        assert batcher.calls - before < 16 / 2, batcher.calls - before
    finally:
        test.__exit__(None, None, None)


def test_a_slow_request_times_out_with_504(tiny_redactor_dir):
    redactor = Redactor.load(tiny_redactor_dir)
    real = redactor.detect_batch
    calls = []

    def first_one_slow(texts):
        calls.append(len(texts))
        if len(calls) == 1:
            time.sleep(1.0)
        return real(texts)

    redactor.detect_batch = first_one_slow
    with TestClient(create_app(ServiceSettings(timeout_s=0.5), load=lambda: redactor)) as test:
        while test.get("/health").status_code != 200:
            time.sleep(0.05)
        slow = test.post("/redact", json={"text": TEXT})
        assert slow.status_code == 504 and "within 0.5 s" in slow.json()["error"]
        time.sleep(1.0)  # the batcher finishes the abandoned batch and goes on serving
        assert test.post("/redact", json={"text": TEXT}).status_code == 200


def test_no_value_reaches_the_log(api, caplog):
    with caplog.at_level(logging.DEBUG):
        api.post("/redact", json={"text": TEXT})
        api.post("/redact", json={"text": "Jane Secretname " * 400})  # too long: 413
        api.post("/analyze", json={"text": TEXT, "language": "en"})
    assert "POST /redact 200" in caplog.text
    for value in (*LEAKS, "Secretname"):
        assert value not in caplog.text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_real_server_on_loopback(tiny_redactor_dir, tmp_path):
    port = free_port()
    log = tmp_path / "server.log"
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "-m", "bertforge", "serve", "--port", str(port),
                                   "--model", str(tiny_redactor_dir)], stdout=out, stderr=out,
                                  env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        answer = httpx.post(f"{base}/redact", json={"text": TEXT}, timeout=30)
        assert answer.status_code == 200 and CARD not in answer.json()["redacted"]
        assert httpx.get(f"{base}/openapi.json", timeout=5).json()["paths"].keys() >= {
            "/redact", "/detect", "/analyze", "/anonymize", "/health", "/version", "/metrics"}
    finally:
        server.terminate()
        server.wait(timeout=30)
    text = log.read_text()
    assert "POST /redact 200" in text
    for value in LEAKS:
        assert value not in text
