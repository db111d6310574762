"""The runs of the records of single `tidy` rules (or recognizers): the redactor with
and without one rule, set by set, on the same model.

    python experiments/tidy_rule.py RULE [--split validation] [--model DIR]

RULE (its record in docs/experiments/2026-12-03-RULE.md):
  name-full-stop  a sentence's full stop after a name left out of it (`_name_end`)
  hashtag-names   a name written as a hashtag taken with its "#" (`_hashtag_start`)
  name-tail       lower-case words at the end of a name left out of it (`_name_tail`)
  name-pairs      two people's names read as one firm are two names (`_name_pair`)
  name-underscores  a name without the underscores around it (`_without_underscores`)
  legal-forms     a firm's legal form part of its span (`_with_legal_forms`)
  firm-words      a model person whose name ends in a firm's word is a firm (`_firm`)
  split-names     a name split into a "firm" and a person is one person (`_one_person`)
  inverted-names  "Surname, Given" read as a firm is a person (`_inverted_name`)
  auth-codes      a payment's authorisation code is no card data (`_auth_code`)
  firm-tails      a firm's name runs on over its firm words (`_firm_tail`)
  loose-full-stop  a full stop after a space is no part of a name (`_name_end`)
  listed-names    a numbered name in a line-up is a name, not an address (`_listed_name`)
  rate-benchmarks  an interest-rate benchmark is nobody's name (since 2026-12-04 part of
                  contract-terms: both switch `_without_terms` off)
  contract-terms  statutes, standards and rate benchmarks are nobody's name (`_without_terms`)
  comma-lists     names in a list written "A , B" are apart (`JOINED`)
  name-suffixes   a name's "Jr." or "III" is part of it (`_with_name_suffix`)
  titles-out      a courtesy title is no part of a name (`_without_title`; 2026-12-04)
  lone-forms      a legal form alone takes in the firm's name before it (`_lone_forms`)
  hyphen-names    a hyphenated name is one name (`_hyphen_whole`)
  uk-addresses    UK addresses found by their postcode (the `uk_addresses` recognizer)
  bank-names      banks named "Bank of …" found by their shape (the `banks` recognizer)
  known-firms     well-known firms found by name, and read as firms where the model
                  read a person (the `firms` recognizer and `_known_firm`)

Prints, for each set, the score that decides (PERSON F1 on the real corpora, hybrid
micro F1 on generated and hand-written documents) without and with the rule, the
generator's groups, and every span the rule changed.
"""

from __future__ import annotations

import argparse
import re
import copy
from unittest import mock

from mentions import SETS

from bertforge.finetune.metrics import MICRO
from bertforge.pii import tidy
from bertforge.pii.dataset import marked_groups, read_documents
from bertforge.pii.detector import Redactor
from bertforge.pii.evaluate import scored


def _without_loose_full_stop(text, a, b, label, _rule=tidy._name_end):
    """`_name_end` as it was before loose-full-stop: "Thomas A ." kept whole."""
    return b if b - a > 1 and text[b - 1] == "." and text[b - 2].isspace() else _rule(text, a, b, label)


# each rule's function in `tidy`, and what it returns when the rule is off
WITHOUT = {"name-full-stop": ("_name_end", lambda text, a, b, label: b),
           "hashtag-names": ("_hashtag_start", lambda text, a, b, label: a),
           "name-tail": ("_name_tail", lambda span: span),
           "name-pairs": ("_name_pair", lambda span: None),
           "name-underscores": ("_without_underscores", lambda text, a, b: (a, b)),
           "legal-forms": ("_with_legal_forms", lambda text, spans: spans),
           "firm-words": ("_firm", lambda span: span),
           "split-names": ("_one_person", lambda text, spans: spans),
           "inverted-names": ("_inverted_name", lambda span: span),
           "auth-codes": ("_auth_code", lambda text, span: False),
           "firm-tails": ("_firm_tail", lambda text, span, following: span),
           "loose-full-stop": ("_name_end", _without_loose_full_stop),
           "listed-names": ("_listed_name", lambda span: span),
           "rate-benchmarks": ("_without_terms", lambda span: [span]),
           "contract-terms": ("_without_terms", lambda span: [span]),
           "name-suffixes": ("_with_name_suffix", lambda text, spans: spans),
           "titles-out": ("_without_title", lambda text, a, b: a),
           "lone-forms": ("_lone_forms", lambda text, spans: spans),
           "hyphen-names": ("_hyphen_whole", lambda text, spans: spans),
           "comma-lists": ("JOINED", {**tidy.JOINED,
                                      "PERSON": re.compile(r"(?i)\s+(?:and|or)\s+")})}


# each recognizer's rule: the registry's name of the recognizer left out without it
RECOGNIZERS = {"bank-names": "banks", "uk-addresses": "uk_addresses"}
# rules that are a recognizer and a `tidy` rule together
BOTH = {"known-firms": ("firms", ("_known_firm", lambda span: span))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rule", choices=[*WITHOUT, *RECOGNIZERS, *BOTH])
    parser.add_argument("--split", choices=SETS, default="validation")
    parser.add_argument("--model", default=None)
    args = parser.parse_args()
    redactor = Redactor.load(args.model, precision="fp32")
    for name, source, as_documents, decides in SETS[args.split]:
        documents = read_documents(source, split=args.split, conll_docs=as_documents)
        texts = [d["text"] for d in documents]
        with_ = redactor.detect_batch(texts)
        if args.rule in RECOGNIZERS:
            without = replace_recognizers(redactor, RECOGNIZERS[args.rule]).detect_batch(texts)
        elif args.rule in BOTH:
            recognizer, rule = BOTH[args.rule]
            with mock.patch.object(tidy, *rule):
                without = replace_recognizers(redactor, recognizer).detect_batch(texts)
        else:
            with mock.patch.object(tidy, *WITHOUT[args.rule]):
                without = redactor.detect_batch(texts)
        marked = marked_groups(source)
        a, b = scored(documents, without, marked), scored(documents, with_, marked)
        print(f"{name}: {decides} {a[decides].f1:.4f} without, {b[decides].f1:.4f} with")
        if name == "generator":
            print("  groups that moved:", {g: (round(a[g].f1, 4), round(b[g].f1, 4))
                                          for g in a if g != MICRO and a[g].f1 != b[g].f1} or "none")
        for spans_a, spans_b in zip(without, with_):
            for s in sorted(set(spans_b) ^ set(spans_a), key=lambda s: s.start):
                print(f"  {'with' if s in spans_b else 'without'}: {s.label} {s.text!r}")


def replace_recognizers(redactor: Redactor, name: str) -> Redactor:
    """A copy of the redactor without the recognizer `name`."""
    other = copy.copy(redactor)
    other.recognizers = [r for r in redactor.recognizers if r.name != name]
    return other


if __name__ == "__main__":
    main()
