"""Every mention of a name the model found, over the whole document.

A document names a person in full once and then by part of the name: an article says
"Ben Player" and then "Player", an email is signed "Priya Raman" and greets "Priya".
An uncased model reads "says Player" as "says player" and often misses the short
mention; left in clear, it undoes the mask of the full one. So once the segments of a
document are merged, each PERSON name the model was sure of is looked for again: the
name itself, and the runs of its words at its start and at its end (the runs that
`redact.Entities` already gives the same pseudonym), wherever no span covers them yet.

Only a name of two words or more is looked for (a one-word name is too often a word).
A run is matched as whole words with the case it has in the name ("Player" is not
"player"), and only a run of capitalised words, one of them Capitalised with three
letters or more, stands for the name alone ("ben player" in a chat finds "ben player"
again, never every "ben"; "Mr", "HB" or an initial never stands alone). The rule was adopted by a
pre-registered comparison on validation splits: docs/experiments/2026-12-02-mentions.md.
A part of a name is not looked for inside a run of capitalised words, where it is a
term's word ("the Purchase Price" after "Thomas Price" signed:
docs/experiments/2026-12-06-mention-terms.md). One exception to the two words: a chat
writes a one-word name in lower case that the other side writes with its capital ("thx
tamsin" to the agent "Tamsin", found by the model or a recognizer), and a Capitalised
name whose lower-case form is no word of the vocabulary is looked for so
(`_in_lower_case`, docs/experiments/2026-12-06-lower-case-mentions.md).

A firm's words alone are too often ordinary words ("First", "National") to be looked
for so; but a short name a contract defines right after a firm's full name
(`Brightline Analytics, Inc. ("Brightline")`), made of the name's own words, is the
firm wherever it stands, and is looked for as a COMPANY
(docs/experiments/2026-12-04-defined-names.md). And a firm's first word alone that the
model read as a person, where the document names the firm in full ("About Halcyon
Payments: [Halcyon] is ...", "said [Quillon] CEO Maya Brandt"), is the firm
(`firms_first_words`, docs/experiments/2026-12-05-firm-first-words.md), and so is a word
the model read alone as a firm elsewhere in the document ("[Olam]'s co-founder":
docs/experiments/2026-12-06-firms-read-alone.md). A person's name
in full that the model read as a firm's where the document prints it in capitals is the
person (`persons_in_other_case`, docs/experiments/2026-12-06-name-cases.md), and so is
one it read in two pieces there (docs/experiments/2026-12-06-parted-name-cases.md).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from typing import Callable, Sequence

from ..spans import Span
from .lexicon import (COURTESY_TITLES, FUNCTION_WORDS, LONE_TITLES, common_words, given_names,
                      widely_given)
from .patterns import FIRMS
from .tidy import FIRM_ENDS, FIRM_HEADS, FOUNDERS_FIRMS, after_title, firm_named

SURE = 0.9  # a model PERSON span at least this sure is a name to look for again
WORD = re.compile(r"[^\W\d_]+")  # a run of letters
NEXT = re.compile(r"(\W{1,8}?)([^\W\d_]+)")  # what separates a name's words, and the next
SPACE = re.compile(r"\s+")
# a term defined in quotes and brackets after a firm's name, on its line: `("Brightline")`,
# `(the "Bank")`, `(hereinafter "Oakhurst")`
DEFINED = re.compile(r"[^()\n]{0,80}?\([ \t]*(?:the[ \t]+|hereinafter[ \t]+)?[\"\u201c]"
                     r"([A-Z][^\"\u201d()\n]{1,60}?)[\"\u201d][ \t]*\)")
FIRM_ENDS_FOLDED = {w.casefold().rstrip(".") for w in FIRM_ENDS}
TITLES = {t.casefold() for t in COURTESY_TITLES} | {  # never a name alone
    "sir", "dame", "lord", "lady", "rev", "fr", "st", "jr", "sr", "mme", "mlle", "herr", "frau"}
# nor an article, a preposition or a possessive, where the model's name starts with one
# ("The Mikado", which would make every sentence's "The" a mention: `lexicon.FUNCTION_WORDS`)
NEVER_ALONE = TITLES | FUNCTION_WORDS
# the capitalised word one space before a mention (not one that ends a sentence or a
# clause, "Adjustment. [Price] represents"), and what one space after it, that make
# the mention one word of a term ("Purchase [Price]", "Series A [Bond]", "[Bond] Indenture",
# "[Price]-based")
WORD_BEFORE = re.compile(r"(?:^|(?<=\s))([A-Z]\S*(?<![.,;:!?)\]\"'\u201d])) $")
TERM_AFTER = re.compile(r" ([A-Z][^\W\d_]*)|-[^\W\d_]")
# a firm's words after a person's surname: the firm named after them ("Greensill
# Capital", "Pembroke Advisors LLC")
FOUNDED_FIRM = re.compile(r"(?: (?:%s)(?![\w-]))+" % "|".join(
    re.escape(w) for w in sorted(FIRM_ENDS, key=len, reverse=True) if w[:1].isupper()))


def _pieces(text: str, start: int, end: int) -> tuple[str, ...]:
    """The words of text[start:end] and the separators between them (any whitespace
    read as one space): ("Ann", " ", "Lee"), ("O", "'", "Brien")."""
    out, at = [], start
    for m in WORD.finditer(text, start, end):
        if out:
            out.append(SPACE.sub(" ", text[at:m.start()]))
        out.append(m.group())
        at = m.end()
    return tuple(out)


def _forms(name: str) -> list[tuple[str, ...]]:
    """The name and the runs of its words at its start and its end that can stand for
    it, as `_pieces`."""
    words = list(WORD.finditer(name))
    if len(words) < 2:  # a one-word name is too often a word ("Mara", "Will")
        return []
    runs = [(0, len(words))]
    for n in range(1, len(words)):
        runs += [(0, n), (len(words) - n, len(words))]
    return list(dict.fromkeys(
        _pieces(name, words[i].start(), words[j - 1].end()) for i, j in runs
        if (i, j) == (0, len(words)) or _stands_alone([w.group() for w in words[i:j]])))


def _in_lower_case(name: str) -> list[tuple[str, ...]]:
    """A one-word name in lower case, as a chat writes it ("thx tamsin" to the agent
    "Tamsin"), as `_pieces`: only for a Capitalised name of three letters or more whose
    lower-case form is no whole word of the vocabulary (`lexicon.common_words`), so
    that "Will" or "Grace" never makes every "will" or "grace" a name (a longer name's
    form is one piece with a space in it, which no word matches)."""
    word = name.strip()
    if len(word) > 2 and word[0].isupper() and word[1:].islower() and \
            word.lower() not in common_words():
        return [(word.lower(),)]
    return []


def _defined_name(text: str, firm: Span) -> tuple[str, ...] | None:
    """The short name a contract defines right after a firm's full name (as `_pieces`),
    or None: every word of it a word of the name, one of them no legal form or firm's
    word ("Holdings", "Bank"), so a role ("the Company", "Lender") is never one."""
    m = DEFINED.match(text, firm.end)
    if m is None:
        return None
    words = WORD.findall(m.group(1))
    name = {w.casefold() for w in WORD.findall(firm.text)}
    if not words or any(w.casefold() not in name for w in words) or \
            all(w.casefold() in FIRM_ENDS_FOLDED for w in words) or not _stands_alone(words):
        return None
    return _pieces(text, m.start(1), m.end(1))


def _stands_alone(words: list[str]) -> bool:
    """Whether a run of a name's words can stand for the name: capitalised words, one
    of them Capitalised with three letters or more and not a title or a function word
    ("Lee", not "HB", "Ib", "Mr", "The" or an initial)."""
    return all(w[:1].isupper() for w in words) and \
        any(len(w) > 2 and not w.isupper() and w.casefold() not in NEVER_ALONE for w in words)


def _mention_at(text: str, m: re.Match, forms: dict,
                longest: int) -> tuple[int, tuple[float, str]] | None:
    """(end, (score, label)) of the longest form that starts with the word `m` and ends a word
    ("Ann" in "Ann Lee2", not "Ann Lee"), or None: the words after it are read one by
    one, as far as the longest form of that word goes."""
    pieces, best, at = [m.group()], None, m.end()
    while True:
        if tuple(pieces) in forms and not (at < len(text) and _word(text[at])):
            best = (at, forms[tuple(pieces)])
        if len(pieces) >= longest:
            return best
        step = NEXT.match(text, at)
        if step is None:
            return best
        pieces += [SPACE.sub(" ", step.group(1)), step.group(2)]
        at = step.end()


def every_mention(text: str, spans: Sequence[Span], sure: float = SURE,
                  allowed: Callable[[str], bool] | None = None) -> list[Span]:
    """The spans, plus a PERSON span (from the model, with its name's score) for every
    other mention of a name the model found with a score of at least `sure` that no
    span covers, and a COMPANY span for every other mention of a firm's name of two
    words or more that ends in a firm's word or legal form (`tidy.FIRM_ENDS`), found as
    surely (by the model or a recognizer: "About [Meridian Payments]" above "Meridian
    Payments (NASDAQ: MRDP) is ..."; not "Alice Springs"), of its short name
    (`_defined_name`) and of a firm named after the person (`_founders_firm`); a PERSON
    span for a one-word name in lower case (`_in_lower_case`); the spans first mended
    (`_mended`). allowed(value) true: left in clear. Linear in the text."""
    spans = _mended(text, spans, sure)
    forms, longest, whole, own = _to_look_for(text, spans, sure)
    if not forms:
        return spans
    starts = [s.start for s in spans]
    surnames = {name[-1] for name in whole}  # a firm is named after its founder's surname
    added, end = [], 0
    for m in WORD.finditer(text):
        a = m.start()
        if a < end or m.group() not in longest or (a and _word(text[a - 1])):
            continue
        hit = _mention_at(text, m, forms, longest[m.group()])
        if hit is None:
            continue
        b, (score, label) = hit
        end = b
        k = bisect.bisect_right(starts, a)
        if (k and spans[k - 1].end > a) or (k < len(spans) and spans[k].start < b):
            continue  # a span covers part of it already
        if label == "PERSON" and _pieces(text, a, b) not in whole and \
                _in_a_term(text, a, b, own):  # a term's word, or a firm named after them
            firm = _founders_firm(text, a, b) if text[a:b] in surnames else None
            if firm is None or (k < len(spans) and spans[k].start < firm) or \
                    allowed is not None and allowed(text[a:b]):
                continue
            b, label = firm, "COMPANY"
        if allowed is None or not allowed(text[a:b]):
            added.append(Span(a, b, label, text[a:b], score, "model"))
    return sorted(spans + added) if added else spans


def _to_look_for(text: str, spans: Sequence[Span], sure: float) -> tuple[dict, dict, set, set]:
    """What `every_mention` looks for: each form of a name or a firm's name, as its pieces,
    with (score, label); the pieces of each first word's longest form; the names in full,
    which stand anywhere; and their words."""
    forms: dict[tuple[str, ...], tuple[float, str]] = {}  # -> (score, label)
    longest: dict[str, int] = {}  # first word -> pieces of its longest form

    def add(form: tuple[str, ...], score: float, label: str) -> None:
        if score > forms.get(form, (0.0, ""))[0]:
            forms[form] = (score, label)
        longest[form[0]] = max(longest.get(form[0], 0), len(form))

    whole, own = set(), set()
    for s in spans:
        if s.label == "PERSON" and s.source == "model" and s.score >= sure:
            forms_of_name = _forms(s.text)
            for form in forms_of_name:
                add(form, s.score, "PERSON")
            whole.update(forms_of_name[:1])  # the name in full comes first
            own.update(WORD.findall(s.text) if forms_of_name else ())
        if s.label == "PERSON" and s.score >= sure:  # a recognizer's name too
            for form in _in_lower_case(s.text):
                add(form, s.score, "PERSON")
                whole.add(form)
        if s.label == "COMPANY":
            short = _defined_name(text, s)
            if short:
                add(short, s.score, "COMPANY")
            if s.score >= sure and _named_in_full(s):
                add(_pieces(s.text, 0, len(s.text)), s.score, "COMPANY")
    return forms, longest, whole, own


def _mended(text: str, spans: Sequence[Span], sure: float) -> list[Span]:
    """The spans mended by the others of the document: a firm cut short made whole
    (`firms_cut_short`), a given name read as a firm a person's
    (`given_names_read_as_firms`), and so a surname (`surnames_read_as_firms`), a firm's
    first word read as a person the firm's (`firms_first_words`), and a person's name in
    other letters' case the person's (`persons_in_other_case`)."""
    spans = given_names_read_as_firms(text, firms_cut_short(text, spans))
    spans = surnames_read_as_firms(text, spans, sure)
    return persons_in_other_case(text, firms_first_words(text, spans), sure)


def _named_in_full(firm: Span) -> bool:
    """Whether a firm's span is its full name: two words or more, the last a firm's word
    or legal form (`tidy.FIRM_ENDS`: "Halcyon Payments plc", not "Alice Springs"), or a
    well-known firm's name (`patterns.FIRMS`: "Wells Fargo")."""
    return " " in firm.text and firm_named(firm.text)


def given_names_read_as_firms(text: str, spans: Sequence[Span]) -> list[Span]:
    """The spans, a one-word model COMPANY span made PERSON where it is the first word of
    a model PERSON span of two words or more in the same document: a mail, a chat or a
    story names a person in full once and by the given name elsewhere ("From: Oksana
    Petrenko" ... "[Oksana], can you chase Halberd"), whatever locale the name is from,
    and where the rest of that full name follows the word, the span is the full name
    ("- [Ben] Player and Queenslander Mitchell Rawlins" is "[Ben Player]"); unless the
    word starts a COMPANY span of two words or more there ("Wells Fargo" ... "[Wells]")
    or a well-known firm's name ("Morgan", `tidy.FIRM_HEADS`), is a well-known firm
    (`patterns.FIRMS`), or stands right after that full name, a space between ("Ben
    Player [Ben] is the current World Champion", a heading's repetition)."""
    full = [s for s in spans if s.label == "PERSON" and s.source == "model" and " " in s.text]
    heads = {s.text.split()[0] for s in spans if s.label == "COMPANY" and " " in s.text}
    names: dict[str, set[str]] = {}  # a given name -> the full names it starts
    for s in full:
        names.setdefault(s.text.split()[0], set()).add(s.text)
    right_after = {s.end + 1 for s in full}
    out: list[Span] = []
    for s in spans:
        if out and s.start < out[-1].end:
            continue  # inside the full name the span before was made
        if s.label == "COMPANY" and s.source == "model" and s.text in names and \
                s.text not in heads and s.text not in FIRM_HEADS and \
                s.start not in right_after and not FIRMS.fullmatch(s.text):
            whole = max((n for n in names[s.text] if text.startswith(n, s.start) and
                         not _word(text[s.start + len(n):s.start + len(n) + 1])),
                        key=len, default=s.text)
            s = replace(s, end=s.start + len(whole), text=whole, label="PERSON",
                        explanation=s.explanation and f"{s.explanation}; the given name of a "
                        "person the document names in full")
        out.append(s)
    return out


def surnames_read_as_firms(text: str, spans: Sequence[Span], sure: float = SURE) -> list[Span]:
    """The spans, a one-word model COMPANY span made PERSON where it is the last word of a
    person's name of two words or more that the model found with a score of at least
    `sure`, whose first word is a given name ("Leonard Pryce" ... "ordered [Pryce] to
    pay"); not before a possessive and a capitalised word (`FIRMS_PERSON`: "[Ayala]'s
    Jaime Augusto Zobel de Ayala", a firm's people), not a well-known firm's name
    (`patterns.FIRMS`: "Lazard"), the surname of a firm named after its founder
    (`tidy.FOUNDERS_FIRMS`: "Schwab" beside "Charles Schwab"), nor the first word of a
    firm named in full (`_named_in_full`: "Pembroke Advisors" beside "Alastair
    Pembroke")."""
    given = given_names()
    surnames = {s.text.split()[-1] for s in spans if s.label == "PERSON" and
                s.source == "model" and s.score >= sure and " " in s.text.strip() and
                s.text.split()[0].casefold() in given and s.text not in FOUNDERS_FIRMS}
    heads = {s.text.split()[0] for s in spans if s.label == "COMPANY" and _named_in_full(s)}
    return [replace(s, label="PERSON", explanation=s.explanation and f"{s.explanation}; the "
                    "surname of a person the document names in full")
            if s.label == "COMPANY" and s.source == "model" and s.text in surnames and
            s.text not in heads and FIRMS.fullmatch(s.text) is None and
            not FIRMS_PERSON.match(text, s.end) else s for s in spans]


# a possessive and a capitalised word after a firm's name: the firm's people ("[Ayala]'s
# Jaime Augusto Zobel de Ayala", "[Blackstone]'s Jon Gray")
FIRMS_PERSON = re.compile(r"['\u2019]s[ \t]+[A-Z]")


def firms_first_words(text: str, spans: Sequence[Span]) -> list[Span]:
    """The spans, a one-word model PERSON span made COMPANY where it is the first word of
    a firm named in full in the same document, a COMPANY span of two words or more that
    ends in a firm's word or legal form (`tidy.FIRM_ENDS`): a press release or a story
    names a firm in full once and then by its first word ("Halcyon Payments plc" ...
    "[Halcyon] is authorised"; "Wells Fargo" ... "a [Wells] spokeswoman"; not "[Steiner
    's]" or "[McDoniel and Caldwell]", a person's possessive or two people read as a
    firm); or where the same word alone is a firm's span elsewhere in the document
    ("[Aviva]" ... "[Aviva]'s bereavement team", "[Olam]'s co-founder"); unless
    the word is a given name two of Faker's locales list ("Morgan",
    `lexicon.widely_given`) or a word of a PERSON span of two words or more ("Alastair
    Pembroke" founded "Pembroke Advisors"; "[Pembroke] said"; a double-barrelled surname
    whole, "Henrietta Oyelaran-Cole" and the "Oyelaran-Cole Family Trust"), or the span
    follows a person's courtesy title ("Tran Family Nail Spa LLC" ... "notify Ms. [Tran]":
    `tidy.after_title`)."""
    heads = {s.text.split()[0] for s in spans if s.label == "COMPANY" and _named_in_full(s)} | \
        {s.text for s in spans if s.label == "COMPANY" and " " not in s.text}
    lone = [s for s in spans if s.label == "PERSON" and s.source == "model" and s.text in heads]
    if not lone:
        return list(spans)
    people = {w for s in spans if s.label == "PERSON" and " " in s.text
              for w in WORD.findall(s.text) + s.text.split()}  # ("Oyelaran-Cole" whole too)
    given = widely_given()
    firms = {id(s) for s in lone if s.text not in people and s.text.casefold() not in given
             and not after_title(text, s.start)}
    return [replace(s, label="COMPANY", explanation=s.explanation and
                    f"{s.explanation}; a firm's name, or its first word, elsewhere in the document")
            if id(s) in firms else s for s in spans]


def firms_cut_short(text: str, spans: Sequence[Span]) -> list[Span]:
    """The spans, sorted, a model COMPANY span widened to the words right before it where
    they and it are, word for word, a firm the document names in full elsewhere
    (`_named_in_full`), or the first words of one: the model read a dateline's "-- Cobalt
    Ridge Bancshares, Inc." as "[Ridge Bancshares, Inc.]", its first word left in clear,
    where the release's "About" paragraph names "[Cobalt Ridge Bancshares, Inc.]", and a
    filing's short name '("Harbor Lane")' as "[Lane]" after "Harbor Lane Capital
    Management, LP"; not over the span before it."""
    starts = {}  # a run of a firm's words after its first -> the words before them
    for s in spans:
        if s.label == "COMPANY" and _named_in_full(s):
            words = s.text.split(" ")
            for i in range(1, len(words)):
                for j in range(i + 1, len(words) + 1):
                    starts.setdefault(" ".join(words[i:j]), " ".join(words[:i]) + " ")
    out = sorted(spans)
    for i, s in enumerate(out):
        head = starts.get(s.text) if s.label == "COMPANY" and s.source == "model" else None
        a = s.start - len(head) if head else -1
        if a < 0 or text[a:s.start] != head or (a and _word(text[a - 1])) or \
                (i and out[i - 1].end > a):
            continue
        out[i] = replace(s, start=a, text=text[a:s.end])
    return out


def persons_in_other_case(text: str, spans: Sequence[Span], sure: float = SURE) -> list[Span]:
    """The spans, a model COMPANY span made PERSON where it is, but for its letters' case
    and its spacing, the full name of a person the model found with a score of at least
    `sure` elsewhere in the document: a filing's cover prints the name in capitals, which
    the model reads as a firm's ("Reporting Person: [ZHANG WEIMIN]" above "/s/ ... for
    Zhang Weimin"); not a firm's name in full (`_named_in_full`: "Charles Schwab"). Two
    model spans with only spaces between them that are such a name together are one
    PERSON span (a transcript's "[EBRAHIM] [POONAWALA]:" below "Ebrahim Poonawala with
    Bank of America": `_one_name`). So is a model COMPANY span that is such a person's
    double-barrelled surname alone ("**[Okonkwo-Barnes]:**" answering an interview after
    "Adaeze Okonkwo-Barnes", "[Albanese-Roth]'s lawyer"): a surname without a hyphen may
    name a firm as well in the same text ("Wood's flagship fund" after "Cathie Wood")."""
    full = [s.text for s in spans if s.label == "PERSON" and s.source == "model"
            and s.score >= sure and " " in s.text.strip()]
    if not full:
        return list(spans)
    names = {_folded(name) for name in full} | \
        {_folded(last) for name in full if "-" in (last := name.split()[-1])}
    out: list[Span] = []
    for s in spans:
        if out and _one_name(text, out[-1], s, names):
            first = out.pop()
            s = replace(s, start=first.start, text=text[first.start:s.end], label="PERSON",
                        score=max(first.score, s.score))
        out.append(s)
    return [replace(s, label="PERSON", explanation=s.explanation and
                    f"{s.explanation}; a person's name the document gives in full")
            if s.label == "COMPANY" and s.source == "model" and not _named_in_full(s) and
            _folded(s.text) in names else s for s in out]


def _one_name(text: str, first: Span, second: Span, names: set[str]) -> bool:
    """Whether two model spans, a person's or a firm's each and only spaces between them,
    are together one of the names (`names`, folded; a number's span beside a name, which
    folding would drop, is not)."""
    return all(s.source == "model" and s.label in ("PERSON", "COMPANY")
               for s in (first, second)) and \
        text[first.end:second.start].strip(" \t") == "" and \
        _folded(text[first.start:second.end]) in names


def _folded(value: str) -> str:
    """A value's words, one space apart, case folded ("ZHANG  WEIMIN" -> "zhang weimin")."""
    return " ".join(WORD.findall(value)).casefold()


def _in_a_term(text: str, start: int, end: int, own: set[str]) -> bool:
    """Whether a part of a name at text[start:end] is one word of a run of capitalised
    words, a term's rather than the name's (`2026-12-06-mention-terms.md`): a capitalised
    word one space before it that is no title, no possessive and no word of a name
    (`own`) ("Purchase [Price]", not "Ms. [Grant]", "Tesla's [Musk]" or "Ann [Lee]"), or
    one after it that is no title and no word of a name ("[Bond] Indenture", not "[Ann]
    Lee2")."""
    before = WORD_BEFORE.search(text, max(0, start - 40), start)
    if before is not None and before.group(1).rstrip(".").casefold() not in LONE_TITLES \
            and not before.group(1).endswith(("'s", "\u2019s")) and \
            WORD.match(before.group(1)).group() not in own:
        return True
    after = TERM_AFTER.match(text, end)
    return after is not None and not (after.group(1) and (
        after.group(1) in own or after.group(1).casefold() in LONE_TITLES))


def _founders_firm(text: str, start: int, end: int) -> int | None:
    """Where a firm named after a person the document names ends, where the part of the
    name at text[start:end] is its first word (`FOUNDED_FIRM`: "[Greensill Capital],
    founded by Lex Greensill"), no capitalised word before it; or None."""
    firm = FOUNDED_FIRM.match(text, end)
    return firm.end() if firm and WORD_BEFORE.search(text, max(0, start - 40), start) is None \
        else None


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"
