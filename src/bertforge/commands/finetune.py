"""bertforge finetune tag, features, classify, curve: the options of
`finetune.fit.FitSettings` plus what each task reads."""

from __future__ import annotations

from pathlib import Path

from ..errors import BertforgeError
from ..files import check_new_directory
from ..finetune.curve import CURVE_FIT, SIZES
from ..finetune.features import FEATURE_FIT, LAYERS as FEATURE_LAYERS, train_feature_tagger
from ..finetune.fit import BASE, FitSettings
from ..finetune.tagging import SUBTOKEN, SUBTOKENS
from ..options import add_options, default_of, settings_from
from ..windows import SIZE, STRIDE
from .common import conll_options, overwrite_option


def common(p, base: FitSettings | None = None) -> None:
    p.add_argument("train", metavar="TRAIN", help="JSONL file or `datasets` source")
    p.add_argument("--base", default=BASE, help="any BERT directory, packaged model or hub id")
    add_options(p, FitSettings, base=base)
    p.add_argument("--window", type=int, default=SIZE, help="tokens per window")
    p.add_argument("--stride", type=int, default=STRIDE, help="tokens between window starts")


def spans_input(p) -> None:
    conll_options(p)
    p.add_argument("--subtokens", choices=SUBTOKENS, default=SUBTOKEN,
                   help="which sub-tokens of a word carry its tag in training (first: the "
                        "rest are ignored)")


def register(verbs) -> None:
    finetune = verbs.add_parser("finetune", help="fine-tune for tagging or classification")
    tasks = finetune.add_subparsers(dest="task", required=True, metavar="TASK")

    p = tasks.add_parser("tag", help="token tagging from character spans",
                         description='TRAIN: a JSONL file, each line {"text": ..., "spans": '
                                     '[{"start", "end", "label"}]}, or a CoNLL column file '
                                     '(a word and its IOB1/IOB2 tag a line, the tag in the last '
                                     'column). Long documents are cut into windows.')
    common(p)
    spans_input(p)
    p.add_argument("--valid", metavar="FILE", help="held-out examples to score")
    p.add_argument("--out", required=True, metavar="DIR")
    overwrite_option(p)
    p.set_defaults(run=tag)

    p = tasks.add_parser("features", help="the BERT paper's feature-based tagger: a BiLSTM on "
                                          "frozen layers",
                         description="Train a two-layer BiLSTM tagger on the frozen hidden "
                                     "layers of --base (the BERT paper's Table 7), or with "
                                     "--layers table train one for every way of reading the "
                                     "layers, and fine-tuning too, and print the table beside "
                                     "the paper's. TRAIN as for `finetune tag` (JSONL, CoNLL, "
                                     "or a public corpus split such as wikigold:train).")
    common(p, FEATURE_FIT)
    spans_input(p)
    p.add_argument("--layers", choices=[*FEATURE_LAYERS, "table"],
                   default=default_of(train_feature_tagger, "layers"),
                   help="which hidden layers feed the BiLSTM (table: all of them, one by one)")
    p.add_argument("--lstm-size", type=int, default=default_of(train_feature_tagger, "lstm_size"),
                   help="units per direction")
    p.add_argument("--valid", metavar="FILE", help="held-out examples to score")
    p.add_argument("--out", metavar="DIR")
    overwrite_option(p)
    p.set_defaults(run=features)

    p = tasks.add_parser("classify", help="one label per text or text pair",
                         description='Each line: {"text": ..., "label": ...} or '
                                     '{"text_a": ..., "text_b": ..., "label": ...}.')
    common(p)
    p.add_argument("--valid", metavar="FILE")
    p.add_argument("--out", required=True, metavar="DIR")
    overwrite_option(p)
    p.set_defaults(run=classify)

    p = tasks.add_parser("curve", help="pre-trained vs random weights on growing training sets")
    common(p, CURVE_FIT)  # the same number of updates at every size
    spans_input(p)
    p.add_argument("--test", required=True, metavar="FILE")
    p.add_argument("--sizes", default=",".join(map(str, SIZES)))
    p.add_argument("--plot", metavar="FILE.png")
    p.set_defaults(run=curve)


def fit_settings(args) -> FitSettings:
    from ..training import resolve_device

    resolve_device(args.device)  # a device that is not there fails before training starts
    return settings_from(FitSettings, args)


def tag(args) -> int:
    from ..finetune.examples import check_labels, labels_of, tagging_examples
    from ..finetune.metrics import MICRO, format_scores
    from ..finetune.tagging import train_tagger

    check_new_directory(args.out, args.overwrite)  # before hours of training, not after
    train = tagging_examples(args.train, args.labels, args.conll_docs)
    valid = tagging_examples(args.valid, args.labels, args.conll_docs) if args.valid else []
    labels = labels_of(train)
    check_labels(valid, labels, lambda e: [span.label for span in e["spans"]])
    print(f"fine-tuning {args.base} to tag {', '.join(labels)} on {len(train):,} examples")
    tagger = train_tagger(train, args.base, fit_settings(args), labels, args.window, args.stride,
                          subtokens=args.subtokens)
    info = {"base": str(args.base), "train": str(args.train), "examples": len(train),
            "subtokens": args.subtokens, "labels_map": args.labels}
    if valid:
        scores = tagger.evaluate(valid)
        print(f"\nheld out ({args.valid}, {len(valid)} documents), strict spans:")
        print(format_scores(scores["strict"]))
        info["validation"] = {kind: {label: vars(s) for label, s in table.items()}
                              for kind, table in scores.items()}
        info["validation_f1"] = scores["strict"][MICRO].f1
    tagger.save(args.out, info)
    print(f"\nwrote {args.out} (loads in transformers as BertForTokenClassification)")
    return 0


def features(args) -> int:
    from ..finetune.examples import check_labels, labels_of, tagging_examples
    from ..finetune.features import feature_table, format_table
    from ..finetune.metrics import MICRO, format_scores

    if args.layers == "table":
        if not args.valid:
            raise BertforgeError("--layers table scores each row on --valid: give one")
    elif not args.out:
        raise BertforgeError("--out DIR is needed to save the tagger (or --layers table)")
    else:
        check_new_directory(args.out, args.overwrite)
    train = tagging_examples(args.train, args.labels, args.conll_docs)
    valid = tagging_examples(args.valid, args.labels, args.conll_docs) if args.valid else []
    labels = labels_of(train)
    check_labels(valid, labels, lambda e: [span.label for span in e["spans"]])
    settings = fit_settings(args)
    if args.layers == "table":
        print(f"the feature-based table: {args.base} on {len(train):,} examples, scored on "
              f"{args.valid} ({len(valid):,})")
        rows = feature_table(train, valid, args.base, settings, lstm_size=args.lstm_size,
                             size=args.window, stride=args.stride)
        print("\n" + format_table(rows))
        return 0
    print(f"training a BiLSTM on the frozen {args.layers} layers of {args.base} to tag "
          f"{', '.join(labels)} on {len(train):,} examples")
    tagger = train_feature_tagger(train, args.base, settings, labels, args.layers, args.lstm_size,
                                  args.window, args.stride, args.subtokens)
    info = {"base": str(args.base), "train": str(args.train), "examples": len(train)}
    if valid:
        scores = tagger.evaluate(valid)
        print(f"\nheld out ({args.valid}, {len(valid)} examples), strict spans:")
        print(format_scores(scores["strict"]))
        info["validation_f1"] = scores["strict"][MICRO].f1
    tagger.save(args.out, info)
    print(f"\nwrote {args.out} (a feature tagger: Tagger.load reads it)")
    return 0


def classify(args) -> int:
    from ..finetune.classify import train_classifier
    from ..finetune.examples import check_labels, classification_examples

    check_new_directory(args.out, args.overwrite)
    train = classification_examples(args.train)
    valid = classification_examples(args.valid) if args.valid else []
    labels = sorted({e["label"] for e in train})
    check_labels(valid, labels, lambda e: [e["label"]])
    print(f"fine-tuning {args.base} to classify into {', '.join(labels)} on {len(train):,} examples")
    classifier = train_classifier(train, args.base, fit_settings(args), labels, args.window,
                                  args.stride)
    info = {"base": str(args.base), "train": str(args.train), "examples": len(train)}
    if valid:
        info["validation"] = classifier.evaluate(valid)
        print(f"\nheld-out accuracy: {info['validation']['accuracy']:.3f} "
              f"({len(valid)} examples)")
    classifier.save(args.out, info)
    print(f"\nwrote {args.out} (loads in transformers as BertForSequenceClassification)")
    return 0


def curve(args) -> int:
    from ..finetune.curve import format_curve, learning_curve, plot_curve
    from ..finetune.examples import tagging_examples

    train = tagging_examples(args.train, args.labels, args.conll_docs)
    test = tagging_examples(args.test, args.labels, args.conll_docs)
    sizes = sorted({min(int(s), len(train)) for s in args.sizes.split(",")})
    points = learning_curve(train, test, args.base, sizes, fit_settings(args), args.window,
                            args.stride, args.subtokens)
    print("\n" + format_curve(points))
    if args.plot:
        path = plot_curve(points, args.plot, f"Fine-tuning {Path(str(args.base)).name}: "
                                             f"pre-trained vs random weights")
        print(f"\nwrote {path}")
    return 0
