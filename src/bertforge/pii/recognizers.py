"""Recognizers: each finds one kind of personal data by its form, and says how far its
matches can be trusted; a registry lists them. The model is one more recognizer
(`ModelRecognizer`), whose spans are tidied and merged with the others' by the policy in
`merge.py`.

Trust is what the merge acts on: a recognizer backed by a checksum or an equally strict
shape (IBAN mod-97, Luhn and an issuer prefix, an ABA checksum with its keyword...)
marks its matches `checked`, and those win over the model; the others (dates, times,
phone numbers, a BIC without its keyword) are shapes that context must confirm, so the
model decides where it found something.

A recognizer of your own:

    from bertforge.pii.recognizers import Pattern, default_recognizers
    staff = Pattern("staff_id", "employee_id", r"\\bEMP-\\d{6}\\b", trust="shape")
    redactor = Redactor.load(recognizers=[*default_recognizers(), staff])
"""

from __future__ import annotations

import functools
import ipaddress
import itertools
import re
from dataclasses import replace
from typing import Callable, Sequence

from ..optional import require
from . import ids
from . import patterns as p
from .labels import GROUP_OF, GROUPS, MULTILINE
from .patterns import PatternMatch
from .lexicon import (FUNCTION_WORDS, LONE_TITLES, SOFTWARE, a_place, common_words, given_names,
                      known_names, known_place, name_or_rare)
from .nobodys import DOCUMENT_PARTS, FORM_LABELS, party_role
from .tidy import (CREDENTIALS_AFTER, FIRM_ENDS, FIRM_WORDS, ID_SCHEMES, NONSPACE, OF_FIRM,
                   firms_person)

TRUST = ("checksum", "shape", "end")


class Recognizer:
    """One kind of personal data found by its form. `kinds`: the fine labels
    (`labels.GROUP_OF`) its matches carry; `trust`: "checksum" (its matches win over the
    model), "shape" (the model's context decides) or "end" (a shape whose pattern knows
    where a value ends but not where it starts: a model span of its group that ends there
    and starts inside the match says where it starts)."""

    name: str = ""
    kinds: tuple[str, ...] = ()
    trust: str = "shape"
    check: str = ""   # what backs a match, in words (for explanations)

    def find(self, text: str) -> list[PatternMatch]:
        """Matches in `text`; through `find` (the module's), the text comes folded
        (`patterns.fold`), so a pattern needs only the plain spaces, dashes and digits."""
        raise NotImplementedError

    def match(self, start: int, end: int, kind: str | None = None,
              checked: bool | None = None) -> PatternMatch:
        return PatternMatch(start, end, kind or self.kinds[0],
                            self.trust == "checksum" if checked is None else checked, self.name,
                            sure_start=self.trust != "end")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, trust={self.trust!r})"


class Pattern(Recognizer):
    """A regular expression, an optional validator of each match (`validate(match)`) and
    optional context: a pattern that must occur within `before` characters ahead of the
    match. `group`: which group of the regex is the value (0: all of it). `needs`: strings
    of which every match holds one (casefolded for a case-blind regex), or a regex every
    match holds a match of: a text without any is not searched, a test of a few
    microseconds where the regex takes tens."""

    def __init__(self, name: str, kind: str, regex: str | re.Pattern, trust: str = "shape",
                 validate: Callable[[re.Match], bool] | None = None,
                 context: str | re.Pattern | None = None, before: int = 40, group: int = 0,
                 check: str = "", needs: Sequence[str] | re.Pattern = ()):
        if kind not in GROUP_OF and kind not in GROUPS:
            raise ValueError(f"{name}: {kind!r} is not a label of labels.GROUP_OF, nor a group")
        if trust not in TRUST:
            raise ValueError(f"{name}: trust is one of {', '.join(TRUST)}, not {trust!r}")
        self.name, self.kinds, self.trust = name, (kind,), trust
        self.regex = re.compile(regex) if isinstance(regex, str) else regex
        self.context = re.compile(context) if isinstance(context, str) else context
        self.validate, self.before, self.group = validate, before, group
        self.check = check or ("its validator" if validate else "its pattern")
        self.needs = needs if isinstance(needs, re.Pattern) else tuple(needs)

    def find(self, text: str) -> list[PatternMatch]:
        if isinstance(self.needs, re.Pattern):
            if not self.needs.search(text):
                return []
        elif self.needs:
            hay = text.casefold() if self.regex.flags & re.IGNORECASE else text
            if not any(n in hay for n in self.needs):
                return []
        out = []
        for m in self.regex.finditer(text):
            if self.validate is not None and not self.validate(m):
                continue
            if self.context is not None and not p.context(text, m.start(), self.context,
                                                            self.before):
                continue
            out.append(self.match(m.start(self.group), m.end(self.group)))
        return out


class Declared(Recognizer):
    """A recognizer declared as data (a policy file, Presidio's YAML): regular
    expressions for one group, optional context (words or phrases) of which one must
    stand within `window` words either side of the match, and an optional validator by name
    (`patterns.VALIDATORS`: luhn, mod97, aba, verhoeff...). A validated match is trusted
    as a checksum is; unless `trust` says otherwise, the others are shapes."""

    def __init__(self, name: str, group: str, regexes: Sequence[str], context: Sequence[str] = (),
                 window: int = 5, validator: str | None = None, trust: str | None = None,
                 flags: int = 0):
        if validator is not None and validator not in p.VALIDATORS:
            raise ValueError(f"{name}: no validator {validator!r}; the validators are "
                             f"{', '.join(p.VALIDATORS)}")
        trust = trust or ("checksum" if validator else "shape")
        if trust not in TRUST:
            raise ValueError(f"{name}: trust is one of {', '.join(TRUST)}, not {trust!r}")
        self.name, self.kinds, self.trust, self.window = name, (group,), trust, window
        self.regexes = [re.compile(r, flags) for r in regexes]
        self.context = {" ".join(WORD.findall(c.casefold())) for c in context} - {""}
        self.validate = p.VALIDATORS[validator] if validator else None
        self.check = f"the {validator} check" if validator else "its pattern"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for regex in self.regexes:
            for m in regex.finditer(text):
                if m.end() == m.start() or (self.validate and not self.validate(m.group())):
                    continue
                if self.context and not self._near(text, m.start(), m.end()):
                    continue
                out.append(self.match(m.start(), m.end()))
        return out

    def _near(self, text: str, start: int, end: int) -> bool:
        reach = 40 * self.window  # characters enough for `window` words either side
        before = WORD.findall(text, max(0, start - reach), start)[-self.window:]
        after = WORD.findall(text, end, end + reach)[:self.window]
        near = [w.casefold() for w in before + after]
        joined = f" {' '.join(near)} "
        return any(c in near if " " not in c else f" {c} " in joined for c in self.context)


WORD = re.compile(r"\w+")


class Iban(Recognizer):
    """IBANs (country length and mod-97); a spaced one that runs into the next group of
    characters is shrunk to the valid IBAN it starts with."""
    name, kinds, trust = "iban", ("iban",), "checksum"
    check = "its country's length and mod-97"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for m in p.IBAN.finditer(text):
            value = p.iban_in(m.group())
            if value is not None:
                out.append(self.match(m.start(), m.start() + len(value)))
        return out


class NineDigits(Recognizer):
    """Nine digits: an ABA routing number after "routing"/"ABA"/⑆ (its checksum), else
    an SSN after "SSN"/"social security" (its area, group and serial rules)."""
    name, kinds, trust = "nine_digits", ("bank_routing_number", "ssn"), "checksum"
    check = "the ABA checksum or the SSN rules, after their keyword"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for m in p.NINE.finditer(text):
            if p.valid_routing(m.group()) and p.context(text, m.start(), p.ROUTING_CONTEXT):
                out.append(self.match(m.start(), m.end(), "bank_routing_number"))
            elif p.valid_ssn(m.group()) and p.context(text, m.start(), p.SSN_CONTEXT):
                out.append(self.match(m.start(), m.end(), "ssn"))
        return out


class NationalIds(Recognizer):
    """National identity and tax numbers of countries outside the US (`ids.KINDS`: among
    them the UK's National Insurance number, Canada's SIN, India's Aadhaar and PAN, Brazil's
    CPF and its firms' CNPJ, Spain's DNI and NIE, Italy's codice fiscale, France's social
    security number, the Netherlands' BSN, Germany's tax ID, Australia's TFN, Singapore's
    NRIC), each after one of its keywords, by its format and its check digits. A number with
    check digits wins over the model; one with none (a PAN, a National Insurance number) is
    a shape the model can overrule."""
    name, kinds, trust = "national_ids", ("ssn",), "checksum"
    check = "a country's format, its check digits and its keyword"

    def find(self, text: str) -> list[PatternMatch]:
        return [self.match(a, b, "ssn", checked) for a, b, _, checked in ids.find(text)]


class Bic(Recognizer):
    """BIC codes (structure and country): checked after "SWIFT"/"BIC"; without that
    keyword only one that holds a digit, and then as a shape. And India's IFSC, a bank
    branch's code, after "IFSC" (`patterns.IFSC`), checked."""
    name, kinds, trust = "bic", ("swift_bic_code",), "checksum"
    check = "a BIC's structure and country, or an IFSC's structure after its keyword"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for m in p.BIC.finditer(text):
            value = m.group()
            named = p.context(text, m.start(), p.BIC_CONTEXT)
            if p.valid_bic(value) and (named or any(c.isdigit() for c in value)):
                out.append(self.match(m.start(), m.end(), checked=named))
        if "IFSC" in text or "fsc" in text:
            out += [self.match(m.start(), m.end()) for m in p.IFSC.finditer(text)
                    if p.context(text, m.start(), p.IFSC_CONTEXT, before=20)]
        return out


class Spoken(Recognizer):
    """Numbers, dates and email addresses said in words, as call transcripts write them
    (`patterns.SPOKEN_DIGITS`, `SPOKEN_DATE`, `SPOKEN_EMAIL`), numbers said digit by digit
    (`_spaced`), and an email address disguised with "[at]" (`patterns.BRACKETED_EMAIL`): a
    run of at least four spoken digits is a card, SSN, routing, PIN, account or phone number
    by the keyword before it (`patterns.spoken_kind`); no checksum backs them, so the model
    decides where it found something."""
    name, trust = "spoken", "shape"
    kinds = ("credit_card_number", "ssn", "bank_routing_number", "account_pin", "customer_id",
             "phone_number", "date", "email")
    check = "digits, a date or an address said in words"
    # a digit word, "dot" of an address, or a month before an ordinal in words; looked for
    # in the text in lower case, with a lookahead for their first letters (a case-blind
    # search of the text itself took four times as long, and most texts hold none)
    NEEDS = re.compile(r"(?=[zotfsendjmaso])\b(?:%s|dot|%s[ \t]+[a-z-]+(?:st|nd|rd|th))\b" % (
        "|".join(p.SPOKEN_DIGIT), p.MONTH_NAME.lower()))

    def find(self, text: str) -> list[PatternMatch]:
        lower = text.lower()
        out = [self.match(m.start(), m.end(), "email") for m in p.BRACKETED_EMAIL.finditer(text)] \
            if "at]" in lower or "at)" in lower else []
        out += self._spaced(text)
        if not self.NEEDS.search(lower):
            return out
        for m in p.SPOKEN_DIGITS.finditer(text):
            digits = p.spoken_digits(m.group())
            # four digits at least; "one, two, three, four" is a count, not a number
            if len(digits) >= 4 and not "1234567890".startswith(digits):
                out.append(self.match(m.start(), m.end(),
                                      p.spoken_kind(text, m.start(), len(digits))))
        out += [self.match(m.start(), m.end(), "date") for m in p.SPOKEN_DATE.finditer(text)]
        out += [self.match(m.start(), m.end(), "email") for m in p.SPOKEN_EMAIL.finditer(text)]
        return sorted(out, key=lambda m: m.start)


    def _spaced(self, text: str) -> list[PatternMatch]:
        """Digits said one by one (`patterns.SPACED_DIGITS`), of the kind a keyword before
        them in their sentence names (`patterns.spoken_keyword`); without one, a line of a
        table's single digits (a game's score by innings) is no number."""
        out = []
        for m in p.SPACED_DIGITS.finditer(text):
            kind = p.spoken_keyword(text, m.start(), in_sentence=True)
            if kind is not None and not "1234567890".startswith(re.sub(r"\D", "", m.group())):
                out.append(self.match(m.start(), m.end(), kind))
        return out


class DatesAndTimes(Recognizer):
    """Calendar dates in a dozen formats (impossible ones refused), and in six other
    languages ("3. März 2024", `FOREIGN_DATE`), times of day outside them, and a year of
    birth after its keyword ("Year of Birth: 1979", `BIRTH_YEAR`)."""
    name, kinds, trust = "dates", ("date", "time", "date_of_birth"), "shape"
    check = "a real calendar date or time of day"

    def find(self, text: str) -> list[PatternMatch]:
        out, dated = [], []
        for m in p.DATES.finditer(text):
            if p.real_date(m.group()):
                out.append(self.match(m.start(), m.end(), "date"))
                dated.append((m.start(), m.end()))
        for m in p.FOREIGN_DATE.finditer(text):  # (the merge keeps "3. April 2024" whole)
            if 1 <= int(m.group(1)) <= 31:
                out.append(self.match(m.start(), m.end(), "date"))
                dated.append((m.start(), m.end()))
        for m in p.BIRTH_YEAR.finditer(text):
            if not any(s <= m.start(1) < e for s, e in dated):
                out.append(self.match(m.start(1), m.end(1), "date_of_birth"))
                dated.append((m.start(1), m.end(1)))
        for m in p.TIMES.finditer(text):
            if not any(s <= m.start() < e for s, e in dated) and p.real_time(m.group()):
                out.append(self.match(m.start(), m.end(), "time"))
        return out


class Micr(Recognizer):
    """The routing and account fields of a cheque's MICR line (between ⑆ and ⑈)."""
    name, kinds, trust = "micr", ("bank_routing_number", "bban"), "checksum"
    check = "the fields of a cheque's MICR line"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for m in p.MICR.finditer(text):
            out.append(self.match(m.start(1), m.end(1), "bank_routing_number"))
            out.append(self.match(m.start(2), m.end(2), "bban"))
        return out


class Mrz(Recognizer):
    """A passport's or an identity card's machine-readable zone (`patterns.MRZ_PASSPORT`,
    `MRZ_CARD`) whose document number and birth date match their check digits: the
    holder's name ("ERIKSSON<<ANNA<MARIA", on a passport with the type and state before
    it, "P<UTOERIKSSON<<..."), and the lines of the number and dates whole, an identity
    document's."""
    name, kinds, trust = "mrz", ("name", "passport_number"), "checksum"
    check = "a travel document's machine-readable zone and its check digits"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        if "<<" not in text:  # every zone parts the surname from the given names so
            return out
        for pattern in (p.MRZ_PASSPORT, p.MRZ_CARD):
            for m in pattern.finditer(text):
                if p.mrz_check(m["doc"], m["doc_check"]) and p.mrz_check(m["born"], m["born_check"]):
                    name = m["name"].rstrip("<")
                    if name:  # a match is never empty
                        out.append(self.match(m.start("name"), m.start("name") + len(name), "name"))
                    out += [self.match(*m.span(line), "passport_number")
                            for line in ("number", "dates") if line in m.groupdict()]
        return out


class Phones(Recognizer):
    """Numbers valid in their numbering plan (`phonenumbers`), read as `region` writes
    them and as the UK does (the two national formats most financial text here uses),
    and as the country of a currency the text names writes them (`CURRENCY_REGIONS`: an
    M-Pesa message's "Ksh2,500.00 sent to JOSEPH KAMAU 0712345678");
    not a piece of a reference such as "PL-2024-118842", nor a reference that starts
    with its year and month ("case 2026-11-3381", `DATED`), nor two columns' numbers read
    as one (`COLUMNS`)."""
    name, kinds, trust = "phones", ("phone_number",), "shape"
    check = "a valid number of its numbering plan"

    # A run that could hold a phone number: the characters `phonenumbers`' matcher reads
    # as one number (digits, the punctuation it allows between digit groups: dashes of
    # every width, no-break and other spaces, dots, slashes, brackets, tildes, "x"; the
    # opening brackets and plus signs it allows in front), and tabs. Without the Unicode
    # dashes and spaces, "(212) 555–0187" with an en dash was never handed to it.
    SEPARATORS = ("\\-x\u2010-\u2015\u2212\u30fc\uff0d-\uff0f \u00a0\u00ad\u200b\u2060"
                  "\u3000()\uff08\uff09\uff3b\uff3d.\\[\\]/~\u2053\u223c\uff5e\t")
    RUN = re.compile(f"(?:[(\\[\uff08\uff3b+\uff0b][{SEPARATORS}]{{0,4}}){{0,2}}"
                     f"\\d(?:[\\d{SEPARATORS}]*\\d)?")
    # what may stand between a number and its extension (", ext. ", " x", ";ext=", "#"):
    # the run before can take the start of this one as its extension ("12#020 7946 0958"
    # holds no number), so a stretch starts at the first of the runs so joined
    _EXT = r"[ \u00a0\t,]*(?:;ext=|[^\W\d_]+|[#\uff03~\uff5e])?[:.\uff0e]?[ \u00a0\t,\-]*"
    JOINS = re.compile(_EXT)
    EXTENSION = re.compile(_EXT + r"\d+#?")  # and the extension itself
    AFTER = 4  # and the characters the matcher looks at after a number ("#", a letter, ":30")
    # a year and a month in groups of their own: a case's or a ticket's number; no
    # numbering plan groups a number so
    DATED = re.compile(r"(?:19|20)\d\d[-/.](?:0[1-9]|1[0-2])[-/.]\d")
    # a wider space inside a match: two fields of a table's or a statement's line read as
    # one number ("PPD ID: 1234567890   3,412.55"), never one number's groups
    COLUMNS = re.compile("  ")

    # a currency that one country alone writes, and that country: where a text names it,
    # its numbers are read in that country's plan too; only where neither the US's plan
    # nor the UK's reads the country's national numbers (they read India's, Pakistan's
    # and the Philippines'), and not South Africa's or Bangladesh's, whose plans hold
    # numbers of five and six digits, as amounts are
    CURRENCY_REGIONS = {"KE": r"K[Ss]h|KES|M-PESA|M-Pesa", "NG": "\u20a6|NGN",
                        "GH": "GH\u20b5|GHS", "MX": r"MXN|M\.N\."}
    CURRENCY = re.compile("(?=[KMNG\u20a6])(?<![A-Za-z])(?:%s)(?![A-Za-z])" % "|".join(
        f"(?P<{r}>{c})" for r, c in CURRENCY_REGIONS.items()))  # (their first letters first)

    def __init__(self, region: str = "US"):
        self.region = region
        self.regions = tuple(dict.fromkeys([region, "GB"]))  # read as each, in turn

    def regions_of(self, text: str) -> tuple[str, ...]:
        """The regions a text's numbers are read in: ours, and its currencies' countries."""
        named = {m.lastgroup for m in self.CURRENCY.finditer(text)}
        return self.regions + tuple(sorted(named - set(self.regions))) if named else self.regions

    def candidates(self, text: str,
                   regions: tuple[str, ...] | None = None) -> list[tuple[int, int]]:
        """Stretches of `text` around the runs that hold as many digits as the shortest
        valid number read in these regions can (`_fewest_digits`), from the character
        before them (or before a run they may be the extension of) to the end of any
        extension after, merged where they touch: the only places a valid number can be."""
        plus, plain = _fewest_digits(regions or self.regions)
        out: list[list[int]] = []
        chain, last = 0, None  # where the runs that may read as one number's extension begin
        for m in self.RUN.finditer(text):
            if last is None or not self.JOINS.fullmatch(text, last, m.start()):
                chain = m.start()
            last = m.end()
            run = m.group()
            if sum(c.isdigit() for c in run) < (plus if "+" in run or "\uff0b" in run else plain):
                continue
            if _all_glued(text, chain, text[chain:m.end()]):  # with the runs it extends
                continue
            a, b = max(0, chain - 1), m.end()
            extension = self.EXTENSION.match(text, b)
            b = min(len(text), (extension.end() if extension else b) + self.AFTER)
            if out and a <= out[-1][1]:
                out[-1][1] = b
            else:
                out.append([a, b])
        return [(a, b) for a, b in out]

    def find(self, text: str, prefilter: bool = True) -> list[PatternMatch]:
        """prefilter False: `phonenumbers` reads the whole text (what the prefilter must
        equal; bench/phone_speed.py times the two)."""
        phonenumbers = require("phonenumbers", "finding phone numbers")
        seen, out = set(), []
        regions = self.regions_of(text)
        stretches = self.candidates(text, regions) if prefilter else [(0, len(text))]
        for r in regions:
            for a, b in stretches:
                for match in phonenumbers.PhoneNumberMatcher(
                        text[a:b], r, leniency=phonenumbers.Leniency.VALID):
                    start, end = a + match.start, a + match.end
                    if (start, end) not in seen and not _glued(text, start, end) \
                            and not self.DATED.match(text, start) \
                            and not self.COLUMNS.search(text, start, end):
                        seen.add((start, end))
                        out.append(self.match(start, end))
        return out


class NamedBanks(Recognizer):
    """A bank's own name before its bank's word (`patterns.BANK_WORD`: "Summit State
    Bank", "Evergreen Credit Union", "Yorkshire Building Society"): one to four
    capitalised words right before it (`patterns.BANK_NAME_BEFORE`), one at least not a
    kind of bank (`patterns.BANK_KINDS`: not "Investment Bank", "Beneficiary Bank"), the
    last not a river's or a sea's side (`patterns.BANK_SIDES`: not "the Israeli-occupied
    West Bank", "Dogger Bank"); a party's role first is a form's label, no part of the
    name (`nobodys.party_role`: "Lender [Riverbend Federal Savings Bank]")."""
    name, kinds, trust = "named_banks", ("company",), "shape"
    check = "a bank's own name before its bank's word"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for bank in p.BANK_WORD.finditer(text):
            name = p.BANK_NAME_BEFORE.search(text, max(0, bank.start() - 80), bank.start())
            words = list(NONSPACE.finditer(name.group())) if name else []
            while words and party_role(words[0].group()):  # a form's label ("Lender")
                del words[0]
            if words and words[-1].group() not in p.BANK_SIDES and \
                    any(w.group() not in p.BANK_KINDS for w in words):
                out.append(self.match(name.start() + words[0].start(), bank.end()))
        return out


# a capitalised word of three letters or more, and what no postal address holds
_PLACE_NAME_WORD = re.compile(r"[A-ZÀ-ÖØ-Þ][^\W\d_]{2,}")
_NOT_POSTAL = re.compile(r"@|://|www\.", re.IGNORECASE)


def _address_value(m: re.Match) -> bool:
    """Whether an address field's value is a postal address (`patterns.ADDRESS_FIELD`):
    at most 150 characters, with a digit and a capitalised word, and no email, web or IP
    address ("IP Address: 10.0.0.1" has no such label, "Address: www.x.com" is none)."""
    value = m.group(1)
    return len(value) <= 150 and any(c.isdigit() for c in value) and \
        _PLACE_NAME_WORD.search(value) is not None and _NOT_POSTAL.search(value) is None


def _user_named(name: str) -> bool:
    """Whether a post's author has a user name's shape (`patterns.USER_NAME_SHAPE`:
    "Ifeoma_N", "RetiredInOhio"), and not a name's ("McDonald", `patterns.NAME_CAPITALS`)
    nor a version's or a ticket's key (`patterns.NOT_AUTHORS`)."""
    return p.USER_NAME_SHAPE.match(name) is not None and not (
        p.NAME_CAPITALS.fullmatch(name) or p.NOT_AUTHORS.fullmatch(name))


class Handles(Recognizer):
    """Social-media and chat handles ("@sallykohn"), Reddit's user names
    ("u/throwaway_22", `patterns.REDDIT_USER`), a chat log's nicks ("[09:14]
    <kwame_a>", `patterns.CHAT_NICK`), the user's directory in a path ("/home/rkapoor/",
    `patterns.HOME_DIR`), the user name of a social site's profile address
    ("linkedin.com/in/jordanlee", `patterns.PROFILE_URL`) or of a payment's link
    ("paypal.me/jaylenb", `patterns.PAYMENT_URL`), a Cash App "$cashtag" where the app is
    named before it (`patterns.CASHTAG`), an Ethereum Name Service name ("segun.eth",
    `patterns.ENS_NAME`), an Indian UPI payment address
    ("ramesh.kumar@okhdfcbank", `patterns.UPI_ID`), the user of a web server's
    access log line (`patterns.ACCESS_LOG_USER`) and a post's author with a user name's
    shape ("Posted by Ifeoma_N", `patterns.POSTED_BY`; "Reply (dave_w):",
    `patterns.BRACKETED_AUTHOR`) as user names: "@" and a name, not
    an email address, a code annotation or decorator ("@" first on its line, then the
    line's end, "(" or a word such as "public" or "def"), a documentation tag or CSS
    at-rule (`patterns.NOT_HANDLES`), a mention of a whole channel ("@here"), or a SQL
    variable (after "=", DECLARE, SET or SELECT, before "=" or a SQL type). The span is
    the name: the "@" stays, and where the model read the name as something (a
    colleague's name in a chat), its reading stands. The model itself rarely masks a
    handle: the corpora taught it handles as plain text (labelled O, or written as two
    words)."""
    name, kinds, trust = "handles", ("user_name",), "shape"
    check = "a user handle's shape"
    SQL = re.compile(r"(?:=|\b(?:DECLARE|SET|SELECT|declare))\s*$")
    # after a variable: "=", or a parameter's type (in capitals, or in lower case where no
    # word of prose is spelt so)
    SQL_AFTER = re.compile(r"\s*=|\s+(?:INT|BIGINT|SMALLINT|TINYINT|BIT|DECIMAL|NUMERIC|"
                           r"MONEY|FLOAT|REAL|DATE|DATETIME2?|TIME|N?VARCHAR|N?CHAR|N?TEXT|"
                           r"UNIQUEIDENTIFIER|TABLE|CURSOR|XML|int|bigint|smallint|tinyint|"
                           r"n?varchar|nchar|datetime2?|uniqueidentifier)\b")

    def find(self, text: str) -> list[PatternMatch]:
        out = [self.match(m.start(1), m.end(1)) for m in p.REDDIT_USER.finditer(text)] \
            if "u/" in text else []
        if "/home/" in text or "/Users/" in text or ":\\Users\\" in text or \
                "Documents and Settings" in text:
            out += [self.match(m.start(1), m.end(1)) for m in p.HOME_DIR.finditer(text)
                    if m.group(1).lower() not in p.NOT_HOME_USERS]
        if "/20" in text and "[" in text:  # the year of an access log's time
            out += [self.match(m.start(1), m.end(1)) for m in p.ACCESS_LOG_USER.finditer(text)]
        if ".com/" in text or ".net/@" in text:
            out += [self.match(m.start(1), m.end(1)) for m in p.PROFILE_URL.finditer(text)
                    if m.group(1).lower() not in p.NOT_PROFILES]
        if ".me/" in text or ".com/u/" in text or ".app/$" in text:
            out += [self.match(m.start(1), m.end(1)) for m in p.PAYMENT_URL.finditer(text)]
        if ".eth" in text:
            out += [self.match(m.start(1), m.end(1)) for m in p.ENS_NAME.finditer(text)]
        if "$" in text:
            out += [self.match(m.start(1), m.end(1)) for m in p.CASHTAG.finditer(text)
                    if not p.TICKER.fullmatch(m.group(1)) and
                    p.CASH_APP.search(text, max(0, m.start() - 80), m.start())]
        if "] <" in text or "]<" in text:
            out += [self.match(m.start(1), m.end(1)) for m in p.CHAT_NICK.finditer(text)
                    if m.group(1).lower() not in p.NOT_NICKS]
        out += [self.match(m.start(1), m.end(1)) for m in p.POSTED_BY.finditer(text)
                if _user_named(m.group(1))
                and p.POSTED_VERB.search(text, max(0, m.start() - 16), m.start(1))]
        if "):" in text or ") :" in text:
            out += [self.match(m.start(1), m.end(1)) for m in p.BRACKETED_AUTHOR.finditer(text)
                    if _user_named(m.group(1))]
        if "@" not in text:
            return out
        out += [self.match(m.start(1), m.end(1)) for m in p.UPI_ID.finditer(text)
                if m.group(2) in p.UPI_HANDLES or p.UPI_BEFORE.search(text, max(0, m.start() - 70),
                                                                     m.start())]
        for m in p.HANDLE.finditer(text):
            if m.group(1).lower() in p.NOT_HANDLES:
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            before = text[line_start:m.start()]
            if self.SQL.search(before[-40:]) or self.SQL_AFTER.match(text, m.end()):
                continue
            if not before.strip():  # first on its line: an annotation or a decorator?
                end = text.find("\n", m.end())
                rest = text[m.end():end if end >= 0 else len(text)]
                words = rest.split(None, 1)
                if not words or rest.startswith("(") or words[0] in p.AFTER_ANNOTATION:
                    continue
            out.append(self.match(m.start(1), m.end(1)))
        return out


class ChatSpeakers(Recognizer):
    """A chat export's speakers (`patterns.CHAT_SPEAKER`: "12/03/2024, 10:02 - Amaka Obi:
    did the rent go through?", "[10:03] cryptoqueen88: nah", "hodl_4ever — Today at 10:04
    AM"): a name where the words may be a person's as after a greeting
    (`_greeted_person`), a user name where one word has a user name's shape
    (`_user_named`) or a full stop inside ("raj.k"); a role or a label ("System",
    "Admin") is left to the model."""
    name, kinds, trust = "chat_speakers", ("name", "user_name"), "shape"
    check = "a chat export's speaker after the message's stamp"
    DOTTED = re.compile(r"[a-z\d_]+(?:\.[a-z\d_]+)+")

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for m in p.CHAT_SPEAKER.finditer(text):
            k = m.lastindex
            speaker = m.group(k)
            if " " not in speaker and (_user_named(speaker) or self.DOTTED.fullmatch(speaker)):
                out.append(self.match(m.start(k), m.end(k), "user_name"))
            elif _greeted_person(speaker):
                out.append(self.match(m.start(k), m.end(k), "name"))
        return out


class GreetedNames(Recognizer):
    """A name alone where a message puts one: after a greeting or a thanks
    (`patterns.GREETED_NAME`), where its writer introduces themself
    (`patterns.INTRODUCED_NAME`: "this is Arvind from Pune", "je m'appelle Étienne"),
    after a courtesy title of a letter in another language (`patterns.TITLED_NAME`:
    "Doña Pilar Echeverría", "Frau Katharina Brandstätter"),
    before "from support", under or after a sign-off (`patterns.SIGNED_NAME`,
    `COMMA_NAME`, `DASHED_NAME`: "Regards,\nThanh", "Merci, Étienne", "Thanks - Aoife",
    "- Rashida"), a chat's speaker before what they said (`patterns.SPEAKER_NAME`: "Thanh:
    the build is green now"; `SPEAKER_ROLE_NAME`, in brackets after the role: "Agent
    (Sipho): Hi"), after a role or a relation (`patterns.ROLE_NAME`: "our server Brianna"),
    a surname alone after a title (`patterns.TITLED_SURNAME`: "Judge Park dissented"),
    after a trip, a call or a meeting "with" (`patterns.WITH_NAME`: "Trip with Oleksandr")
    or a chat's verb that asks someone be reached (`patterns.CHAT_VERB_NAME`: "ping Marta
    or me"), or called on before a request (`patterns.VOCATIVE_REQUEST`: "Priyanka, can
    you review");
    `_greeted_person` says who may stand there."""
    name, kinds, trust = "greeted_names", ("name",), "shape"
    check = ("a name after a greeting, a thanks, an introduction, a courtesy title or a "
             "role, or with a sign-off")

    def find(self, text: str) -> list[PatternMatch]:
        found = [m.span(m.lastindex) for pattern in (p.GREETED_NAME, p.INTRODUCED_NAME,
                                                     p.DASHED_NAME, p.TITLED_NAME, p.WITH_NAME,
                                                     p.CHAT_VERB_NAME)
                 for m in pattern.finditer(text)
                 if pattern is not p.INTRODUCED_NAME or _introduced(text, m)]
        found += [m.span(1) for m in p.COMMA_NAME.finditer(text)
                  if p.SIGN_OFF_BEFORE.search(text, max(0, m.start() - 30), m.start())]
        found += [n.span(1) for m in p.VOCATIVE_REQUEST.finditer(text)
                  if (n := p.CALLED_NAME.search(text, max(0, m.start() - 60), m.start()))]
        if "\n" in text:
            found += [m.span(1) for m in p.SIGNED_NAME.finditer(text)]
        if ":" in text:
            found += [m.span(1) for pattern in (p.SPEAKER_NAME, p.SPEAKER_ROLE_NAME)
                      for m in pattern.finditer(text)]
        if "from" in text:
            found += [where for m in p.FROM_TEAM.finditer(text)
                      for where in self._name_before(text, m.start())]
        found += [self._first_word(text, *m.span(1)) for m in p.ROLE_NAME.finditer(text)]
        found += [m.span(1) for m in p.TITLED_SURNAME.finditer(text)
                  if m.group(1) not in p.TITLE_WORDS]
        return [self.match(a, b) for a, b in found if _greeted_person(text[a:b])]

    @staticmethod
    def _first_word(text: str, a: int, b: int) -> tuple[int, int]:
        """Two words after a role, or the first alone where the two are no name ("my
        wife [Keisha] Thinks")."""
        space = text.find(" ", a, b)
        return (a, b) if space < 0 or _greeted_person(text[a:b]) else (a, space)

    @staticmethod
    def _name_before(text: str, end: int) -> list[tuple[int, int]]:
        """The name whose words end at `end` (where "from" starts): its two words, or else
        the nearer one alone ("Yesterday [Anh] from support")."""
        m = p.NAME_BEFORE.search(text, max(0, end - 60), end)
        if m is None:
            return []
        if _greeted_person(m.group(1)):
            return [(m.start(1), m.end(1))]
        return [(m.start(1) + m.group(1).rfind(" ") + 1, m.end(1))]


def _introduced(text: str, m: re.Match) -> bool:
    """Whether an introduction is one: "it's", "this is" or "I'm" where it opens its
    clause (`patterns.CLAUSE_OPENS`: "Hi Sam, it's Gran"; not "I think it's Lloyds"); and
    whether its name may end at an "and" after it: after "my name is" any name may ("my
    name is Sarah and ..."); after "I'm" or "this is" only words of no sentence, outside
    the vocabulary ("I'm Xochitl and ..."; not "I am Alpha and Omega", "I'm Black and
    proud")."""
    said = m.group().casefold()
    if said.startswith(p.OPENING_INTRODUCTIONS) and \
            not p.CLAUSE_OPENS.search(text, max(0, m.start() - 60), m.start()):
        return False
    if not p.AND_AFTER.match(text, m.end()) or said.startswith("my name"):
        return True
    return not any(w.casefold() in common_words() for w in m.group(m.lastindex).split())


def _greeted_person(value: str) -> bool:
    """Whether the words after a greeting may be a person's name (`GreetedNames`): no
    firm, title or team (`_no_one`), no place ("Hello Melbourne!", `lexicon.a_place`),
    none a program's or a salutation's word ("Hi Team", "Thanks Again" and "Cheers Mate"
    stay) nor a speaker's role ("Interviewer: ...", `patterns.NOT_GREETED`, and a party's,
    perhaps plural: "Respondent: ...", "Borrowers: ...", `nobodys.party_role`; a form's
    label: "Pagamento: bonifico", `nobodys.FORM_LABELS`; a document's part: "Disclaimer: This
    note", `nobodys.DOCUMENT_PARTS`), and each
    word (or each part of a hyphenated one) a name or a rare word (`lexicon.name_or_rare`:
    "Thanh", "Xochitl"), or a given name written in syllables ("Ji-woo", whose syllables
    are words of the vocabulary: `patterns.SYLLABLE_NAME`)."""
    words = value.split()
    if _no_one(value) or a_place(value) or \
            any(w in SOFTWARE or w.casefold() in p.NOT_GREETED or party_role(w) or
                w.casefold() in FORM_LABELS or w.casefold() in DOCUMENT_PARTS for w in words):
        return False
    return all(p.SYLLABLE_NAME.fullmatch(w) and
               w.split("-")[0].casefold() not in p.NOT_SYLLABLE_NAMES or
               all(name_or_rare(part) for part in re.split(r"[-'\u2019]", w.casefold())
                   if len(part) > 1)
               for w in words)


def _no_one(value: str) -> bool:
    """Whether a would-be name, after a label or a greeting, is a well-known firm's, or
    one of its words a firm's word or legal form, a title or a team's word
    (`patterns.NOT_NAME_WORDS`): "Attn: Accounts Payable", "Thanks Microsoft"."""
    return p.FIRMS.fullmatch(value) is not None or any(
        w in FIRM_ENDS or w.rstrip(".") in FIRM_ENDS or w.rstrip(".").casefold() in LONE_TITLES
        or w.casefold() in p.NOT_NAME_WORDS for w in value.split())


@functools.lru_cache(maxsize=None)
def _fewest_digits(regions: tuple[str, ...]) -> tuple[int, int]:
    """The fewest digits a valid number can be written with, read in these regions, from
    `phonenumbers`' own metadata: (after a "+": a country code and the shortest number
    of its plan, "+43 1 110" has 6; without a "+": the shortest number of a plan that
    shares a region's country code, Canada's 7 for the US, or an international prefix
    of a digit at least and the shortest international number)."""
    phonenumbers = require("phonenumbers", "finding phone numbers")
    from phonenumbers.phonemetadata import PhoneMetadata

    kinds = ("general_desc", "fixed_line", "mobile", "toll_free", "premium_rate",
             "shared_cost", "personal_number", "voip", "pager", "uan", "voicemail")

    def shortest(code: int) -> int:  # the shortest national number of a country code
        plans = [PhoneMetadata.metadata_for_region_or_calling_code(code, r)
                 for r in phonenumbers.COUNTRY_CODE_TO_REGION_CODE[code]]
        return min((n for plan in plans if plan is not None for kind in kinds
                    if getattr(plan, kind, None) is not None
                    for n in getattr(plan, kind).possible_length if n > 0), default=1)

    international = min(len(str(code)) + shortest(code)
                        for code in phonenumbers.COUNTRY_CODE_TO_REGION_CODE)
    national = min(shortest(phonenumbers.country_code_for_region(r)) for r in regions)
    return international, min(national, 1 + international)


def _glue(c: str) -> bool:
    return c.isalnum() or c in "-/_"


def _glued(text: str, start: int, end: int) -> bool:
    """Whether a number is a piece of a longer reference ("PL-2024-118842")."""
    return any(_glue(c) for c in (text[start - 1:start], text[end:end + 1]) if c)


def _all_glued(text: str, start: int, run: str) -> bool:
    """Whether every number that can start in a run at `start` is `_glued`: the run
    follows a letter, digit or "-/_" and holds only those ("IBAN GB29NWBK60161331926819",
    "INV-2024-39006"), and a number starts at the run's start or after one of its
    characters. Financial text is full of such references, so they are worth skipping."""
    return start > 0 and _glue(text[start - 1]) and all(_glue(c) for c in run)


def _ipv4(m: re.Match) -> bool:
    """A valid address, not a program's version ("Chrome/[120.0.0.0]")."""
    if p.PRODUCT_BEFORE.search(m.string, max(0, m.start() - 40), m.start()):
        return False
    try:
        ipaddress.IPv4Address(m.group())
        return True
    except ValueError:
        return False


def _ipv6(m: re.Match) -> bool:
    value = m.group()
    if value.count(":") < 2 or not re.search(r"[0-9A-Fa-f]", value):
        return False
    try:
        ipaddress.IPv6Address(value)
        return True
    except ValueError:
        return False


def _phone_digits(m: re.Match) -> bool:
    """Whether a number after a phone's keyword has a phone number's eight to fifteen
    digits, in groups no wider than one space (two columns' numbers are two fields,
    `Phones.COLUMNS`), and no year and month first (a date, `Phones.DATED`)."""
    return 8 <= sum(c.isdigit() for c in m.group(1)) <= 15 and \
        not Phones.COLUMNS.search(m.group(1)) and not Phones.DATED.match(m.group(1))


def _user_name(m: re.Match) -> bool:
    """Whether a token after a user name's keyword is one: after "is", no word of the
    vocabulary ("my username is not working", "is required")."""
    said = re.search(r"\bis\b", m.string[m.start():m.start(1)], re.IGNORECASE)
    return said is None or m.group(1).casefold() not in common_words()


def _labelled_person(m: re.Match) -> bool:
    """Whether a name after a person's label (`patterns.NAME_FIELD`) looks like a
    person's (`_person_like`)."""
    return _person_like(m.group(1))


class LabelledNames(Pattern):
    """A full name after a label that names a person (`patterns.NAME_FIELD`: "Prepared by:
    Sandeep Kaur"), one of its words a known name (`_labelled_person`), without the letters
    of a qualification after it (`tidy.CREDENTIALS_AFTER`: "Sandeep Kaur [ACA]")."""

    def __init__(self):
        super().__init__("labelled_names", "name", p.NAME_FIELD, "shape",
                         validate=_labelled_person, group=1,
                         check="a full name after a label that names a person, one of its "
                               "words a known name")

    def find(self, text: str) -> list[PatternMatch]:
        return [replace(m, end=cut.start()) if (cut := CREDENTIALS_AFTER.search(
            text, m.start, m.end)) else m for m in super().find(text)]


def _travel_person(m: re.Match) -> bool:
    """Whether "SURNAME/GIVEN" is a person's: each word a name or a word outside the
    vocabulary, one of them a known name (`_person_like`), none an identifier scheme's
    name that no one has (`ID_SCHEMES`): not "AND/OR", "USD/EUR", "SWIFT/BIC"."""
    value = m.group(1).replace("/", " ")
    return all(name_or_rare(w.casefold()) and
               (w not in ID_SCHEMES or w.casefold() in known_names())
               for w in value.split()) and _person_like(value)


def _person_like(value: str) -> bool:
    """Whether a would-be name looks like a person's: one of its words (or a hyphenated
    word's parts) a given name or surname of Faker's locales, and no firm, title or team
    (`_no_one`)."""
    if _no_one(value):
        return False
    names = known_names()
    return any(len(part) > 1 and part in names
               for w in value.split() for part in (w.casefold(), *w.casefold().split("-")))


# A firm that a signature names after its sender's title, on the title's line after a
# comma, a bar, a dash or "at" ("Property Manager, Northfield Property Management",
# "Ryan Castellano | Operations Director | Greystone Logistics", "Account Executive at
# Summit Roofing"), or alone on the line under a title's line: capitalised words ending
# in a firm's word (`tidy.FIRM_WORDS`), up to the line's or a cell's end. The title is a
# job's word and up to three capitalised words before it, perhaps "of" and a field after
# it ("Head of Compliance"), or a department (`patterns.DEPARTMENT`).
_SIGNED_WORD = r"[A-Z][\w&'\u2019.-]*"
_SIGNED_FIELD = rf"[ \t]+(?:of|for)[ \t]+{_SIGNED_WORD}(?:[ \t]+(?:&|and|{_SIGNED_WORD})){{0,3}}"
_SIGNED_TITLE = (rf"(?:(?:{_SIGNED_WORD}[ \t]+){{0,3}}(?:{p.trie_pattern(p.JOB_WORDS)})"
                 rf"(?:{_SIGNED_FIELD})?|{p.DEPARTMENT})")
SIGNATURE_FIRM = re.compile(
    rf"(?:^|(?<=[|\t]))[ \t]*(?:[-*\u2022][ \t]+)?{_SIGNED_TITLE}"
    rf"(?:[ \t]*[,|\u00b7\u2022\u2013\u2014][ \t]*|[ \t]+(?:-|at)[ \t]+|[ \t]*\n[ \t]*)"
    rf"((?:{_SIGNED_WORD}|&)(?:[ \t]+(?:{_SIGNED_WORD}|&|of|and)){{0,3}}?"
    rf"[ \t]+(?:{p.trie_pattern(FIRM_WORDS)}))(?=[ \t]*(?:$|[|\u00b7\u2022\t]))", re.MULTILINE)


def _signature_firm(m: re.Match) -> bool:
    """Whether the name after a signature's title is a firm's, not a division's
    ("Wealth Management", "Real Estate Funds"): its first word is no division's or
    title's (`patterns.DIVISION_WORDS`, `patterns.TITLE_MODIFIERS`: "Summit Roofing"), or
    a word before the firm's word is one the vocabulary lacks ("Capital Northgate
    Partners")."""
    words = re.findall(r"[^\W\d_]+", m.group(1))
    return (words[0] not in p.DIVISION_WORDS and words[0] not in p.TITLE_MODIFIERS) or \
        any(w.casefold() not in common_words() for w in words[:-1])


CAPITALS = re.compile(r"[A-Z]{2}")  # what a name in capitals holds

# name -> a function of the region that makes the recognizer, in the order they run
REGISTRY: dict[str, Callable[[str], Recognizer]] = {
    "email": lambda region: Pattern("email", "email", p.EMAIL, "checksum",
                                    validate=lambda m: not p.URL_USER_BEFORE.search(
                                        m.string, max(0, m.start() - 80), m.start()),
                                    check="an email address's shape", needs=("@", "%40")),
    "url_credentials": lambda region: Pattern(
        "url_credentials", "password", p.URL_CREDENTIALS, "checksum", group=1, needs=("://",),
        check="the user and password of an address"),
    "curl_user": lambda region: Pattern(
        "curl_user", "password", p.CURL_USER, "checksum", group=1, needs=("curl",),
        check="the user and password given to curl"),
    "iban": lambda region: Iban(),
    "card": lambda region: Pattern("card", "credit_card_number", p.CARD, "checksum",
                                   validate=lambda m: p.valid_card(m.group()),
                                   check="Luhn and an issuer's prefix"),
    "user_names": lambda region: Pattern("user_names", "user_name", p.USER_NAME, "checksum",
                                         group=1, check="a user name's keyword",
                                         validate=_user_name, needs=("user",)),
    "access_codes": lambda region: Pattern("access_codes", "account_pin", p.ACCESS_CODE, "checksum",
                                           group=1, check="a PIN's or a one-time code's keyword",
                                           needs=p.ACCESS_WORDS),
    "cvv": lambda region: Pattern("cvv", "credit_card_security_code", p.CVV, "checksum",
                                  group=1, check="its CVV/CVC keyword", needs=p.CVV_WORDS),
    "ssn": lambda region: Pattern("ssn", "ssn", p.SSN, "checksum",
                                  validate=lambda m: p.valid_ssn(m.group()),
                                  check="the SSN's area, group and serial rules"),
    "nine_digits": lambda region: NineDigits(),
    "national_ids": lambda region: NationalIds(),
    "bic": lambda region: Bic(),
    "crypto_wallets": lambda region: Pattern("crypto_wallets", "bban", p.CRYPTO_WALLET, "checksum",
                                             validate=lambda m: p.valid_wallet(m.group()),
                                             check="an Ethereum address's shape or a Bitcoin "
                                                   "address's checksum"),
    "latlng": lambda region: Pattern("latlng", "local_latlng", p.LATLNG, "checksum",
                                     validate=lambda m: abs(float(m.group(1))) <= 90
                                     and abs(float(m.group(2))) <= 180,
                                     check="latitude and longitude in range"),
    "ipv4": lambda region: Pattern("ipv4", "ipv4", p.IPV4, "checksum", validate=_ipv4,
                                   check="a valid address"),
    "ipv6": lambda region: Pattern("ipv6", "ipv6", p.IPV6, "checksum", validate=_ipv6,
                                   check="a valid address"),
    "dates": lambda region: DatesAndTimes(),
    "micr": lambda region: Micr(),
    "mrz": lambda region: Mrz(),
    # before the phone numbers: a number after an account's keyword that is also a valid
    # phone number ("acct no. 2125550187") is the account's, where both read the same span
    "account_numbers": lambda region: Pattern(
        "account_numbers", "customer_id", p.ACCOUNT_NUMBER, "shape", group=1,
        validate=lambda m: 4 <= sum(c.isdigit() for c in m.group(1)) <= 34,
        check="a number of four digits or more after an account's keyword"),
    "phones": lambda region: Phones(region),
    "keyed_phones": lambda region: Pattern("keyed_phones", "phone_number", p.KEYED_PHONE, "shape",
                                           group=1, validate=_phone_digits,
                                           check="a phone number's keyword", needs=p.PHONE_WORDS),
    "spoken": lambda region: Spoken(),
    "handles": lambda region: Handles(),
    "banks": lambda region: Pattern("banks", "company", p.BANK_OF, "shape",
                                    check='a bank\'s name of the shape "Bank of …"',
                                    needs=p.BANK_OF_WORDS),
    "named_banks": lambda region: NamedBanks(),
    "uk_addresses": lambda region: UkAddresses(),
    "us_addresses": lambda region: PostalAddresses(
        "us_addresses", p.US_ADDRESS, p.US_ZIP, "a US address ending in its state and ZIP code"),
    "ca_addresses": lambda region: PostalAddresses(
        "ca_addresses", p.CA_ADDRESS, p.CA_POSTCODE,
        "a Canadian address ending in its province and postal code"),
    "au_addresses": lambda region: PostalAddresses(
        "au_addresses", p.AU_ADDRESS, p.AU_POSTCODE,
        "an Australian address ending in its state and postcode"),
    "eu_addresses": lambda region: EuAddresses(),
    "world_addresses": lambda region: WorldAddresses(),
    "br_addresses": lambda region: Pattern(
        "br_addresses", "street_address", p.BR_ADDRESS, "shape", needs=p.BR_CEP,
        check="a Brazilian street and number up to its town, state and CEP"),
    "streets": lambda region: Streets(),
    "greeted_names": lambda region: GreetedNames(),
    "chat_speakers": lambda region: ChatSpeakers(),
    "address_fields": lambda region: Pattern(
        "address_fields", "street_address", p.ADDRESS_FIELD, "shape", group=1,
        validate=_address_value, needs=p.ADDRESS_LABEL,
        check="the value of a form's address field, with a digit and a capitalised word"),
    "labelled_names": lambda region: LabelledNames(),
    "gaelic_names": lambda region: GaelicNames(),
    "addressees": lambda region: Addressees(),
    "registrations": lambda region: Registrations(),
    "travel_names": lambda region: Pattern("travel_names", "name", p.TRAVEL_NAME, "shape",
                                           group=1, validate=_travel_person, needs=("/",),
                                           check="a name written surname/given names, as "
                                                 "tickets print it, its words names"),
    "case_parties": lambda region: CaseParties(),
    "cited_authors": lambda region: CitedAuthors(),
    "mail_names": lambda region: Pattern("mail_names", "name", p.MAIL_NAME, "shape",
                                         validate=_labelled_person, group=1, needs=("@",),
                                         check="a mail's display name before its address, one "
                                               "of its words a known name"),
    "keyed_names": lambda region: Pattern("keyed_names", "name", p.KEYED_NAME, "shape", group=1,
                                          validate=lambda m: m.group(1) not in p.NO_NAMES,
                                          check="a name's value after its key in data or code",
                                          needs=p.KEYED_NAME_WORDS),
    "firms": lambda region: Pattern("firms", "company", p.FIRMS, "shape",
                                    check="a name on the list of well-known firms"),
    "capital_firms": lambda region: Pattern("capital_firms", "company", p.FIRMS_IN_CAPITALS,
                                            "shape", needs=CAPITALS,
                                            check="a name on the list of well-known firms, "
                                                  "in capitals"),
    "listed_firms": lambda region: Pattern("listed_firms", "company", p.LISTED_FIRM, "shape",
                                           group=1, needs=p.LISTING,
                                           check="a firm's name before where it is listed"),
    "firm_cells": lambda region: Pattern("firm_cells", "company", p.FIRM_CELL, "shape", group=1,
                                         check="a table cell or list line holding a firm's "
                                               "name and its legal form",
                                         needs=p.CELL_FORM),
    "signature_firms": lambda region: Pattern(
        "signature_firms", "company", SIGNATURE_FIRM, "shape", group=1, validate=_signature_firm,
        check="a firm's name ending in a firm's word after a signature's job title"),
    "firm_forms": lambda region: FirmForms(),
}


def default_recognizers(region: str = "US", phones: bool = True) -> list[Recognizer]:
    """Every registered recognizer, for text written in `region`'s conventions."""
    return [make(region) for name, make in REGISTRY.items() if phones or name != "phones"]


def find(text: str, recognizers: Sequence[Recognizer] | None = None) -> list[PatternMatch]:
    """Every match the recognizers make in the text (the default ones unless given),
    possibly overlapping: the merge resolves them. They read the text folded
    (`patterns.fold`: "4111\u00a01111…" as "4111 1111…", "4111\u200b1111…" as
    "41111111…"); matches are given in the text's own offsets."""
    recognizers = default_recognizers() if recognizers is None else recognizers
    folded, where = p.fold(text)
    found = [m for r in recognizers for m in r.find(folded)]
    if where is None:
        return found
    return [replace(m, start=where[m.start], end=where[m.end - 1] + 1) for m in found]


class FirmForms(Pattern):
    """A firm's name in running text followed by its abbreviated legal form
    (`patterns.FIRM_FORM`: "Begbies Traynor (Central) LLP"); a person's full name and "of"
    before it are the person's, not the firm's ("Lisa Thorogood of Begbies Traynor
    (Central) LLP", as a notice names the firm's partner: `tidy.firms_person`)."""

    def __init__(self):
        super().__init__("firm_forms", "company", p.FIRM_FORM, "end",
                         check="a firm's name in running text followed by its abbreviated "
                               "legal form", needs=p.FORM_AFTER_NAME)

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for m in super().find(text):
            of = OF_FIRM.search(text, m.start, m.end)
            if of is not None and firms_person(text[m.start:of.start()]):
                m = replace(m, start=of.end())
            out.append(m)
        return out


class UkAddresses(Pattern):
    """UK addresses written inline, up to their postcode (`patterns.UK_ADDRESS`: "12
    Harbour Road, Leeds LS1 4AB"), which the model reads in part or not at all; only
    texts that hold a postcode are read further."""

    def __init__(self):
        super().__init__("uk_addresses", "street_address", p.UK_ADDRESS, "shape",
                         check="a UK address ending in its postcode")

    def find(self, text: str) -> list[PatternMatch]:
        return super().find(text) if p.UK_POSTCODE.search(text) else []


class PostalAddresses(Pattern):
    """Addresses written inline the US way, up to their state or province and postal code
    (`patterns.US_ADDRESS`: "P.O. Box 64854, St. Paul, MN 55164-0854"; `CA_ADDRESS`,
    `AU_ADDRESS`), where the model reads them in pieces (a ZIP+4 as an ID number) or not
    at all; only texts that hold the region's postal code (`code`) are read further."""

    def __init__(self, name: str, regex: re.Pattern, code: re.Pattern, check: str):
        super().__init__(name, "street_address", regex, "shape", check=check)
        self.code = code

    def find(self, text: str) -> list[PatternMatch]:
        if not self.code.search(text):
            return []
        # a suite's number is no house number ("Suite 1000 Los Angeles, CA 90067")
        return [m for m in super().find(text)
                if not p.US_UNIT_BEFORE.search(text, max(0, m.start - 12), m.start)]


class EuAddresses(Recognizer):
    """Continental European addresses (`patterns.EU_ADDRESS`: "Bahnhofstraße 14, 8001
    Zürich", "12 rue de Rivoli, 75001 Paris"), looked for only in the stretch before and
    around each postcode followed by a capitalised word (`EU_POSTCODE_TOWN`): the
    address regex tried at every position of a text took three times as long."""
    name, kinds, trust = "eu_addresses", ("street_address",), "shape"
    check = "a European street and number up to its postcode and town"
    BEFORE, AFTER = 100, 60  # characters a street and a town may take before and after

    def find(self, text: str) -> list[PatternMatch]:
        out: list[PatternMatch] = []
        for code in p.EU_POSTCODE_TOWN.finditer(text):
            if out and out[-1].end > code.start() or \
                    p.EU_DATE_BEFORE.search(text, max(0, code.start() - 16), code.start()):
                continue  # this postcode's address is found already, or it is a year
            for m in p.EU_ADDRESS.finditer(text, max(0, code.start() - self.BEFORE),
                                           min(len(text), code.end() + self.AFTER)):
                if m.start() < code.start() < m.end():
                    out.append(self.match(m.start(), m.end()))
                    break
        return out


class WorldAddresses(Recognizer):
    """Addresses that end in an Irish Eircode, Singapore's postcode, an Indian PIN or a
    Japanese postcode (`patterns.WORLD_ADDRESS`: "14 Fitzwilliam Square, Dublin 2, D02
    X285", "5-2-1 Ginza, Chuo-ku, Tokyo 104-0061"), which the model reads as nothing;
    looked for only before each such code (`WORLD_POSTCODE`)."""
    name, kinds, trust = "world_addresses", ("street_address",), "shape"
    check = "a street or building up to an Irish, Singaporean, Indian or Japanese postcode"
    BEFORE = 160  # characters an address may take before its postcode

    def find(self, text: str) -> list[PatternMatch]:
        out: list[PatternMatch] = []
        for code in p.WORLD_POSTCODE.finditer(text):
            if code.start() and (text[code.start() - 1].isalnum() or text[code.start() - 1] in "-_"):
                continue  # a piece of a longer code or number, which ends no address: not
                # tried, which spares two thirds of the recognizer's time
            for m in p.WORLD_ADDRESS.finditer(text, max(0, code.start() - self.BEFORE),
                                              code.end()):
                if m.end() == code.end():
                    out.append(self.match(m.start(), m.end()))
                    break
        return out


class Streets(Pattern):
    """A street address without its postcode (`patterns.STREET`: "at 118 Juniper Court"),
    which the model reads as nothing or in pieces, with the town and the state or province
    written after it ("900 Commerce Way, Plano, Texas", `patterns.TOWN_AND_STATE`) or the
    known places after it ("23 Nkrumah Road, Osu, Accra, Ghana", `_places`), and a PO box
    with the known places after it ("PO Box 1234, Dubai", `patterns.PO_BOX`), and an
    address whose streets are numbered ("Villa 14, Street 820, Zone 66, Al Waab, Doha,
    Qatar", `patterns.NUMBERED_STREET`), a Korean road address ("110 Sejong-daero,
    Jung-gu, Seoul", `patterns.KR_STREET`), a Colombian one ("Carrera 7 # 71-21, Bogotá",
    `patterns.CO_STREET`), and a street written before its number with the known places
    after it ("Av. Providencia 1234, Santiago", `patterns.STREET_FIRST`), and a street
    written in lower case ("44 maple st apt 2", `patterns.LOWER_STREET`) or in capitals
    ("14 BIRCHWOOD LN", `patterns.UPPER_STREET`, none of its words a function word: not
    "WIRE 2500 TO ACME CT"); not a
    court of law after a number ("Chapter 11 Bankruptcy Court") nor a year after "in",
    "since" ... ("in 2019 Wall Street banks")."""

    def __init__(self):
        super().__init__("streets", "street_address", p.STREET, "shape",
                         check="a house number, a street's name and a street word")

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for m in self.regex.finditer(text):
            words = m.group(2).split()
            if text.startswith("Court", m.end(2)) and words[-1] in p.LAW_COURTS:
                continue
            number = m.group(1)
            if len(number) == 4 and number[:2] in ("19", "20") and \
                    p.BEFORE_YEAR.search(text, max(0, m.start() - 8), m.start()):
                continue
            town = p.TOWN_AND_STATE.match(text, m.end())
            out.append(self.match(m.start(), town.end() if town else self._places(text, m.end())))
        if "Box" in text:
            out += self._with_places(text, p.PO_BOX, needs_place=True)
        if ", Street " in text or ", Road " in text or ", Way " in text:
            out += self._with_places(text, p.NUMBERED_STREET)
        out += [self.match(m.start(), end) for m in p.STREET_FIRST.finditer(text)
                if (end := self._runs(text, m.end())) > m.end()]
        if "#" in text or "No." in text:
            out += self._with_places(text, p.CO_STREET)
        if "-ro" in text or "-gil" in text or "-daero" in text:
            out += self._with_places(text, p.KR_STREET)
        out += [self.match(*m.span()) for m in p.LOWER_STREET.finditer(text)]
        out += [self.match(*m.span()) for m in p.UPPER_STREET.finditer(text)
                if not any(w.casefold() in FUNCTION_WORDS for w in m.group().split())]
        return out

    def _with_places(self, text: str, pattern: re.Pattern,
                     needs_place: bool = False) -> list[PatternMatch]:
        """Each match of `pattern` up to the known places after it (`_places`); where
        `needs_place`, only those that a known place follows (a PO box, a street's word
        before a number, alone, are too often something else)."""
        return [self.match(m.start(), end) for m in pattern.finditer(text)
                if (end := self._places(text, m.end())) > m.end() or not needs_place]

    @staticmethod
    def _places(text: str, end: int) -> int:
        """Where a street address ends that prose follows with its district, town or
        country (`patterns.PLACE_RUNS`): at the last of the runs that is a known place
        (`lexicon.known_place`: a city of the time zones, a country, or one of
        `lexicon.CITIES`), else at `end`."""
        runs = p.PLACE_RUNS.match(text, end)
        if runs is None:
            return end
        for run in reversed(list(p.PLACE_RUN.finditer(text, end, runs.end()))):
            if known_place(run.group(1)):
                return run.end(1)
        return end

    @classmethod
    def _runs(cls, text: str, end: int) -> int:
        """Where a street written first ends (`patterns.STREET_FIRST`): at its known places
        (`_places`), or, where a Latin American address writes its unit, colonia or
        postcode among them (`patterns.ADDRESS_RUN`), at the last run of up to five that is
        a colonia, a postcode, a known place or the town after a postcode ("C.P. 03940,
        Ciudad de México"); else at `end`."""
        last, at, postcode = end, end, False
        for _ in range(5):
            run = p.ADDRESS_RUN.match(text, at)
            if run is None:
                break
            at = run.end()
            if run["colonia"] or run["postcode"] or run["code"] or postcode and run["place"] \
                    or known_place(run["place"] or ""):
                last = at
            postcode = run["postcode"] is not None
        return max(last, cls._places(text, end))


class CaseParties(Recognizer):
    """The parties of a lawsuit's caption in running text that are people
    (`patterns.CASE_CAPTION`: "In [Okafor] v. Meridian Bank", "See [Smith] v. [Jones]"),
    which the model reads as a case's name and leaves: each side's name words next to the
    "v." (`lexicon.name_or_rare`: not "In" or "See"), one of them a known name, where the
    side is no firm, title or team (`_no_one`: "Meridian Bank") and no place ("Arizona";
    a government's side, "United States", "State", is words of the vocabulary)."""
    name, kinds, trust = "case_parties", ("name",), "shape"
    check = "a person's name as a party of a lawsuit's caption"

    def find(self, text: str) -> list[PatternMatch]:
        if " v." not in text and " vs." not in text:
            return []
        out = []
        for m in p.CASE_CAPTION.finditer(text):
            for side, toward in ((1, -1), (2, 1)):
                if _no_one(m.group(side)):
                    continue
                kept = list(itertools.takewhile(lambda w: name_or_rare(w.casefold()),
                                                m.group(side).split(" ")[::toward]))[::toward]
                value = " ".join(kept)
                if value and _person_like(value) and not a_place(value):
                    start = m.start(side) + (len(m.group(side)) - len(value) if toward < 0 else 0)
                    out.append(self.match(start, start + len(value)))
        return out


class CitedAuthors(Recognizer):
    """The authors a paper, a research note or a bank's or a regulator's study cites: a
    reference list's, each surname and initials one name (`patterns.REFERENCE_AUTHORS`:
    "[Acemoglu, D.], [Johnson, S.], & [Robinson, J. A.] (2001)"), and in running text each
    surname before a year in brackets or in brackets before a year
    (`patterns.CITED_AUTHORS`: "[Fama] and [French] (1993)", "([Hou], [Xue] and [Zhang],
    2015"). A citation whose surnames are not all a surname's (`_cited_surname`) gives
    none."""
    name, kinds, trust = "cited_authors", ("name",), "shape"
    check = "a cited work's author, before its year"

    BEFORE = 300  # characters a citation's authors may take before its year

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for a, b in self._stretches(text):
            for m in p.REFERENCE_AUTHORS.finditer(text, a, b):
                authors = list(p.REFERENCE_AUTHOR.finditer(text, m.start(1), m.end(1)))
                if all(_cited_surname(author.group(1), initials=True) for author in authors):
                    out += [self.match(*author.span()) for author in authors]
            for m in p.CITED_AUTHORS.finditer(text, a, b):
                which = 1 if m.group(1) else 2
                names = list(p.CITED_SURNAME.finditer(text, m.start(which), m.end(which)))
                if all(_cited_surname(n.group()) for n in names):
                    out += [self.match(*n.span()) for n in names]
        return out

    def _stretches(self, text: str) -> list[tuple[int, int]]:
        """Where a citation may be: up to `BEFORE` characters before each year after a
        bracket or a comma (`patterns.CITATION_YEAR`) and the character after it, merged
        where they overlap (a regular expression that scans all of a text for authors
        costs ten times more)."""
        out: list[list[int]] = []
        for year in p.CITATION_YEAR.finditer(text):
            a, b = max(0, year.start() - self.BEFORE), min(len(text), year.end() + 1)
            if out and a <= out[-1][1]:
                out[-1][1] = b
            else:
                out.append([a, b])
        return [(a, b) for a, b in out]


def _cited_surname(value: str, initials: bool = False) -> bool:
    """Whether a cited author's surname (perhaps after particles, "van Dijk") is not in
    capitals ("IMF"), no well-known firm and no place, and, without initials after it,
    a name Faker's locales know or a word outside the vocabulary (`lexicon.name_or_rare`:
    not "Act", "Report"), and no month."""
    last = value.rsplit(" ", 1)[-1]
    return not last.isupper() and p.FIRMS.fullmatch(value) is None and not a_place(value) \
        and (initials or name_or_rare(last.casefold()) and last.casefold() not in p.MONTHS)


class Registrations(Recognizer):
    """The owners an account's registration names (`patterns.REGISTRATION_LINE`: "LINDA M
    PARK & JAMES T PARK JT TEN", "KEVIN J OSEI CUST FOR AMARA K OSEI UTMA NJ"), which the
    model reads in part or not at all in capitals: each piece between the marks, "&" and
    commas (`patterns.REGISTRATION_CUT`) of two to five words, each an initial, a name or
    a word outside the vocabulary (`lexicon.name_or_rare`), that is a person's
    (`_person_like`; not "HAYES LIVING TRUST", "THE GOMEZ 2019 IRREVOCABLE TRUST")."""
    name, kinds, trust = "registrations", ("name",), "shape"
    check = "an owner's name in an account's registration, between its marks"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for line in p.REGISTRATION_LINE.finditer(text):
            if not p.REGISTERED.search(line.group(1)):
                continue
            start = line.start(1)
            for cut in [*p.REGISTRATION_CUT.finditer(line.group(1)), None]:
                end = line.start(1) + cut.start() if cut else line.end(1)
                piece = text[start:end].strip()
                if self._owner(piece):
                    a = text.index(piece, start)
                    out.append(self.match(a, a + len(piece)))
                start = line.start(1) + cut.end() if cut else end
        return out

    @staticmethod
    def _owner(piece: str) -> bool:
        words = piece.split()
        return 2 <= len(words) <= 5 and all(
            len(w.rstrip(".")) == 1 and w[0].isalpha() or name_or_rare(w.casefold())
            for w in words) and _person_like(piece) and not a_place(piece)


class Addressees(Recognizer):
    """The addressee's name on the line right above a postal address's street
    (`patterns.ADDRESSEE`: "ROBERT & LINDA GARCIA" above "1142 MAPLE GROVE RD"), which the
    model misses below a sender's name in a statement's header: each name between "&" and
    "AND" (joint holders), where every word of the line is a name Faker knows or no word
    of the vocabulary (`lexicon.name_or_rare`: a firm's word is a word), an initial or a
    suffix, one of them a given name, the line no well-known firm's name, legal form or
    title (`_no_one`: "Morgan Stanley") and no place ("Santo Domingo"); a party's role
    first is a form's label, no part of the names (`nobodys.party_role`: "Borrower [Jonah
    Feldspar] and [Mireille Feldspar]")."""
    name, kinds, trust = "addressees", ("name",), "shape"
    check = "a line of names right above a street's number or a post office box"

    def find(self, text: str) -> list[PatternMatch]:
        out = []
        for line in p.ADDRESSEE.finditer(text):
            at, names = line.start(1), line.group(1)
            if (role := NONSPACE.match(names)) and party_role(role.group()):  # "Borrower"
                at, names = at + role.end(), names[role.end():]  # (the merge strips spaces)
            if not self._names(names):
                continue
            start = at
            for cut in [*JOINT.finditer(names), None]:
                end = at + cut.start() if cut else at + len(names)
                out.append(self.match(start, end))
                start = at + cut.end() if cut else end
        return out

    @staticmethod
    def _names(value: str) -> bool:
        folded = [w.rstrip(".,").casefold() for w in JOINT.sub(" ", value).split()]
        return not a_place(value) and not _no_one(value) and \
            any(w in given_names() for w in folded) and \
            all(name_or_rare(w) or len(w) == 1 or w in NAME_SUFFIXES for w in folded)


# what joins joint holders' names on an address block's line
JOINT = re.compile(r"[ \t]+(?:&|AND|and)[ \t]+")
# the suffixes a name on an address block may end in
NAME_SUFFIXES = frozenset(("jr", "sr", "ii", "iii", "iv"))


class GaelicNames(Recognizer):
    """A name with an Irish surname's particle (`patterns.GAELIC_NAME`: "Siobhán Ní
    Bhriain", "Ciarán Ó Súilleabháin"), which the model misses or parts at the particle
    ("[Aoife] Nic [Aodha]"): with the word before the particle where it is a given name
    or a word outside the vocabulary (`lexicon.name_or_rare`), else from the particle
    ("Contact [Ní Bhriain]")."""
    name, kinds, trust = "gaelic_names", ("name",), "shape"
    check = "an Irish surname's particle and the surname after it"

    def find(self, text: str) -> list[PatternMatch]:
        if not any(w in text for w in p.GAELIC_PARTICLES):
            return []
        return [self.match(m.start(1) if m.group(1) and name_or_rare(m.group(1).casefold())
                           else m.start(2), m.end())
                for m in p.GAELIC_NAME.finditer(text)]


class ModelRecognizer:
    """The fine-tuned tagger as a recognizer: spans of whole words whose tokens reach
    the threshold, for a batch of texts at once (its windows batched together)."""

    def __init__(self, tagger, threshold: float, precision: str):
        self.tagger, self.threshold, self.precision = tagger, threshold, precision

    def find_batch(self, texts: Sequence[str], batch: int | None = None):
        return self.tagger.predict(texts, batch, precision=self.precision,
                                   threshold=self.threshold, multiline=MULTILINE)
