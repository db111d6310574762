"""bertforge probe, bias, attention, report: looking inside a model."""

from __future__ import annotations

import sys
from pathlib import Path

from ..analysis import attention as attn
from ..analysis import probes
from ..errors import BertforgeError
from ..options import default_of
from .common import table


def register(verbs) -> None:
    p = verbs.add_parser("probe", help="fill in [MASK]: top words, the probe suite, MLM loss",
                         description="Ask a masked-LM checkpoint to fill in [MASK] (several "
                                     "masks and several texts allowed), run the probe suite "
                                     "(--suite), or score a text's masked-LM loss against "
                                     "the same network at initialisation (--loss).")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("text", metavar="TEXT", nargs="*")
    p.add_argument("--top-k", type=int, default=default_of(probes.fill_mask, "top_k"))
    p.add_argument("--suite", action="store_true", help="facts, common sense, grammar, negation")
    p.add_argument("--loss", action="store_true",
                   help="masked-LM loss of TEXT (default: a built-in paragraph)")
    p.add_argument("--repeats", type=int, default=default_of(probes.loss_report, "repeats"),
                   help="random maskings for --loss")
    p.set_defaults(run=probe)

    p = verbs.add_parser("bias", help="she or he? the pronoun a model expects for each job",
                         description="P(she) / (P(she) + P(he)) at the [MASK] of a template "
                                     "sentence, for each job; 0.5 means no opinion.")
    pair = ",".join(default_of(probes.pronoun_shares, "pair"))
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--jobs", help=f"comma-separated (default: {len(probes.JOBS)} occupations)")
    p.add_argument("--template", default=default_of(probes.pronoun_shares, "template"))
    p.add_argument("--pair", default=pair, help=f"two single-token words (default {pair})")
    p.add_argument("--plot", metavar="FILE.png")
    p.set_defaults(run=bias)

    p = verbs.add_parser("attention", help="what each attention head looks at, over a corpus",
                         description="For every layer and head, the share of attention real "
                                     "tokens send to [CLS], to [SEP], to the previous and to "
                                     "the next token, averaged over the paragraphs of a "
                                     "corpus; heat maps, the top heads, one head on a "
                                     "sentence.")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--corpus", required=True, metavar="FILE")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--min-chars", type=int, default=default_of(attn.read_paragraphs, "min_chars"),
                   help="shortest paragraph used")
    p.add_argument("--paragraphs", type=int, default=default_of(attn.read_paragraphs, "limit"),
                   help="at most this many")
    p.add_argument("--max-length", type=int, default=default_of(attn.head_shares, "max_length"),
                   help="tokens per paragraph")
    p.add_argument("--top", type=int, default=default_of(attn.top_heads, "n"),
                   help="heads listed per target")
    p.add_argument("--sentence", default=attn.EXAMPLE)
    p.set_defaults(run=attention)

    p = verbs.add_parser("report", help="one HTML page: blueprint, probes, bias, attention",
                         description="Write OUT/index.html with the blueprint, the parameter "
                                     "chart, (for a masked-LM model) the MLM loss, the probe "
                                     "table and the bias chart, and (with --corpus) the "
                                     "attention heat maps.")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--corpus", metavar="FILE", help="paragraphs for the attention maps")
    p.set_defaults(run=report)


def probe(args) -> int:
    from ..analysis.report import LOSS_TEXT

    model, tokenizer = probes.load_masked_lm(args.model)
    if args.loss:
        text = " ".join(args.text) if args.text else LOSS_TEXT
        result = probes.loss_report(model, tokenizer, text, repeats=args.repeats)
        print(table([("this model", f"{result.model:.2f}"),
                     ("the same network at BERT's initialisation", f"{result.initialised:.2f}"),
                     (f"guessing uniformly among {model.config.vocab_size:,} tokens",
                      f"{result.uniform:.2f}")], ["masked-LM loss", "nats"], right=(1,)))
        print(f"\n{args.repeats} random maskings, {result.predictions} predictions")
        return 0
    if args.suite:
        print(table(probes.probe_suite(model, tokenizer, top_k=args.top_k),
                    ["probe", "sentence", f"top {args.top_k}"]))
        return 0
    if not args.text:
        raise BertforgeError('give a text with [MASK] in it, e.g. "Paris is the capital '
                             'of [MASK].", or --suite, or --loss')
    for text, per_mask in zip(args.text, probes.fill_mask(model, tokenizer, args.text,
                                                          args.top_k)):
        print(text)
        for n, guesses in enumerate(per_mask, 1):
            rows = [(g.token, g.id, f"{g.probability:.4f}") for g in guesses]
            if len(per_mask) > 1:
                print(f"[MASK] {n}:")
            print(table(rows, ["token", "id", "probability"], right=(1, 2)))
        print()
    return 0


def bias(args) -> int:
    model, tokenizer = probes.load_masked_lm(args.model)
    jobs = [j.strip() for j in args.jobs.split(",") if j.strip()] if args.jobs else probes.JOBS
    pair = tuple(w.strip() for w in args.pair.split(","))
    if len(pair) != 2:
        raise BertforgeError(f"--pair takes two words separated by a comma, got {args.pair!r}")
    shares = probes.pronoun_shares(model, tokenizer, jobs, args.template, pair)
    order = sorted(shares, key=shares.get, reverse=True)
    print(f"{args.template}   P({pair[0]}) / (P({pair[0]}) + P({pair[1]}))\n")
    print(table([(job, f"{shares[job]:.3f}") for job in order], ["job", "share"], right=(1,)))
    if args.plot:
        print(f"\nwrote {probes.plot_shares(shares, args.plot, args.template, pair)}")
    return 0


def attention(args) -> int:
    from ..checkpoint import load_model
    from ..tokenizer import load_tokenizer

    paragraphs = attn.read_paragraphs(args.corpus, args.min_chars, args.paragraphs)
    model = load_model(args.model, head=None)
    tokenizer = load_tokenizer(model.source)
    print(f"{len(paragraphs)} paragraphs of {args.corpus}, up to {args.max_length} tokens each")
    shares = attn.head_shares(model, tokenizer, paragraphs, args.max_length)
    out = Path(args.out)
    name = Path(str(args.model)).name or str(args.model)
    rows = [(t, layer, head, f"{share:.1%}")
            for t, layer, head, share in attn.top_heads(shares, args.top)]
    print(table(rows, ["target", "layer", "head", "share"], right=(1, 2, 3)))
    layer, head, share = attn.most_devoted(shares, "previous")
    paths = [attn.plot_heat_maps(shares, out / "heads.png", f"{name}: where the heads look"),
             attn.plot_head(model, tokenizer, args.sentence, layer, head,
                            out / "previous-head.png"),
             attn.save_shares(shares, out / "shares.json")]
    print(f"\nthe most previous-token head: layer {layer}, head {head} ({share:.0%} of its "
          f"attention on the token before)")
    for path in paths:
        print(f"wrote {path}")
    return 0


def report(args) -> int:
    from ..analysis.report import write_report

    page = write_report(args.model, args.out, args.corpus,
                        say=lambda m: print(f"  {m}", file=sys.stderr))
    print(f"wrote {page}")
    return 0
