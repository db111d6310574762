"""What `bertforge serve` can be told: one dataclass, the one place of every default and
help text (the command line's options are made from its fields). No web framework is
imported here, so the command line can describe the service without it installed."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from ...errors import BertforgeError


@dataclass
class ServiceSettings:
    """Everything `bertforge serve` can be told; each field is one option."""
    host: str = field(default="127.0.0.1", metadata={"help": "address to listen on"})
    port: int = field(default=8000, metadata={"help": "port to listen on"})
    model: str | None = field(default=None, metadata={
        "help": "a model from `bertforge pii train` (default: the bundled model)"})
    precision: str = field(default="auto", metadata={
        "help": "the model's precision", "choices": ("auto", "fp32", "bf16", "int8")})
    device: str = field(default="auto", metadata={"help": "auto, cpu or cuda[:N]"})
    workers: int = field(default=1, metadata={
        "help": "server processes, each with its own model (memory grows with them)"})
    max_body_bytes: int = field(default=10_000_000, metadata={
        "help": "largest request body; larger ones get 413"})
    max_text_chars: int = field(default=1_000_000, metadata={
        "help": "longest text in a request; longer ones get 413"})
    max_texts: int = field(default=1_000, metadata={"help": "most texts in one request"})
    max_wait_ms: float = field(default=5.0, metadata={
        "help": "how long a request may wait for others to share its batch"})
    batch_chars: int = field(default=200_000, metadata={
        "help": "characters in one model batch at most"})
    timeout_s: float = field(default=60.0, metadata={
        "help": "a request still waiting after this gets 504"})

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("int", "float") and not value > 0 and f.name != "port":
                raise BertforgeError(f"--{f.name.replace('_', '-')} must be positive, "
                                     f"got {value}")
