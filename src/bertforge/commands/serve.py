"""bertforge serve: the redactor behind HTTP, with the options of `ServiceSettings`."""

from __future__ import annotations

from ..options import add_options, settings_from
from ..pii.service.settings import ServiceSettings


def register(verbs) -> None:
    p = verbs.add_parser(
        "serve", help="the redactor as an HTTP service (Presidio-compatible too)",
        description="Serve POST /redact, /detect, /analyze and /anonymize, GET /health, "
                    "/version and /metrics; requests that arrive together share the "
                    "model's batches. Needs pip install 'bertforge[serve]'.")
    add_options(p, ServiceSettings)
    p.set_defaults(run=serve)


def serve(args) -> int:
    from ..pii.service import serve as run

    run(settings_from(ServiceSettings, args))
    return 0
