"""The redactor as an HTTP service: `bertforge serve`.

Endpoints (JSON in, JSON out; the OpenAPI schema is at /openapi.json, the docs at /docs):

- `POST /redact`  `{"text"}` or `{"texts": [...]}`, optional `style` and `threshold`:
  the redacted text and the spans, in the span contract of `bertforge redact`;
- `POST /detect`  the same input: the spans alone;
- `POST /analyze` and `POST /anonymize`: Presidio's analyzer and anonymizer API, so a
  client written for Presidio works unchanged (our groups under Presidio's entity names,
  `pii.labels.presidio_entity`);
- `GET /health` (503 until the model is loaded, then 200), `GET /version` (the model
  card in brief), `GET /metrics` (Prometheus text: requests, documents, latency and
  batch-size histograms, model calls).

Every request's texts go through one `Batcher`, so requests that arrive together share
the model's batches. Bad input is the client's mistake and says so: a body over the
limit is 413, a body that is not UTF-8 400, malformed JSON or a wrong type 422 naming
the field; never a 500 for those, never a stack trace in a response. The log says what
was asked and how it went (endpoint, status, documents, milliseconds), never a text or
a value found in it.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import time
from typing import Any, Callable, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator

from ... import __version__
from ...card import ModelCard
from ...errors import BertforgeError
from ...tokenizer import text_error
from ..labels import presidio_entity
from ..redact import redact
from .batcher import Batcher
from .settings import ServiceSettings

log = logging.getLogger(__name__)


# ------------------------------------------------------------------ requests
class _Texts(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str | None = Field(None, description="one text")
    texts: list[str] | None = Field(None, description="several texts, answered in order")
    threshold: float | None = Field(None, gt=0, le=1,
                                    description="P(personal data) a token needs "
                                                "(default: the model card's)")

    @model_validator(mode="after")
    def _one_of(self):
        if (self.text is None) == (self.texts is None):
            raise ValueError("give either \"text\" or \"texts\", not both and not neither")
        return self

    def all(self) -> list[str]:
        return [self.text] if self.text is not None else list(self.texts)


class DetectRequest(_Texts):
    pass


class RedactRequest(_Texts):
    style: Literal["group", "numbered", "mask", "fake"] = Field(
        "group", description="[PERSON], [PERSON_1], *****, or a fake value")


class AnalyzeRequest(BaseModel):
    """Presidio's analyzer request (fields bertforge does not use are accepted)."""
    model_config = ConfigDict(extra="allow")
    text: str
    language: str = "en"
    entities: list[str] | None = None
    score_threshold: float | None = Field(None, ge=0, le=1)


class AnalyzerResult(BaseModel):
    model_config = ConfigDict(extra="allow")
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    entity_type: str
    score: float = 1.0


class AnonymizeRequest(BaseModel):
    """Presidio's anonymizer request; without `analyzer_results`, bertforge finds them."""
    model_config = ConfigDict(extra="allow")
    text: str
    anonymizers: dict[str, dict[str, Any]] | None = None
    analyzer_results: list[AnalyzerResult] | None = None


# ------------------------------------------------------------------ metrics
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)


class _Histogram:
    def __init__(self, buckets):
        self.buckets, self.counts, self.total, self.n = buckets, [0] * len(buckets), 0.0, 0

    def observe(self, value: float) -> None:
        self.n += 1
        self.total += value
        for i, bound in enumerate(self.buckets):
            if value <= bound:
                self.counts[i] += 1

    def lines(self, name: str) -> list[str]:
        out = [f'{name}_bucket{{le="{b}"}} {c}' for b, c in zip(self.buckets, self.counts)]
        return out + [f'{name}_bucket{{le="+Inf"}} {self.n}', f"{name}_sum {self.total:.6f}",
                      f"{name}_count {self.n}"]


class Metrics:
    """What /metrics reports, in Prometheus' text format."""

    def __init__(self):
        self.lock = threading.Lock()
        self.requests: dict[tuple[str, int], int] = {}
        self.documents = 0
        self.model_calls = 0
        self.latency = _Histogram(LATENCY_BUCKETS)
        self.batches = _Histogram(BATCH_BUCKETS)

    def request(self, path: str, status: int, seconds: float) -> None:
        with self.lock:
            self.requests[(path, status)] = self.requests.get((path, status), 0) + 1
            self.latency.observe(seconds)

    def batch(self, documents: int, seconds: float) -> None:
        with self.lock:
            self.documents += documents
            self.model_calls += 1
            self.batches.observe(documents)

    def text(self) -> str:
        with self.lock:
            lines = ["# TYPE bertforge_requests_total counter"]
            lines += [f'bertforge_requests_total{{path="{p}",code="{c}"}} {n}'
                      for (p, c), n in sorted(self.requests.items())]
            lines += ["# TYPE bertforge_errors_total counter",
                      f"bertforge_errors_total {sum(n for (_, c), n in self.requests.items() if c >= 400)}",
                      "# TYPE bertforge_documents_total counter",
                      f"bertforge_documents_total {self.documents}",
                      "# TYPE bertforge_model_calls_total counter",
                      f"bertforge_model_calls_total {self.model_calls}",
                      "# TYPE bertforge_request_seconds histogram",
                      *self.latency.lines("bertforge_request_seconds"),
                      "# TYPE bertforge_batch_documents histogram",
                      *self.batches.lines("bertforge_batch_documents")]
        return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the app
PATHS = ("/redact", "/detect", "/analyze", "/anonymize", "/health", "/version", "/metrics",
         "/docs", "/openapi.json")


class _ClientError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


class _BodyGuard:
    """ASGI middleware: a body over the limit is 413 (read no further), one that is not
    UTF-8 is 400; a good body is handed on whole."""

    def __init__(self, app, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            return await self.app(scope, receive, send)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.max_bytes:
            return await _send_error(send, 413, self._too_large())
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                return await _send_error(send, 413, self._too_large())
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as error:
            return await _send_error(send, 400, f"the body is not UTF-8 (byte {error.start}); "
                                                f"send JSON encoded as UTF-8")
        sent = False

        async def replay():
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _too_large(self) -> str:
        return (f"the body is larger than {self.max_bytes:,} bytes; send fewer or shorter "
                f"texts per request (or start the server with a larger --max-body-bytes)")


async def _send_error(send, status: int, message: str) -> None:
    response = JSONResponse({"error": message}, status_code=status)
    await send({"type": "http.response.start", "status": status,
                "headers": [(k.encode(), v.encode()) for k, v in response.headers.items()]})
    await send({"type": "http.response.body", "body": response.body})


def create_app(settings: ServiceSettings | None = None,
               load: Callable[[], Any] | None = None) -> FastAPI:
    """The ASGI app. `load` returns the redactor (default: `Redactor.load` with the
    settings' model, precision and device); it runs in a thread when the app starts, and
    /health says 503 until it has returned."""
    settings = settings or ServiceSettings()
    metrics = Metrics()
    state: dict[str, Any] = {"batcher": None, "redactor": None, "failed": None}

    def default_load():
        from ..detector import Redactor
        return Redactor.load(settings.model, precision=settings.precision,
                             device=settings.device)

    def loading():
        try:
            redactor = (load or default_load)()
            state["batcher"] = Batcher(redactor, settings.max_wait_ms / 1000,
                                       settings.batch_chars, metrics.batch)
            state["redactor"] = redactor
            log.info("model loaded: %s", _model_name(redactor))
        except BertforgeError as error:
            state["failed"] = str(error)
            log.error("the model failed to load: %s", error)
        except Exception as error:  # an unexpected fault: its type, not its message
            state["failed"] = f"{type(error).__name__} while loading the model"
            log.error("the model failed to load: %s", type(error).__name__)

    from contextlib import asynccontextmanager

    @asynccontextmanager
    async def lifespan(app):
        threading.Thread(target=loading, name="bertforge-load", daemon=True).start()
        yield
        if state["batcher"] is not None:
            state["batcher"].close()

    app = FastAPI(title="bertforge redactor", version=__version__, lifespan=lifespan,
                  description="Finds and masks personal data in financial text. "
                              "Presidio-compatible /analyze and /anonymize.")
    app.add_middleware(_BodyGuard, max_bytes=settings.max_body_bytes)

    _add_accounting(app, metrics)
    checked, spans_of = _requests(settings, state)
    _add_redaction_routes(app, checked, spans_of)
    _add_operations_routes(app, state, metrics)
    app.state.metrics, app.state.service = metrics, state
    return app


def _add_accounting(app: FastAPI, metrics: Metrics) -> None:
    """Every request counted and timed (no text logged); every error a JSON body."""
    @app.middleware("http")
    async def account(request: Request, call_next):
        started = time.perf_counter()
        response = await call_next(request)
        seconds = time.perf_counter() - started
        path = request.url.path if request.url.path in PATHS else "other"  # bounded labels
        metrics.request(path, response.status_code, seconds)
        log.info("%s %s %d %.1f ms", request.method, path, response.status_code, seconds * 1000)
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError):
        problems = []
        for e in error.errors():
            where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
            problems.append(f"{where}: {e.get('msg', 'invalid')}")
        return JSONResponse({"error": "; ".join(problems)}, status_code=422)

    @app.exception_handler(_ClientError)
    async def client_error(request: Request, error: _ClientError):
        return JSONResponse({"error": error.message}, status_code=error.status)

    @app.exception_handler(BertforgeError)
    async def bertforge_error(request: Request, error: BertforgeError):
        return JSONResponse({"error": str(error)}, status_code=422)

    @app.exception_handler(Exception)
    async def fault(request: Request, error: Exception):
        log.error("%s %s failed: %s", request.method, request.url.path, type(error).__name__)
        return JSONResponse({"error": "the server failed on this request; its log says "
                                      "where (no text is logged)"}, status_code=500)


def _requests(settings: ServiceSettings, state: dict):
    """(checked, spans_of): the limits every request's texts must keep, and the spans of
    checked texts from the shared batcher, within the settings' timeout."""
    def checked(texts: list[str]) -> list[str]:
        if len(texts) > settings.max_texts:
            raise _ClientError(413, f"{len(texts):,} texts in one request; at most "
                                    f"{settings.max_texts:,}")
        for i, text in enumerate(texts):
            if len(text) > settings.max_text_chars:
                raise _ClientError(413, f"text {i} has {len(text):,} characters; at most "
                                        f"{settings.max_text_chars:,} (split it, or start "
                                        f"the server with a larger --max-text-chars)")
            problem = text_error(text)
            if problem:
                raise _ClientError(422, f"text {i}: {problem}")
        return texts

    async def spans_of(texts: list[str], threshold: float | None = None):
        batcher = state["batcher"]
        if batcher is None:
            raise _ClientError(503, state["failed"] or "the model is still loading; "
                                                       "retry when /health says ready")
        future = batcher.submit(checked(texts), threshold)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), settings.timeout_s)
        except asyncio.TimeoutError:
            raise _ClientError(504, f"not answered within {settings.timeout_s:g} s; send "
                                    f"shorter texts or fewer at once") from None

    return checked, spans_of


def _add_redaction_routes(app: FastAPI, checked, spans_of) -> None:
    """/detect and /redact, and Presidio's /analyze and /anonymize."""
    @app.post("/detect", summary="spans of personal data")
    async def detect(body: DetectRequest) -> dict:
        found = await spans_of(body.all(), body.threshold)
        results = [{"spans": [s.to_dict() for s in spans]} for spans in found]
        return results[0] if body.text is not None else {"results": results}

    @app.post("/redact", summary="the text with its personal data replaced, and the spans")
    async def redact_texts(body: RedactRequest) -> dict:
        texts = body.all()
        found = await spans_of(texts, body.threshold)
        results = [{"redacted": redact(text, spans, body.style),
                    "spans": [s.to_dict() for s in spans]} for text, spans in zip(texts, found)]
        return results[0] if body.text is not None else {"results": results}

    @app.post("/analyze", summary="Presidio's analyzer API")
    async def analyze(body: AnalyzeRequest) -> list[dict]:
        if body.language != "en":
            raise _ClientError(422, f"language: {body.language!r} is not supported; "
                                    f"bertforge reads English (\"en\")")
        [spans] = await spans_of([body.text])
        wanted = set(body.entities) if body.entities else None
        out = []
        for s in spans:
            entity = presidio_entity(s.label, s.text)
            if (wanted is None or entity in wanted) and s.score >= (body.score_threshold or 0):
                out.append({"entity_type": entity, "start": s.start, "end": s.end,
                            "score": round(s.score, 4), "analysis_explanation": None,
                            "recognition_metadata": {
                                "recognizer_name": f"bertforge-{s.source}",
                                "recognizer_identifier": f"bertforge-{s.source}-{s.label}"}})
        return out

    @app.post("/anonymize", summary="Presidio's anonymizer API")
    async def anonymize(body: AnonymizeRequest) -> dict:
        text = body.text
        if body.analyzer_results is None:
            [spans] = await spans_of([text])
            results = [AnalyzerResult(start=s.start, end=s.end, score=s.score,
                                      entity_type=presidio_entity(s.label, s.text))
                       for s in spans]
        else:
            checked([text])
            results = body.analyzer_results
        return _anonymize(text, results, body.anonymizers or {})


def _add_operations_routes(app: FastAPI, state: dict, metrics: Metrics) -> None:
    """/health, /version and /metrics."""
    @app.get("/health", summary="200 once the model is loaded, 503 before")
    async def health():
        if state["batcher"] is not None:
            return {"status": "ready"}
        status = "failed" if state["failed"] else "loading"
        return JSONResponse({"status": status, "error": state["failed"]}, status_code=503)

    @app.get("/version", summary="bertforge's version and the model card in brief")
    async def version() -> dict:
        redactor = state["redactor"]
        if redactor is None:
            raise _ClientError(503, state["failed"] or "the model is still loading")
        return {"bertforge": __version__, "model": _card_summary(redactor)}

    @app.get("/metrics", summary="Prometheus metrics", response_class=PlainTextResponse)
    async def prometheus():
        return PlainTextResponse(metrics.text(), media_type="text/plain; version=0.0.4")


def _model_name(redactor) -> str:
    tagger = redactor.tagger
    return str(getattr(tagger.model, "source", "?")) if tagger is not None else "patterns only"


def _card_summary(redactor) -> dict:
    summary = {"source": _model_name(redactor), "threshold": redactor.threshold,
               "floors": redactor.floors, "precision": redactor.runs_in,
               "patterns": redactor.use_patterns}
    if redactor.tagger is not None:
        card = ModelCard.read(redactor.tagger.model.source).to_dict()
        summary |= {k: card[k] for k in ("base", "train_data", "documents", "recipe",
                                         "validation_scores", "warning") if k in card}
    return summary


# ------------------------------------------------------------------ Presidio's anonymizer
OPERATORS = ("replace", "redact", "mask", "hash", "keep")


def _anonymize(text: str, results: list[AnalyzerResult], anonymizers: dict) -> dict:
    """Presidio's anonymizer: each entity replaced by its operator (the entity type's, or
    DEFAULT's, or replace with "<ENTITY_TYPE>"); overlaps go to the higher score."""
    for name, operator in anonymizers.items():
        if operator.get("type") not in OPERATORS:
            raise _ClientError(422, f"anonymizers.{name}.type: {operator.get('type')!r} is "
                                    f"not one of {', '.join(OPERATORS)}")
    chosen: list[AnalyzerResult] = []
    for r in sorted(results, key=lambda r: (-r.score, r.start)):
        if not r.start < r.end <= len(text):
            raise _ClientError(422, f"analyzer_results: ({r.start}, {r.end}) is not a span of "
                                    f"a text of {len(text)} characters")
        if all(r.end <= c.start or r.start >= c.end for c in chosen):
            chosen.append(r)
    out, items, last = [], [], 0
    for r in sorted(chosen, key=lambda r: r.start):
        operator = anonymizers.get(r.entity_type) or anonymizers.get("DEFAULT") or \
            {"type": "replace"}
        value = text[r.start:r.end]
        kind = operator["type"]
        if kind == "replace":
            new = str(operator.get("new_value", f"<{r.entity_type}>"))
        elif kind == "redact":
            new = ""
        elif kind == "keep":
            new = value
        elif kind == "mask":
            n = min(int(operator.get("chars_to_mask", len(value))), len(value))
            char = str(operator.get("masking_char", "*"))[:1] or "*"
            new = value[:len(value) - n] + char * n if operator.get("from_end") else \
                char * n + value[n:]
        else:  # hash
            algorithm = operator.get("hash_type", "sha256")
            if algorithm not in ("sha256", "sha512"):
                raise _ClientError(422, f"hash_type {algorithm!r}: use sha256 or sha512")
            salt = str(operator.get("salt", "")).encode()
            new = hashlib.new(algorithm, salt + value.encode("utf-8")).hexdigest()
        out.append(text[last:r.start])
        start = sum(map(len, out))
        out.append(new)
        items.append({"start": start, "end": start + len(new), "entity_type": r.entity_type,
                      "text": new, "operator": kind})
        last = r.end
    out.append(text[last:])
    return {"text": "".join(out), "items": items}


def app_from_environment() -> FastAPI:
    """The app for each of uvicorn's worker processes: settings from the environment."""
    import json
    import os

    return create_app(ServiceSettings(**json.loads(os.environ[SETTINGS_VARIABLE])))


SETTINGS_VARIABLE = "BERTFORGE_SERVE_SETTINGS"


def serve(settings: ServiceSettings) -> None:
    """Run the service until interrupted (uvicorn; `settings.workers` processes)."""
    import dataclasses
    import json
    import os

    import uvicorn

    config = dict(host=settings.host, port=settings.port, log_level="info",
                  access_log=False, timeout_graceful_shutdown=5)
    if settings.workers > 1:
        os.environ[SETTINGS_VARIABLE] = json.dumps(dataclasses.asdict(settings))
        uvicorn.run("bertforge.pii.service.app:app_from_environment", factory=True,
                    workers=settings.workers, **config)
    else:
        uvicorn.run(create_app(settings), **config)
