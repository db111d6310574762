"""bertforge pii generate, train, evaluate, calibrate: the redactor's own model."""

from __future__ import annotations

from pathlib import Path

from ..finetune.fit import FitSettings
from ..options import add_options, default_of
from ..pii import train as pii_train
from ..pii.evaluate import calibrate as run_calibrate
from ..pii.synth import write_splits
from .common import conll_options, load_redactor, overwrite_option, redactor_options, weight_list


def register(verbs) -> None:
    pii = verbs.add_parser("pii", help="generate data, train and evaluate the redactor's model")
    steps = pii.add_subparsers(dest="step", required=True, metavar="STEP")
    for step in (register_generate, register_train, register_evaluate, register_calibrate):
        step(steps)


def register_generate(steps) -> None:
    p = steps.add_parser("generate", help="synthetic financial documents in Gretel's schema",
                         description="Write OUT/train.jsonl, validation.jsonl and test.jsonl; the "
                                     "test split's document types are not in training.")
    p.add_argument("--out", required=True, metavar="DIR")
    for split in ("train", "validation", "test"):
        p.add_argument(f"--{split}", type=int, default=default_of(write_splits, split))
    p.add_argument("--legal", type=int, metavar="N",
                   help="also write OUT/legal.jsonl: N documents of contract prose (defined "
                        "terms such as \"the Servicer\", which are nobody's name) to train on")
    p.add_argument("--listings", type=int, metavar="N",
                   help="also write OUT/listings.jsonl: N news listings (results, scorecards, "
                        "scorers, credits: names between numbers and brackets) to train on")
    p.add_argument("--seed", type=int, default=default_of(write_splits, "seed"))
    p.set_defaults(run=generate)


def register_train(steps) -> None:
    p = steps.add_parser("train", help="fine-tune a tagger for the 12 groups",
                         description="DATA: one or more sources, mixed by --weights: JSONL "
                                     "files in Gretel's schema (from `bertforge pii "
                                     "generate`), CoNLL column files, public corpus splits "
                                     "(wikigold:train, wnut17:train, btc:train), or, online, "
                                     "a `datasets` name such as "
                                     "gretelai/synthetic_pii_finance_multilingual.")
    p.add_argument("data", metavar="DATA", nargs="+")
    p.add_argument("--case", action="store_true",
                   help="tell the model each token's case shape (Capitalised, UPPER...), "
                        "which an uncased vocabulary cannot see, through its segment ids")
    p.add_argument("--weights", type=weight_list, metavar="W1,W2,...",
                   help="each source's share of the training windows (one weight per DATA; "
                        "default: every window once)")
    p.add_argument("--neighbours", type=float, default=pii_train.NEIGHBOURS, metavar="SHARE",
                   help="the share of CoNLL sentences trained next to a paragraph of a "
                        "JSONL source (before or after, a blank line between), so that an "
                        "unrelated paragraph nearby does not change how one is read")
    p.add_argument("--out", required=True, metavar="DIR")
    overwrite_option(p)
    p.add_argument("--base", default=pii_train.BASE,
                   help="any BERT directory, packaged model or hub id (e.g. bert-base-cased), "
                        "or a redactor, which then goes on learning")
    p.add_argument("--validation", metavar="FILE")
    add_options(p, FitSettings, base=pii_train.RECIPE)
    p.add_argument("--window", type=int, default=pii_train.WINDOW)
    p.add_argument("--stride", type=int, default=pii_train.STRIDE)
    p.add_argument("--half", action="store_true", help="save fp16 weights (half the size)")
    p.add_argument("--layers", type=int, metavar="N",
                   help="keep only the base's first N layers (a smaller, faster model)")
    p.add_argument("--ffn", type=int, metavar="N",
                   help="keep only the N feed-forward units per layer that do most on the "
                        "training data (a smaller, faster model)")
    p.add_argument("--teacher", metavar="DIR",
                   help="a tagger for the same groups (e.g. the bundled model) whose "
                        "probabilities the new model learns as well as the labels: "
                        "distillation, for a smaller model")
    conll_options(p, each=True)
    p.set_defaults(run=train)


def register_evaluate(steps) -> None:
    p = steps.add_parser("evaluate", help="per-group F1: model, patterns, both",
                         description="Strict span precision, recall and F1 per group for the "
                                     "model alone, the patterns alone and the hybrid, with "
                                     "documents per second; --out writes scores.json, a bar "
                                     "chart and an HTML page of examples (a folder per "
                                     "DATA when there are several). DATA: the generator's "
                                     "JSONL, CoNLL files or corpus splits (wikigold:test, "
                                     "wnut17:test, btc:test), scored on the groups each marks.")
    p.add_argument("data", metavar="DATA", nargs="+")
    redactor_options(p)
    p.add_argument("--out", metavar="DIR")
    p.add_argument("--limit", type=int, help="only the first N documents")
    p.add_argument("--record", action="store_true",
                   help="keep each DATA's scores in the model's card (under \"evaluation\")")
    conll_options(p)
    p.set_defaults(run=evaluate)


def register_calibrate(steps) -> None:
    p = steps.add_parser("calibrate", help="per-group confidence floors, chosen on validation",
                         description="Run the model once on DATA (a validation split), then "
                                     "choose for each group the floor on its spans' scores "
                                     "that gives the best F1 (none where it gains under "
                                     "0.005); --write puts them in the model's card.")
    p.add_argument("data", metavar="DATA")
    redactor_options(p, patterns=False)
    p.add_argument("--write", action="store_true",
                   help="record the floors (and the threshold) in the model's bertforge.json")
    p.add_argument("--limit", type=int, help="only the first N documents")
    p.set_defaults(run=calibrate)


def generate(args) -> int:
    paths = write_splits(args.out, args.train, args.validation, args.test, args.seed)
    if args.legal:
        from ..pii.legal import write_legal

        paths["legal"] = write_legal(Path(args.out) / "legal.jsonl", args.legal, args.seed)
    if args.listings:
        from ..pii.listings import write_listings

        paths["listings"] = write_listings(Path(args.out) / "listings.jsonl", args.listings,
                                           args.seed)
    for path in paths.values():
        print(f"wrote {path}")
    return 0


def train(args) -> int:
    from .finetune import fit_settings

    settings = fit_settings(args)  # before any data is read: a missing device fails at once
    _, card = pii_train.train_redactor(
        args.data, args.out, args.base, settings, args.window, args.stride, args.validation,
        half=args.half, layers=args.layers, ffn=args.ffn, teacher=args.teacher,
        overwrite=args.overwrite, labels=args.labels, conll_docs=args.conll_docs,
        weights=args.weights, case=args.case, neighbours=args.neighbours)
    print(f"wrote {args.out} ({card['training_minutes']} minutes of training)")
    return 0


def evaluate(args) -> int:
    from ..pii.evaluate import evaluate_sources

    evaluate_sources(args.data, load_redactor(args), args.out, args.limit, labels=args.labels,
                     conll_docs=args.conll_docs, record=args.record)
    return 0


def calibrate(args) -> int:
    run_calibrate(args.data, load_redactor(args), write=args.write, limit=args.limit)
    return 0
