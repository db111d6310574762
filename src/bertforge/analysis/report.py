"""`bertforge report`: one HTML page about one model.

The blueprint and where the parameters live; and, for a model with a masked-LM head,
the MLM loss of a text against the same network at initialisation, the probe table and
the pronoun bias chart; and, given a corpus, the attention heat maps, the top heads and
the most previous-token-devoted head on one sentence. The figures are PNG files next to
the page, which links them.
"""

from __future__ import annotations

import html
import os
from pathlib import Path

from ..blueprint import blueprint, describe, plot_parameters
from ..checkpoint import load_model
from ..files import write_text
from ..tokenizer import load_tokenizer
from . import attention, probes

# A text no model here was trained on, for the MLM loss (the lesson's opening, our words).
LOSS_TEXT = ("In this lesson you write BERT yourself, load published weights into your own "
             "code and check that it gives the same answers as the reference. Then you ask "
             "it what it learned, look at what its attention heads do, and teach it a job "
             "that companies pay for: finding personal data in financial documents.")

STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
td, th { border-bottom: 1px solid #ddd; padding: 0.25rem 0.75rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
img { max-width: 100%; }
.note { color: #555; }
"""


def _table(rows, headers, numeric=()) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td{' class=n' if i in numeric else ''}>{html.escape(str(c))}</td>"
                         for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def write_report(source: str, out: str | os.PathLike, corpus: str | None = None,
                 say=print) -> Path:
    """Write OUT/index.html and its figures; returns the page's path."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    name = Path(str(source)).name or str(source)
    parts = [f"<h1>{html.escape(name)}</h1>"]

    say("blueprint and parameters")
    model = describe(source)
    count = model.count
    plot_parameters(count, out / "parameters.png", f"Where {name}'s parameters live")
    parts += ["<h2>Blueprint</h2>", _table(blueprint(model.config), ["setting", "value"]),
              f"<p>Head: {html.escape(model.head or 'none (encoder only)')}. "
              f"{count.tensors} tensors, {count.parameters:,} parameters.</p>",
              _table([(p, f"{n:,}", f"{100 * n / count.parameters:.1f}%")
                      for p, n in count.by_part.items()], ["part", "parameters", "share"],
                     numeric=(1, 2)),
              '<img src="parameters.png" alt="parameters by part">']

    parts += _probe_sections(source, model.head, out, say)
    parts += _attention_sections(source, corpus, name, out, say)

    page = out / "index.html"
    write_text(page, f"<!doctype html><meta charset=utf-8><title>{html.escape(name)}"
                     f"</title><style>{STYLE}</style>\n" + "\n".join(parts) + "\n")
    return page


def _probe_sections(source, head: str | None, out: Path, say) -> list[str]:
    """The masked-LM loss, the probe table and the bias chart (a masked-LM model only)."""
    if head not in ("masked-lm", "pretraining"):
        return ["<p class=note>No masked-LM head: no probes for this model.</p>"]
    model, tokenizer = probes.load_masked_lm(source)
    say("MLM loss, probes and the bias probe")
    loss = probes.loss_report(model, tokenizer, LOSS_TEXT)
    parts = ["<h2>Masked-LM loss of an unseen text</h2>",
             f"<p class=note>{html.escape(LOSS_TEXT)}</p>",
             _table([("this model", f"{loss.model:.2f}"),
                     ("the same network at BERT's initialisation", f"{loss.initialised:.2f}"),
                     (f"guessing uniformly among {model.config.vocab_size:,} tokens",
                      f"{loss.uniform:.2f}")], ["", "loss (nats)"], numeric=(1,)),
             f"<p class=note>Averaged over 20 random maskings ({loss.predictions} "
             f"predictions).</p>",
             "<h2>Fill in the blank</h2>",
             _table(probes.probe_suite(model, tokenizer), ["probe", "sentence", "top three"])]
    shares = probes.pronoun_shares(model, tokenizer)
    probes.plot_shares(shares, out / "bias.png")
    parts += ["<h2>Bias probe</h2>", '<img src="bias.png" alt="she or he by job">']
    return parts


def _attention_sections(source, corpus: str | None, name: str, out: Path, say) -> list[str]:
    """The heat maps of what each head looks at, over `corpus` (when given)."""
    if not corpus:
        return ["<p class=note>No corpus given (--corpus FILE): no attention maps.</p>"]
    say(f"attention heads on {corpus}")
    encoder = load_model(source, head=None)
    tokenizer = load_tokenizer(encoder.source)
    shares = attention.head_shares(encoder, tokenizer, attention.read_paragraphs(corpus))
    attention.plot_heat_maps(shares, out / "heads.png", f"{name}: where the heads look")
    layer, head, _ = attention.most_devoted(shares, "previous")
    attention.plot_head(encoder, tokenizer, attention.EXAMPLE, layer, head,
                        out / "previous-head.png")
    return ["<h2>What the heads look at</h2>", '<img src="heads.png" alt="heat maps">',
            _table([(t, l, h, f"{s:.0%}") for t, l, h, s in attention.top_heads(shares)],
                   ["target", "layer", "head", "share"], numeric=(1, 2, 3)),
            f"<p>The most previous-token-devoted head, layer {layer} head {head}, on one "
            f"sentence:</p>", '<img src="previous-head.png" alt="one head">']
