"""bertforge redact: files, standard input, a JSONL batch or a table (`pii.batch` holds
the contracts, `pii.ray` the cluster path; this module prints what they return)."""

from __future__ import annotations

import json
import sys

from ..errors import BertforgeError
from ..options import add_options, settings_from
from ..pii.redact import STYLES
from ..pii.tables import FORMATS as TABLE_FORMATS, RaySettings, TableSettings
from .common import load_redactor, plural, redactor_options

LARGE_FILES, LARGE_CHARS = 20, 1_000_000  # more than this is worth a progress bar
LONG_RUN = 10  # seconds: a rate over a shorter run is mostly the model's loading


def register(verbs) -> None:
    p = verbs.add_parser(
        "redact", help="find and mask personal data in financial documents",
        description="Print FILEs (or standard input) with the personal data masked: names, "
                    "companies, addresses, dates, emails, phones, bank details, cards, IDs, "
                    "account numbers, secrets. With --jsonl IN --out OUT, each line "
                    '{"id", "text", ...} becomes the same fields plus "spans" and "redacted". '
                    "With --table IN --out OUT, a CSV, TSV, Parquet or JSONL table keeps its "
                    "format, its row order and every other column, with its text columns "
                    "redacted; a killed run continues with --resume. "
                    "Uses the bundled model unless --model is given; no network needed.")
    p.add_argument("files", metavar="FILE", nargs="*")
    p.add_argument("--format", choices=["text", "json", "html", *TABLE_FORMATS],
                   help="for FILEs: text (the default), json or html; for --table: its format "
                        "(default: from the name)")
    p.add_argument("--style", choices=STYLES,
                   help="one way for every group: [PERSON] (group, the default), [PERSON_1], "
                        "******, or a fake value")
    p.add_argument("--policy", metavar="FILE",
                   help="a policy file (YAML): per group keep, replace, mask, hash, fake or "
                        "encrypt; values allowed and denied; recognizers of your own "
                        "(docs/redactor.md#policies)")
    redactor_options(p)
    p.add_argument("--key-file", metavar="FILE",
                   help="a secret key (16 bytes or more): with --style fake it keeps fakes the "
                        "same across documents and runs (without it each document draws its "
                        "own); with --policy it replaces the policy's key")
    p.add_argument("--explain", action="store_true",
                   help="say why each span is one (the recognizer, its check, the model's score "
                        "and floor, what it was chosen over): in --format json each span's "
                        "\"explanation\"; with text, one line per span on standard error, by "
                        "position, without the value")
    p.add_argument("--vault", metavar="FILE",
                   help="keep numbered and fake replacements in this encrypted file (under the "
                        "policy's key or --key-file), the same across documents, so that "
                        "`bertforge restore --vault` can undo them")
    p.add_argument("--audit", metavar="FILE",
                   help="append one JSON line per document: its id, the input's SHA-256, counts "
                        "per group and operator, the policy's and the model's hashes, the "
                        "time; never a value found")
    p.add_argument("--jsonl", metavar="IN.jsonl")
    p.add_argument("--table", metavar="IN",
                   help="a CSV, TSV, Parquet or JSONL table (Parquet also as any URI pyarrow "
                        "reads, and with --ray a folder or URI of files)")
    p.add_argument("--out", metavar="OUT", help="where --jsonl or --table writes")
    add_options(p, TableSettings)
    p.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS",
                   help="run --table on Ray: a cluster's address, or none to start one here")
    add_options(p, RaySettings)
    p.set_defaults(run=redact)
    register_restore(verbs)


def policy_of(args):
    """The policy the options say: a file, or one style for every group."""
    from dataclasses import replace

    from ..pii.crypto import key_from
    from ..pii.policy import Policy

    if args.policy and args.style:
        raise BertforgeError("give --style or --policy, not both: a policy names an operator "
                             "per group (default: for the rest)")
    key = key_from(file=args.key_file) if args.key_file else None
    if args.policy:
        policy = Policy.load(args.policy)
        return replace(policy, key=key) if key else policy
    policy = Policy.from_style(args.style or "group")
    if policy.default.name == "fake" and key is None:
        print("bertforge: each document draws its own fakes; to keep them the same across "
              "documents and runs, make a key once (head -c 32 /dev/urandom > fake.key) and "
              "pass --key-file fake.key", file=sys.stderr)
    return replace(policy, key=key, fakes="key") if key else policy


def vault_of(args, key):
    from ..pii.vault import Vault

    if not args.vault:
        return None
    if key is None:
        raise BertforgeError("--vault needs a key: --key-file FILE, or a policy with key:")
    return Vault(args.vault, key)


def redact(args) -> int:
    """Files (or standard input) to redacted text, JSON or HTML; or a JSONL batch."""
    if args.jsonl and args.table:
        raise BertforgeError("give --jsonl IN.jsonl or --table IN, not both")
    if args.table:
        return redact_table(args)
    if args.format in TABLE_FORMATS:
        raise BertforgeError(f"--format {args.format} goes with --table IN")
    if args.jsonl:
        return redact_jsonl(args)
    if args.out:
        raise BertforgeError("--out goes with --jsonl IN.jsonl or --table IN; for files, "
                             "redacted text goes to standard output")
    from ..pii.audit import Audit
    from ..pii.batch import STDIN, read_documents
    from ..pii.redact import html, html_page

    policy = policy_of(args)
    vault = vault_of(args, policy.key)
    inputs = read_documents(args.files or [STDIN])
    good = [text for _, text, error in inputs if error is None]
    redactor = load_redactor(args, policy) if good else None
    audit = Audit(args.audit, redactor) if args.audit and good else None
    large = len(good) > LARGE_FILES or sum(map(len, good)) > LARGE_CHARS
    found = iter(redactor.detect_batch(good, progress=large, explain=args.explain)
                 if good else [])
    shown = {STDIN: "<stdin>"}
    failed, documents, sections = 0, [], []
    for name, text, error in inputs:
        if error is not None:
            print(f"bertforge: error: {error}", file=sys.stderr)
            failed += 1
            continue
        spans = next(found)
        redacted, operators = policy.redact(text, spans, vault=vault)
        if audit is not None:
            audit.append([audit.line(shown.get(name, name), text, spans, operators)])
        if args.format == "json":
            documents.append({"file": shown.get(name, name), "spans": [s.to_dict() for s in spans],
                              "redacted": redacted})
        elif args.format == "html":
            sections.append(html(text, spans, shown.get(name, name)))
        else:
            if args.explain:
                for span, operator in zip(spans, operators):
                    print(f"bertforge: {shown.get(name, name)}:{span.start}-{span.end} "
                          f"{span.label} -> {operator}: {span.explanation}", file=sys.stderr)
            if len(inputs) > 1:
                print(f"==> {shown.get(name, name)} <==")
            sys.stdout.write(redacted)
            if len(inputs) > 1 and not text.endswith("\n"):
                print()
    if vault is not None:
        vault.save()
    if args.format == "json":  # a list, however many files: one shape to parse
        print(json.dumps(documents, indent=2, ensure_ascii=False))
    elif args.format == "html":
        sys.stdout.write(html_page(sections))
    return 2 if failed else 0


def redact_jsonl(args) -> int:
    from ..pii.batch import redact_jsonl as run

    if args.files:
        raise BertforgeError("give either FILE arguments or --jsonl IN.jsonl, not both")
    if not args.out:
        raise BertforgeError("--jsonl needs --out OUT.jsonl")
    policy = policy_of(args)
    target, written, errors = run(args.jsonl, args.out, lambda: load_redactor(args, policy),
                                  policy, audit=args.audit, vault=vault_of(args, policy.key),
                                  warn=warn, rows=args.part_rows, resume=args.resume,
                                  identity=model_identity(args))
    print(f"{plural(written - len(errors), 'document')} redacted, "
          f"{plural(len(errors), 'line')} with errors -> {target}", file=sys.stderr)
    for error in errors:
        print(f"bertforge: error: {error}", file=sys.stderr)
    return 2 if errors else 0


def warn(message: str) -> None:
    print(f"bertforge: warning: {message}", file=sys.stderr)


def model_identity(args) -> dict:
    """What of the options decides the output, for `--resume` to check."""
    return {"model": args.model, "threshold": args.threshold, "patterns": not args.no_patterns,
            "precision": args.precision}


def redact_table(args) -> int:
    import time

    from ..pii.batch import redact_table as run
    from ..pii.tables import format_of

    if args.files:
        raise BertforgeError("give either FILE arguments or --table IN, not both")
    if not args.out:
        raise BertforgeError("--table needs --out OUT (the same format; Parquet keeps its schema)")
    kind = format_of(args.table, args.format)
    policy = policy_of(args)
    settings = settings_from(TableSettings, args)
    began = time.perf_counter()
    if args.ray is not None:
        from ..pii.ray import redact_files

        if args.vault or args.audit:
            raise BertforgeError("--vault and --audit keep one file for the whole run: use them "
                                 "without --ray")
        rows = redact_files(args.table, args.out, kind, policy, settings,
                            settings_from(RaySettings, args), address=args.ray,
                            model=args.model, threshold=args.threshold,
                            patterns=not args.no_patterns, precision=args.precision)
        seconds = time.perf_counter() - began
        rate = f" ({rows / seconds:,.0f} rows/s)" if rows >= 0 and seconds >= LONG_RUN else ""
        print(f"{plural(max(rows, 0), 'row') if rows >= 0 else 'the rows'} redacted on Ray in "
              f"{seconds:,.1f} s{rate} -> {args.out}", file=sys.stderr)
        return 0
    outcome = run(args.table, args.out, lambda: load_redactor(args, policy), policy, settings,
                  kind, audit=args.audit, vault=vault_of(args, policy.key), warn=warn,
                  identity=model_identity(args))
    seconds = time.perf_counter() - began
    done = outcome.rows - outcome.resumed_from
    resumed = f" (resumed after row {outcome.resumed_from:,})" if outcome.resumed_from else ""
    rate = f" ({done / seconds:,.0f} rows/s)" if seconds >= LONG_RUN else ""
    print(f"{plural(outcome.rows, 'row')} redacted{resumed} in {seconds:,.1f} s{rate} -> "
          f"{outcome.target}", file=sys.stderr)
    if outcome.problems:
        print(f"bertforge: {plural(len(outcome.problems), 'row')} could not be read wholly: "
              f"listed in {outcome.errors}", file=sys.stderr)
        return 2
    return 0


def register_restore(verbs) -> None:
    p = verbs.add_parser(
        "restore", help="turn encryption tokens back into the values they hide",
        description="Print FILEs (or standard input) with every token that `bertforge redact "
                    "--policy` wrote for the encrypt operator ([[PERSON:...]]) replaced by its "
                    "value, also where a language model rewrote the text around the tokens. "
                    "A token that does not decrypt under the key is an error.")
    p.add_argument("files", metavar="FILE", nargs="*")
    key = p.add_mutually_exclusive_group(required=True)
    key.add_argument("--key-file", metavar="FILE", help="the key the tokens were made with")
    key.add_argument("--policy", metavar="FILE", help="the policy whose key made them")
    p.add_argument("--vault", metavar="FILE",
                   help="also undo the numbered and fake replacements kept in this vault")
    p.set_defaults(run=restore)


def restore(args) -> int:
    from ..pii.batch import STDIN, read_documents
    from ..pii.crypto import key_from, restore as restore_text
    from ..pii.policy import Policy

    key = key_from(file=args.key_file) if args.key_file else Policy.load(args.policy).key
    if key is None:
        raise BertforgeError(f"{args.policy} names no key: add key: {{file: PATH}} or pass "
                             f"--key-file")
    vault = vault_of(args, key)
    failed = 0
    for name, text, error in read_documents(args.files or [STDIN]):
        try:
            if error is not None:
                raise BertforgeError(error)
            text = restore_text(text, key)
            sys.stdout.write(vault.restore(text) if vault is not None else text)
        except BertforgeError as problem:
            print(f"bertforge: error: {name}: {problem}", file=sys.stderr)
            failed += 1
    return 2 if failed else 0
