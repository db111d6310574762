"""The redactor as an HTTP service (`bertforge serve`; needs `pip install 'bertforge[serve]'`).

    from bertforge.pii.service import ServiceSettings, create_app, serve
    serve(ServiceSettings(port=8000))          # or: uvicorn on create_app(settings)
"""

from .settings import ServiceSettings

__all__ = ["ServiceSettings", "create_app", "serve"]


def __getattr__(name: str):
    if name in ("create_app", "serve"):
        from ...optional import require

        require("fastapi", "the service"), require("uvicorn", "the service")
        from . import app

        return getattr(app, name)
    raise AttributeError(f"module 'bertforge.pii.service' has no attribute {name!r}")
