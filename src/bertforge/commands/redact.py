"""bertforge redact: files, standard input or a JSONL batch (`pii.batch` holds the
contracts; this module prints what they return)."""

from __future__ import annotations

import json
import sys

from ..errors import BertforgeError
from ..options import default_of
from ..pii.redact import STYLES, redact as redact_text
from .common import load_redactor, plural, redactor_options

LARGE_FILES, LARGE_CHARS = 20, 1_000_000  # more than this is worth a progress bar


def register(verbs) -> None:
    p = verbs.add_parser(
        "redact", help="find and mask personal data in financial documents",
        description="Print FILEs (or standard input) with the personal data masked: names, "
                    "companies, addresses, dates, emails, phones, bank details, cards, IDs, "
                    "account numbers, secrets. With --jsonl IN --out OUT, each line "
                    '{"id", "text", ...} becomes the same fields plus "spans" and "redacted". '
                    "Uses the bundled model unless --model is given; no network needed.")
    p.add_argument("files", metavar="FILE", nargs="*")
    p.add_argument("--format", choices=["text", "json", "html"], default="text")
    p.add_argument("--style", choices=STYLES, default=default_of(redact_text, "style"),
                   help="[PERSON] (default), [PERSON_1], ******, or a consistent fake value")
    redactor_options(p)
    p.add_argument("--key-file", metavar="FILE",
                   help="for --style fake: a secret key (16 bytes or more) that keeps fakes the "
                        "same across runs; without it each run draws a random key")
    p.add_argument("--jsonl", metavar="IN.jsonl")
    p.add_argument("--out", metavar="OUT.jsonl")
    p.set_defaults(run=redact)


def fake_key(args):
    from ..pii.redact import read_key

    if args.key_file:
        return read_key(args.key_file)
    if args.style == "fake":
        print("bertforge: fakes use a random key for this run; to keep them the same "
              "across runs, make a key once (head -c 32 /dev/urandom > fake.key) and pass "
              "--key-file fake.key", file=sys.stderr)
    return None


def redact(args) -> int:
    """Files (or standard input) to redacted text, JSON or HTML; or a JSONL batch."""
    if args.jsonl:
        return redact_jsonl(args)
    if args.out:
        raise BertforgeError("--out goes with --jsonl IN.jsonl; for files, redacted text goes "
                             "to standard output")
    from ..pii.batch import STDIN, read_documents
    from ..pii.redact import html, html_page

    key = fake_key(args)
    inputs = read_documents(args.files or [STDIN])
    good = [text for _, text, error in inputs if error is None]
    redactor = load_redactor(args) if good else None
    large = len(good) > LARGE_FILES or sum(map(len, good)) > LARGE_CHARS
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
                              "redacted": redact_text(text, spans, args.style, key)})
        elif args.format == "html":
            sections.append(html(text, spans, shown.get(name, name)))
        else:
            if len(inputs) > 1:
                print(f"==> {shown.get(name, name)} <==")
            sys.stdout.write(redact_text(text, spans, args.style, key))
            if len(inputs) > 1 and not text.endswith("\n"):
                print()
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
    def load():
        key = fake_key(args)
        return load_redactor(args), key

    target, written, errors = run(args.jsonl, args.out, load, args.style,
                                  warn=lambda w: print(f"bertforge: warning: {w}", file=sys.stderr))
    print(f"{plural(written - len(errors), 'document')} redacted, "
          f"{plural(len(errors), 'line')} with errors -> {target}", file=sys.stderr)
    for error in errors:
        print(f"bertforge: error: {error}", file=sys.stderr)
    return 2 if errors else 0
