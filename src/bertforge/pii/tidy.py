"""Tidying the model's spans into values: whole words, no markup names, no leading
prepositions in dates, and the shape every value of its group has; then the floors.

A tagger marks tokens; a value is a run of characters. `tidy` turns the one into the
other (and drops what no value of its group looks like), `above_floors` drops the spans
whose mean score is under their group's floor (chosen on a validation split by
`bertforge pii calibrate`), so that a pattern can take their place in the merge.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import replace
from typing import Sequence

from ..spans import Span
from .lexicon import (BODIES, COURTESY_TITLES, ENGLISH_TITLES, KIN, OFFICE_TITLES, PRONOUNS,
                      a_place, common_words, given_names, known_names, name_or_rare,
                      widely_given)
from .nobodys import (GREETING_WORDS, NUMBER_GROUPS, REPLY_WORDS, at_line_start, eponym, nobodys,
                      party_role, party_roles)
from .patterns import (ACCOUNT_NUMBER, BIC, DEPARTMENT, FIRM_SEAT, FIRMS, FORMS_ABROAD,
                       GREETING_BEFORE, KNOWN_FIRMS, LETTER_SALUTATIONS, MONTH, NAME_PARTICLE,
                       NAME_SALUTATIONS, NOT_NAME_WORDS, REGISTERED, ROLE_LEAD, US_STATES,
                       job_title, trie_pattern)

LOOSE = set(" \t\r\n,;:|'\"")  # never the first or last character of a span
LOOSE_END = LOOSE | set("-/(")
TITLED = ("PERSON", "COMPANY")  # names never start with a full stop
LEAD_SEPARATORS = "-/\u2013\u2014"  # with a space after: a field's separator


def _symbol(char: str) -> bool:
    """A symbol such as "▶", "•" or "€" never starts personal data ("+" of a phone does)."""
    return char != "+" and unicodedata.category(char).startswith("S")


def _closes(text: str, a: int, b: int) -> int:
    """Where the bracket opened at text[a] closes before b (-1: not before b)."""
    depth = 0
    for i in range(a, b):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return -1


def _in_brackets(text: str, a: int, b: int) -> bool:
    """Whether text[a:b] is one pair of brackets and what they hold."""
    return b - a > 2 and text[a] == "(" and text[b - 1] == ")" and _closes(text, a, b) == b - 1


def _separator(text: str, a: int, b: int) -> bool:
    """A dash or slash and a space before a value ("User ID - svc_etl", "IBAN / BIC")
    separate it from what came before."""
    return text[a] in LEAD_SEPARATORS and a + 1 < b and text[a + 1] in " \t"


def strip(text: str, a: int, b: int) -> tuple[int, int]:
    while a < b and (text[a] in LOOSE or _symbol(text[a]) or _separator(text, a, b)):
        a += 1
    while b > a and text[b - 1] in LOOSE_END:
        b -= 1
    # a bracket that opens or closes around the value, not inside it: "(+44 20 7946 0958)";
    # a word in brackets is the word ("(52140)"), a pair is a tuple ("(40.71, -74.01)")
    if _in_brackets(text, a, b) and not any(c.isspace() for c in text[a:b]):
        return strip(text, a + 1, b - 1)
    if b > a and text[a] == "(" and text.count(")", a, b) < text.count("(", a, b):
        return strip(text, a + 1, b)
    if b > a and text[b - 1] == ")" and text.count(")", a, b) > text.count("(", a, b):
        return strip(text, a, b - 1)
    return a, b


def _whole_words(text: str, a: int, b: int) -> tuple[int, int]:
    """A span that cuts a run of letters, digits and underscores in two, widened to it."""
    if b > a:
        while a > 0 and _word(text[a - 1]) and _word(text[a]):
            a -= 1
        while b < len(text) and _word(text[b - 1]) and _word(text[b]):
            b += 1
    return a, b


def _glued_initials(text: str, a: int) -> int:
    """Where a name starts once the initials glued before it are taken in: the model
    may leave the first of "C.S. Venkatakrishnan" out ("chief executive [S.
    Venkatakrishnan]")."""
    while a >= 2 and text[a - 1] == "." and text[a - 2].isupper() and \
            (a == 2 or not _word(text[a - 3])):
        a -= 2
    return a


ID_GROUPS = ("ACCOUNT", "GOV_ID", "BANK", "PHONE")


AREA_CODE_BEFORE = re.compile(r"\(\+?\d{1,4}$")  # "(11" before the bracket that closes it


def _whole_id(text: str, a: int, b: int, label: str, floor: int,
              ceiling: int) -> tuple[int, int]:
    """An identifier whose span starts at a hyphen or slash glued to what is before it
    ("-2291-774" of "HX-2291-774"), not back past the span before it (`floor`), or ends
    right before one glued to what follows ("88213" of "88213-B"), not into a name the model
    read after it (`ceiling`: "431512009871/[MEENA RAGHAVAN]" of a UPI payment's line),
    widened to the whole run: the decoder reads "HX", "-" and "2291" as three words, so the
    whole-word rule does not see the letters left in clear (nor, where the model read a long
    number's start as a phone number, "0049-1182-55" of "0049-1182-55-2001234567", the
    rest); and a phone number that starts at the bracket closing its area code (")
    98765-4321" of "(11) 98765-4321"), widened to the code."""
    if label not in ID_GROUPS or b <= a:
        return a, b
    if label == "PHONE" and text[a] == ")":
        code = AREA_CODE_BEFORE.search(text, max(floor, a - 6), a)
        a = code.start() if code else a
    if floor < a and text[a] in "-/" and _word(text[a - 1]):
        while a > floor and (_word(text[a - 1]) or
                             text[a - 1] in "-/" and a - 1 > floor and _word(text[a - 2])):
            a -= 1
    if b + 1 < ceiling and text[b] in "-/" and _word(text[b + 1]) and _word(text[b - 1]):
        while b < ceiling and (_word(text[b]) or
                               text[b] in "-/" and b + 1 < ceiling and _word(text[b + 1])):
            b += 1
    return a, b


# a number's last group of four digits, and the groups of three or four after it one
# space apart, up to where a word, a slash, a hyphen or an amount's decimals would go on
LAST_GROUP = re.compile(r"(?<![\d.,])\d{4}$")
GROUPS_AFTER = re.compile(r"(?: \d{3,4})+(?![\w/-]|[.,]\d)")


def _grouped_end(text: str, a: int, b: int, label: str) -> int:
    """The end of an account's, a bank's or a card's number that the model ended at a
    group of four digits with more groups after it, one space apart ("Account: [1234]
    5678"), at the last of them: the rest of the number is as much the person's."""
    if label not in ("ACCOUNT", "BANK", "CARD") or not LAST_GROUP.search(text, a, b):
        return b
    more = GROUPS_AFTER.match(text, b)
    return more.end() if more else b


def _in_markup(text: str, a: int, b: int) -> bool:
    """Whether a span is a tag or attribute name inside "<...>" (not a quoted value):
    XML and HTML names such as "PstlAdr" or "td" are never personal data. Looks no
    further than a tag's length either side: a 5 MB log has many spans and no tags."""
    reach = 200
    opened = text.rfind("<", max(0, a - reach), a)
    if opened < 0 or text.rfind(">", opened, a) >= 0 or "\n" in text[opened:a]:
        return False
    closed = text.find(">", b, b + reach)
    return closed >= 0 and "<" not in text[b:closed] and text.count('"', opened, a) % 2 == 0 \
        and "@" not in text[a:b]


# the marks of a footnote or an affiliation glued to a name's end ("Amelia Whitford¹",
# "Kenji Sato*"): superscript digits, which `str.isdigit` counts as digits, and daggers
FOOTNOTE_MARKS = "\u00b9\u00b2\u00b3\u2070\u2074\u2075\u2076\u2077\u2078\u2079*\u2020\u2021"


def _word(char: str) -> bool:
    return char.isalnum() and char not in FOOTNOTE_MARKS or char == "_"


ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}")  # "\u00e9" in JSON: a letter, not digits
NONSPACE = re.compile(r"\S+")


def _names(text: str, span: Span) -> list[Span]:
    """A person's name has no digits: the words of a PERSON span that hold one are not
    part of it ("04NTRFNONREF", "Smith 4410" -> "Smith"), but a footnote's mark glued
    to a word's end ends the name before it ("Amelia Whitford¹" -> "Amelia Whitford",
    as a paper's or a report's authors are written). Other labels pass unchanged."""
    if span.label != "PERSON" or not any(c.isdigit() for c in ESCAPE.sub("", span.text)):
        return [span]
    pieces: list[list[int]] = []  # runs of words without digits, as [start, end]
    after_digits = True
    for m in NONSPACE.finditer(text, span.start, span.end):
        bare = m.group().rstrip(",;")
        word = bare.rstrip(FOOTNOTE_MARKS)
        marked = len(word) < len(bare) and word[-1:].isalpha()
        if any(c.isdigit() for c in ESCAPE.sub("", word)):
            after_digits = True
            continue
        end = m.start() + len(word) if marked else m.end()
        if after_digits:
            pieces.append([m.start(), end])
        else:
            pieces[-1][1] = end
        after_digits = marked  # a name ends at its mark
    return [Span(a, b, span.label, text[a:b], span.score, span.source) for a, b in pieces]


def _date_end(text: str, a: int, b: int, label: str) -> int:
    """A full stop after "10:30 AM", "2024-03-01" or a weekday's or month's name in full
    ends the sentence, not the date ("a.m." keeps its own); "tomorrow" after "12:21am" says
    which day, it is no date of anyone's."""
    if label != "DATE":
        return b
    relative = RELATIVE_DAY.search(text, a, b)
    if relative and relative.start() > a:
        b = relative.start()
    # a bank statement's line: "11/03 [ZELLE PAYMENT TO ...]", the date's and then the
    # description's, in capitals; a month, a day or a time zone stays the date's
    tail = CAPITALS_TAIL.search(text, a, b)
    if tail and tail.start() > a and not CALENDAR.match(tail.group(1)) \
            and tail.group(1) not in TIME_ZONES:
        b = tail.start()
    if b - a > 2 and text[b - 1] == "." and text[b - 2] != "." \
            and (text[b - 2].isdigit() or text[b - 3:b - 1].upper() in ("AM", "PM") or
                 WHOLE_CALENDAR_WORD.search(text, a, b - 1)):
        return b - 1
    return b


# a weekday's or a month's name written in full, which no full stop abbreviates: a full
# stop after it ends the sentence ("pricing by [Friday]."; "Fri." and "Sept." keep theirs)
WHOLE_CALENDAR_WORD = re.compile(r"(?i)(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|january|"
                                 r"february|march|april|may|june|july|august|september|"
                                 r"october|november|december)$")


MONTH_ALONE = re.compile(MONTH + r"\.?")
DAY_AFTER = re.compile(r"\.?[ \t](\d{1,2})(?:st|nd|rd|th)?(?![\w:]|[.,/-]\d)")
DAY_BEFORE = re.compile(r"(?<![\w.,:/-])(\d{1,2})(?:st|nd|rd|th)?[ \t]$")


def _month_day(text: str, a: int, b: int, label: str) -> tuple[int, int]:
    """A model DATE span of a month's name alone with the day's number written right
    after or before it ("Jan" of "LONDON, Jan 12 -"), after the abbreviation's full stop
    too, as news writes a date ("Nov" of "died Nov. 30"): the model saw a date and stopped
    a word short, and the `dates` pattern wants a year."""
    if label != "DATE" or not MONTH_ALONE.fullmatch(text, a, b):
        return a, b
    after = DAY_AFTER.match(text, b)
    if after and 1 <= int(after.group(1)) <= 31:
        return a, after.end()
    before = DAY_BEFORE.search(text, max(0, a - 6), a)
    if before and 1 <= int(before.group(1)) <= 31:
        return before.start(), b
    return a, b


CAPITALS_TAIL = re.compile(r"[ \t]+([A-Z]{3,})$")
TIME_ZONES = {"UTC", "GMT", "EST", "EDT", "CST", "CDT", "MST", "MDT", "PST", "PDT", "AKST",
              "AKDT", "HST", "CET", "CEST", "EET", "EEST", "WET", "WEST", "BST", "IST", "JST",
              "KST", "AEST", "AEDT", "ACST", "AWST", "NZST", "NZDT", "HKT", "SGT", "MSK"}
ZONE_NAMES = TIME_ZONES | {"ET", "PT", "CT", "MT"}  # and the US's zones by their two letters
# a time's zone that ends a sentence before a name, which the model reads with it ("at
# 15:40 [ET. Tobias] will follow up")
ZONE_LEAD = re.compile(r"(?:%s)\.[ \t]+(?=[A-Z])" % trie_pattern(ZONE_NAMES))
# an introduction's verb in another language, which the model reads with the name after
# it ("je m'[appelle Théo Marchand]", "me [llamo Andrés]")
INTRODUCING_VERB = re.compile(r"(?:m['\u2019])?(?:appelle|llamo|chiamo|chamo|heiße|heisse)[ \t]+")


# what a name may end with, full stop and all ("John Smith Jnr."; "Esq." keeps its full
# stop here, and `_without_credentials` then leaves both out); an initial ("John A.") and
# "Jr." or "Sr." have fewer than three letters and keep theirs anyway
NAME_ENDS = {"esq", "jnr", "snr", "sen", "jun"}
# a firm's name's words that its full stop abbreviates, though they are words too ("Warner
# Bros.", "Lakeside Ins.", Turkish "Tic. ve San."): a firm's span keeps the full stop
# after them and after a word glued to a dot before it ("S.Coop."), and drops it after a
# whole word ("First Horizon Bank."; a legal form's, "Corp.", `_with_legal_forms` puts back)
FIRM_ABBREVIATIONS = {"bros", "dept", "ins", "fin", "tech", "intl", "natl", "assn", "assoc",
                      "mfg", "svcs", "mgmt", "univ", "cos", "grp", "hldgs", "san",
                      "tic"}
LAST_WORD = re.compile(r"[^\W\d_]+$")


# an initial without its full stop after a name, where the name's field or line ends
# ("Reporting Person: LINDQVIST ERIK [M]\n", "Kavya [R] D/o Venkatesh Rao", "Iyer [P]"),
# as forms, filings and Indian documents write a middle name's initial
TRAILING_INITIAL = re.compile(r" [A-Z](?=[ \t]*(?:\n|$|[,;])|[ \t]{2}|[ \t]+[SDWC]/[Oo]\b)")


def _name_end(text: str, a: int, b: int, label: str) -> int:
    """A sentence's full stop after a name is not part of it ("Witness: Harold
    Fenwick-Lowe."), nor one standing apart after a space ("Thomas A ." in text split
    into words), whoever's initial it closes; nor are closing "!" and "?" marks ("thanks
    amara!"; a firm keeps its own: "Yahoo!"); nor is a field's label glued to a "#" after
    the name ("ZELLE TO KAREN OYELARAN [CONF]# R8K2L9"). A firm's full stop after a
    whole word of the vocabulary or a firm's word, or after a well-known firm's name, is
    the sentence's too ("First Horizon Bank.", "Fifth Third Bancorp.", "Citi."), not after
    a word firms abbreviate (`FIRM_ABBREVIATIONS`) or one glued to a dot ("S.Coop."). An initial
    without its full stop after a name that ends its field is the name's
    (`TRAILING_INITIAL`: "LINDQVIST ERIK [M]"). No value ends in an ampersand after a
    space ("[Johann Rupert &] family")."""
    if b - a > 2 and text[b - 1] == "&" and text[b - 2] in " \t":  # (a secret's is glued)
        b = len(text[a:b - 1].rstrip()) + a
    if label == "PERSON":
        while b - a > 1 and text[b - 1] in "!?":
            b -= 1
        initial = TRAILING_INITIAL.match(text, b)
        if initial:
            b = initial.end()
        if text[b:b + 1] == "#":
            space = max(text.rfind(" ", a, b), text.rfind("\t", a, b))
            if space > a:
                b = len(text[a:space].rstrip()) + a
    if label == "PERSON" and b - a > 1 and text[b - 1] == "." and text[b - 2].isspace():
        return len(text[a:b - 1].rstrip()) + a
    if label == "PERSON" and b - a > 1 and text[b - 1] == ".":
        word = LAST_WORD.search(text, a, b - 1)
        if word and len(word.group()) >= 3 and word.group().casefold() not in NAME_ENDS:
            return b - 1
    if label == "COMPANY" and b - a > 1 and text[b - 1] == ".":
        word = LAST_WORD.search(text, a, b - 1)
        folded = word.group().casefold() if word else ""
        if len(folded) >= 3 and text[word.start() - 1:word.start()] in (" ", "\t") and \
                (folded in common_words() or word.group() in FIRM_WORDS or
                 FIRMS.fullmatch(text, a, b - 1)) and folded not in FIRM_ABBREVIATIONS:
            return b - 1  # (a legal form's stop, "Corp.", `_with_legal_forms` puts back)
    return b


def _hashtag_start(text: str, a: int, b: int, label: str) -> int:
    """A name written as a hashtag ("#PaulMckenna") is masked with its "#": the corpora
    that hold such hashtags mark them so, and the model finds the name without it."""
    if label == "PERSON" and a > 0 and text[a - 1] == "#" and not (a > 1 and _word(text[a - 2])):
        return a - 1
    return a


RELATIVE_DAY = re.compile(r"(?i)\s+(?:today|tonight|tomorrow|yesterday)\.?$")
# what joins two values that are two spans; for names also a comma with a space before
# it, as text split into words writes a list ("Tohpati , Ridho and Abdee Negara"), which
# "Miller, Brandon" is not
# (a spaced dash parts a name from what follows it, as a call's list of participants
# writes "Jonathan Feld - Morgan Stanley"; a name's own hyphen has no spaces)
JOINED = {"DATE": re.compile(r"\s+and\s+"),
          "PERSON": re.compile(r"(?i)\s+(?:and|or)\s+|\s+,\s+|[ \t]+[-\u2013\u2014][ \t]+"),
          "EMAIL": re.compile(r"\s+(?=@\w)")}
NAME_WORD = re.compile(r"\b[^\W\d_]*[A-Z][^\W\d_]+")
# a title for several people ("Messrs. Thornbury, Vasquez and Lindqvist"): after it a
# comma parts surnames, where elsewhere it may part a surname from a given name
_PLURAL_TITLE = r"(?:Messrs|MESSRS|Mmes|MMES|Mses|MSES|Drs|DRS)\.?[ \t]+"
PLURAL_TITLE = re.compile(_PLURAL_TITLE)
PLURAL_TITLE_BEFORE = re.compile(_PLURAL_TITLE + "$")
COMMA = re.compile(r"[ \t]*,[ \t]*")
KEY_STOPS = set("=:,;\"'<>{}[]|`")  # what parts a value from its key or its neighbours


def _whole_secret(text: str, a: int, b: int) -> tuple[int, int]:
    """A user name, password or key with the characters glued to it ("^3l+@2_ip9P", not
    "3l+@2_ip9P"), up to a space or a character of `KEY_STOPS` ("DB_USER=svc_etl" gives
    "svc_etl"); a sentence's full stop after it, brackets around it and a bracket that
    closes an aside opened before it ("(login: t.okafor88)") are not part of it."""
    while a > 0 and not text[a - 1].isspace() and text[a - 1] not in KEY_STOPS:
        a -= 1
    while b < len(text) and not text[b].isspace() and text[b] not in KEY_STOPS:
        b += 1
    if b - a > 1 and text[b - 1] == "." and (b == len(text) or text[b].isspace()):
        b -= 1
    line = text.rfind("\n", 0, a) + 1
    if b - a > 1 and text[b - 1] == ")" and text.count(")", a, b) > text.count("(", a, b) \
            and text.count("(", line, a) > text.count(")", line, a):
        b -= 1  # it closes an aside opened before the value on its line
    return (a + 1, b - 1) if _in_brackets(text, a, b) else (a, b)


def _joined(text: str, first: Span, second: Span, label: str) -> Span:
    """One span from the start of `first` to the end of `second`, the surer score."""
    return Span(first.start, second.end, label, text[first.start:second.end],
                max(first.score, second.score), second.source)


def _ending_at(text: str, span: Span, end: int) -> Span:
    return replace(span, end=end, text=text[span.start:end])


def _starting_at(text: str, span: Span, start: int) -> Span:
    return replace(span, start=start, text=text[start:span.end])


def _cut(span: Span, length: int) -> Span:
    """The span's first `length` characters."""
    return replace(span, end=span.start + length, text=span.text[:length])


def _without_underscores(text: str, a: int, b: int) -> tuple[int, int]:
    """A name without the underscores of the line it is written on ("Signature
    _____J. Kowalczyk______")."""
    while a < b and text[a] == "_":
        a += 1
    while b > a and text[b - 1] == "_":
        b -= 1
    return a, b


# a person's full name as a list of two writes it: two or three capitalised words (one
# may be an initial, with its full stop or, as a tax form prints names in capitals,
# without: "KOFI A MENSAH & ABENA MENSAH"), single spaces, no comma ("Bull, Nolan and
# Bailey" is a firm)
_NAME_WORD = r"[A-Z][^\W\d_]+(?:[-'][A-Z]?[^\W\d_]+)?"
_FULL_NAME = rf"{_NAME_WORD}(?: (?:[A-Z]\.?|{_NAME_WORD})){{1,2}}"
NAME_PAIR = re.compile(rf"({_FULL_NAME}) (?:and|AND|&) ({_FULL_NAME})")
# a couple named with one surname, as joint borrowers and account holders are ("Kwame and
# Abena Asante"): a given name, "and" (not "&", which joins a firm's founders: "Hughes &
# Lee Car Wash"), and a given name and a surname, perhaps an initial between them
COUPLE = re.compile(rf"({_NAME_WORD}) (?:and|AND) ({_NAME_WORD}(?: [A-Z]\.?)? {_NAME_WORD})")
# a surname, "and", and a full name ending in that surname, as a form lists joint
# borrowers ("Marcus A. [Delgado and Yesenia Delgado]", the model's span perhaps with
# the initial's full stop before it): no firm is named so
SURNAME_PAIR = re.compile(rf"[.\s]*({_NAME_WORD}) (?:and|AND) ({_NAME_WORD}(?: [A-Z]\.?)? (\1))")


def _name_pair(span: Span) -> list[Span] | None:
    """Two PERSON spans for a model COMPANY span that is two people's full names joined
    by "and" or "&" ("Rafael Ortiz and Lena Ortiz": the generator's firms joined by
    "and" taught the model that shape), every word of two letters or more a given name
    or surname (`known_names`), or the two names ending in the same surname; or a couple
    with one surname (`_couple`), or a surname and a full name ending in it
    (`SURNAME_PAIR`); None for anything else."""
    found = NAME_PAIR.fullmatch(span.text) if span.label == "COMPANY" else None
    if found is None and span.label == "COMPANY" and span.source == "model":
        surname = SURNAME_PAIR.fullmatch(span.text)
        return _couple(span) if surname is None else [
            Span(span.start + surname.start(k), span.start + surname.end(k), "PERSON",
                 surname.group(k), span.score, span.source) for k in (1, 2)]
    if found is None or span.source != "model":
        return None
    names = known_names()
    words = re.findall(r"[^\W\d_]{2,}", f"{found.group(1)} {found.group(2)}")
    family = found.group(1).split()[-1] == found.group(2).split()[-1]  # "X Nnamdi and Y Nnamdi"
    if not family and not all(w.casefold() in names for w in words) and \
            not _rare_pair(found, words):
        return None
    return [Span(span.start + found.start(k), span.start + found.end(k), "PERSON",
                 found.group(k), span.score, span.source) for k in (1, 2)]


def _rare_pair(found: re.Match, words: list[str]) -> bool:
    """Whether two full names read as a firm are people's though a word of them is on no
    Faker locale's list: every word a name or one the vocabulary lacks (`name_or_rare`:
    "Oluwaseun"), and one of the two starting with a given name ("Oluwaseun Adeyemi-Park
    and [Teodor] Halvorsen"), the last no firm's word or legal form ("Kessler Dunmore &
    Pratt LLP"); a firm's name holds a word of the vocabulary."""
    given = given_names()
    return all(name_or_rare(w.casefold()) for w in words) and words[-1] not in FIRM_ENDS and \
        any(found.group(k).split()[0].casefold() in given for k in (1, 2))


def _couple(span: Span) -> list[Span] | None:
    """Two PERSON spans for a model COMPANY span that is a couple named with one surname
    (`COUPLE`: "Kwame and Abena Asante"), the first word and the second name's first
    word given names (`given_names`), and the surname a name (`known_names`; not a
    trade's: "Lee Airlines"): the given name alone, and the full name."""
    found = COUPLE.fullmatch(span.text)
    names = given_names()
    if found is None or found.group(1).casefold() not in names or \
            found.group(2).split()[0].casefold() not in names or \
            found.group(2).split()[-1].casefold() not in known_names():
        return None
    return [Span(span.start + found.start(k), span.start + found.end(k), "PERSON",
                 found.group(k), span.score, span.source) for k in (1, 2)]


def _twice(text: str, span: Span) -> list[Span] | None:
    """Two PERSON spans for a model PERSON span that is one name written twice, as a
    signature and the typed name under it ("/s/ Aaron J. Feldstein Aaron J. Feldstein");
    None for anything else."""
    words = list(NONSPACE.finditer(text, span.start, span.end))
    half = len(words) // 2
    if span.label != "PERSON" or len(words) < 2 or len(words) % 2 or \
            [w.group() for w in words[:half]] != [w.group() for w in words[half:]]:
        return None
    return [Span(a, b, "PERSON", text[a:b], span.score, span.source)
            for a, b in ((words[0].start(), words[half - 1].end()),
                         (words[half].start(), words[-1].end()))]


# a full stop and a space after a word of three letters or more inside a PERSON span
SENTENCE_END = re.compile(r"(?<=[^\W\d_]{3})\. (?=[A-Z])")
# a word and its full stop or comma, opening a PERSON span
REPLY = re.compile(r"([^\W\d_]+)[.,] +")
# given names as old records and signatures abbreviate them, with a full stop ("Geo.
# Washington", "Chas. Dickens")
NAME_ABBREVIATIONS = frozenset(("geo", "chas", "thos", "jas", "jos", "robt", "benj", "saml",
                                "edw", "wm", "jno", "mohd", "muhd", "alex", "fred", "ed"))


def _two_sentences(span: Span) -> list[Span] | None:
    """Two PERSON spans for a model PERSON span that runs over a sentence's end: a name and
    the next sentence's name ("Only [Tariq. Tariq Haddad], from accounting"): the word
    before the full stop a given name or surname (`known_names`) and no abbreviated given
    name ("Geo. Smith", `NAME_ABBREVIATIONS`); the next sentence's name alone after a reply
    ("Witness: [No. Emeka] never said", `nobodys.REPLY_WORDS`) or after a word of prose in
    lower case, of the vocabulary and no name ("yeah [probably. Lukas] is OOO"); None for
    anything else. (A title parted from its name, "Sen. Ann Lee", is then dropped as a title
    alone.)"""
    if span.label != "PERSON" or span.source != "model":
        return None
    reply = REPLY.match(span.text)
    if reply and reply.group(1).casefold() in REPLY_WORDS:
        return [Span(span.start + reply.end(), span.end, "PERSON", span.text[reply.end():],
                     span.score, span.source)]
    found = SENTENCE_END.search(span.text)
    if found is None:
        return None
    word = span.text[:found.start()].split()[-1]
    after = Span(span.start + found.end(), span.end, "PERSON", span.text[found.end():],
                 span.score, span.source)
    if word in common_words() and word not in known_names():  # (the vocabulary's in lower case)
        return [after]  # "yeah [probably. Lukas] is OOO": prose, then the name
    if word.casefold() not in known_names() or word.casefold() in NAME_ABBREVIATIONS:
        return None
    return [_cut(span, found.start()), after]


def _firm_sentences(span: Span) -> list[Span] | None:
    """Two COMPANY spans for a model COMPANY span that runs over a sentence's end ("BNY
    Mellon and [KPMG. CTP] candidate", "Pérez-[Llorca. Lombard] Odier"): the word before
    the full stop a word of the vocabulary, one in capitals ("KPMG"; "LLC", a legal form
    written without a full stop, ends the sentence too), the end of a hyphenated name,
    or a well-known firm's whole name ("Equifax and [TransUnion. Tidewater]'s
    investigator", `FIRMS`); never an abbreviation that firms write with a full stop
    ("CORP.", "Bros.", "Mfg.", "Amer.": `LEGAL_FORMS`, `FIRM_ABBREVIATIONS`, and any
    other word outside the vocabulary); None for anything else."""
    found = SENTENCE_END.search(span.text) if span.label == "COMPANY" and \
        span.source == "model" else None
    if found is None:
        return None
    word = span.text[:found.start()].split()[-1]
    last = word.rsplit("-", 1)[-1]
    folded = last.casefold()
    if folded in FIRM_ABBREVIATIONS or word + "." in LEGAL_FORMS or \
            not (folded in common_words() or last.isupper() or "-" in word or
                 FIRMS.fullmatch(word)):
        return None
    return [_cut(span, found.start()),
            Span(span.start + found.end(), span.end, "COMPANY", span.text[found.end():],
                 span.score, span.source)]


# what parts the firms of a list: a comma, "and", or both
FIRM_LIST_GAP = re.compile(r",? and |, ")


def _firms_listed(span: Span) -> list[Span] | None:
    """COMPANY spans for a model COMPANY span that lists firms ("[M&T Bank and Citizens
    Financial Group]", "[BOK Financial, UMB Financial]"), parted at a comma or "and"
    where the names either side are each a firm by themselves (`_firm_by_itself`) and
    the second does not start with a firm's word or a legal form, which go on the name
    before ("Hills Bank and Trust Company", "Acme Holdings, Inc.", "Morgan Stanley and
    Co": no well-known firm's name is parted so); None where no gap parts it."""
    if span.label != "COMPANY" or span.source != "model":
        return None
    names, at = [], 0  # (start, end) of each name in the span's text
    for gap in FIRM_LIST_GAP.finditer(span.text):
        if span.text[gap.end():].split(" ")[0] in FIRM_ENDS:
            continue  # a legal form or a firm's word goes on the name ("and Trust Company")
        names.append((at, gap.start()))
        at = gap.end()
    names.append((at, len(span.text)))
    cuts = [k for k in range(1, len(names)) if _firm_by_itself(span.text[slice(*names[k - 1])])
            and _firm_by_itself(span.text[slice(*names[k])])]
    if not cuts:
        return None
    starts = [0] + [names[k][0] for k in cuts]
    ends = [names[k - 1][1] for k in cuts] + [len(span.text)]
    return [Span(span.start + a, span.start + b, "COMPANY", span.text[a:b], span.score,
                 span.source) for a, b in zip(starts, ends)]


def _firm_by_itself(name: str) -> bool:
    """Whether a name is a firm's without more: capitalised, and named as a firm
    (`firm_named`)."""
    return name[:1].isupper() and firm_named(name)


def firm_named(name: str) -> bool:
    """Whether a name says by itself that it is a firm's: its last word a firm's word or
    a legal form (`FIRM_ENDS`: "Halcyon Payments plc"), or a well-known firm's whole name
    (`FIRMS`: "Wells Fargo")."""
    words = name.split()
    return bool(words) and words[-1] in FIRM_ENDS or FIRMS.fullmatch(name) is not None


def _name_and_firm(span: Span) -> list[Span] | None:
    """A PERSON span and a COMPANY span for a model PERSON span that is a name, a comma
    and a firm ("Betsy Graseck, Morgan Stanley", as an analyst introduces herself on a
    call), or a name of two words or more, "of" and a firm ("Manan Gosalia of Morgan
    Stanley", as an operator introduces him), and for a model COMPANY span that is a
    person's name (`firms_person`), a spaced dash or "of", and a firm ("Mike Mayo --
    Wells Fargo Securities", a transcript's speaker line): the firm a well-known one
    (`patterns.FIRMS`) or ending in a firm's word or legal form (`FIRM_ENDS`); None for
    anything else ("Okonkwo, Chidi", "Bank of America")."""
    if span.label not in ("PERSON", "COMPANY") or span.source != "model":
        return None
    if span.label == "COMPANY":
        cut = DASH_OR_OF.search(span.text)
        cuts = [cut.span()] if cut and firms_person(span.text[:cut.start()]) else []
    else:
        comma, of = span.text.rfind(", "), OF_FIRM.search(span.text)
        cuts = [(comma, comma + 2)] if comma > 0 else []
        if of is not None and len(span.text[:of.start()].split()) > 1:
            cuts.append(of.span())
    for cut, at in cuts:
        firm = span.text[at:].strip()
        if NAME_WORD.search(span.text, 0, cut) and firm and (
                FIRMS.fullmatch(firm) or firm.split()[-1] in FIRM_ENDS):
            start = span.start + span.text.index(firm, at)
            return [replace(_cut(span, cut), label="PERSON"),
                    Span(start, start + len(firm), "COMPANY", firm, span.score, span.source)]
    return None


def firms_person(value: str) -> bool:
    """Whether the words before a firm in a firm's span are a person's name: capitalised
    words, the first a given name ("Mike Mayo", "Lisa Thorogood"), none a firm's word or
    legal form ("Clayton Holdings"), and the whole no well-known firm ("Morgan Stanley")."""
    words = value.split()
    return bool(words) and all(w[0].isupper() for w in words) and \
        words[0].casefold() in given_names() and \
        not any(w in FIRM_ENDS for w in words) and not FIRMS.fullmatch(value)


OF_FIRM = re.compile(r"[ \t]+of[ \t]+")
DASH_OR_OF = re.compile(r"[ \t]+(?:--?|\u2013|\u2014|of)[ \t]+")  # (a spaced dash or "of")


# a firm's or a person's name, its possessive and a person's full name ("Blackstone's Jon
# Gray"), read as one name
POSSESSED = re.compile(r"([A-Z][\w&.-]*(?: [A-Z][\w&.-]*){0,2})['\u2019]s "
                       r"((?:[A-Z][\w'\u2019.-]* ){1,3}[A-Z][\w'\u2019-]+)")


def _possessed(span: Span) -> list[Span] | None:
    """Two PERSON spans for a model PERSON span that is a name, its possessive and a
    person's full name ("[Blackstone]'s [Jon Gray]"): a firm's people, as news names them
    (`_firms_people` then makes the firm one), or a person's; None for anything else."""
    found = POSSESSED.fullmatch(span.text) if span.label == "PERSON" else None
    if found is None or span.source != "model":
        return None
    return [Span(span.start + found.start(k), span.start + found.end(k), "PERSON",
                 found.group(k), span.score, span.source) for k in (1, 2)]


# the "v." between a lawsuit's parties, and a government's side, which is no one's name
VERSUS = re.compile(r"[ \t]+vs?\.(?=[ \t]|$)")
GOVERNMENT = re.compile(r"(?:United States|U\.S\.|State|People|Commonwealth|Commissioner|"
                        r"City|County|Republic|Government)\b")


def _case_parties(span: Span) -> list[Span] | None:
    """A lawsuit's caption read as one model span ("[Reyes v. Northgate Bancorp, Inc.]",
    "[Miranda v.] Arizona") as its parties, each a person (the relabelling after makes
    a firm of a side that ends in a firm's word or legal form, or is a listed firm:
    `_firm`, `_known_firm`); a government's side ("United States", "State of Ohio",
    "People") and the "v." are none. None for a span without "v." between words."""
    m = VERSUS.search(span.text)
    if m is None or span.label not in ("PERSON", "COMPANY") or span.source != "model":
        return None
    out = []
    for a, b in ((0, m.start()), (m.end(), len(span.text))):
        side = span.text[a:b].strip()
        if not NAME_WORD.search(side) or GOVERNMENT.match(side):
            continue
        start = span.start + span.text.index(side, a)
        out.append(Span(start, start + len(side), "PERSON", side, span.score, span.source))
    return out


def _apart(text: str, span: Span) -> list[Span]:
    """Two values joined by a word no value holds are two spans, where each side is one
    by itself: dates by "and" ("letters of 2025-04-08 and 2024-02-17"; "1 and 3 May"
    stays one), names by "and", "or" or " , " ("I Dewa Gede Budjana or Dewa Budjana"), each
    side with a capitalised word of two letters or more, and full names listed with
    commas (`_people_listed`), or one-word names where the series goes on after them
    (`_series_goes_on`) or a greeting is before them (`_greeted_together`); two people's
    names that the model read as one firm are two names (`_name_pair`), and so is one
    name written twice (`_twice`) and a name on each side of a sentence's end
    (`_two_sentences`), and a name with a firm after its comma is a name and a firm
    (`_name_and_firm`), and a lawsuit's caption its parties (`_case_parties`), and a
    name's possessive before a person's full name parts the two (`_possessed`), and a
    date the sentence's subject after it (`_dated_name`), and names with prose between
    (`_prose_inside`), and a firm's span over a sentence's end (`_firm_sentences`); a
    spaced dash parts names too, and a space before a handle's "@" an email's span (no
    address holds a space: "cc @mkowalczyk @dana-whitlock" lists two handles;
    WikiText's " @-@ " for a hyphen is none). Other labels pass unchanged."""
    pair = _name_pair(span) or _twice(text, span) or _name_and_firm(span) or \
        _case_parties(span) or _possessed(span) or _dated_name(span) or \
        _prose_inside(text, span) or _firm_sentences(span) or _firms_listed(span)
    if pair is not None:
        return pair
    sentences = _two_sentences(span)
    if sentences is not None:
        return [piece for s in sentences for piece in _apart(text, s)]
    join = JOINED.get(span.label)
    if span.label == "PERSON" and (PLURAL_TITLE.match(text, span.start, span.end) or
                                   PLURAL_TITLE_BEFORE.search(text, max(0, span.start - 8),
                                                              span.start) or
                                   _people_listed(span) or _series_goes_on(text, span) or
                                   _greeted_together(text, span)):
        join = COMMA
    found = join.search(text, span.start, span.end) if join else None
    if found is None:
        return [span]
    sides = [(span.start, found.start()), (found.end(), span.end)]
    if span.label == "DATE":
        whole = all(worth_masking(text[a:b], "DATE") for a, b in sides)
    elif span.label == "EMAIL":  # handles listed: "cc [@mkowalczyk @dana-whitlock]"
        whole = all(any(map(str.isalnum, text[a:b])) for a, b in sides)
    else:
        whole = all(NAME_WORD.search(text, a, b) for a, b in sides)
    if not whole:
        return [span]
    return [piece for a, b in sides
            for piece in _apart(text, replace(span, start=a, end=b, text=text[a:b]))]


# a date's digits and a capitalised word after them, the span's last
DATED_NAME = re.compile(r"\d[ \t]+([A-Z][a-z]+(?:-[A-Z][a-z]+)?)$")
# the words a date may end in that a locale knows as names too ("Easter", "Day", "Eve")
DATE_WORDS = frozenset("""spring summer fall autumn winter day days eve easter christmas
    xmas noon midnight morning evening night diwali eid ramadan hanukkah passover lent
    advent pentecost whitsun kwanzaa midsummer thanksgiving holiday holidays""".split())


def _dated_name(span: Span) -> list[Span] | None:
    """A DATE span and a PERSON span for a model DATE span that ran on into the subject of
    its sentence ("From [2019 through 2025 Hutchins] caused", "On [March 3 Hutchins]
    wired"): its last word capitalised after the date's digits, a name or no word of the
    vocabulary (`name_or_rare`: "2024 Budget" stays a date), and no month's or day's
    name, season or feast (`MONTH_ALONE`, `WEEKDAY`, `DATE_WORDS`: "25 December
    Christmas", "2019 Easter"); None for anything else."""
    found = DATED_NAME.search(span.text) if span.label == "DATE" else None
    word = found.group(1) if found else ""
    if not word or not name_or_rare(word.casefold()) or word.casefold() in DATE_WORDS or \
            MONTH_ALONE.fullmatch(word) or WEEKDAY.fullmatch(word):
        return None
    cut = found.start(1)
    return [_cut(span, len(span.text[:cut].rstrip())),
            Span(span.start + cut, span.end, "PERSON", found.group(1), span.score, span.source)]


# the particles that join the words of a name in French, Spanish, Portuguese, Italian
# or Dutch ("Caixa Geral [de] Depósitos", "Vincent [van] Gogh")
PARTICLES = ("de", "du", "des", "do", "da", "dos", "das", "di", "dei", "del", "della", "van",
             "von", "van de", "van der", "et")
# the words in lower case that a person's name holds between its capitalised words: the
# particles and these ("Mohammed bin Salman", "Joan of Arc", "José Ortega y Gasset")
NAME_LINKS = frozenset(w for p in PARTICLES for w in p.split()) | frozenset("""of the den
    ter ten la le bin ibn bint binti al el y e no zu af av op and or und""".split())
INNER_WORD = re.compile(r"[ \t]([a-z]+)[,;]?(?=[ \t])")  # a lower-case word inside a span
# the verbs of speech, which no name holds in any text ("[Grace said Dave] is coming")
SPEECH = frozenset("""said says told tells asked asks wrote writes replied replies added adds
    thinks thought""".split())


def _prose_inside(text: str, span: Span) -> list[Span] | None:
    """The names on either side of a word of prose inside a model PERSON span ("[Mariam
    via GoFundMe]'s", "her local [Edward Jones guy, Brent]"): a word in lower case of the
    vocabulary (`common_words`) that no name holds (`NAME_LINKS`), in a text written
    with capitals (`written_with_capitals`: a tweet's "Grace gal Mahary" may write a
    name's part in lower case), or a verb of speech in any text (`SPEECH`: a chat's
    "[Grace said Dave] is coming"), parts it (a side in lower case then goes as prose
    does, `_as_capitalised`); None for anything else."""
    if span.label != "PERSON" or span.source != "model":
        return None
    inner = next((m for m in INNER_WORD.finditer(span.text)
                  if m.group(1) not in NAME_LINKS and m.group(1) in common_words()), None)
    if inner is None or inner.group(1) not in SPEECH and not written_with_capitals(text):
        return None
    sides = [(0, inner.start(1)), (inner.end(), len(span.text))]  # (spaces stripped later)
    return [Span(span.start + a, span.start + b, "PERSON", span.text[a:b], span.score,
                 span.source) for a, b in sides]


def _people_listed(span: Span) -> bool:
    """Whether a PERSON span is full names listed with commas ("Winston A. Pruitt,
    Loretta J. Pruitt", "Ana García, Pieter de Vries"): every part two words or more, its
    first a given name (`given_names`) and its last none, as an inverted name's
    part after its comma ends in one ("García Márquez, Gabriel José", "Thomas, Elias"),
    and no desk's or title's word ("John Okafor, General Counsel"); a part after the
    first may be a given name alone ("Ifeoma Chukwu, Tom": an inverted name has no given
    name before its surname), and no part starts with a particle (`NAME_LINKS`: "van
    Hulten, Owen" is an inverted name, "van" a given name too in Faker's lists)."""
    parts = span.text.split(", ")
    names = given_names()
    return len(parts) > 1 and all(
        words and words[0].casefold() in names and words[0].casefold() not in NAME_LINKS and
        not any(w.casefold() in NOT_NAME_WORDS for w in words) and
        (words[-1].rstrip(".").casefold() not in names if len(words) > 1 else k > 0)
        for k, words in enumerate(part.split() for part in parts))


# a series' last comma, if it has one, and its "and" or "or" (", and my brother Callum")
SERIES_GOES_ON = re.compile(r"(,?)[ \t]+(?:and|or)[ \t]")


def _series_goes_on(text: str, span: Span) -> bool:
    """Whether a PERSON span is one-word names with commas between them that a series
    goes on after ("the early readers: [Tunde, Haruki], and my brother Callum"): an
    inverted name ("Okonkwo, Chidi") ends where its line or sentence does, not before a
    series' last ", and"; nor before its "and" without a comma where every name is a
    given name two of Faker's locales list ("with [Simon, Laura] and their auditor")."""
    goes_on = SERIES_GOES_ON.match(text, span.end)
    parts = span.text.split(", ")
    return all(" " not in part for part in parts) and goes_on is not None and \
        (goes_on.group(1) == "," or all(part.casefold() in widely_given() for part in parts))


NAMES_BEFORE = re.compile(r"(?:[^\W\d_]+,[ \t]*)+\Z")  # ("Hi [Tom, ]Priya, Olga")


def _greeted_together(text: str, span: Span) -> bool:
    """Whether a PERSON span is given names with commas between them after a greeting,
    as a mail to several people opens ("Dear [Sophie, Ahmed],", "Hi [Tom, Priya, Wen]"),
    or alone on its line (`SALUTATION_END`: "[Oliver, Sinead],"): each a given name of one
    of Faker's locales at least (`given_names`: "Priya"), so an inverted name ("Dear
    Okonkwo, Chidi") stays whole. (The names parted off before it, "Tom, ", may stand
    between the greeting and the span.)"""
    parts = span.text.split(", ")
    if len(parts) < 2 or not all(part.casefold() in given_names() for part in parts):
        return False
    if text.startswith("\n", span.start - 1) or span.start == 0:
        return SALUTATION_END.match(text, span.end) is not None
    before = span.start - len(m.group()) if (m := NAMES_BEFORE.search(
        text, max(0, span.start - 40), span.start)) else span.start
    return GREETING_BEFORE.search(text, max(0, before - 24), before) is not None


# what follows the names of a letter's salutation line: a comma perhaps, the line's end
SALUTATION_END = re.compile(r",?[ \t]*(?:\n|$)")


# Words that lead into a date without being part of it ("before 12 May 2025", "due by
# Friday"). The generator never labels them, yet a model can give such a word a B-DATE
# probability right at the threshold, so whether it joins the span flips with the CPU's
# summation order: the decoding leaves them out whatever the model says.
DATE_LEAD = re.compile(r"(?i)(?:(?:before|after|by|on|or|until|till|since|from|due|as\s+of|"
                       r"no(?:t)?\s+later\s+than|of|at|in|around|between|during|"
                       r"effective|dated|starting|ending)\s+)+")


def _date_start(text: str, a: int, b: int, label: str) -> int:
    """A DATE span starts after the prepositions that lead into it (`DATE_LEAD`)."""
    if label == "DATE":
        lead = DATE_LEAD.match(text, a, b)
        if lead and lead.end() < b:
            return lead.end()
    return a


CALENDAR = re.compile(r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|"
                      r"fri|sat|sun|noon|midnight)")


WEEKDAY = re.compile(r"(?i)(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?|(?:mon|tues|wednes|"
                     r"thurs|fri|satur|sun)day")


DECIMAL = re.compile(r"\d[.,]\d")  # (Europe writes "52,5200")
# a number with one or two decimals alone: an amount ("6.80" of a statement's line), not a
# coordinate, which is written with more and in pairs
PRICE = re.compile(r"[-+]?\d+[.,]\d{1,2}")


def _plausible(value: str, label: str) -> bool:
    """The shape every value of some groups has: a phone number has at least 7 digits
    ("200 512" of an access log is no phone), an ID number, card or coordinate at least
    one, an account's number a digit or a key's "_" ("[CRD] No. 4812377" is none), a
    bank's number a digit or a BIC's capitals ("Ihre IBAN [lautet] DE89 ..." is none), an
    ID's, a bank's or an account's number four digits at least where it is only digits
    ("[612]" of a remuneration table's £000, a credit score "[720]"), a
    coordinate a decimal point between digits (".275" of a price "41.275" is none) and
    more than a number with one or two decimals (an amount, "6.80", `PRICE`), a secret
    or a user name other than such an amount ("31.25" of a pay stub's rate), and
    a date a digit or a month or day name ("minutes" is no date), but not a
    weekday alone (the generator and the hand-written sets never mark one), a name
    or a firm a letter ("-400" of a statement's line is none), and a firm more than a
    firm's word or legal form alone ("[Group] No. 0047721" of a health plan's card) or
    a unit's word alone (`UNIT_WORDS`: "Claims [Department]")."""
    digits = sum(map(str.isdigit, value))
    if label == "PHONE":  # a mail's Message-ID has the digits, and an "@"
        return digits >= 7 and "@" not in value
    if label == "LOCATION":
        return DECIMAL.search(value) is not None and PRICE.fullmatch(value) is None
    if label == "DIGITAL":  # a pay stub's rate "31.25" is no secret
        return PRICE.fullmatch(value) is None
    if label in ("GOV_ID", "BANK", "ACCOUNT") and value.isdigit() and digits < 4:
        return False  # a report's figure ("612" in £000); a card's code of three stays
    if label == "ACCOUNT":  # a customer's key may have no digit ("cus_yGVbPrlx"), not a word
        return digits > 0 or "_" in value
    if label in ("GOV_ID", "CARD"):
        return digits > 0
    if label == "BANK":  # a BIC ("DEUTDEFF") may have no digit
        return digits > 0 or BIC.fullmatch(value) is not None
    if label == "DATE":  # a weekday alone ("on Saturday") is no one's date
        return (digits > 0 or bool(CALENDAR.search(value))) and not WEEKDAY.fullmatch(value)
    if label in TITLED:  # a statement's amount "-400" is nobody's name, "Group" no firm's
        return any(c.isalpha() for c in value) and not (
            label == "COMPANY" and (value in FIRM_ENDS or value in UNIT_WORDS))
    return True


# the words of a firm's unit, none a firm alone (a letter signed "Claims [Department]")
UNIT_WORDS = {"Department", "DEPARTMENT", "Dept", "Dept.", "Division", "Desk", "Team"}


def worth_masking(value: str, label: str) -> bool:
    """Whether a model value, or what is left of it once a pattern took its part
    (`merge`), is long enough and of its group's shape (`_enough`, `_plausible`)."""
    return _enough(value, label) and _plausible(value, label)


def _enough(value: str, label: str) -> bool:
    """Long enough to be personal data: three letters or digits, or a name of two
    letters ("Wu", "王伟": short names are common). A list number or a stray "12" is
    not, nor a two-letter COMPANY: on the validation split those were departments
    ("HR", 15 times) and scraps ("Co."), never a gold span."""
    alnum = sum(map(str.isalnum, value))
    return alnum >= 3 or (alnum == 2 and label == "PERSON" and any(c.isalpha() for c in value))


def tidy(text: str, spans: Sequence[Span]) -> list[Span]:
    """Model spans without the spaces and punctuation a widened token can bring along,
    (`_without_leads`), widened to whole words ("svc_" of "svc_payments" is the user
    name, not half of it; an identifier's letters either side of its hyphen, `_whole_id`;
    a number's groups after the first, `_grouped_end`),
    joined with a span they touch (the model's "12-345678" and "-90" are one value,
    masked whole), and without scraps too short to be personal data (`_enough`), markup
    names and values of the wrong shape (`_plausible`), names without digits, a
    sentence's full stop (`_name_end`) or a courtesy title (`_without_title`), a hashtag
    name with its "#" (`_hashtag_start`), a hyphenated name whole (`_hyphen_whole`), a
    month read as a date with its day (`_month_day`), a firm without a comma and the
    lower-case words after it (`_firm_comma`), a firm with its legal forms
    (`_with_legal_forms`) and a legal form found alone with its firm (`_lone_forms`),
    two partners' surnames joined by " & " as their firm (`_surname_partners`),
    spans mended by their neighbours (`_by_neighbours`); relabelled where the model took
    a judge, a caption's party or a titled person for a firm, a founder's firm, a firm
    whose shares are held, a word that is the text's own domain (`_domain_firm`) or a
    thing named before "which" for a person, a phone number
    for a card's or an ID's, or a handle for an email (`_judge`, `_caption_party`,
    `_titled`, `_founders_firm`, `_firm_by_its_words`, `_phone_shaped`,
    `_handle_shaped`);
    without credentials after a name
    (`_without_credentials`), or what is nobody's personal data whole (`nobodys.nobodys`);
    and, in a text written with capitals, companies without a capital, lower-case persons
    no one is called and the lower-case words at a name's or a firm's end
    (`_as_capitalised`)."""
    out: list[Span] = []
    pieces = [piece for s in spans for name in _names(text, s) for piece in _apart(text, name)]
    for i, span in enumerate(pieces):
        a, b = _without_leads(text, span)
        a, b = _whole_words(text, *_whole_id(text, a, b, span.label, out[-1].end if out else 0,
                                             _names_start(text, pieces[i + 1:])))
        b = _grouped_end(text, a, b, span.label)
        if span.label in TITLED:
            a, b = _without_underscores(text, a, b)
        if span.label == "DIGITAL" and b > a:
            a, b = _whole_secret(text, a, b)
        a, b = _date_start(text, a, b, span.label), _date_end(text, a, b, span.label)
        a, b = _month_day(text, a, b, span.label)
        a, b = _hashtag_start(text, a, b, span.label), _name_end(text, a, b, span.label)
        if b <= a:
            continue
        if out and a <= out[-1].end:  # touches the span before: one value, the longer's label
            last = out.pop()
            label = last.label if last.end - last.start >= b - a else span.label
            a, b = last.start, max(b, last.end)
            span = _joined(text, last, replace(span, end=b), label)
        out.append(span if (a, b) == (span.start, span.end) else
                   Span(a, b, span.label, text[a:b], span.score, span.source))
    relabelled = [_relabelled(text, s) for s in _particle_tails(text, out)]
    out = _one_person(text, _lone_forms(text, _firms_people(text, relabelled)))
    out = _partners_listed(text, _with_legal_forms(text, _surname_partners(text, out)))
    out = _short_firms(text, out)
    out = _nicknames(text, _hyphen_whole(text, _with_name_suffix(text, _with_given_name(text, out))))
    out = _by_neighbours(text, out)
    out = [piece for s in out if not nobodys(text, s)
           for cut in _without_credentials(s) for piece in _without_terms(cut)]
    out = [_handle_shaped(text, _keyed_account(text, _phone_shaped(s))) for s in out if
           worth_masking(s.text, s.label) and not _in_markup(text, s.start, s.end)]
    return _as_capitalised(text, out)


def _relabelled(text: str, span: Span) -> Span:
    """One span after each of `tidy`'s relabellings, in turn."""
    span = _known_firm(span)
    for relabel in (_firm_by_its_words, _titled, _caption_party, _judge, _founders_firm,
                    _employer, _analysts_firm, _firm, _domain_firm):
        span = relabel(text, span)
    return _firm_comma(text, _listed_name(_cell_name(text, _initialled(_inverted_name(span)))))


def _names_start(text: str, after: list[Span]) -> int:
    """Where the next span starts if it is a name's (an identifier stops before it), else
    the text's end."""
    return after[0].start if after and after[0].label in TITLED else len(text)


def _by_neighbours(text: str, spans: list[Span]) -> list[Span]:
    """Spans mended by the span next to them: a post office box's "P.O." with its address,
    not the firm before it (`_po_boxes`), a surname the model read as an address's first
    line with its name (`_surname_lines`), a name read as an address before its street
    (`_named_addresses`), a name without a registration's mark after it
    (`_registration_marks`), a firm read as a person before its officer's role and name
    (`_officers_firms`), a table's "Surname, Given" read as two persons
    (`_inverted_cells`), a name broken by a line's wrap (`_wrapped_names`), and a firm
    broken at a particle of its name (`_particle_firms`) or before a word of it read as
    a person (`_firm_word_persons`), and a person read as a firm in a list of people
    (`_listed_between`)."""
    spans = _named_addresses(text, _surname_lines(text, _po_boxes(text, spans)))
    spans = _officers_firms(text, _registration_marks(text, spans))
    spans = _particle_firms(text, _wrapped_names(text, _inverted_cells(text, spans)))
    return _listed_between(text, _firm_word_persons(text, spans))


LISTED_BEFORE = re.compile(r",[ \t]+")  # between a list's person and the next
LISTED_AFTER = re.compile(r",[ \t]+|,?[ \t]+and[ \t]+")


def _listed_between(text: str, spans: list[Span]) -> list[Span]:
    """A model COMPANY span listed between two people's full names ("a committee of Ari
    Feldman, [Bettina Kruger] and Colm O'Sullivan") as PERSON: a comma before it, and a
    comma, "and" or ", and" after it, the span capitalised words worded as a name
    (`_worded_as_a_name`), the first a given name (`given_names`; the surname may be a
    word of the vocabulary, "Kruger"). A list of people holds people."""
    out = list(spans)
    for k in range(1, len(spans) - 1):
        before, span, after = spans[k - 1], spans[k], spans[k + 1]
        if span.label == "COMPANY" and span.source == "model" and \
                before.label == after.label == "PERSON" and " " in before.text and \
                " " in after.text and _worded_as_a_name(span.text) and \
                LISTED_BEFORE.fullmatch(text, before.end, span.start) and \
                LISTED_AFTER.fullmatch(text, span.end, after.start) and \
                all(w[:1].isupper() for w in span.text.split()) and \
                span.text.split()[0].casefold() in given_names():
            out[k] = replace(span, label="PERSON")
    return out


def _firm_word_persons(text: str, spans: list[Span]) -> list[Span]:
    """A model PERSON span that is a firm's word (`FIRM_WORDS`: "Wealth",
    "Capital"), one space after a model COMPANY span, joined to it: "[Meridian]
    [Wealth]" is one firm, and no one is called "Wealth"."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last is not None and span.label == "PERSON" and last.label == "COMPANY" and \
                last.source == span.source == "model" and span.text in FIRM_WORDS and \
                text[last.end:span.start] == " ":
            out[-1] = _joined(text, last, span, "COMPANY")
            continue
        out.append(span)
    return out


PARTICLE = re.compile(rf"[ \t]+{trie_pattern(PARTICLES)}[ \t]+")  # between two spans
PARTICLE_TAIL = re.compile(rf"[ \t]+{trie_pattern(PARTICLES)}$")  # a span may end in one


def _particle_firms(text: str, spans: list[Span]) -> list[Span]:
    """A firm's name that the model read in two at a particle of its name ("Caixa
    Geral" + "Depósitos", "Edmond" + "Rothschild Group", "Mishcon" + "Reya LLP") as one
    COMPANY span: a model PERSON or COMPANY span, the particle between (`PARTICLE`; or at
    the first span's end, `PARTICLE_TAIL`: "[Mishcon de] [Reya LLP]"), and a model
    COMPANY span after it, capitalised. A person's name with a particle ("Maria de
    Souza") has no firm after it and stays."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last is not None and span.label == "COMPANY" and last.label in TITLED and \
                last.source == span.source == "model" and span.text[:1].isupper() and \
                PARTICLE.fullmatch(text, last.start + _particle_start(last), span.start):
            out[-1] = _joined(text, last, span, "COMPANY")
            continue
        out.append(span)
    return out


def _particle_start(span: Span) -> int:
    """Where a particle at a span's end starts in it (`PARTICLE_TAIL`), or its length."""
    tail = PARTICLE_TAIL.search(span.text)
    return tail.start() if tail else len(span.text)


# a line's end between two spans, with the spaces around it
LINE_BREAK = re.compile(r"[ \t]*\n[ \t]*")
WRAPPED_LINE = 40  # characters before a name on its line, at least, in running text
INITIAL_END = re.compile(r"(?<![\w.])[A-Z]\.$")  # a name's last word an initial ("Jonathan D.")


def _wrapped_names(text: str, spans: list[Span]) -> list[Span]:
    """Two model PERSON spans, the first ending a line of running text and the second
    starting the next line ("Copy to: Sidley Austin LLP, Attention: Jonathan D.\nPace,
    Esq."), as one name: text wrapped at a fixed width breaks a name where its line is
    full, and the model starts a name anew after a line's end. Only where the first is
    unfinished, a given name alone or a name ending in an initial; not a list's or a
    table's lines (the first has fewer than `WRAPPED_LINE` characters before it on its
    line). The second may be one word the model read as a firm's, no known firm's: the
    surname alone ("our assessor, Ms. Ingeborg\nSæther, requires")."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last is not None and last.label == "PERSON" and (span.label == "PERSON" or (
                span.label == "COMPANY" and " " not in span.text and
                not FIRMS.fullmatch(span.text))) and \
                last.source == span.source == "model" and \
                LINE_BREAK.fullmatch(text, last.end, span.start) and \
                last.start - (text.rfind("\n", 0, last.start) + 1) >= WRAPPED_LINE and \
                (INITIAL_END.search(last.text) or last.text.casefold() in given_names()):
            out[-1] = _joined(text, last, span, "PERSON")
            continue
        out.append(span)
    return out


def _without_leads(text: str, span: Span) -> tuple[int, int]:
    """Where a model span starts and ends without the spaces and punctuation around it
    (`strip`), a title's full stop, an example's "e.g." or a gloss's "i.e." before a
    name (`LATIN_LEAD`), an alias's "a.k.a." or "f/k/a" (`ALIAS_LEAD`; alone, the span
    goes), a courtesy title or a role before a name
    (`_without_title`), a field's label (`_without_field_labels`), a party's role
    before a firm or a person (`_without_party_role`), a recital's letter before a firm
    (`_without_enumerator`), or a word or a keyword before a number (`NUMBER_LEAD`: "[au]
    01 42 68 55 00", "[EIN] 84-1234567")."""
    a, b = strip(text, span.start, span.end)
    if span.label in TITLED:  # the full stop of "Mr." is the title's, not the name's
        while a < b and text[a] in ". ":
            a += 1
        a = _without_meridiem(text, a, b)
        if lead := LATIN_LEAD.match(text, a, b) or ALIAS_LEAD.match(text, a, b):
            a = lead.end()
        if ALIAS_MARK.fullmatch(text, a, b):
            a = b  # an alias's mark alone is no one
    if span.label == "PERSON":
        a = _glued_initials(text, _without_title(text, a, b))
    if span.label in FIELDED:
        a, b = _without_field_labels(text, a, b)
    if span.label in ("COMPANY", "PERSON"):
        a = _without_party_role(text, a, b)
    if span.label == "COMPANY":
        a = _without_enumerator(text, a, b)
    if span.label in NUMBER_GROUPS and (m := NUMBER_LEAD.match(text, a, b)):
        a = m.end()
    return a, b


ENUMERATOR = re.compile(r"([A-Z])\.[ \t]+(?=[A-Z])")  # a paragraph's letter: "A. Brandt ..."


def _without_enumerator(text: str, a: int, b: int) -> int:
    """Where a firm's span starts without a paragraph's letter at its line's start ("A.
    [Brandt Fabrication, Inc.] has requested", a contract's recitals): only where another
    line near it starts with the letter before or after it and a full stop ("B. Guarantor
    is"), so a firm's own initial ("J. Crew Group, Inc.") stays."""
    m = ENUMERATOR.match(text, a, b)
    if m is None or not at_line_start(text, a):
        return a
    letter = m.group(1)
    near = "".join(chr(ord(letter) + d) for d in (-1, 1) if "A" <= chr(ord(letter) + d) <= "Z")
    window = text[max(0, a - 4000):a + 4000]  # (a paragraph's neighbours are near it)
    return m.end() if re.search(rf"(?m)^[ \t]*[{near}]\.[ \t]", window) else a


# the Latin abbreviations that lead into an example or a gloss ("call your bank ([e.g.]
# Barclays)", "[i.e.] Acme")
LATIN_LEAD = re.compile(r"(?i)(?:e\.[ \t]?g|i\.[ \t]?e|cf)\.,?[ \t]+")
# the marks of an alias or a former name, "also", "formerly" and "now known as" ("Hassan
# Al-Rashidi ([a.k.a.] Abu Karim)", "Bluewater LLC [f/k/a] Bluewater Capital LLC"), and
# one of them leading a span
ALIAS_MARK = re.compile(r"(?i:[afn]\.[ \t]?k\.[ \t]?a\.?|[afn]/k/a)|aka|AKA|fka|FKA")
ALIAS_LEAD = re.compile(rf"(?:{ALIAS_MARK.pattern})[ \t]+")


# a time's "a.m." or "p.m." after its digits, where a span starts at the "m." (not a
# name's initials, "A.M. Okafor")
MERIDIEM_BEFORE = re.compile(r"\d[ \t]?[aApP]\.$")
MERIDIEM_END = re.compile(r"[mM]\.[ \t]*")


def _without_meridiem(text: str, a: int, b: int) -> int:
    """Where a name's span starts without the "m." of a time's "p.m." that it started in
    ("9 p.[m. ET]", "7:15 p.[m. Quorum]"), the model's token having started at the full
    stop; a time zone after it is the time's too (`ZONE_NAMES`: the span is then
    empty). Any other span starts where it did."""
    rest = MERIDIEM_END.match(text, a, b)
    if rest is None or MERIDIEM_BEFORE.search(text, max(0, a - 4), a) is None:
        return a
    return b if text[rest.end():b] in ZONE_NAMES else rest.end()


# the nouns for where a person is from, written before the name as sports news writes
# them ("Swede Stefan Edberg"; the adjectives, "German Boris Becker", the model leaves out)
DEMONYMS = ("Briton", "Swede", "Spaniard", "Dane", "Dutchman", "Dutchwoman", "Frenchman",
            "Frenchwoman", "Englishman", "Englishwoman", "Irishman", "Irishwoman", "Scotsman",
            "Scotswoman", "Welshman", "Welshwoman", "Queenslander", "Aussie", "Texan",
            "Californian", "New Yorker", "Londoner", "Parisian", "Muscovite")
TITLE = re.compile(r"(?:(?:%s)\.?[ \t]+)+(?=[^\W\d_])" % "|".join(map(re.escape, sorted(
    {t for title in OFFICE_TITLES + DEMONYMS for t in (title, title.upper())} |
    {t for word in COURTESY_TITLES + KIN for t in (word, word.upper(), word.lower())},
    key=len, reverse=True))))


# the labels of an address block's or a mail's fields, glued by the model to the value
# before or after them: "Greenleaf Organics LLC, [Attn]: Accounts Payable", "[C/O]
# Brightline Inc.", "please [cc] Shauna Mbeki" (a copy's "cc" in lower case, or with its
# colon: "CC" alone may start a firm's name)
FIELDED = ("PERSON", "COMPANY", "ADDRESS")
FIELD_LABEL_END = re.compile(r"[,;]?[ \t]+(?:Attn|ATTN|Attention|ATTENTION)\.?$")
DEPARTMENT_LEAD = re.compile(rf"{DEPARTMENT}[ \t]*,[ \t]+(?=[\w.'-]+[ \t]+\w)")
CARE_OF = re.compile(r"(?:[Cc]/[Oo]|/[Oo](?<=[Cc]/[Oo])|[Cc]are [Oo]f|CARE OF|re(?<=In re)"
                     r"|b?cc:?|(?:Cc|Bcc|B?CC):)[ \t]+")


# what follows a line that is the next field's label, not an address's last line: the
# label's colon on the same line ("1207 Larkspur Court\n[City, state], ZIP: Boise")
LABEL_REST = re.compile(r"[^\n:]{0,30}:")


def _without_field_labels(text: str, a: int, b: int) -> tuple[int, int]:
    """A name or address without "Attn" after it, or "c/o", a copy's "cc", a case name's
    "In re" ("In re [Lehman Brothers Holdings Inc.]") or a department and its comma
    before two words at least (`DEPARTMENT_LEAD`: "contact: [HR, Beth Ann Morales]"; not
    an inverted name's "Sales, Bernardo") before it, or an address
    without a last line that is the next field's label (`LABEL_REST`), a list's number
    of one or two digits ("...95054\n[2]. Issuer") or a form's box letter ("...CA
    90802\n[e] Employee's first name")."""
    end = FIELD_LABEL_END.search(text, a, b)
    if end and end.start() > a:
        b = end.start()
    line = text.rfind("\n", a, b)
    last = text[line:b].strip()
    if line > a and ((last.isdigit() or last.islower()) and len(last) <= 2 or
                     not any(c.isdigit() for c in last) and LABEL_REST.match(text, b)):
        b = line
    start = CARE_OF.match(text, a, b) or DEPARTMENT_LEAD.match(text, a, b)
    if start and start.end() < b:
        a = start.end()
    return a, b


# the mark of a question or an answer before a speaker's name in a call's transcript
# ("Q - Kenneth Usdin", "A - Daniel Whitcombe"); "A." may be an initial, so a dash or a
# colon is needed
SPEAKER_MARK = re.compile(r"[QA][ \t]*[-\u2013\u2014:][ \t]*(?=[^\W\d_])")
# and a deposition's answer mark at a line's start ("A. Marcus James Ellerby."), where
# the text's questions are marked "Q." at theirs, or a question's or an answer's mark
# there before a courtesy title ("Q. Ms. Liu, what was your role?"): an initial elsewhere
ANSWER_MARK = re.compile(r"([QA])\.[ \t]+(?=[^\W\d_])")
QUESTION_LINE = re.compile(r"(?:^|\n)Q\.[ \t]")
# "Per" before a one-word name and its "'s" is the preposition of "per your request"
# ("Per Chukwuemeka's email, ..."), not the Scandinavian given name, which comes with a
# surname ("Per Gessle")
PER_LEAD = re.compile(r"Per[ \t]+(?=[^\W\d_]+(?:-[^\W\d_]+)*['\u2019]s\b)")


# a greeting or a thanks the model took into the name it is for ("[Hey Angela]. Today
# we're talking", "[Dear Ana Ruiz]"): none of these words is a name Faker knows
_GREETED = sorted(GREETING_WORDS | {"Dear", "Thanks", "Cheers"}, key=len, reverse=True)
GREETING_LEAD = re.compile(r"(?:%s),?[ \t]+(?=[A-Z])" % "|".join(map(re.escape, _GREETED)))
# the words a call, an interview or a chat opens a sentence with before a name addressed
# ("[So] Oyelaran, on deposit costs"); not "Oh", "No" or "Right", names or a title's start
DISCOURSE_LEAD = re.compile(r"(?:So|Well|Now|Okay|OK|Ok|Look|Listen|Anyway|Sorry|Yes|Yeah|"
                            r"Also)[ \t]+(?=[A-Z])")


# a letter's salutation before a courtesy title, in English and in the languages that
# put one there ("Cher Monsieur", "Caro Sr.", "Lieber Herr"; "Cher" and "Caro" are names
# too, so only before a title)
SALUTATION_LEAD = re.compile(r"(?:%s)[ \t]+" % "|".join(
    re.escape(w).replace(r"\ ", r"[ \t]+") for w in sorted(
        ("Dear", "Geachte") + LETTER_SALUTATIONS + NAME_SALUTATIONS, key=len, reverse=True)))


def _without_title(text: str, a: int, b: int) -> int:
    """Where a PERSON span starts once a courtesy title, a title of office, a role, a
    kinship word or where the person is from before the name is left out ("Mr. [Tomasz
    Nowak]", "Justice [Sonia Sotomayor]", "Adjuster [Brian Koval]", "uncle [Ray]",
    "Swede [Stefan Edberg]"), or a transcript's question or answer mark before it
    ("Q - [Kenneth Usdin]", `SPEAKER_MARK`; a deposition's "A." where its questions' lines
    start "Q.", and its "Q." or "A." before a title, `ANSWER_MARK`), a salutation before a
    title ("Cher Monsieur [Lefèvre]", `SALUTATION_LEAD`), the "Per" of "Per [Mateus]'s
    email" (`PER_LEAD`), or a role in running text with its possessive ("teller [Ashley
    Nguyen]", "Ihr Mitarbeiter Herr [Özdemir]", `patterns.ROLE_LEAD`), or a time's zone
    ending the sentence before ("15:40 ET. [Tobias]", `ZONE_LEAD`), or an introduction's
    verb in another language ("je m'appelle [Théo]", `INTRODUCING_VERB`), or a greeting
    ("Hey [Angela]", `GREETING_LEAD`; "So [Oyelaran]," addressed, `DISCOURSE_LEAD`),
    which opens its line, sentence or quotation ("c [Moin Khan]" on a scoreboard is a
    given name, `_after_word`): none is anybody's personal data, and the gold convention
    of the generator, the hand-written sets and wikigold puts it outside the name."""
    a = m.end() if (m := SPEAKER_MARK.match(text, a, b) or ZONE_LEAD.match(text, a, b) or
                    INTRODUCING_VERB.match(text, a, b)) else a
    if (m := GREETING_LEAD.match(text, a, b)) and not _after_word(text, a):
        a = m.end()  # (a capital follows)
    if (m := DISCOURSE_LEAD.match(text, a, b)) and not _after_word(text, a) and \
            text.startswith(",", b):
        a = m.end()
    if (m := ANSWER_MARK.match(text, a, b)) and (a == 0 or text[a - 1] == "\n") and \
            (m.group(1) == "A" and QUESTION_LINE.search(text) or TITLE.match(text, m.end(), b)):
        a = m.end()
    if (m := PER_LEAD.match(text, a)) and m.end() < b:
        a = m.end()
    if (m := SALUTATION_LEAD.match(text, a, b)) and TITLE.match(text, m.end(), b):
        a = m.end()
    a = m.end() if (m := ROLE_LEAD.match(text, a, b)) else a
    m = TITLE.match(text, a, b)
    return m.end() if m else a


def _after_word(text: str, a: int) -> bool:
    """Whether a letter or a digit comes before text[a:] on its line, past spaces (a
    few dozen of them at most)."""
    before = text[max(0, a - 40):a].rstrip(" \t")
    return before[-1:].isalnum()


# a word and the space after it, before a capital: a party's role, perhaps, before a
# firm's name
PARTY_LEAD = re.compile(r"([^\W\d_]+)[ \t]+(?=[A-Z])")


def _without_party_role(text: str, a: int, b: int) -> int:
    """Where a COMPANY or PERSON span starts once a party's role before the name is left
    out (`nobodys.party_role`: "Defendant-[Appellee] Meridian Capital Partners LLC",
    "Debtor Harborview Holdings", "[Appellant] Delphine Okoro-Whitfield appeals"): the role
    is the lawsuit's word, not the party's. Not where the span is all roles ("Escrow
    Holder" is one, `nobodys.party_roles`)."""
    m = PARTY_LEAD.match(text, a, b)
    return m.end() if m and party_role(m.group(1)) and not party_roles(text[a:b]) else a


# "and" in the languages whose firms end in "and sons" ("Lanfranchi e figli", "Ortega y
# hijos", "Durand et fils")
AND = {"and", "e", "y", "et", "und", "en", "og", "och"}


def _name_tail(span: Span) -> Span:
    """A model PERSON or COMPANY span without the lower-case words at its end ("Bailey
    devise" of "requested that Bailey devise another story", "Google app" of "depends on
    Google app stores"), a capitalised word kept before them; a firm keeps a legal form
    ("Acme Holdings plc") and words after an "and" ("Lanfranchi e figli"), not an "and"
    alone ("Bull, Nolan and"). Applied only in a text written with capitals, where a
    name's words have them (in tweets "Donald trump" is a name). Leading ones go too
    ("ping [Rodrigo]"), but not a name's particles: "de la Cruz" is a surname. A
    well-known firm's name left is a firm's ("grilled [Wells Fargo]", `_known_firm`)."""
    if span.label not in ("PERSON", "COMPANY") or span.source != "model":
        return span
    ends = NAME_ENDS if span.label == "PERSON" else FORMS_FOLDED
    spaced = list(NONSPACE.finditer(span.text))
    words = [w.group() for w in spaced]
    keep = len(words)
    while keep > 1 and _lower_word(words[keep - 1]) and words[keep - 1] not in ends:
        keep -= 1
    if span.label == "COMPANY" and len(words) - keep > 1 and words[keep] in AND and \
            not all(w in PRONOUNS for w in words[keep + 1:]):
        keep = len(words)
    first = 0
    while first < keep - 1 and _lower_word(words[first]) and \
            not NAME_PARTICLE.fullmatch(words[first]):
        first += 1
    if (first, keep) == (0, len(words)) or not any(w[:1].isupper() for w in words[first:keep]):
        return span
    start, end = spaced[first].start(), spaced[keep - 1].end()
    while span.text[end - 1] in LOOSE_END:  # "Castellanos, age": the comma goes with "age"
        end -= 1
    label = "PERSON" if span.label == "COMPANY" and keep < len(words) - 1 and words[keep] in AND \
        else span.label  # a name and a pronoun were read as a firm: "Henrik Aasgaard and myself"
    return _known_firm(replace(span, start=span.start + start, end=span.start + end,
                               text=span.text[start:end], label=label))


def _lower_word(word: str) -> bool:
    return word.isalpha() and word.islower()


# A firm's legal form, as written after its name; not "AS" or "SE", which are words and
# compass points ("8812 SE Lambert St"); each also in capitals, as filings write their
# parties ("WELLS FARGO BANK, NATIONAL ASSOCIATION")
_FORMS = ("Inc.", "Inc", "Incorporated", "Corp.", "Corp", "Corporation", "Co.", "Ltd.",
          "Ltd", "Limited", "LLC", "L.L.C.", "LLP", "L.L.P.", "L.P.", "LP", "LLLP", "PLLC",
          "P.L.L.C.", "P.C.", "PC", "ULC", "PLC", "plc", "Plc",
          "GmbH", "AG", "KG", "KGaA", "S.A.", "SA", "S.A.S.", "SAS", "SARL", "S.A.R.L.",
          "S.p.A.", "SpA", "S.r.l.", "Srl", "B.V.", "BV", "N.V.", "NV", "AB", "A/S", "ApS",
          "ASA", "Oy", "Oyj", "HB", "Pty Ltd", "Pty. Ltd.", "Pvt. Ltd.", "Pte. Ltd.",
          "Ltda.", "Lda.", "K.K.", "N.A.", "National Association", "A.Ş.", "Tic.", "Şti.",
          "Sp. z o.o.", "& Co.", "Company", "FSB", *FORMS_ABROAD)
LEGAL_FORMS = _FORMS + tuple(dict.fromkeys(f.upper() for f in _FORMS if f.upper() not in _FORMS))
LEGAL_FORM = re.compile(r",? (?:%s)(?![\w/-])" % "|".join(
    re.escape(f) for f in sorted(LEGAL_FORMS, key=len, reverse=True)))
LEGAL_FORM_RUN = re.compile(r"(?:%s)+" % LEGAL_FORM.pattern)  # "Company" + ", N.A."
SEATED_FORMS = re.compile(FIRM_SEAT + LEGAL_FORM_RUN.pattern)  # "Tata Steel" + " (UK) Limited"
# the forms written with a full stop, without it, as a span can end ("Inc", "S.A")
UNDOTTED_FORMS = sorted((f[:-1] for f in LEGAL_FORMS if f.endswith(".")), key=len, reverse=True)
DOTTED_FORM = re.compile(r"(?<![\w.])(?:%s)$" % "|".join(map(re.escape, UNDOTTED_FORMS)))
FORM_END = re.compile(r"(?:%s)$" % LEGAL_FORM.pattern)  # a firm's name that ends in its form


# a firm's words, which end its name (a model "person" whose name ends in one, or in a
# legal form, or starts with a bank's, is a firm) and run it on ("Davis" + " Academy")
_WORDS = {"Group", "Groep", "Gruppe", "Gruppen", "Holdings", "Partners", "Bank", "Banque",
          "Banco", "Trust", "Capital", "Academy", "Foundation", "Associates", "Bancorp",
          "Insurance", "Securities", "Investments", "Industries",
          # and a family firm's ("Hartley & Sons", "Salomon Brothers")
          "Sons", "Brothers",
          # and the words that end a trading firm's name ("Kestrel Supplies")
          "Direct", "Solutions", "Services", "Systems", "Technologies", "Technology", "Labs",
          "Logistics", "Supplies", "Supply", "Consulting", "Ventures", "Enterprises", "Media",
          "Foods", "Motors", "Pharmaceuticals", "Healthcare", "Energy", "Financial", "Lending",
          "Realty", "Properties", "Management", "Advisors", "Advisory", "Recoveries",
          "Collections", "Fund", "Funds",
          # and the words of a listed company's industry ("Kellner Pharma", "Orbis
          # Therapeutics", "Kessler Industrial")
          "Pharma", "Pharmaceutical", "Therapeutics", "Biosciences", "Biotech", "Laboratories",
          "Minerals", "Mining", "Resources", "Bancshares", "Brands", "Airlines",
          "Communications", "Networks", "Software", "Semiconductor", "Semiconductors",
          "Analytics", "Aerospace", "Chemicals", "Materials", "Robotics", "Telecom",
          "Devices", "Instruments", "Industrial",
          # and a broker's research arm, as earnings calls name an analyst's firm ("Wolfe
          # Research", "Autonomous Research", "Jefferies Markets", "Kotak Institutional
          # Equities")
          "Research", "Markets", "Equities",
          # and a payments firm's and a bank holding company's ("Bluewater Payments")
          "Payments", "Bankshares", "Bancorporation",
          # and the trades a merchant's or a contractor's name ends in, as statements and
          # filings write them ("Dick Smith Electronics", "Halvorsen Shipping")
          "Electronics", "Construction", "Engineering", "Manufacturing", "Trading",
          "Shipping", "Apparel", "Hotels", "Restaurants", "Airways", "Petroleum", "Utilities",
          "Builders", "Contractors", "Distributors", "Wholesale",
          # and a small trader's, as Indian and other Commonwealth firms name themselves
          # ("Shree Ganesh Traders", "Sharma Textiles", "Gupta Agencies")
          "Traders", "Textiles", "Agencies", "Exports", "Imports", "Jewellers", "Jewelers",
          "Stores",
          # and a practice's, as bills and reviews name a clinic ("Bayside Dental",
          # "Greenway Veterinary Clinic"); not "Medical", which a record's name precedes
          "Dental", "Clinic", "Veterinary", "Pharmacy", "Pediatrics", "Dermatology",
          "Orthodontics", "Optometry",
          # and a lender's, as reviews and servicing notices name one ("Summit Home Loans",
          # "Lakeview Mortgage", "Rocket Homes")
          "Mortgage", "Loans", "Home Loans", "Funding", "Finance", "Homes", "Wealth",
          # and a home contractor's, as insurance claims and invoices name one ("Apex
          # Roofing", "Delgado Plumbing")
          "Roofing", "Plumbing", "Landscaping", "Painting", "Flooring", "Remodeling",
          "Paving", "Fencing", "Towing", "Automotive",
          # and a food or drink trade's, as card statements and payouts name a merchant
          # ("Northwind Bakery", "Halfmoon Brewing"); not "Kitchen" or "Grill", surnames too
          "Bakery", "Bakeries", "Brewery", "Brewing", "Coffee", "Cafe", "Café", "Catering",
          "Creamery", "Pizzeria", "Bistro", "Diner", "Deli", "Winery", "Distillery",
          # and a law practice's, as letters sign for one ("Tran & Whitlock Elder Law");
          # not "Law" alone, a surname ("Jude Law")
          "Law Group", "Law Firm", "Law Office", "Law Offices", "Elder Law", "Family Law",
          "Immigration Law", "Injury Law", "Legal Group"}
FIRM_WORDS = _WORDS | {w.upper() for w in _WORDS}  # and in capitals
FIRM_ENDS = FIRM_WORDS | set(LEGAL_FORMS) | set(UNDOTTED_FORMS)
FIRM_STARTS = {s for w in ("Bank", "Banque", "Banco", "Banca") for s in (w, w.upper())}
# firm words after a name, perhaps after "&", "Family" or a trust's kind ("Prosek
# Partners", "Szymańska & Partners", "Reshetnikov Family Trust", "Lindqvist Family
# Irrevocable Trust", "Osei Living Trust")
FIRM_TAIL = re.compile(r"(?:(?: &)?(?: Family)?(?: (?:Irrevocable|Revocable|Living|Charitable|"
                       r"Dynasty|Testamentary))? (?:%s)(?!\w))+" % "|".join(sorted(FIRM_WORDS)))


# up to three capitalised words after a firm's first words, before its legal form
# ("Fidelity" + " National Title" + " Company"); not a defined term's "The"
WORDS_TO_FORM = re.compile(r"(?: (?!The\b)[A-Z][^\W\d_]*){1,3}?(?=%s)" % LEGAL_FORM.pattern)


def _firm_tail(text: str, span: Span, following: Span | None) -> Span:
    """A model COMPANY span with the firm words after it ("Davis" + " Academy",
    "Hellwig" + " Academy"), or the capitalised words before its legal form ("Fidelity"
    + " National Title" of "Fidelity National Title Company", `WORDS_TO_FORM`; the form
    is taken in after), up to where another span starts."""
    if span.label != "COMPANY" or span.source != "model":
        return span
    tail = FIRM_TAIL.match(text, span.end) or WORDS_TO_FORM.match(text, span.end)
    if tail is None or (following is not None and following.start < tail.end()):
        return span
    return _ending_at(text, span, tail.end())


# a player in a news line-up ("5 - Norio Omura", "7 - Yasuto Honda 71"): a number, a
# spaced dash, two or three capitalised words and perhaps a minute; the model reads the
# shape as a street address, which never has a spaced dash before its street's name
LISTED = re.compile(r"\d{1,3} - ((?:[A-Z][^\W\d_]+ ){1,2}[A-Z][^\W\d_]+)(?: \d{1,3})?")
STREET_WORDS = {"street", "st", "road", "rd", "avenue", "ave", "av", "lane", "ln", "drive",
                "dr", "way", "close", "court", "ct", "place", "pl", "square", "sq",
                "boulevard", "blvd", "terrace", "crescent", "gardens", "hill", "park", "row",
                "walk", "highway", "hwy", "parkway", "pkwy", "circle", "trail", "alley",
                "grove", "mews", "green", "rise", "view", "strasse", "straße", "rue", "via",
                "calle", "avenida", "platz", "weg", "apt", "suite", "unit", "flat", "floor",
                "box", "building"}


def _listed_name(span: Span) -> Span:
    """A model ADDRESS span that is a numbered name of a line-up (`LISTED`), none of its
    words a street's, as a PERSON span over the name alone."""
    found = LISTED.fullmatch(span.text) if span.label == "ADDRESS" else None
    if found is None or span.source != "model" or \
            any(w.casefold() in STREET_WORDS for w in found.group(1).split()):
        return span
    return Span(span.start + found.start(1), span.start + found.end(1), "PERSON",
                found.group(1), span.score, span.source)


INVERTED = re.compile(r"([A-Z][^\W\d_]*(?:[-'][^\W\d_]+)*), ([A-Z][^\W\d_]*(?:-[^\W\d_]+)*)"
                      r"( [A-Z]\.)?")


# a filer's name as the securities regulator's forms print it: surname, given name and
# middle initial in capitals, no comma ("FENWICK GRAHAM R")
FILER_NAME = re.compile(r"([A-Z][A-Z'-]+) ([A-Z][A-Z'-]+) [A-Z]\.?")


def _inverted_name(span: Span) -> Span:
    """A model COMPANY span "Surname, Given" ("Miller, Brandon") as PERSON: the second
    word a given name, the first a name (`given_names`, `known_names`) or any word where
    a middle initial follows the given name (a creditors' schedule's "Oduya, Patience
    A.": no firm's name ends so); or a filer's
    name written surname first in capitals with a middle initial (`FILER_NAME`: "FENWICK
    GRAHAM R"), whose initial says enough of the surname, if the second is a given name."""
    if span.label != "COMPANY" or span.source != "model":
        return span
    found = INVERTED.fullmatch(span.text)
    filer = FILER_NAME.fullmatch(span.text)
    if found and found.group(2).casefold() in given_names() and \
            (found.group(3) or found.group(1).casefold() in known_names()) or \
            filer and filer.group(2).casefold() in given_names():
        return replace(span, label="PERSON")
    return span


# a given name and the initial of a surname, as a message is signed ("Priyanka S."), a
# given name and a double-barrelled surname ("Oluwaseun Adeyemi-Hart"), or a given name,
# a middle initial and a surname ("Jonathan R. Sterling")
INITIALLED = re.compile(r"([A-Z][^\W\d_]+(?:-[A-Za-z][^\W\d_]+)?) [A-Z]\.")
DOUBLE_BARRELLED = re.compile(r"([A-Z][^\W\d_]+) ([A-Z][^\W\d_]+)-([A-Z][^\W\d_]+)")
MIDDLE_INITIAL = re.compile(r"([A-Z][^\W\d_]+) [A-Z]\. ([A-Z][^\W\d_]+)")


def _initialled(span: Span) -> Span:
    """A model COMPANY span that is a name and an initial ("Priyanka S." under "Warm
    regards,"), a name and a double-barrelled surname ("My name is Oluwaseun
    Adeyemi-Hart") or two names around a middle initial ("filed by Bluewater Capital GP,
    LLC and Jonathan R. Sterling") as PERSON, each word a name or a rare word
    (`lexicon.name_or_rare`): no firm is named so."""
    if span.label != "COMPANY" or span.source != "model":
        return span
    found = INITIALLED.fullmatch(span.text) or DOUBLE_BARRELLED.fullmatch(span.text) or \
        MIDDLE_INITIAL.fullmatch(span.text)
    if found and all(name_or_rare(word.casefold()) for word in found.groups()):
        return replace(span, label="PERSON")
    return span


# interest-rate benchmarks, which a loan agreement names before "Loan" or "Borrowing"
# the way it names a lender ("each Term SOFR Loan", "ABR Borrowings"), and the words
# that qualify one; none is anybody's name
RATE_BENCHMARKS = {"SOFR", "LIBOR", "EURIBOR", "SONIA", "SARON", "TONA", "TONAR", "ESTR",
                   "€STR", "CDOR", "CORRA", "BBSY", "BKBM", "TIBOR", "HIBOR", "SIBOR",
                   "Eurodollar", "Eurocurrency", "ABR"}
RATE_QUALIFIERS = {"Term", "Daily", "Simple", "Compounded", "Adjusted", "Rate", "Rates",
                   "Spread", "Margin", "Loan", "Loans", "Borrowing", "Borrowings", "Advance",
                   "Advances", "Tranche"}
# the names of identifier schemes and payment systems, which label the value after them
# ("SWIFT BFTVVNVX", "NMLS #1893220"), and of the checks a bank makes on a customer
# ("EDD completed 02-Dec-2026", "UBO verified", "escalated to the MLRO"); as written, in
# capitals ("Taylor Swift", "Edd Kimber" are names)
ID_SCHEMES = {"SWIFT", "BIC", "IBAN", "ABA", "NMLS", "SSN", "EIN", "TIN", "ITIN", "FEIN",
              "CUSIP", "ISIN", "LEI", "SEDOL", "NPI", "KYC", "AML", "CIP", "PEP", "EDD", "CDD",
              "UBO", "MLRO", "ACH", "SEPA", "BACS", "CHAPS", "Fedwire", "FedNow",
              # and a card payment's reference numbers ("ARN 7402765...", a chargeback's)
              "ARN", "RRN",
              # and a bank's customer file, Australia's branch code, the UK's and
              # Australia's tax references ("CIF 00448812", "BSB 062-000", "UTR 12345 67890")
              "CIF", "BSB", "UTR", "ABN", "TFN"}
# a scheme's name at the end of what a checked value left of a model span: it labels
# the value ("Standard Bank of South Africa, [SWIFT] SBZAZAJJ"), no part of a name
SCHEME_AT_END = re.compile(r"[\s,;:(]*(?<![\w-])(?:%s)[\s:#.]*$" % trie_pattern(ID_SCHEMES))


# a lower-case word or a scheme's name that a model's number span starts with, before the
# number's first digit or sign: a preposition of another language ("joignable [au] 01 42
# 68 55 00") or the number's keyword ("[EIN] 84-1234567"), neither part of the number
NUMBER_LEAD = re.compile(r"(?:[a-z]+|%s)[ \t:#.]+(?=[\d+(])" % trie_pattern(ID_SCHEMES))


def without_scheme(text: str, a: int, b: int) -> int:
    """Where the part `a`..`b` of a model span ends once its scheme's name is cut."""
    found = SCHEME_AT_END.search(text, a, b)
    return found.start() if found else b


# a contract's other terms that read like names to an uncased model: statutes and
# regulations known by their acronym or short title, accounting standards and measures,
# events;
# and the words that go with one ("the USA PATRIOT Act"). Regulators (OFAC, the SEC) are
# bodies, not terms, and stay the model's to read.
CONTRACT_TERMS = RATE_BENCHMARKS | {
    "ERISA", "HIPAA", "COBRA", "FATCA", "CERCLA", "RICO", "FCPA", "UCC", "PATRIOT", "WARN",
    "HSR", "GLBA", "FCRA", "FDCPA", "TCPA", "ECOA", "TILA", "RESPA", "HMDA", "BSA", "GDPR",
    "CCPA", "FERPA", "COPPA", "MiFID", "MiFIR", "EMIR", "UCITS", "AIFMD", "PSD2", "MiCA",
    "AMLD",
    "Dodd-Frank", "Sarbanes-Oxley", "Gramm-Leach-Bliley", "Hart-Scott-Rodino",
    "Glass-Steagall", "GAAP", "IFRS", "EBITDA",
    # a bank's account at another bank, and the other's at it
    "Nostro", "Vostro", "NOSTRO", "VOSTRO",
    # and the events a filing's risk factors name ("Brexit, COVID-19 and the war in
    # Ukraine created uncertainty")
    "Brexit", "COVID", "COVID-19", "Covid", "Covid-19", "Coronavirus", "Omicron"} | ID_SCHEMES
TERM_WORDS = RATE_QUALIFIERS | {"Act", "Regulation", "Rule", "USA", "U.S.", "the", "of"}
# where a model span lists several things: a comma, or "and", "or", "&" between words;
# and all that may stand between the things of a list (`merge._lists`)
LIST_BREAK = re.compile(r",\s*|\s+(?:and|or|&)(?:\s+|$)|^(?:and|or)\s+")
LIST_GAP = re.compile(r"(?:[\s,&]|\band\b|\bor\b)*")


def _without_terms(span: Span) -> list[Span]:
    """A model PERSON, COMPANY or ADDRESS span without the parts of it (cut at commas
    and at "and", "or", "&") that are a contract's terms (`CONTRACT_TERMS`: "ERISA",
    "Daily Simple SONIA", "the USA PATRIOT Act"): every word one or a word that goes with
    one (`TERM_WORDS`), one at least a term. The other parts stay, each a span of the
    span's label ("Dodd-Frank, Sarbanes-Oxley or FINRA" leaves "FINRA"). A PERSON span
    whose only term is a single word that is also someone's name ("SONIA") stays, unless
    it names an identifier scheme ("SWIFT" before a code)."""
    if span.label not in ("PERSON", "COMPANY", "ADDRESS") or span.source != "model":
        return [span]
    cuts = [0, *(x for m in LIST_BREAK.finditer(span.text) for x in m.span()), len(span.text)]
    parts = [(a, b) for a, b in zip(cuts[::2], cuts[1::2]) if b > a]
    terms = []
    for a, b in parts:
        words = span.text[a:b].split()
        terms.append(bool(set(words) & CONTRACT_TERMS) and set(words) <= CONTRACT_TERMS | TERM_WORDS)
    if not any(terms):
        return [span]
    if span.label == "PERSON" and len(span.text.split()) == 1 \
            and span.text not in ID_SCHEMES and span.text.casefold() in known_names():
        return [span]
    return [Span(span.start + a, span.start + b, span.label, span.text[a:b], span.score, span.source)
            for (a, b), term in zip(parts, terms) if not term]


# a generational suffix after a name: "Jr." and "Sr." in any case, roman numerals in capitals
NAME_SUFFIX = re.compile(r",? (?:(?i:jr|sr|jnr|snr)\.?|II|III|IV)(?![\w'-])")


def _with_name_suffix(text: str, spans: list[Span]) -> list[Span]:
    """A model PERSON span followed by a generational suffix takes it in ("John A.
    Smith" + ", Jr.", as every gold name with one holds it); a span that is only the
    suffix ("JR" after "JOHN A. SMITH, ") is part of that name, not a name of its own. A
    span that starts inside the suffix and runs on past it is left as it is."""
    out: list[Span] = []
    taken = (0, 0)  # the characters of the suffix the name before took in
    for k, span in enumerate(spans):
        if taken[0] <= span.start and span.end <= taken[1]:
            continue
        taken = (0, 0)
        m = NAME_SUFFIX.match(text, span.end)
        later = spans[k + 1] if k + 1 < len(spans) else None
        if m and span.label == "PERSON" and span.source == "model" and \
                (later is None or later.start >= m.end() or later.end <= m.end()):
            taken = (span.end, m.end())
            span = _ending_at(text, span, m.end())
        out.append(span)
    return out


# what is written after a name and is no part of it: a lawyer's "Esq." and the letters of a
# degree or a qualification ("Jane Doe, CPA"); not "JD" (a given name in the corpora) or
# "RN" (a Brazilian state in the generator's addresses)
CREDENTIALS = ("Esq.", "Esq", "Ph.D.", "PhD", "M.D.", "MD", "MBA", "LL.M.", "CPA", "CFA",
               "CFP", "CAMS", "CISSP", "ACCA", "FCA", "DDS", "CAIA", "FRM", "ChFC", "CLU",
               "CIMA", "CPWA", "CRPC", "CPCU", "CIPP", "PMP", "CFE", "CISA",
               # King's and Queen's Counsel (not "SC", a state's abbreviation too), and a
               # Senior Advocate of Nigeria ("Rotimi Oyedepo, SAN")
               "KC", "QC", "SAN",
               # and the orders of the British Empire and of Nigeria ("Aliko Dangote, GCON")
               "OBE", "CBE", "MBE", "KBE", "DBE", "GBE", "GCFR", "GCON", "CFR", "OFR", "OON",
               "MFR",
               # and a doctor's, nurse's or vet's degrees and colleges, as letters sign them
               # ("Dr Oluwatobi Adeyemi-Brooks MBBS MRCGP")
               "MBBS", "MBChB", "MRCGP", "MRCP", "FRCP", "MRCS", "FRCS", "FRCA", "BDS",
               "DVM", "PharmD", "DNP", "FACP", "FACS", "RN", "DMD",
               # and the fellowships of the UK's academies ("Professor Dame Sunita Rao FRS")
               "FRS", "FREng", "FBA", "FRSE", "FMedSci", "FRSA",
               # and theirs, a psychologist's, a social worker's and an accountant's,
               # dotted ("Wei-Lin Huang, D.D.S.", "Robert Kim, C.P.A.")
               "D.D.S.", "D.M.D.", "D.V.M.", "Pharm.D.", "Psy.D.", "D.N.P.", "M.S.W.", "R.N.",
               "C.P.A.",
               # and a legislator's ("Ruth Davidson MSP", "Barry Andrews MEP"); not "TD", a
               # bank alone too, nor "MS", a state's abbreviation
               "MP", "MSP", "MLA", "MEP", "MPP",
               # and those that sign valuations, audits, tax returns, pension schemes, claims
               # and awards: surveyors', accountants' and tax advisers', actuaries', the
               # Chartered Insurance Institute's, arbitrators', trust practitioners', HR's
               # ("Helen Ashworth FRICS", "Ian Featherstone FIA")
               "MRICS", "FRICS", "AssocRICS", "ACA", "FCCA", "CTA", "CGMA", "CMA", "CFF", "FIA",
               "FFA", "FCAS", "ACAS", "MAAA", "ACII", "FCII", "MCIArb", "FCIArb", "TEP",
               "MCIPD", "FCIPD")
# and an account's type written after its holder's name ("Ishaan Mehta IRA")
ACCOUNT_TYPES = ("IRA", "Roth IRA", "SEP IRA", "SEP-IRA", "Rollover IRA", "Traditional IRA",
                 "401(k)", "403(b)", "HSA", "UTMA", "UGMA",
                 # and the UK's and Canada's tax-sheltered accounts ("Hargreaves Lansdown
                 # SIPP", "Questrade TFSA")
                 "SIPP", "ISA", "TFSA", "RRSP")
ACCOUNT_TYPES_AFTER = re.compile(r"(?: (?:%s))+$" % trie_pattern(ACCOUNT_TYPES))
# and the abbreviations of chat after a name ("my friend Dmitri lol")
CHAT_WORDS = ("lol", "lmao", "rofl", "smh", "tbh", "imo", "imho", "btw", "fyi", "pls", "plz",
              "thx", "ty", "haha", "hahaha", "lmk", "omg", "idk", "ngl", "jk")
# (perhaps with its mark: "CFP®", "CFA™", as a signature writes the certified ones; a
# dotted one perhaps without its last full stop, which a sentence's end takes: "Ann Lee,
# Pharm.D. spoke")
CREDENTIAL = "(?:%s)[®™]?(?![\\w'-])" % "|".join(
    re.escape(c[:-1]) + r"\.?" if c.endswith(".") else re.escape(c)
    for c in sorted(CREDENTIALS + ACCOUNT_TYPES + CHAT_WORDS, key=len, reverse=True))
CREDENTIALS_ONLY = re.compile(rf"{CREDENTIAL}(?:,? {CREDENTIAL})*")
CREDENTIALS_AFTER = re.compile(rf"(?:,? {CREDENTIAL})+$")
# a US state's abbreviation after a name of two words or more and a comma, as a licence's
# state or a directory's place ("Roy Pettibone, GA License 40218", "Mia Fischer, NY"); not
# after one word ("Lee, AL" may be an inverted name and its initials)
STATE_AFTER = re.compile(r", (?:%s)$" % "|".join(US_STATES))
ESQUIRE_AFTER = re.compile(r",?[ \t]+Esq\.?$")  # written after a lawyer's name only
# an identifier's scheme after a name, before its number ("Brent Castellano [NMLS] #1840223",
# "Hiroshi Tanaka [EIN] 84-1943375"): the number's label, no part of the name
SCHEME_AFTER = re.compile(r",? (%s)$" % trie_pattern(ID_SCHEMES))


def _without_credentials(span: Span) -> list[Span]:
    """A model PERSON span without the credentials written after the name ("Margaret Osei,
    Esq" -> "Margaret Osei"), an account's type ("Ishaan Mehta IRA", `ACCOUNT_TYPES`) or
    chat's abbreviations ("Dmitri lol", `CHAT_WORDS`) or a state's after a comma
    ("Roy Pettibone, GA", `STATE_AFTER`), a PERSON or COMPANY span without an
    identifier's scheme after it ("Brent Castellano NMLS", `SCHEME_AFTER`; not one that is
    a name Faker knows, "SWIFT"), a COMPANY span ending in a lawyer's "Esq."
    as the lawyer's PERSON span without it (`ESQUIRE_AFTER`: "[Rebecca Strand], Esq.",
    the model misled by the firm "Strand & Moyo LLP" after it), a COMPANY span without an
    account's type after the firm ("Hargreaves Lansdown SIPP"), and none where a PERSON
    or COMPANY span is only those (the model's "CPA" or "CFP" after "Jane Doe, "): like a
    courtesy title (`_without_title`), they are nobody's personal data, and the gold
    convention leaves them out."""
    if span.label not in ("PERSON", "COMPANY") or span.source != "model":
        return [span]
    if CREDENTIALS_ONLY.fullmatch(span.text):
        return []
    if span.label == "COMPANY" and (m := ESQUIRE_AFTER.search(span.text)) and \
            2 <= len(words := span.text[:m.start()].split()) <= 4 and \
            all(w[:1].isupper() and w.rstrip(".,") not in FIRM_ENDS for w in words):
        return [replace(_cut(span, m.start()), label="PERSON")]
    m = (CREDENTIALS_AFTER if span.label == "PERSON" else ACCOUNT_TYPES_AFTER).search(span.text)
    if m and m.start() > 0:
        return [_cut(span, m.start())]
    m = SCHEME_AFTER.search(span.text)
    if m and m.group(1).casefold() not in known_names():
        return [_cut(span, m.start())]
    m = STATE_AFTER.search(span.text) if span.label == "PERSON" else None
    return [_cut(span, m.start())] if m and " " in span.text[:m.start()] else [span]


NAME_SHAPE = re.compile(rf"{_NAME_WORD}(?: {_NAME_WORD}){{0,3}}")
CLOSING = "?!.,;:"


def name_shaped(text: str, spans: Sequence[Span]) -> list[Span]:
    """The spans with each name read as an email or a secret made a name (`_name_shaped`);
    applied after the floors, so such a span first reaches its own group's floor. Such a
    name one space after a model PERSON span is the end of that person's name ("[Marisol]"
    + "[Etxeberria]", the surname read as an email, is "[Marisol Etxeberria]")."""
    out: list[Span] = []
    for span in spans:
        named = _name_shaped(span)
        if named is not span and out and out[-1].label == "PERSON" and \
                out[-1].source == "model" and text[out[-1].end:named.start] == " ":
            out[-1] = _joined(text, out[-1], named, "PERSON")
        else:
            out.append(named)
    return out


def _name_shaped(span: Span) -> Span:
    """A model EMAIL span without an "@", or DIGITAL span with a space, that has a name's
    shape (`NAME_SHAPE`, before a closing "?" or full stop), as a PERSON span over the
    name ("Chidi" signing a mail under its headers, "Oluwaseun Adebayo-Okafor?" in a
    chat): no address lacks its "@", and no secret or user name holds a space. Any other
    such span stays masked as the model read it: "reyes.flores" is a user name, even
    without its "@"."""
    if span.source != "model" or not (span.label == "EMAIL" and "@" not in span.text or
                                      span.label == "DIGITAL" and " " in span.text):
        return span
    name = span.text.rstrip(CLOSING)
    if NAME_SHAPE.fullmatch(name):
        return replace(_cut(span, len(name)), label="PERSON")
    return span


FIRMS_FOLDED = {firm.casefold() for firm in KNOWN_FIRMS}


# a table's cell: at its line's start (past spaces or a "|"), up to the line's end, a tab,
# two spaces or a "|"; and any column's start, its line's or after such a gap
CELL_BEFORE = re.compile(r"(?:^|\n)[ \t]*(?:\|[ \t]*)?$")
CELL_AFTER = re.compile(r"[ \t]*(?:$|\n|\||\t)| {2}")
COLUMN_BEFORE = re.compile(r"(?:^|\n|[ \t]{2}|\t|\|)[ \t]*$")
# firms named after their founders, as a filing's tables name them; not on `patterns.FIRMS`
# because a person may have the name ("Edward Jones")
FOUNDERS_FIRMS = frozenset(("Edward Jones", "Raymond James", "Charles Schwab", "John Deere",
                            "William Blair", "Stifel Nicolaus", "Keefe Bruyette", "Paul Weiss",
                            "Eli Lilly", "Ralph Lauren", "Calvin Klein", "Michael Kors",
                            "Kate Spade", "Tommy Hilfiger", "Morgan Lewis", "Charles River",
                            "Marcus Millichap", "Sullivan Cromwell", "Harris Williams",
                            "Oliver Wyman", "Booz Allen", "Grant Thornton", "Robert Half",
                            "Jones Day", "Hugo Boss", "Tory Burch", "Vera Wang", "Marc Jacobs",
                            "Levi Strauss", "Estee Lauder", "Harley Davidson", "Warburg Pincus",
                            "Thoma Bravo", "Dean Witter", "Smith Barney", "Morgan Keegan",
                            "Price Waterhouse", "Baker McKenzie", "Hogan Lovells",
                            "Simpson Thacher", "Cleary Gottlieb", "Herbert Smith", "Allen Overy",
                            "Martha Stewart", "Ben Jerry", "Eddie Bauer", "Kenneth Cole",
                            "Anne Klein", "Tom Ford", "Jenny Craig", "Sherwin Williams"))


# what follows a recipient's name on a shipping or mailing line: a comma and a house number
BEFORE_ADDRESS = re.compile(r",[ \t]*\d")
# a comma and the words up to the next comma or the line's end: a job's title, where they
# are one (`job_title`: "Leonard Whitaker, Trustee", "Ana Ruiz, EVP, Operations")
TITLE_AFTER = re.compile(r",[ \t]*([^\n,;()]{2,60})")


def _cell_name(text: str, span: Span) -> Span:
    """A model COMPANY span that is a whole table cell holding a person's name, or such a
    name right before a comma and a house number or a job's title (`TITLE_AFTER`), as
    PERSON: two or three words, none a firm's word or form, not a known firm or one named
    after its founder, the first (or its first part) a given name and the last (or each
    of its parts) a name, or before a title any word outside the vocabulary
    (`name_or_rare`: "Reporting to Deborah Ashworth, SVP and Chief Credit Officer")
    ("Kwame Asante-Boateng" among a compensation table's figures,
    "Sofia Mendoza-Rey" under "BlackRock, Inc.", "shipped to Ngozi Eze, 14 Admiralty
    Way", "Seller: Whitaker Family Trust, Leonard Whitaker, Trustee")."""
    if span.label != "COMPANY" or span.source != "model":
        return span
    if not _worded_as_a_name(span.text):
        return span
    words = span.text.split()
    first, last = words[0].casefold().split("-")[0], words[-1].casefold().split("-")
    if first not in given_names():
        return span
    titled = _title_after(text, span.end)  # (then any surname outside the vocabulary)
    if not all(part in known_names() or titled and name_or_rare(part) for part in last):
        return span
    if BEFORE_ADDRESS.match(text, span.end) is None and not titled and (
            CELL_BEFORE.search(text, max(0, span.start - 8), span.start) is None or
            CELL_AFTER.match(text, span.end) is None):
        return span
    return replace(span, label="PERSON")


def _worded_as_a_name(value: str) -> bool:
    """Whether a firm's span has a person's name's words: two or three, none a firm's word
    or legal form (`FIRM_ENDS`), and no well-known firm (`FIRMS`) nor one named after its
    founder (`FOUNDERS_FIRMS`: "Edward Jones")."""
    words = value.split()
    return 2 <= len(words) <= 3 and \
        not any(w in FIRM_ENDS or w.rstrip(".") in FIRM_ENDS for w in words) and \
        not FIRMS.fullmatch(value) and \
        " ".join(re.findall(r"[^\s&,]+", value)) not in FOUNDERS_FIRMS


def _title_after(text: str, end: int) -> bool:
    """Whether a comma and a job's title follow text[:end] (`TITLE_AFTER`)."""
    after = TITLE_AFTER.match(text, end)
    return after is not None and job_title(after.group(1).rstrip(". \t"))


# what follows a judge's surname in an opinion's caption: perhaps more surnames, then the
# judges' office ("LIVINGSTON, Chief Judge, PARK and NARDINI, Circuit Judges.")
JUDGES_AFTER = re.compile(r"(?:,?[ \t]+(?:and[ \t]+)?[A-Z][A-Za-z'\u2019-]+)*,[ \t]+"
                          r"(?:(?:Chief|Circuit|District|Senior|Magistrate|Bankruptcy|Associate|"
                          r"Presiding|Appellate)[ \t]+)*(?:Judges?|Justices?)\b")


def _judge(text: str, span: Span) -> Span:
    """A model COMPANY span of one word before a judges' office in a caption
    (`JUDGES_AFTER`: "Before: LIVINGSTON, Chief Judge, [PARK] and [NARDINI], Circuit
    Judges.") as PERSON: a judge's surname the model took for a firm's."""
    if span.label != "COMPANY" or span.source != "model" or not span.text.isalpha() or \
            JUDGES_AFTER.match(text, span.end) is None:
        return span
    return replace(span, label="PERSON")


def _inverted_cells(text: str, spans: list[Span]) -> list[Span]:
    """A table's cell "Surname, Given" that the model read as two persons ("Abernathy" +
    "Claire M." in a payroll register's line) as one: a one-word model PERSON span at a
    column's edge (`COLUMN_BEFORE`), ", ", and a model PERSON span of up to three words,
    the first a name or a word outside the vocabulary (`name_or_rare`: "Femi"), that ends
    its cell (`CELL_AFTER`); so too an item of a list parted by semicolons whose given
    name is one (`_list_item`: "Plaintiffs: Kowalski, Anna; Brennan, Michael J."), and a
    surname in capitals before given names that are not (`_capital_surname`:
    "HARGREAVES, Dennis Arthur"). In running text the two stay apart otherwise ("met
    Abernathy, Claire and Tom"), but for a surname led by its particles in lower case
    (`PARTICLE_SURNAME`: "Cc: [de la Cruz], [José Antonio]"), which stands first only
    where the surname is written first, with a particle right before it taken in
    (`_particle_led`)."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last is not None and last.label == span.label == "PERSON" and \
                last.source == span.source == "model" and text[last.end:span.start] == ", " and \
                len(span.text.split()) <= 3 and name_or_rare(span.text.split()[0].casefold()):
            if " " not in last.text and (
                    COLUMN_BEFORE.search(text, max(0, last.start - 8), last.start) and
                    CELL_AFTER.match(text, span.end) or _list_item(text, last, span)) or \
                    _capital_surname(last, span):
                out[-1] = _joined(text, last, span, "PERSON")
                continue
            if PARTICLE_SURNAME.fullmatch(last.text):
                out[-1] = _joined(text, _particle_led(text, last), span, "PERSON")
                continue
        out.append(span)
    return out


# a surname led by its particles in lower case ("van den Berg", "de la Cruz", "dos Santos"),
# and such a particle right before a span ("de" of "Cc: de [la Cruz]")
SURNAME_PARTICLES = ("de", "du", "des", "do", "da", "dos", "das", "di", "dei", "del", "della",
                     "van", "von", "vom", "zu", "la", "le", "den", "der", "ter", "ten")
_SURNAME_PARTICLES = trie_pattern(SURNAME_PARTICLES)
PARTICLE_SURNAME = re.compile(rf"(?:{_SURNAME_PARTICLES}[ \t]+)+"
                              rf"[A-Z][^\W\d_]*(?:[-'\u2019][^\W\d_]+)*")
PARTICLE_BEFORE = re.compile(rf"(?<![\w.'\u2019-])(?:{_SURNAME_PARTICLES})[ \t]+\Z")


def _particle_led(text: str, span: Span) -> Span:
    """A span with the particle right before it taken in (`PARTICLE_BEFORE`), or as it is."""
    before = PARTICLE_BEFORE.search(text, max(0, span.start - 8), span.start)
    return span if before is None else _starting_at(text, span, before.start())


# a person's name that the model ended on its particles ("[Juan Carlos Martínez de] los
# Santos", "[MARIA DE LOS] ANGELES RODRIGUEZ", "[Ana Lúcia dos] [Santos] e [Silva]"): the
# rest of it is a capitalised word after any more particles, then as many as a particle
# (or "d'") leads on to ("de la Tour d'Auvergne", "Santos e Silva"), and perhaps one more
# capitalised word, a name (`NAME_TAIL`)
_TAIL_WORD = r"(?:[dD]['\u2019])?[A-ZÀ-ÖØ-Þ][^\W\d_]*(?:[-'\u2019][^\W\d_]+)*"
_TAIL_PARTICLE = rf"(?:{_SURNAME_PARTICLES}|los|las)"
_TAIL_LINK = rf"(?:{_TAIL_PARTICLE}|y|e)"
NAME_TAIL = re.compile(rf"(?i:(?:[ \t]+{_TAIL_PARTICLE})*)[ \t]+"
                       rf"({_TAIL_WORD}(?:(?:[ \t]+{_TAIL_LINK})+[ \t]+{_TAIL_WORD}"
                       rf"|[ \t]+(?=[dD]['\u2019]){_TAIL_WORD})*)(?:[ \t]+({_TAIL_WORD}))?")
TAIL_PARTICLES = frozenset(SURNAME_PARTICLES + ("los", "las"))


def _particle_tails(text: str, spans: list[Span]) -> list[Span]:
    """A model PERSON span of two words or more that ends on a name's particle, in lower
    case or in a name in capitals, takes in the rest of the name after it (`NAME_TAIL`)
    and the PERSON spans there; where no name follows, or a word of it is a firm's or a
    place, or another label's span stands there, it ends before its particles ("[Ana
    García] de Banco Santander"), unless it is in capitals ("JOHN VAN" may be a name)."""
    out: list[Span] = []
    for k, span in enumerate(spans):
        if out and out[-1].end > span.start:
            if span.end > out[-1].end:  # a PERSON span inside the tail, taken in
                out[-1] = _ending_at(text, out[-1], span.end)
            continue
        words = span.text.split()
        if span.label != "PERSON" or span.source != "model" or len(words) < 2 or \
                words[-1].casefold() not in TAIL_PARTICLES or \
                not (words[-1].islower() or span.text.isupper()):
            out.append(span)
            continue
        tail = NAME_TAIL.match(text, span.end)
        end = tail and (tail.end(2) if tail.group(2) and name_or_rare(tail.group(2).casefold())
                        else tail.end(1))
        if end and not any(w in FIRM_WORDS for w in tail.group(1).split()) and \
                not a_place(tail.group(1)) and _persons_only(spans, k + 1, end):
            out.append(_ending_at(text, span, end))
        elif span.text.isupper():
            out.append(span)
        else:
            out.append(_cut(span, PARTICLES_AT_END.search(span.text).start()))
    return out


PARTICLES_AT_END = re.compile(rf"(?:\s+{_TAIL_PARTICLE})+\Z")


def _persons_only(spans: list[Span], k: int, end: int) -> bool:
    """Whether the spans from the k-th on that start before `end` are all PERSON spans
    (the spans in order: a few looked at, not the rest of a long log's)."""
    while k < len(spans) and spans[k].start < end:
        if spans[k].label != "PERSON":
            return False
        k += 1
    return True


def _capital_surname(surname: Span, given: Span) -> bool:
    """Whether a surname is written in capitals before given names that are not, as
    registers of officers, sanctions lists, court orders and obituaries write one person
    ("HARGREAVES, Dennis Arthur", "AL-RASHIDI, Hassan Mahmoud"): a name or no word of
    the vocabulary, and no job's title ("COO, Richard Vance" is a title and a name); or
    two surnames or more so, as Spanish and Portuguese names have, none a given name
    ("ALVAREZ MENDOZA, Jorge Luis"; "JOHN SMITH, Jane Doe" are two people)."""
    words = surname.text.split()
    return all(
        CAPITAL_SURNAME.fullmatch(w) and name_or_rare(w.casefold()) for w in words) and \
        not (len(words) > 1 and any(w.casefold() in given_names() for w in words)) and \
        not job_title(surname.text) and any(c.islower() for c in given.text)


CAPITAL_SURNAME = re.compile(r"[A-Z][A-Z'\u2019-]*[A-Z]")  # "AL-RASHIDI", "O'NEILL"
ITEM_BEFORE = re.compile(r";[ \t]*$")  # a semicolon before a list's item
ITEM_AFTER = re.compile(r"[ \t]*;")  # and after one


def _list_item(text: str, surname: Span, given: Span) -> bool:
    """Whether a surname, a comma and a given name (`given_names`) make one item of a
    list parted by semicolons: a semicolon before the surname or after the given name,
    the surname someone's (not a contract's "; Hereinafter, Whitney Hereford",
    `nobodys`)."""
    return given.text.split()[0].casefold() in given_names() and (
        ITEM_AFTER.match(text, given.end) is not None or
        ITEM_BEFORE.search(text, max(0, surname.start - 4), surname.start) is not None) and \
        not nobodys(text, surname)


CAPTION_BEFORE = re.compile(r"(?<![\w.])vs?\.[ \t]+$")  # a caption's "v." before a span


def _caption_party(text: str, span: Span) -> Span:
    """A model COMPANY span of one word that is a known name (`lexicon.known_names`), on
    one side of a caption's "v." ("[Hernandez] v. Crestline Bancorp, Inc."), as PERSON:
    the party a lawsuit is named after is a person far more often than a firm of one
    name; not a well-known firm's ("Jefferies")."""
    if span.label != "COMPANY" or span.source != "model" or not span.text.isalpha() or \
            span.text.casefold() not in known_names() or FIRMS.fullmatch(span.text) or \
            not (VERSUS.match(text, span.end) or
                 CAPTION_BEFORE.search(text, max(0, span.start - 6), span.start)):
        return span
    return replace(span, label="PERSON")


# one person's courtesy title right before a span ("with Dr. [Arvind Subramaniam]"), or at
# the end of the line before, in text wrapped at its width
PERSONS_TITLE = re.compile(r"(?:%s)\.?(?:[ \t]+|[ \t]*\n[ \t]*)\Z" % trie_pattern(ENGLISH_TITLES))


def after_title(text: str, start: int) -> bool:
    """Whether one person's courtesy title ("Ms.", "Dr.") stands right before `start`
    (`PERSONS_TITLE`, looked for in the six characters before it)."""
    return PERSONS_TITLE.search(text, max(0, start - 6), start) is not None


def _titled(text: str, span: Span) -> Span:
    """A model COMPANY span right after one person's courtesy title ("an employment
    agreement with Dr. [Arvind Subramaniam]", `PERSONS_TITLE`) as PERSON: no firm is
    named so (one whose name ends in a firm's word, "Dr. Reddy's Laboratories", is made
    a firm again by `_firm`)."""
    if span.label != "COMPANY" or span.source != "model" or \
            not after_title(text, span.start):
        return span
    return replace(span, label="PERSON")


# where a firm named after its founder stands as a firm: after "at", "through" or "via"
# ("my IRA at Edward Jones"), or before a word of a firm's dealings ("Edward Jones
# advisor", "the Raymond James branch")
FIRM_PLACE_BEFORE = re.compile(r"(?<![\w-])(?:at|through|via|At|Through|Via)[ \t]+$")
FIRM_DEALINGS = re.compile(r"[ \t]+(?:advisors?|advisers?|accounts?|branch(?:es)?|offices?|reps?|"
                           r"representatives?|fees|brokerage|app|website|customer|client|"
                           r"financial advisors?|IRA|Roth|401k|401\(k\))\b")


def _founders_firm(text: str, span: Span) -> Span:
    """A model PERSON span that is a firm named after its founder (`FOUNDERS_FIRMS`:
    "Edward Jones", "Charles Schwab") where it stands as a firm (`FIRM_PLACE_BEFORE`,
    `FIRM_DEALINGS`, `_titled_line`: "Greg at [Edward Jones]", "[Edward Jones] advisor",
    "Analyst, [Raymond James]") as COMPANY;
    elsewhere it may be the person ("Edward Jones, 54, of Dayton")."""
    if span.label != "PERSON" or span.source != "model" or span.text not in FOUNDERS_FIRMS:
        return span
    if FIRM_PLACE_BEFORE.search(text, max(0, span.start - 10), span.start) is None and \
            FIRM_DEALINGS.match(text, span.end) is None and not _titled_line(text, span.start):
        return span
    return replace(span, label="COMPANY")


# what is held in a firm, right before its name, as markets news writes it ("Shares of
# [Palantir] rose", "took a stake in [Carvana]", "bonds of [Evergrande]")
HOLDING_BEFORE = re.compile(r"(?<![\w-])(?:[Ss]hares|[Ss]tock|[Ss]take|[Bb]onds|[Dd]ebt)"
                            r"[ \t]+(?:of|in)[ \t]+$")


WHICH_AFTER = re.compile(r",[ \t]+which\b")  # a thing's relative pronoun, never a person's


def _firm_by_its_words(text: str, span: Span) -> Span:
    """A model PERSON span that the words beside it say is a firm, as COMPANY: right after
    what is held in a firm (`HOLDING_BEFORE`: "Shares of [Palantir] rose"; no one's shares
    or stake are written so), or with a comma and "which" after it (`WHICH_AFTER`: "Our
    largest detractor was [Carvana], which we exited": English says "who" of a person,
    and what a story goes on about with "which" is a firm, a place or a thing, masked, if
    at all, as a firm is; without the comma the "which" may start a question asked of a
    person, "Ask [Sarah] which fund")."""
    if span.label != "PERSON" or span.source != "model" or (
            HOLDING_BEFORE.search(text, max(0, span.start - 12), span.start) is None and
            WHICH_AFTER.match(text, span.end) is None):
        return span
    return replace(span, label="COMPANY")


# a word (a name's last), a comma, a job's title and a comma right before a span: the
# span is the employer ("Dr. Hamza Qureshi, Chief Compliance Officer, [Stripe]")
EMPLOYER_BEFORE = re.compile(r"[^\W\d_][\w.'\u2019-]*,[ \t]+([^,\n()]{2,60}),[ \t]{1,2}$")


# a host a text names: after an email's "@", a URL's "//" or "www." (an email's part
# before the "@" is no host)
HOST = re.compile(r"(?:@|//|(?<![\w.-])www\.)([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)")


@functools.lru_cache(maxsize=1)
def _host_words(text: str) -> frozenset[str]:
    """The labels of the hosts a text names, but their top-level domains, in lower case:
    read once per text, whatever the number of spans asking (`tidy` tidies one text's
    spans in turn)."""
    return frozenset(label for host in HOST.findall(text)
                     for label in host.casefold().split(".")[:-1])


def _domain_firm(text: str, span: Span) -> Span:
    """A one-word model PERSON span that is, case aside, a label of a host the text names
    other than its top-level domain (`HOST`: "[BrightPay] Customer Care" of a mail from
    "support@brightpay.example"), and no given name (a person's own site), as COMPANY:
    mail, tickets and web pages sign with the firm whose domain they name."""
    if span.label != "PERSON" or span.source != "model" or not span.text.isalnum():
        return span
    word = span.text.casefold()
    if word in given_names() or word not in _host_words(text):
        return span
    return replace(span, label="COMPANY")


def _employer(text: str, span: Span) -> Span:
    """A model PERSON span after a name, its job's title and a comma (`EMPLOYER_BEFORE`,
    `patterns.job_title`), as an agenda, a press release or a bio write the person's firm
    ("Dr. Hamza Qureshi, Chief Compliance Officer, [Stripe]"), as COMPANY: no one is named
    after another's title so. A span whose first word is a given name stays (`given_names`),
    and so does one after a title that may be a firm's word ("Partner", "Head": `job_title`
    says no)."""
    if span.label != "PERSON" or span.source != "model" or \
            text.rfind(",", max(0, span.start - 3), span.start) < 0 or \
            span.text.split()[0].casefold() in given_names():  # (the comma: a cheap first test)
        return span
    before = EMPLOYER_BEFORE.search(text, max(0, span.start - 80), span.start)
    if before is None or not job_title(before.group(1)):
        return span
    return replace(span, label="COMPANY")


# an earnings call operator's introduction of an analyst, up to the analyst's firm ("Our
# next question comes from the line of Casey Haire with ", "Next, we have Chris McGratty
# from "): the name, two to four capitalised words, and "with", "of", "from", "at" or a comma
ANALYST_BEFORE = re.compile(
    r"(?:\bquestion[^.?!\n]{0,30}?\bfrom(?:[ \t]+the[ \t]+line[ \t]+of)?"
    r"|\b[Nn]ext,?[ \t]+we[ \t]+have)"
    r"[ \t]+[A-Z][\w.'\u2019-]*(?:[ \t]+[A-Z][\w.'\u2019-]*){1,3}"
    r"(?:[ \t]+(?:with|of|from|at)|,)[ \t]+\Z")


def _analysts_firm(text: str, span: Span) -> Span:
    """A model PERSON span right after an operator's introduction of an analyst
    (`ANALYST_BEFORE`: "question comes from Michael Tanaka with [Raymond James]"), as
    COMPANY: a call names the analyst's firm there, and brokers' names are surnames."""
    if span.label != "PERSON" or span.source != "model" or \
            ANALYST_BEFORE.search(text, max(0, span.start - 100), span.start) is None:
        return span
    return replace(span, label="COMPANY")


def _titled_line(text: str, start: int) -> bool:
    """Whether a line holds only a job's title and a comma before `start`, as a résumé's
    or a signature's line writes the employer after it ("Analyst, [Raymond James]")."""
    lo = max(0, start - 60)  # a title and its comma are shorter than a longer line's start
    line = text.rfind("\n", lo, start)
    if line < 0 and lo > 0:
        return False
    before = text[line + 1:start]
    return before.endswith(", ") and job_title(before[:-2].strip())


# one word ending in "bank" after letters of its own, as banks name themselves
# ("Vietcombank", "Rabobank", "Nordbank")
GLUED_BANK = re.compile(r"[A-Z][a-z]{2,}bank")


def _known_firm(span: Span) -> Span:
    """A model PERSON span that is a well-known firm's name, whole (`patterns.FIRMS`:
    "Morgan Stanley", "Lazard"), or one in capitals, as a statement prints it ("ZELLE"),
    or in lower case, as a post writes it ("my [venmo] is ..."),
    a public body's acronym (`BODIES`: "ECB", "FINRA") or a bank's one-word name
    (`GLUED_BANK`: "Vietcombank"), as COMPANY."""
    if span.label == "PERSON" and span.source == "model" and (
            FIRMS.fullmatch(span.text) or span.text in BODIES or GLUED_BANK.fullmatch(span.text) or
            (span.text.isupper() or span.text.islower()) and span.text.casefold() in FIRMS_FOLDED):
        return replace(span, label="COMPANY")
    return span


def _firm_comma(text: str, span: Span) -> Span:
    """A model COMPANY span without a comma and the lower-case words after it ("Zelle" of
    "Paid through Zelle, bank (Wells) says"): a firm's name has a form or a name after its
    comma ("Acme Holdings, llc", "Skadden, Arps"), never lower-case words alone; nor a
    job's title ("Soto, EVP, Operations" of a compensation table's "Rafael Ibarra Soto,
    EVP, Operations", whose surname `_one_person` then joins to the name), and the name
    before the title read again as a person's (`_cell_name`: "Leonard Whitaker, Trustee")."""
    if span.label != "COMPANY" or span.source != "model":
        return span
    comma = span.text.find(",")
    if comma > 0 and job_title(span.text[comma + 1:]):  # (a person's name, perhaps)
        return _cell_name(text, _cut(span, len(span.text[:comma].rstrip())))
    comma = span.text.rfind(",")
    tail = span.text[comma + 1:].split()
    if comma <= 0 or not tail or not all(w.isalpha() and w.islower() for w in tail) \
            or any(w.rstrip(".") in FORMS_FOLDED for w in tail):
        return span
    return _cut(span, len(span.text[:comma].rstrip()))


# the plural nouns sports teams are named with ("Kaizer Chiefs", "Orlando Pirates",
# "Boston Celtics"): no one's surname, and a club is a body, not a person
TEAM_NOUNS = frozenset("""
    Chiefs Pirates Rangers Rovers Wanderers Warriors Eagles Lions Tigers Bears Giants
    Knights Raiders Patriots Packers Cowboys Steelers Yankees Dodgers Lakers Celtics Bulls
    Spurs Saints Braves Cardinals Falcons Panthers Jaguars Broncos Titans Vikings Ravens
    Sharks Hawks Rockets Cubs Jets Dolphins Colts Texans Chargers Seahawks Buccaneers
    Bengals Bucks Knicks Suns Clippers Pistons Pacers Hornets Grizzlies Pelicans
    Mavericks Nuggets Timberwolves Canucks Oilers Bruins Penguins Flyers Islanders Sabres
    Predators Blackhawks Canadiens Hotspurs Wolves Gunners""".split())


def _firm(text: str, span: Span) -> Span:
    """A model PERSON span that ends in a firm's word, a bank's glued name or a legal form
    ("Olausson Nilsson HB", "de Wit Groep", "BDO Unibank", `GLUED_BANK`) or in a team's
    plural ("Kaizer Chiefs", "Orlando [Pirates]", `TEAM_NOUNS`), starts with a
    bank's ("Banque de France") or has a firm's word
    right after it ("[Prosek] Partners", `FIRM_TAIL`; not a field's label such as
    "Direct:", nor an institution named after a person, "Bill & Melinda Gates
    Foundation", `eponym`) as COMPANY: no person's name in any gold set does any of
    these. (The firm's word joins it in `_with_legal_forms`.)"""
    if span.label != "PERSON" or span.source != "model":
        return span
    words = span.text.split()
    tail = FIRM_TAIL.match(text, span.end)
    if len(words) > 1 and (words[-1] in FIRM_ENDS or words[0] in FIRM_STARTS or
                           GLUED_BANK.fullmatch(words[-1])) or words[-1] in TEAM_NOUNS or \
            tail and text[tail.end():tail.end() + 1] != ":" and not eponym(text, span):
        return replace(span, label="COMPANY")
    return span


# the first words of the well-known firms' names ("Goldman" of "Goldman Sachs"), as news
# shortens them before a possessive
FIRM_HEADS = frozenset(firm.split()[0] for firm in KNOWN_FIRMS if " " in firm)
POSSESSIVE = re.compile(r"['\u2019]s ")
# a possessive and one of a firm's officers, whom no person has ("Abrdn's chief executive
# Jason Windsor", "Meridian's president, Craig O'Sullivan"; not "Biden's chief of staff")
OFFICER_OF = re.compile(r"['\u2019]s (?i:chief executive(?: officer)?|chief financial officer|"
                        r"chief operating officer|CEO|CFO|COO|chairman|chairwoman|president|"
                        r"managing director|general counsel),? ")


def _firms_people(text: str, spans: list[Span]) -> list[Span]:
    """A one-word model PERSON span that is the first word of a well-known firm's name
    and no given name ("Goldman", not "Arthur" of "Arthur Andersen"), or no name Faker
    knows at all ("Scion", not the surname "Sandberg"), with a possessive and a person's
    full name right after it, perhaps with a firm's officer between (`OFFICER_OF`), as
    COMPANY: news says "Goldman's Dan Dees", "Scion's Michael Burry" and "Abrdn's chief
    executive Jason Windsor" for a firm's people."""
    out = list(spans)
    for k, (span, after) in enumerate(zip(spans, spans[1:])):
        word = span.text.casefold()
        if span.label == after.label == "PERSON" and span.source == "model" and \
                " " not in span.text and (span.text in FIRM_HEADS and word not in given_names()
                                          or word not in known_names()) and \
                " " in after.text and \
                (POSSESSIVE.fullmatch(text, span.end, after.start) or
                 OFFICER_OF.fullmatch(text, span.end, after.start)):
            out[k] = replace(span, label="COMPANY")
    return out


def _short_firms(text: str, spans: list[Span]) -> list[Span]:
    """A one-word model PERSON span that is the first word of a firm the document names
    whole with its legal form ("HARLOW TRADING LIMITED (Claimant) ... a claim by
    [Harlow]"), as COMPANY: a judgment, a contract or a filing calls a party by that word.
    Not a given name of several locales (`widely_given`: "Morgan", "Grace"; the rarer
    "Harlow" will do), nor a word after a courtesy title ("Mr Harlow"), nor the surname
    of a person the document names in full ("Ann Harlow ... Harlow said")."""
    heads = {s.text.split()[0].casefold() for s in spans
             if s.label == "COMPANY" and FORM_END.search(s.text)}
    if not heads:
        return spans
    surnames = {s.text.split()[-1].casefold() for s in spans
                if s.label == "PERSON" and " " in s.text}
    return [replace(s, label="COMPANY") if s.label == "PERSON" and s.source == "model" and
            (word := s.text.casefold()) in heads and word not in surnames and
            word not in widely_given() and
            not after_title(text, s.start) else s
            for s in spans]


def _one_person(text: str, spans: list[Span]) -> list[Span]:
    """A model COMPANY span and a model PERSON span one space apart, the COMPANY one a
    single word that is a given name or surname (`known_names`) or a double-barrelled
    surname (`_barrelled`: "Olufunke" + "Adebisi-Grant"), as one PERSON span:
    "Pompeo" (COMPANY) + "Pelli" (PERSON) in a table cell is "Pompeo Pelli", and so is the
    COMPANY span's last word where only words in lower case come before it (a list's "[and
    Jamal]" + "[K. Whitfield]": the "and" is cut later), or a rare given name Faker's lists
    lack before a known one in a list of persons ("Tully and [Deepak]" + "[Menon]",
    `_rare_given`); unless the two are a listed firm's name ("Merrill" + "Lynch",
    `_known_firm`). And two people's names that the model read as a firm up to the second's
    given name, the rest of it as a person, as the two (`_name_pair`: "Laura Davis Jones and
    Timothy" + "P. Cairns"). And a given name read as a place before its surname
    (`_given_as_place`: "Hiroko" (ADDRESS) + "Matsudaira"), or as a firm before "and" and
    a spouse's full name (`_couples_given`: "to [Obiora] and [Ngozika Nwachukwu]")."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last is not None and _given_as_place(text, last, span):
            out[-1] = _joined(text, last, span, "PERSON")
            continue
        if last is not None and _couples_given(text, last, span):
            out[-1:] = [replace(last, label="PERSON"), span]
            continue
        if last is not None and last.source == span.source == "model" and \
                {last.label, span.label} == {"COMPANY", "PERSON"} and \
                text[last.end:span.start] == " ":
            firm = last if last.label == "COMPANY" else span
            lead, _, word = firm.text.rpartition(" ") if firm is last else ("", "", firm.text)
            if lead == lead.lower() and (word.casefold() in known_names() or _barrelled(word)
                                         or _rare_given(text, out, word, span)):
                out[-1] = _known_firm(_joined(text, last, span, "PERSON"))  # "Merrill Lynch"
                continue
            pair = _name_pair(_joined(text, last, span, "COMPANY"))
            if pair is not None:
                out[-1:] = pair
                continue
        out.append(span)
    return out


def _barrelled(word: str) -> bool:
    """Whether a word is a double-barrelled surname: capitalised parts joined by hyphens,
    each a name Faker's locales know or no word of the vocabulary (`name_or_rare`:
    "Adebisi-Grant"; not "Rolls-Royce")."""
    parts = word.split("-")
    return len(parts) > 1 and all(p[:1].isupper() and name_or_rare(p.casefold()) for p in parts)


def _given_as_place(text: str, place: Span, person: Span) -> bool:
    """Whether a model ADDRESS span one space before a model PERSON span of one word is
    that person's given name: one capitalised word of letters, no known place
    (`a_place`; "Sydney" may be a given name, "London" is not). The model reads a given
    name so where the rest of the document pulls it off ("/s/ [Hiroko] [Matsudaira]")."""
    word = place.text
    return place.label == "ADDRESS" and person.label == "PERSON" and \
        place.source == person.source == "model" and text[place.end:person.start] == " " and \
        word.isalpha() and word.istitle() and " " not in person.text and \
        person.text[:1].isupper() and not a_place(word)


def _couples_given(text: str, firm: Span, person: Span) -> bool:
    """Whether a one-word model COMPANY span, then " and ", then a model PERSON span of
    two words or more, is the given name of one of a couple written with one surname
    ("born to [Obiora] and [Ngozika Nwachukwu]"): a capitalised word that is a given name
    or no word of the vocabulary (`given_names`, `common_words`: "Harbor" is a word). A
    well-known firm's name ("Navient and Tom Lee") is a firm again where `tidy` reads
    each name against the list of firms."""
    word = firm.text
    return firm.label == "COMPANY" and person.label == "PERSON" and \
        firm.source == person.source == "model" and text[firm.end:person.start] == " and " and \
        " " in person.text and word.isalpha() and word.istitle() and \
        (word.casefold() in given_names() or word.casefold() not in common_words())


LIST_JOINS = (", ", " and ", ", and ")


def _rare_given(text: str, before: list[Span], word: str, person: Span) -> bool:
    """Whether a firm's word (the last of `before`) before a person's one may be a given
    name Faker's lists lack: in a list of persons ("Robert J. Tully and [Deepak] [Menon]": a
    person's span, then ", " or " and "), a rare word (outside the model's vocabulary),
    capitalised, before a known name ("[Acme] [Ann]" in a table's cell stays a firm and a
    person)."""
    return len(before) >= 2 and before[-2].label == "PERSON" and \
        text[before[-2].end:before[-1].start] in LIST_JOINS and word[:1].isupper() and \
        word[1:].islower() and word.casefold() not in common_words() and \
        person.text.casefold() in known_names()


FORMS_FOLDED = {f.casefold().rstrip(".") for f in LEGAL_FORMS}
DOTTED_FOLDED = {f.casefold() for f in LEGAL_FORMS if f.endswith(".")}
# words that end the name a lone legal form belongs to, looking back from it
BEFORE_NAME = {"and", "or", "the", "by", "between", "to", "for", "with", "from"}
WORD_BEFORE = re.compile(r"(?:^|(?<=[ \t]))([A-Z0-9][^\s,:;()\"]*)$")


def _lone_forms(text: str, spans: list[Span]) -> list[Span]:
    """A model COMPANY span that is only a legal form ("INC" of "ACME WIDGETS, INC.") or
    a firm's word ("Bank" of "an account at Frost Bank") with the name before it on its
    line taken in: up to four words that start with a capital or a digit, the last
    perhaps with a comma after it, stopping at a word that ends a sentence or a field, at
    a joining word ("THE SERVICER AND"), and at the span before, unless that is one word
    read as a person (`_founders_word`: "Vanessa Quintero, [Quintero] Law [PLLC]"); with
    no such word a form is dropped ("the Company"), a firm's word kept. Masking the form
    alone would hide nothing and leave the firm in clear."""
    out: list[Span] = []
    for span in spans:
        form = span.text.casefold().rstrip(".") in FORMS_FOLDED
        if span.label != "COMPANY" or span.source != "model" or \
                not form and span.text not in FIRM_WORDS:
            out.append(span)
            continue
        line = text.rfind("\n", 0, span.start) + 1  # the name is on the form's line
        founder = out[-1] if out and _founders_word(out[-1]) else None
        floor = max(founder.start if founder else out[-1].end if out else 0, line)
        head = text[floor:span.start]
        head = head[:-2] if head.endswith(", ") else head[:-1] if head.endswith(" ") else ""
        start = None
        for _ in range(4):
            m = WORD_BEFORE.search(head)
            if m is None or m.group(1).endswith(".") or m.group(1).casefold() in BEFORE_NAME:
                break
            start, head = floor + m.start(1), head[:m.start(1)]
            if not head.endswith(" "):
                break
            head = head[:-1]
        if start is not None:
            if founder is not None and start <= founder.start:
                out.pop()  # the firm's first word, not a person ("[Quintero] Law PLLC")
            end = span.end + (text[span.end:span.end + 1] == "." and
                              span.text.casefold() + "." in DOTTED_FOLDED)  # "INC" + "."
            out.append(Span(start, end, "COMPANY", text[start:end], span.score, span.source))
        elif not form:
            out.append(span)
    return out


def _founders_word(span: Span) -> bool:
    """Whether a span may be the first word of the firm a lone legal form after it ends:
    one word the model read as a person (on the form's line, where the name is looked for)."""
    return span.label == "PERSON" and span.source == "model" and " " not in span.text


# the rest of a name after a hyphen glued to it ("Al" + "-Sayed"), and its start before one
HYPHEN_TAIL = re.compile(r"(?:-[A-Z][^\W\d_]*)+(?![\w-])")
HYPHEN_HEAD = re.compile(r"(?<![\w-])(?:[A-Z][^\W\d_]*-)+$")


def _hyphen_whole(text: str, spans: list[Span]) -> list[Span]:
    """Model PERSON spans that stop or start at a hyphen glued between two capitalised
    words ("Fatima Al" of "Fatima Al-Sayed") widened to the whole word, unless another
    span starts or ends inside it ("Trump-Biden", both found, stays two); and two
    model PERSON spans that a hyphen joins to a lower-case letter, one name ("Hye" +
    "jin Choi": a romanised Korean given name's second syllable, which no name starts
    with), or a full name to one word, a double-barrelled surname's second part
    ("Ngozi Adebayo" + "Hart"), or to a single letter, a spelled name's ("K-O-W-A-L-C-Z-Y"
    + "K"), or a given name to a full name, a double given name's first part ("Mary" +
    "Kate O'Connell"). A widened span that is a well-known firm's name is a firm's ("M-Pesa",
    `_known_firm`)."""
    out: list[Span] = []
    for k, span in enumerate(spans):
        if out and span.label == out[-1].label == "PERSON" and \
                span.source == out[-1].source == "model" and \
                text[out[-1].end:span.start] == "-" and (
                    span.text[:1].islower() or len(span.text) == 1 or
                    " " in out[-1].text and " " not in span.text or
                    " " not in out[-1].text and " " in span.text and
                    out[-1].text.casefold() in given_names()):
            out[-1] = _joined(text, out[-1], span, "PERSON")
            continue
        if span.label == "PERSON" and span.source == "model":
            tail = HYPHEN_TAIL.match(text, span.end)
            following = spans[k + 1] if k + 1 < len(spans) else None
            if tail and (following is None or following.start >= tail.end()):
                span = _ending_at(text, span, tail.end())
            head = HYPHEN_HEAD.search(text, max(0, span.start - 40), span.start)
            if head and (not out or out[-1].end <= head.start()):
                span = replace(span, start=head.start(), text=text[head.start():span.end])
            span = _known_firm(span)  # widened, a listed firm's name: "Pesa" of "M-Pesa"
        out.append(span)
    return out


# a nickname's opening mark after a name's first words, and the marks that close it
NICK_OPEN = re.compile(r"[ \t]+([\"“'‘(])[ \t]*")
NICK_CLOSE = {'"': '"”', "“": '”"', "'": "'’", "‘": "’'", "(": ")"}


def _nicknames(text: str, spans: list[Span]) -> list[Span]:
    """Two model PERSON spans with a nickname's opening mark between them, the second
    holding its closing mark ("Robert" + 'Bob" Kline'; a mark at a span's end is
    already stripped), or ending right before it with the surname after it
    ("Chukwuemeka" + "Emeka" of 'Chukwuemeka "Emeka" Obi', `SURNAME_AFTER_MARK`), or the
    first holding the opening mark and the nickname and the second the surname after the
    closing mark ('Rosalind "Roz' + "Pettigrew", `_nick_inside`), as one name: the gold
    convention of every real corpus, and the decoder starts a new name after the mark;
    only after a given name (`_before_nickname`)."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last is not None and last.start <= span.start and span.end <= last.end:
            continue  # the surname a name took in after its nickname ("Obi")
        if last is not None and last.label == span.label == "PERSON" \
                and last.source == span.source == "model" and _nick_inside(text, last, span):
            out[-1] = _joined(text, last, span, "PERSON")
            continue
        if last is not None and last.label == span.label == "PERSON" \
                and last.source == span.source == "model" and _before_nickname(last.text):
            mark = NICK_OPEN.fullmatch(text, last.end, span.start)
            if mark:
                closes = NICK_CLOSE[mark.group(1)]
                joined = any(c in closes for c in span.text[1:])
                tail = SURNAME_AFTER_MARK.match(text, span.end)
                if not joined and tail and text[span.end] in closes:
                    span, joined = replace(span, end=tail.end(), text=text[span.start:tail.end()]), True
                if joined:
                    out[-1] = _joined(text, last, span, "PERSON")
                    continue
        out.append(span)
    return out


# a nickname's opening mark after a space, and its word, ending a span ('Rosalind "Roz')
NICK_UNCLOSED = re.compile(r"[ \t]([\"“'‘(])[^\W\d_]+$")


def _nick_inside(text: str, last: Span, span: Span) -> bool:
    """Whether a PERSON span ends in a nickname without its closing mark after a given
    name (`NICK_UNCLOSED`, `_before_nickname`) and the mark's partner, a space and the
    next span follow it: 'Rosalind "Roz' + '" ' + 'Pettigrew'."""
    unclosed = NICK_UNCLOSED.search(last.text)
    return unclosed is not None and _before_nickname(last.text[:unclosed.start()]) and \
        text[last.end:last.end + 1] in NICK_CLOSE[unclosed.group(1)] and \
        text[last.end + 1:span.start] == " "


def _before_nickname(name: str) -> bool:
    """Whether a name can go on with a nickname: one word, or one that ends in a given
    name ("Mary Ann"); after a full name a bracketed word is something else, a rider's
    country in a race's results ("Mauro Schmid (Sui) Jayco AlUla")."""
    words = name.split()
    return len(words) == 1 or words[-1].casefold() in given_names()


# a post office box's first letters at a span's end ("Experian, P.O."), perhaps with its
# word ("Experian, P.O. Box"), and its word at the next span's start ("Box 2002, Allen,
# TX 75013")
PO_END = re.compile(r"[ \t]*,?[ \t]*(P\.[ \t]?O\.|PO)(?:[ \t]+(?:Box|BOX))?$")
BOX_START = re.compile(r"Box\b|BOX\b")


def _po_boxes(text: str, spans: list[Span]) -> list[Span]:
    """A span that ends in a post office box's "P.O." and the ADDRESS after it that
    starts with its "Box", one space or line between them, as a span without the "P.O."
    and an address with it: the model read "Experian, P.O." as the firm and "Box 2002,
    Allen, TX 75013" as its address, where the box is the address's. So too a span that
    ends in the box's "P.O. Box" ("Experian, P.O. Box" and "2002, Allen, TX 75013"): no
    one's name ends so, and an address right after it that starts with the box's
    number takes the words; without one, the address pattern finds the box."""
    out = list(spans)
    for i, first in enumerate(out):
        following = out[i + 1] if i + 1 < len(out) else None
        near = following is not None and following.label == "ADDRESS" and \
            text[first.end:following.start] in (" ", "\n")
        boxed = first.label != "ADDRESS" and first.text.endswith(("Box", "BOX"))
        if not boxed and not (near and BOX_START.match(following.text)):
            continue  # (the cheap tests first: most spans are before no box)
        tail = PO_END.search(first.text)
        if tail is None:
            continue
        if near and (not boxed or following.text[:1].isdigit()):
            start = first.start + tail.start(1)
            out[i + 1] = replace(following, start=start, text=text[start:following.end])
        out[i] = _cut(first, tail.start())
    return [s for s in out if s.end > s.start]


def _registration_marks(text: str, spans: list[Span]) -> list[Span]:
    """A model PERSON span that runs past a registration's mark (`patterns.REGISTERED`):
    the name ends before it ("SUSAN K MILLER [JTWROS]"), and what the span holds after
    it is the start of the firm the model read next, one space on ("MARGARET A CHEN TTEE,
    [CHEN] FAMILY TRUST"), or else a name of its own ("HENRY A LOCKWOOD POA [SARAH
    LOCKWOOD]")."""
    out = list(spans)
    for i, span in enumerate(out):
        mark = REGISTERED.search(span.text, 1) if span.label == "PERSON" and \
            span.source == "model" and span.text.isupper() else None
        if mark is None:
            continue
        rest = span.end - len(span.text[mark.end():].lstrip(" ,"))  # where the mark's words end
        out[i] = _cut(span, len(span.text[:mark.start()].rstrip(" ,")))
        following = out[i + 1] if i + 1 < len(out) else None
        if rest < span.end and following is not None and following.label == "COMPANY" and \
                text[span.end:following.start] == " ":
            out[i + 1] = replace(following, start=rest, text=text[rest:following.end])
        elif rest < span.end:  # (looked at next, for a mark of its own)
            out.insert(i + 1, replace(span, start=rest, text=text[rest:span.end]))
    return out


# the officers and staff news names after their firm's name ("Kakao founder Kim Beom-su",
# "PIF governor Yasir Al-Rumayyan", "Jefferies analyst John Hecht")
FIRM_ROLE = re.compile(r"[ \t]+(?:[Cc]o-?founder|[Ff]ounder|CEO|CFO|COO|CTO|[Cc]hief executive|"
                       r"[Cc]hair(?:man|woman)?|[Pp]resident|[Gg]overnor|"
                       r"[Ss]pokes(?:man|woman|person)|[Aa]nalysts?|[Ee]conomist|[Ss]trategist)"
                       r"[ \t]+")


def _officers_firms(text: str, spans: list[Span]) -> list[Span]:
    """A one-word model PERSON span, no given name, right before an officer's role and the
    person who holds it ("[Kakao] founder Kim Beom-su", `FIRM_ROLE`): the firm, not a
    person, whose officer the next name is."""
    out = list(spans)
    for i in range(len(out) - 1):
        firm, person = out[i], out[i + 1]
        if firm.label == "PERSON" == person.label and firm.source == "model" and \
                " " not in firm.text and firm.text.casefold() not in given_names() and \
                FIRM_ROLE.fullmatch(text, firm.end, person.start):
            out[i] = replace(firm, label="COMPANY")
    return out


# an address's first line that is one capitalised word and nothing else
LINE_WORD = re.compile(r"[A-Z][^\W\d_]+(?:[-'][A-Z]?[^\W\d_]+)?(?=\n)")


def _surname_lines(text: str, spans: list[Span]) -> list[Span]:
    """A PERSON span, one space, and an ADDRESS span whose first line is one capitalised
    word, not a street's ("Calle"): the word is the name's surname at its line's end, and
    the address starts on the next line (a signature's "María José [Fernández\nDepartamento
    de Recobros\nCalle de Alcalá 120]")."""
    out = list(spans)
    for i in range(len(out) - 1):
        person, address = out[i], out[i + 1]
        if person.label != "PERSON" or address.label != "ADDRESS" or \
                text[person.end:address.start] != " ":
            continue
        word = LINE_WORD.match(address.text)
        if word is not None and word.group().casefold() not in STREET_WORDS:
            out[i] = _ending_at(text, person, address.start + word.end())
            start = address.start + word.end() + 1
            out[i + 1] = replace(address, start=start, text=text[start:address.end])
    return out


def _all_names(value: str) -> bool:
    """Whether a would-be name of two to four words is no place, and every word a name
    Faker knows or an initial, the first a given name."""
    first, *rest = value.casefold().split(" ")
    return 1 <= len(rest) <= 3 and first in given_names() and \
        all(all(part in known_names() for part in w.split("-")) or len(w.rstrip(".")) == 1
            for w in rest) and not a_place(value)


# the start of an address span up to its first comma, before the street's number; or its
# first line, without a digit, before a line with one, where a payment message or a
# label writes the payee's name above the street ("KLAUS ABERNATHY-VOGT\nSCHILLERSTRASSE
# 14"), unless the line ends in a building's or a street's word ("Victoria House")
ADDRESS_HEAD = re.compile(r"([^\n,\d]+),[ \t]*(?=\d)")
NAME_LINE = re.compile(r"([^\n,\d]+)\n(?=[^\n]*\d)")
BUILDING_WORDS = {"house", "hall", "lodge", "tower", "towers", "manor", "cottage", "centre",
                  "center", "chambers", "mansions", "villa", "farm", "barn", "mill"}


def _address_head(value: str) -> re.Match | None:
    """An address's first part that may be a name (`ADDRESS_HEAD`, `NAME_LINE`)."""
    line = NAME_LINE.match(value)
    last = line.group(1).split()[-1:] if line is not None else []
    if last and last[0].casefold() not in BUILDING_WORDS | STREET_WORDS:
        return line
    return ADDRESS_HEAD.match(value)


STREET_AFTER = re.compile(r",?[ \t]*\n?[ \t]*\d")  # a comma or a line, then a street's number


def _named_addresses(text: str, spans: list[Span]) -> list[Span]:
    """An ADDRESS span that is a person's name (`_all_names`), right before an address
    that starts with its street's number (a comma or a line between), or at the start of
    one before a comma and the street's number or on a line of its own (`_address_head`:
    a wire's "KLAUS ABERNATHY-VOGT\nSCHILLERSTRASSE 14"): the person the mail goes
    to, not their address ("c/o Law Office of [Patricia Nunez], 3111 Camino del Rio N";
    a contract's "Buyer Name and Address: [Brianna L. Castillo], 802 Wren Hollow Dr")."""
    out: list[Span] = []
    for i, span in enumerate(spans):
        after = spans[i + 1] if i + 1 < len(spans) else None
        head = _address_head(span.text) if span.label == "ADDRESS" else None
        if span.label == "ADDRESS" and after is not None and after.label == "ADDRESS" and \
                STREET_AFTER.fullmatch(text, span.end, after.start + 1) and \
                _all_names(span.text):
            span = replace(span, label="PERSON")
        elif head is not None and _all_names(head.group(1).strip()):
            name = head.group(1).strip()
            out.append(replace(span, end=span.start + len(name), label="PERSON", text=name))
            rest = span.start + head.end()
            span = replace(span, start=rest, text=text[rest:span.end])
        out.append(span)
    return out


# a nickname's closing mark, a space and a capitalised word: the surname after it
SURNAME_AFTER_MARK = re.compile(r".[ \t]([A-Z][^\W\d_]+(?:[-'][A-Z]?[^\W\d_]+)?)")


# a capitalised word one space before a span
WORD_ONE_BEFORE = re.compile(r"(?<![\w.'\u2019-])([A-Z][^\W\d_]+) $")


def _with_given_name(text: str, spans: list[Span]) -> list[Span]:
    """A model PERSON span, capitalised, that takes in the Capitalised word one space
    before it where no span holds it and that word is a name's (`_name_before`); not a
    title or a role the name goes without (`_without_title`: "Adjuster Kowalczyk"), nor
    a party's ("Respondent Whitmore")."""
    out: list[Span] = []
    for span in spans:
        head = WORD_ONE_BEFORE.search(text, max(0, span.start - 24), span.start) \
            if span.label == "PERSON" and span.source == "model" and span.text[:1].isupper() \
            else None
        if head and (not out or out[-1].end <= head.start(1)) and head.group(1)[1:].islower() \
                and _name_before(text, span, head) and not party_role(head.group(1)) \
                and _without_title(text, head.start(1), span.end) == head.start(1):
            span = replace(span, start=head.start(1), text=text[head.start(1):span.end])
        out.append(span)
    return out


def _name_before(text: str, span: Span, head: re.Match) -> bool:
    """Whether the word before a one-word name is a given name the model missed: no word
    of the vocabulary (`common_words`), and a given name (`given_names`) or no name of
    Faker's at all ("ICICI Bank MD [Sandeep] Bakhshi", "Economist [Refet] Gürkaynak"); or,
    before a name of any length, the first word after one person's courtesy title, as a
    surname written first is ("Mr. [Lim] Boon Keng", `PERSONS_TITLE`)."""
    word = head.group(1).casefold()
    return " " not in span.text and word not in common_words() and \
        (word in given_names() or word not in known_names()) or \
        after_title(text, head.start(1))


def _with_legal_forms(text: str, spans: list[Span]) -> list[Span]:
    """Model COMPANY spans with the legal forms written after them ("Atlas Renard" +
    " Inc.", "Alder Creek Title & Escrow" + ", LLC", "Computershare Trust" + " Company,
    N.A.", and where the firm sits before them: "Tata Steel" + " (UK) Limited"), with the full stop of a form that has one ("Tevetoğlu Tic" + "."), two
    joined by " & " as one ("Title & Escrow"; and a partner's surname read as a person
    before one, `_partners_name`), two one space apart as one when the
    second ends in a form ("MORGAN STANLEY" + "SENIOR FUNDING, INC."), and two as one
    when what is between them and the second are only firm words ("Kellner" + "Pharma",
    "Whitcombe" + " Family " + "Trust");
    a form another span starts inside of stays out, unless that span is the model's
    COMPANY span of the form itself ("JPMorgan Chase Bank" + "N.A.": one firm), or the
    model's spans of the forms ("Company" + "N.A.")."""
    out: list[Span] = []
    taken = 0  # spans before this one are forms a firm before them took in
    for k, span in enumerate(spans):
        if k < taken:
            continue
        if span.label != "COMPANY" or span.source != "model":
            out.append(span)
            continue
        last = out[-1] if out else None
        gap = text[last.end:span.start] if last is not None else None
        if last is not None and last.source == "model" and (last.label == "COMPANY" and (
                gap == " & " or FIRM_TAIL.fullmatch(text, last.end, span.end) or
                gap == " " and (FORM_END.search(span.text) or LEGAL_FORM_RUN.match(text, span.end)))
                or _partners_name(last, gap)):
            out.pop()
            span = _joined(text, last, span, "COMPANY")
        following = spans[k + 1] if k + 1 < len(spans) else None
        span = _firm_tail(text, span, following)
        end = span.end
        form = SEATED_FORMS.match(text, end)
        if form:
            end = form.end()
        elif text[end:end + 1] == "." and DOTTED_FORM.search(span.text):
            end += 1
        after = k + 1  # past the model's spans of the forms, found apart: one firm with them
        while form and after < len(spans) and spans[after].start < end \
                and spans[after].end <= end and spans[after].label == "COMPANY" \
                and spans[after].source == "model":
            after += 1
        following = spans[after] if after < len(spans) else None
        if end > span.end and (following is None or following.start >= end):
            span = _ending_at(text, span, end)
            taken = after
        out.append(span)
    return out


def _surname_partners(text: str, spans: list[Span]) -> list[Span]:
    """Two one-word model PERSON spans joined by " & ", Capitalised, neither a given
    name two of Faker's locales list (`widely_given`), as one COMPANY span: a firm named
    after its partners ("thank you for choosing [Pembury] & [Lowe] for your purchase");
    a couple is named by its given names ("John & Mary")."""
    def surname(span: Span) -> bool:
        return span.label == "PERSON" and span.source == "model" and " " not in span.text \
            and span.text[:1].isupper() and span.text.casefold() not in widely_given()

    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last is not None and text[last.end:span.start] == " & " and surname(last) and \
                surname(span):
            out[-1] = _joined(text, last, span, "COMPANY")
            continue
        out.append(span)
    return out


# a firm's name that starts with a partner's surname and " & " ("Ziehl & Jones"), and a
# partner's surname and its comma before one ("Pachulski, Stang, [Ziehl & Jones]")
PARTNERS_START = re.compile(r"[A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)* & ")
LISTED_PARTNER = re.compile(r"(?<![\w&'\u2019.-])([A-Z][^\W\d_]+(?:-[A-Z][^\W\d_]+)*),[ \t]+\Z")


def _partners_listed(text: str, spans: list[Span]) -> list[Span]:
    """A model COMPANY span that starts with a partner's surname and " & " (`PARTNERS_START`)
    with up to four partners' surnames before it, each with its comma (`LISTED_PARTNER`),
    none a given name two of Faker's locales list nor a well-known firm: a firm named
    after its partners ("Pachulski, Stang, [Ziehl & Jones]"); the PERSON spans over those
    surnames go."""
    out: list[Span] = []
    for span in spans:
        if span.label == "COMPANY" and span.source == "model" and PARTNERS_START.match(span.text):
            start = span.start
            for _ in range(4):
                partner = LISTED_PARTNER.search(text, max(0, start - 40), start)
                if partner is None or partner.group(1).casefold() in widely_given() or \
                        FIRMS.fullmatch(partner.group(1)):
                    break
                start = partner.start()
            while out and out[-1].start >= start and out[-1].label == "PERSON":
                out.pop()
            if start < span.start and not (out and out[-1].end > start):
                span = _starting_at(text, span, start)
        out.append(span)
    return out


def _partners_name(span: Span, gap: str | None) -> bool:
    """Whether a span is a partner's surname that " & " joins to the firm after it ("[Tran]
    & Whitlock Elder Law"): one capitalised word read as a person, no given name."""
    return gap == " & " and span.label == "PERSON" and " " not in span.text and \
        span.text[:1].isupper() and span.text.casefold() not in given_names()


# a North American number's shape, which no identity number the redactor knows has
# (an SSN is grouped 3-2-4, a SIN 3-3-3)
NANP_SHAPE = re.compile(r"\(?\d{3}\)?[ .-]?\d{3}[.-]\d{4}")
# and a North American number without its area code, as a local notice writes it ("RSVP
# to Sandra at 555-0148")
LOCAL_NANP_SHAPE = re.compile(r"\d{3}-\d{4}")


def _handle_shaped(text: str, span: Span) -> Span:
    """An EMAIL span that holds no "@" but at its start, or none and stands right after
    one, as DIGITAL: a user's handle, not an address ("cc [@lwheeler]", "Escalated to
    @[mhernandez]"), without its "@", as the handles recognizer masks one; not where the
    "@" is glued to a word before it, an address's local part ("ann[@acme.com]")."""
    if span.label != "EMAIL" or "@" in span.text[1:]:
        return span
    at = span.start if span.text.startswith("@") else span.start - 1
    if at < 0 or text[at] != "@" or at > 0 and _word(text[at - 1]) or at + 1 >= span.end:
        return span
    return replace(span, start=at + 1, text=text[at + 1:span.end], label="DIGITAL")


def _phone_shaped(span: Span) -> Span:
    """A CARD span of 7 to 11 digits as PHONE: a card number has 12 to 19 digits and a
    security code 3 or 4, and the model, reading "pay by card on 0747-226 2503", took
    the context for the shape; and a GOV_ID span written as a North American number is
    (`NANP_SHAPE`: "Witness: Ingrid Solheim, 604-555-0188"), and so is an ACCOUNT span
    written as one without its area code (`LOCAL_NANP_SHAPE`: "RSVP to Sandra Kowalczyk
    at [555-0148]"; after an account's keyword, `_keyed_account` makes it the account's
    again)."""
    if span.label == "CARD" and 7 <= sum(c.isdigit() for c in span.text) <= 11 or \
            span.label == "GOV_ID" and NANP_SHAPE.fullmatch(span.text) or \
            span.label == "ACCOUNT" and LOCAL_NANP_SHAPE.fullmatch(span.text):
        return replace(span, label="PHONE")
    return span


def _keyed_account(text: str, span: Span) -> Span:
    """A model PHONE span that is the number after an account's keyword, whole
    (`patterns.ACCOUNT_NUMBER`: "records for account no. [5521-884102]"), as ACCOUNT: the
    keyword says what the number is, where the model went by its groups."""
    if span.label != "PHONE" or span.source != "model":
        return span
    if any(m.span(1) == (span.start, span.end) for m in
           ACCOUNT_NUMBER.finditer(text, max(0, span.start - 40), span.end + 40)):
        return replace(span, label="ACCOUNT")
    return span


def _lower_case(span: Span) -> bool:
    """A model name span without a capital letter."""
    return span.label in TITLED and span.source == "model" and \
        not any(c.isupper() for c in span.text)


def _could_be_a_name(value: str) -> bool:
    """Whether some word of a lower-case value is a given name or a surname that is no
    word of the vocabulary ("sinead mcallister", "marco"; not "deep" of "brings deep
    experience", a surname in one locale and a word), or two names glued together, a
    user name's shape ("campbelllauren")."""
    names = known_names()
    for word in re.findall(r"[^\W\d_]+", value.casefold()):
        if word in given_names() or word in names and word not in common_words() or \
                any(word[:k] in names and word[k:] in names for k in range(3, len(word) - 2)):
            return True
    return False




# the first letter of a sentence or a line, past quotes and brackets, where a word of two
# letters or more begins, or a capital alone before the next word (the articles of
# Portuguese and Spanish, English's "A" and "I": "O ministro disse"): a list marker
# ("(b)", "(iv)") or a lone "i" is no start
SENTENCE_START = re.compile(r"(?:^|[.!?][ \t]+|\n[ \t]*)[\"'“‘(\[]*([^\W\d_])"
                            r"(?:(?=[^\W\d_])|(?<=[A-ZÀ-ÖØ-Þ])(?=[ \t]+[^\W\d_]))")


def written_with_capitals(text: str) -> bool:
    """Whether the text's writer starts sentences with capitals: at least 3 sentence or
    line starts (`SENTENCE_START`), 80% of them capitals ("N.A., in its capacity" reads
    as a lower-case start); not a lower-case line's start where the line before is
    running text wrapped at its width (`_wrapped_at`), which goes on in mid-sentence (a
    capital there may start a form's next field, "Board: ..."). There a
    company's name has a capital too, and a model COMPANY span without one ("pledge",
    "hypothecation") is an ordinary word the uncased model could not tell from a name; a
    tweet written in lower case ("united has put themselves") says nothing either way."""
    starts = [m.group(1) for m in SENTENCE_START.finditer(text)
              if text[m.start()] != "\n" or m.group(1).isupper() or
              not _wrapped_at(text, m.start())]
    return len(starts) >= 3 and sum(c.isupper() for c in starts) >= 0.8 * len(starts)


def _wrapped_at(text: str, end: int) -> bool:
    """Whether the line that ends at `end` is running text wrapped at its width: at least
    `WRAPPED_LINE` characters, its last not a sentence's or a clause's end."""
    line = text[text.rfind("\n", 0, end) + 1:end].rstrip()
    return len(line) >= WRAPPED_LINE and line[-1] not in ".!?:;"


def _as_capitalised(text: str, spans: list[Span]) -> list[Span]:
    """In a text written with capitals (`written_with_capitals`), the spans without
    companies that have no capital, lower-case persons no one is called (`_could_be_a_name`)
    and the lower-case words at a name's or a firm's end (`_name_tail`); in a text too short
    to tell by its sentences (one sentence of a corpus, a message) that writes a person's
    name of two words or more with capitals, the writer capitalises names: without the
    lower-case words at a name's end ("Eric Saward requested that [Bailey devise] another"),
    where a lower-case word alone may still be a name ("lol trump"), unless the model was
    less than half sure of it and it is no name (`_could_be_a_name`: a log's '"msg":"name
    [mismatch]"'). A firm's name says nothing (a bank's agent writes "Northgate Bank" in a
    chat whose customer writes "amazon"), nor a name of one word or with a word in lower
    case ("Donald trump")."""
    cut = [_name_tail(s) for s in spans]  # a span with nothing to cut comes back as it was
    if not any(c is not s for c, s in zip(cut, spans)) and not any(map(_lower_case, spans)):
        return spans
    cut = [c for c in cut if worth_masking(c.text, c.label)]  # "chase [AP]": a scrap once cut
    if written_with_capitals(text):
        return [s for s in cut if not _lower_case(s) or
                (s.label == "PERSON" and _could_be_a_name(s.text))]
    if any(s.label == "PERSON" and len(words := s.text.split()) > 1 and
           all(w[:1].isupper() for w in words) for s in spans):
        return [s for s in cut if not (_lower_case(s) and s.label == "PERSON" and
                                       s.score < 0.5 and not _could_be_a_name(s.text))]
    return spans


def above_floors(spans: Sequence[Span], floors: dict[str, float]) -> list[Span]:
    """The spans whose score reaches their group's floor (a group without one: all)."""
    return [s for s in spans if s.score >= floors.get(s.label, 0.0)]
