"""The packages only some features need, and the extra that installs each.

`pip install bertforge` is the network, loading, saving and fine-tuning (torch,
tokenizers, safetensors, huggingface_hub, numpy, tqdm). The rest is imported where it
is used, through `require`, so a missing one is a clear error naming the extra:

    pip install 'bertforge[pii]'        the redactor's patterns, fakes, policies and generator
    pip install 'bertforge[datasets]'   corpora and data sets read through `datasets`
    pip install 'bertforge[pretrain]'   pre-training (its corpora are `datasets`)
    pip install 'bertforge[plots]'      every figure
    pip install 'bertforge[serve]'      the HTTP service
    pip install 'bertforge[reference]'  `bertforge check` against transformers
    pip install 'bertforge[presidio]'   bertforge as a recognizer inside Presidio
    pip install 'bertforge[onnx]'       `bertforge export onnx` and its check in ONNX Runtime
    pip install 'bertforge[tables]'     `bertforge redact --table` (CSV, TSV, Parquet, JSONL)
    pip install 'bertforge[ray]'        the same on a Ray cluster
"""

from __future__ import annotations

import importlib

from .errors import BertforgeError

# top-level package -> the extra that installs it (pyproject.toml's optional-dependencies)
EXTRAS = {"faker": "pii", "phonenumbers": "pii", "cryptography": "pii", "yaml": "pii",
          "datasets": "datasets", "matplotlib": "plots", "fastapi": "serve",
          "uvicorn": "serve", "transformers": "reference", "presidio_analyzer": "presidio",
          "onnx": "onnx", "onnxscript": "onnx", "onnxruntime": "onnx", "pyarrow": "tables",
          "ray": "ray"}


class MissingExtraError(BertforgeError):
    """An optional package a feature needs is not installed."""


def require(module: str, purpose: str):
    """The imported `module` (e.g. "matplotlib.pyplot"), or an error that says which
    extra to install for `purpose` (e.g. "plots")."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        package = module.split(".")[0]
        if error.name is not None and error.name.split(".")[0] != package:
            raise  # the package is there but broken: its own error says more
        extra = EXTRAS[package]
        raise MissingExtraError(f"{purpose} needs {package}, which is not installed: "
                                f"pip install 'bertforge[{extra}]'") from None
