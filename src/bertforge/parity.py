"""Check a checkpoint against `transformers`: the same input through both, compared.

This is the user-facing form of the project's parity promise (hidden states within 1e-5
of Hugging Face's, padding included). `transformers` is needed only here; it is the
reference, installed with `pip install bertforge[reference]`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch

from .checkpoint import ARCHITECTURES, load_model, resolve
from .compress import use_onednn
from .optional import require
from .tokenizer import load_tokenizer

# Different lengths (so the batch is padded), a pair, accents, CJK and a long word.
CHECK_TEXTS = [
    ("The bank raised its rates.", None),
    ("We sat on the river bank, unbothered, while the café's owner counted receipts.", None),
    ("Wire 2,500 EUR to account DE89 3704 0044 0532 0130 00 before Friday.",
     "Eufemia Gordillo-Pagès signed the 東京 contract."),
    ("Pneumonoultramicroscopicsilicovolcanoconiosis is a long word.", None),
]


@dataclass
class Comparison:
    name: str            # what was compared
    max_abs_diff: float  # over real (non-padding) positions


TOLERANCE = 1e-5  # the parity contract: every output within this of transformers'


def compare_with_transformers(source: str | os.PathLike, texts=CHECK_TEXTS,
                              head: str | None = "auto",
                              onednn: bool = False) -> tuple[str, list[Comparison]]:
    """Run `source` through bertforge and through the matching `transformers` class,
    fp32, dropout off, on one padded batch; the largest difference of each output.
    `onednn` checks the `compress.use_onednn` path instead of the default one.
    Returns the transformers class name and the comparisons."""
    transformers = require("transformers", "checking against the reference")
    transformers.utils.logging.disable_progress_bar()  # its weight-loading bar, here noise
    directory = resolve(source)
    ours = load_model(directory, head=head)
    if onednn:
        ours = use_onednn(ours, inplace=True)
    architecture = ARCHITECTURES[ours.head]
    reference_class = getattr(transformers, architecture)
    theirs = reference_class.from_pretrained(directory, attn_implementation="eager").eval()
    tok = load_tokenizer(directory)
    batch = tok([a for a, _ in texts], [b for _, b in texts])
    real = batch.attention_mask.bool()
    with torch.no_grad():
        mine = ours(**batch.model_inputs(), output_attentions=True, output_hidden_states=True)
        ref = theirs(**batch.model_inputs(), output_attentions=True, output_hidden_states=True)

    def gap(a: torch.Tensor, b: torch.Tensor) -> float:
        return (a - b).abs().max().item()

    comparisons = [
        Comparison("last hidden state",
                   gap(mine.last_hidden_state[real], ref.hidden_states[-1][real])),
        Comparison(f"hidden states, all {len(ref.hidden_states)} (embeddings + each layer)",
                   max(gap(a[real], b[real]) for a, b in zip(mine.hidden_states, ref.hidden_states))),
    ]
    # attention a padded query sends is unused; compare the rows of real queries
    comparisons.append(Comparison(
        "attention weights, every layer and head",
        max(gap(a.transpose(1, 2)[real], b.transpose(1, 2)[real])
            for a, b in zip(mine.attentions, ref.attentions))))
    if ours.head is None and mine.pooler_output is not None:
        comparisons.append(Comparison("pooler output", gap(mine.pooler_output, ref.pooler_output)))
    if ours.head in ("masked-lm", "pretraining"):
        logits = ref.prediction_logits if ours.head == "pretraining" else ref.logits
        comparisons.append(Comparison("masked-LM logits", gap(mine.logits[real], logits[real])))
    if ours.head == "pretraining":
        comparisons.append(Comparison("next-sentence logits",
                                      gap(mine.nsp_logits, ref.seq_relationship_logits)))
    if ours.head == "token-classification":
        comparisons.append(Comparison("tag logits", gap(mine.logits[real], ref.logits[real])))
    if ours.head == "sequence-classification":
        comparisons.append(Comparison("class logits", gap(mine.logits, ref.logits)))
    return architecture, comparisons
