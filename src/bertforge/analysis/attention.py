"""What the attention heads look at.

No one tells BERT's heads what to do, yet many settle into a few habits (Clark et al.,
2019): looking at [CLS], parking on [SEP] when they have nothing to do, or attending
one token back or one token ahead. For every layer and head this module measures the
share of attention the real tokens of a corpus send to each of four targets:

- "[CLS]":    the key at position 0;
- "[SEP]":    every [SEP] key;
- "previous": the key just before the query, when that key is an ordinary token;
- "next":     the key just after the query, when that key is an ordinary token.

"previous" and "next" leave out [CLS] and [SEP] so that the four targets never overlap:
a head's four shares add up to at most 1 (the rest goes everywhere else). The average
is over every real (non-padding) query token of every paragraph.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch

from ..errors import BertforgeError
from ..files import write_text
from ..model import Bert
from ..tokenizer import Tokenizer

TARGETS = ("[CLS]", "[SEP]", "previous", "next")


def read_paragraphs(path: str | os.PathLike, min_chars: int = 200,
                    limit: int | None = 320) -> list[str]:
    """Paragraphs of a text file (blocks between blank lines, each joined into one line)
    longer than `min_chars`, at most `limit` of them. WikiText's '= Heading =' lines are
    not paragraphs."""
    path = Path(path)
    if not path.is_file():
        raise BertforgeError(f"no corpus file at {path}")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise BertforgeError(f"{path} is not UTF-8 text (byte {error.start}); convert it "
                             f"first, e.g. iconv -f latin1 -t utf-8") from None
    paragraphs, block = [], []
    for line in [*text.splitlines(), ""]:
        line = line.strip()
        if line and not (line.startswith("=") and line.endswith("=")):
            block.append(line)
            continue
        if block:
            paragraph = " ".join(block)
            if len(paragraph) > min_chars:
                paragraphs.append(paragraph)
            block = []
        if limit is not None and len(paragraphs) >= limit:
            break
    if not paragraphs:
        raise BertforgeError(f"{path} holds no paragraph longer than {min_chars} characters; "
                             f"give a corpus of running text (paragraphs separated by "
                             f"blank lines) or lower --min-chars")
    return paragraphs


@torch.no_grad()
def head_shares(model: Bert, tokenizer: Tokenizer, texts: list[str], max_length: int = 128,
                batch_size: int = 32) -> dict[str, torch.Tensor]:
    """target -> (layers, heads) tensor: the share of attention real tokens send there,
    averaged over all real tokens of `texts` (each cut to `max_length` tokens)."""
    if not texts:
        raise BertforgeError("no texts to measure attention on")
    config = model.config
    totals = {name: torch.zeros(config.num_hidden_layers, config.num_attention_heads,
                                dtype=torch.float64) for name in TARGETS}
    count = 0
    for start in range(0, len(texts), batch_size):
        batch = tokenizer(texts[start:start + batch_size], max_length=max_length)
        out = model(**batch.model_inputs(), output_attentions=True)
        shares = token_shares(torch.stack(out.attentions, dim=1), batch.input_ids,
                              batch.attention_mask, tokenizer)
        real = batch.attention_mask.double()[:, None, None, :]
        for name in TARGETS:
            totals[name] += (shares[name] * real).sum(dim=(0, 3))
        count += int(batch.attention_mask.sum())
    return {name: (total / count).float() for name, total in totals.items()}


def token_shares(weights: torch.Tensor, input_ids: torch.Tensor, attention_mask: torch.Tensor,
                 tokenizer: Tokenizer) -> dict[str, torch.Tensor]:
    """weights: (batch, layers, heads, query, key). Returns target -> (batch, layers,
    heads, query): what each query sends to each target."""
    weights = weights.double()
    special = (input_ids == tokenizer.cls_id) | (input_ids == tokenizer.sep_id)
    ordinary = (attention_mask.bool() & ~special).double()
    is_sep = (input_ids == tokenizer.sep_id).double()
    previous = torch.zeros_like(weights[..., 0])
    following = torch.zeros_like(weights[..., 0])
    # query i -> key i-1 (diagonal -1) and key i+1 (diagonal +1), kept where that key is
    # an ordinary token
    previous[..., 1:] = torch.diagonal(weights, offset=-1, dim1=-2, dim2=-1) \
        * ordinary[:, None, None, :-1]
    following[..., :-1] = torch.diagonal(weights, offset=1, dim1=-2, dim2=-1) \
        * ordinary[:, None, None, 1:]
    return {"[CLS]": weights[..., 0],
            "[SEP]": (weights * is_sep[:, None, None, None, :]).sum(-1),
            "previous": previous, "next": following}


def top_heads(shares: dict[str, torch.Tensor], n: int = 3) -> list[tuple[str, int, int, float]]:
    """(target, layer, head, share) of the `n` most devoted heads per target; layers and
    heads counted from 1."""
    rows = []
    for name, grid in shares.items():
        values, index = grid.flatten().topk(min(n, grid.numel()))
        for v, i in zip(values.tolist(), index.tolist()):
            rows.append((name, i // grid.shape[1] + 1, i % grid.shape[1] + 1, v))
    return rows


def most_devoted(shares: dict[str, torch.Tensor], target: str) -> tuple[int, int, float]:
    """(layer, head, share) of the head that sends most attention to `target`."""
    grid = shares[target]
    i = int(grid.argmax())
    return i // grid.shape[1] + 1, i % grid.shape[1] + 1, float(grid.flatten()[i])


def plot_heat_maps(shares: dict[str, torch.Tensor], path: str | os.PathLike,
                   title: str) -> Path:
    """Four layers x heads heat maps in one figure, one per target."""
    from .. import plots

    layers, heads = next(iter(shares.values())).shape
    fig, axes = plots.figure(3.2 * len(shares) + 0.8, 0.9 + 0.3 * layers, ncols=len(shares),
                            layout="constrained")
    for ax, (name, grid) in zip(axes, shares.items()):
        image = ax.imshow(grid.numpy(), cmap="Blues", vmin=0, vmax=1, aspect="auto")
        ax.set_title(f"to {name}")
        ax.set_xticks(range(heads), [str(h + 1) for h in range(heads)], fontsize=7)
        ax.set_yticks(range(layers), [str(l + 1) for l in range(layers)], fontsize=7)
        ax.set_xlabel("head")
        if ax is axes[0]:
            ax.set_ylabel("layer")
    fig.colorbar(image, ax=list(axes), shrink=0.8, label="share of attention")
    fig.suptitle(title)
    return plots.save(fig, path)


@torch.no_grad()
def plot_head(model: Bert, tokenizer: Tokenizer, text: str, layer: int, head: int,
              path: str | os.PathLike) -> Path:
    """One head's attention on one sentence (layer and head counted from 1)."""
    from .. import plots

    batch = tokenizer([text], max_length=model.config.max_position_embeddings)
    out = model(**batch.model_inputs(), output_attentions=True)
    grid = out.attentions[layer - 1][0, head - 1].numpy()
    tokens = batch.encodings[0].tokens
    size = 1.5 + 0.3 * len(tokens)
    fig, ax = plots.figure(size + 1, size)
    ax.imshow(grid, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(tokens)), tokens, rotation=90, fontsize=8)
    ax.set_yticks(range(len(tokens)), tokens, fontsize=8)
    ax.set_xlabel("attends to")
    ax.set_ylabel("token")
    ax.set_title(f"Layer {layer}, head {head}: where each token looks")
    return plots.save(fig, path)


EXAMPLE = "The traveller from Brazil needs a visa to enter the United States."


def save_shares(shares: dict[str, torch.Tensor], path: str | os.PathLike) -> Path:
    """The shares as JSON: target -> list of layers, each a list of heads."""
    import json

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps({k: [[round(x, 6) for x in row] for row in v.tolist()]
                                 for k, v in shares.items()}, indent=1))
    return path
