"""What is nobody's personal data, though the model masked it: the cases in which
`tidy` drops a span whole (`nobodys`).

Each case is a shape the probes of real text found the model reading as a person, a
number or a date, and its record in docs/experiments/ says which and why: a payment's
authorisation code, a saint's name in a church's, a dateline's place, a club in
brackets after a player, a name inside an institution's, a filing's number at the SEC,
a listed company's ticker, a court's abbreviation and a docket number, a program's
version, a piece of an amount, a degree, a security's identifier, a tracking number,
the Latin of contracts, a notice's means, a citation's abbreviations, a filing cover's
government and regulator, a judge's title, the unnamed parties of a complaint, a
function's name in code, a lawmaker's party tag, a mail header, a title alone, a
program, a greeting, a team's name, a national number's keyword, a character encoding's
name, a market's name for a kind of security.
"""

from __future__ import annotations

import functools
import re

from ..spans import Span
from . import ids
from .lexicon import (COURTESY_TITLES, FUNCTION_WORDS, KIN_ALONE, LONE_TITLES, PRONOUNS,
                      ROLE_DETERMINERS, ROLES, SOFTWARE, SOFTWARE_FOLDED, a_place, common_words,
                      known_names, known_place, places, widely_given)
from .patterns import (ABBREVIATED_FORMS, CA_PROVINCES, CELL_ONLY_FORMS, DEPARTMENTS, FIRMS,
                       FIRMS_IN_CAPITALS, GREETING_BEFORE, LISTING, MONTH, PRODUCT_VERSION,
                       SIGN_OFF_LINE, US_STATE_NAMES, US_STATES, job_title, trie_pattern)


def nobodys(text: str, span: Span) -> bool:
    """Whether a span, whole, is no one's personal data: a payment's authorisation code
    (`_auth_code`), a saint's name in a place's (`_after_saint`), a dateline's place (`_dateline`),
    a sports club's name or a club's or party's in brackets after a name (`_affiliation`), a name
    that is part of a thing's or an institution's name (`eponym`), a listed company's exchange and
    ticker (`_listing`), a city or its state where a place is written city first ("[Sarasota],
    Fla.", `_place`), a document's own number or code (`_document_code`: "Schedule [9.01]",
    "[FY2026]"), a piece of an amount (`_amount_piece`), a degree's letters, a degree and its field
    or its Latin honour (`_degree`), a contract's Latin term, party's role or defined term, or a
    citation's words (`_contract_words`: "[Pari Passu]", "[Defendant-Appellee]", '(the
    "[Lender]")'); or, read by the model, a place greeted ("Hello [Melbourne]!", `_greeted_place`)
    or with what a place has ("[Chad]'s president", `_civic`), a lawmaker's party tag, a mail
    header's name, a courtesy title alone or a program's name, a field's label or an abbreviation of
    office mail (`PARTY_TAG`, `MAIL_HEADER`, `LONE_TITLES`, `SOFTWARE`, `FIELD_LABELS`,
    `WORK_ABBREVIATIONS`: "[Ms]. Okafor", "[Sen]. Elizabeth Warren", "the [Manager]", "restart the
    [Jupyter] kernel", "import [pandas]", "[Attn]: Laura Davis Jones", "review by [EOD]"), a job's
    title ("[President and CEO]", `patterns.job_title`), a greeting alone ("[Olá], my card ...",
    `GREETING_WORDS`), a reply or kin alone ("[No].", "Love, [Gran]": `WORDS_ALONE`), a team's or a
    project's name ("Team [Falcon]", `TEAM_NAME`), a national number's keyword ("[Aadhaar]: 2345
    6789 0124", `ids.is_keyword`), a sign-off's words at its line's start ("[Med] vänlig hälsning",
    `_letters_words`), a judge's title after the surname (`_judges_title`), a function's name in
    CamelCase before its bracket ("[GetCustomer]("Smith")", `CODE_CALL`), or the unnamed parties a
    complaint sues ("[JOHN] DOES 1-10", `_unknown_parties`), or a numbered record's word before its
    number ("[Docket] No. 142", `_numbered`), a form's label in another language or a notice's
    ("[Facsimile]:", `_form_label`), a possessive before a role ("[Su] gestor", `_role_determiner`),
    English's function words in lower case ("[be]", `_function_words`), a German number's word
    ("[Kontonummer]"); or code's (`_code`), a web address's domain read as an email
    ("www[.atwoodcpa.com]", `_web_address`), or a number alone read as an address, no postal word
    before it ("Book [5512]", `_bare_number`), a market's or a regulator's name ("[Brent] crude",
    "the SEC's [EDGAR]": `_market_word`, `_filing_system`), a heading alone on its line
    ("[RECITALS]"), an age ("[89-year-old]"), an adverb (`_adverb`) or a month (`_month_alone`)."""
    if _auth_code(text, span) or _after_saint(text, span) or _dateline(text, span) or \
            _place(text, span) or _affiliation(text, span) or eponym(text, span) or \
            _listing(text, span) or _document_code(text, span) or AGE.fullmatch(span.text) or \
            _amount_piece(text, span) or _degree(text, span) or _contract_words(text, span):
        return True
    if span.source != "model":
        return False
    return span.label == "PERSON" and (span.text.casefold() in SOFTWARE_FOLDED or
                                       " " not in span.text and
                                       span.text.casefold().endswith("nummer") or
                                       ids.is_keyword(span.text) or _numbered(text, span) or
                                       _role_determiner(text, span) or _function_words(span.text) or
                                       _greeted_place(text, span) or _civic(text, span) or
                                       span.text.rstrip(".,").casefold() in WORDS_ALONE or
                                       _month_alone(span.text) or _salutation(span.text) or
                                       _per_preposition(text, span) or
                                       " " not in span.text and TEAM_NAME.search(
                                           text, max(0, span.start - 12), span.start) is not None or
                                       _judges_title(text, span) or _adverb(span.text) or
                                       CODE_CALL.fullmatch(span.text) is not None and
                                       text.startswith("(", span.end) or
                                       _unknown_parties(text, span)) or \
        span.label in ("PERSON", "COMPANY") and (
            _letters_words(text, span) or _form_label(text, span) or _capital_heading(text, span)
            or _market_word(text, span) or _filing_system(text, span)) or \
        _party_tag(text, span) or MAIL_HEADER.fullmatch(span.text) is not None or \
        span.text.rstrip(".").casefold() in LONE_WORDS or job_title(span.text) or \
        span.text.isupper() and span.text.casefold() in WORK_ABBREVIATIONS or \
        _code(text, span) or _web_address(span) or _bare_number(text, span)


# the regulators' public filing and disclosure systems, as filings and investors name them
# ("on the SEC's [EDGAR]", "posted on [EMMA]"), in capitals: "Edgar", "Emma" and "Trace"
# are given names
FILING_SYSTEMS = frozenset(("EDGAR", "EMMA", "SEDAR", "SEDAR+", "TRACE", "IAPD"))


# how a letter to a regulator heads the way it was sent ("VIA EDGAR", "Via EDGAR and
# e-mail"), in a line of capitals too
SENT_VIA = re.compile(r"(?i)\bvia[ \t]+\Z")


def _filing_system(text: str, span: Span) -> bool:
    """Whether a model span is a regulator's filing system's name (`FILING_SYSTEMS`) on a
    line with lower-case letters (a line in capitals, "PAYEE: EDGAR", may name a person),
    or right after "via" (`SENT_VIA`: a letter's "VIA EDGAR")."""
    return span.text in FILING_SYSTEMS and (
        any(c.islower() for c in _line(text, span)) or
        SENT_VIA.search(text, max(0, span.start - 8), span.start) is not None)


# the names markets give a kind of security or a benchmark price, as news and a fund's
# documents write them ("10-year [Treasuries]", "[Bunds and Gilts] rallied", "[Munis]");
# "MBS" is left out: news also calls a Saudi prince so
MARKET_WORDS = frozenset(("Treasuries", "T-bills", "T-Bills", "T-notes", "T-bonds", "Bunds",
                          "Gilts", "gilts", "JGBs", "BTPs", "OATs", "Munis", "munis", "TIPS",
                          "WTI", "Bitcoin", "bitcoin", "Ethereum"))
MARKET_LIST = re.compile(r"[ \t]*(?:,|&|\band\b)[ \t]*")
# the crude oils a price is quoted for; "Brent" is a given name too, so only before these
CRUDES = frozenset(("Brent", "WTI", "Urals"))
CRUDE_AFTER = re.compile(r"[ \t]+(?:crude|oil|futures|prices?|blend|benchmark)\b")


def _market_word(text: str, span: Span) -> bool:
    """Whether a model span is, whole, a market's name for a kind of security or a
    benchmark (`MARKET_WORDS`, one or several joined by "and", "&" or commas), or a crude
    oil's name before the word that says so, that word in the span or not ("[Brent]
    crude", "[Brent crude]", `CRUDE_AFTER`)."""
    if all(word in MARKET_WORDS for word in MARKET_LIST.split(span.text.strip())):
        return True
    words = span.text.split()
    return bool(words) and words[0] in CRUDES and \
        CRUDE_AFTER.match(text, span.start + len(words[0])) is not None


def _code(text: str, span: Span) -> bool:
    """Whether a model span is code's: a setting's key ("[AWS_ACCESS_KEY_ID]=AKIA...",
    `_setting_key`), a program's version ("[okhttp/4.12.0]", `PRODUCT_VERSION`), a
    method's call read as a secret ("[stripe.Customer.retrieve()]", `DOTTED_CALL`) or a
    character encoding's name in a text about encodings ("encoding='[latin-1]'",
    `ENCODING_NAME`, `ENCODINGS_NAMED`)."""
    return _setting_key(text, span) or PRODUCT_VERSION.fullmatch(span.text) is not None or \
        span.label == "DIGITAL" and DOTTED_CALL.fullmatch(span.text) is not None or \
        ENCODING_NAME.fullmatch(span.text) is not None and ENCODINGS_NAMED.search(text) is not None


# the names of character encodings, as code and error messages write them
ENCODING_NAME = re.compile(r"(?i)utf[-_]?(?:8|16|32)(?:[-_]?(?:le|be|sig))?|latin[-_]?(?:[1-9]|10)|"
                           r"iso[-_]?8859[-_]?\d{1,2}|(?:cp|windows[-_]?)\d{3,4}|(?:us[-_]?)?ascii|"
                           r"shift[-_]?jis|gbk|gb2312|gb18030|big5|euc[-_](?:jp|kr)|koi8[-_][ru]")
ENCODINGS_NAMED = re.compile(r"(?i)encod|codec|charset")


# a web address's domain, by its end: the common generic and country top-level domains
WEB_DOMAIN = re.compile(r"(?:[\w-]+\.)+(?:com|net|org|io|gov|edu|co|ai|app|biz|info|us|uk|"
                        r"ca|au|de|fr|in|ng|ke|za|ie|nl|es|it|br|mx|jp|sg|hk)")


def _web_address(span: Span) -> bool:
    """Whether a model EMAIL span is a web address's domain, whole ("www.[harborlightbank.com]",
    "[wealthfront.com]/reset", `WEB_DOMAIN`) or cut off from the site's name before it
    ("www[.atwoodcpa.com]", "linkedin[.com]/in/gregatwood"): an email address has an
    "@", and a site is nobody's (a profile's user name is masked by `handles`); a user
    name read as an email ("reyes.flores") is no domain and stays."""
    return span.label == "EMAIL" and (span.text.startswith(".") or
                                      WEB_DOMAIN.fullmatch(span.text) is not None)


# a setting's key, first on its line (perhaps after "export") and before its "=" and a
# value, which the model may read as a secret with the value ("AWS_SECRET_ACCESS_KEY=...");
# not a comparison's "==", nor a value's own closing "=" (base64's padding: "c2VjcmV0=")
SETTING_AFTER = re.compile(r"[ \t]*=[ \t]*[^\s=]")
LINE_START = re.compile(r"(?:^|\n)[ \t]*(?:export[ \t]+)?$")


def _setting_key(text: str, span: Span) -> bool:
    """Whether a model DIGITAL span is a setting's key in a configuration line (first on
    its line, before "=" and a value): the setting's name, not its value."""
    return span.label == "DIGITAL" and SETTING_AFTER.match(text, span.end) is not None and \
        LINE_START.search(text, max(0, span.start - 12), span.start) is not None


# what leads into a card payment's authorisation code on its line ("AUTH CODE 154")
AUTH_KEY = re.compile(r"(?i)\b(?:auth(?:ori[sz]ation)?\.?(?:\s*(?:code|no\.?|number|#))?|"
                      r"approval\s+code)\s*[:#]?\s*$")
NUMBER_GROUPS = ("CARD", "ACCOUNT", "GOV_ID", "BANK", "PHONE")


# where a contract defines a term: in brackets a space after what it names (not a call's
# bracket, 'get_customer("'), perhaps after a few lower-case words ('(the "', '(each, a
# "', '(in such capacity, the "'), or before "means" and its kin ('"Permitted Liens"
# means')
DEFINITION_LEAD = re.compile(r"(?<=\s)\((?:[a-z]+,?[ \t]+){0,4}[\"\u201c]$")
DEFINITION_MEANS = re.compile(r"[\"\u201d][ \t]+(?:means|shall mean|has the meaning|"
                              r"shall have the meaning|have the meanings?)\b")
TERM_CLOSE = re.compile(r"[^\"\u201c\u201d\n]{0,40}?[\"\u201d]")


def _contract_words(text: str, span: Span) -> bool:
    """Whether a span is a Latin term of contracts (`_legal_latin`), a party's role in a
    lawsuit or a contract (`_party_role`), a word of a term a contract defines
    (`_defined_term`) or a statute's or a court rule's citation (`_cited`: "[Pub]. L.
    107-56", "[Fed]. R. Civ. P. 23")."""
    return _legal_latin(text, span) or _party_role(span) or _defined_term(text, span) or \
        _cited(text, span)


# the abbreviated words of a citation that contracts and filings make of a statute, a
# register or a court's rules ("Pub. L. No. 111-203", "Fed. R. Civ. P. 23(b)(3)", "85 Fed.
# Reg. 1234", "Fed. Cir.", "15 U.S.C. § 78u-4", "17 C.F.R."): the model reads "Pub", "Fed"
# and "U.S.C" as firms
CITATION = re.compile(r"Pub\.[ \t]*L\.|Fed\.[ \t]*(?:R\.|Reg\.|Cir\.)|U\.S\.C\.|C\.F\.R\.")
CITED_YEAR = re.compile(r"\((?:1[89]|20)\d\d\Z")


def _cited(text: str, span: Span) -> bool:
    """Whether a span starts where a citation's abbreviated words do (`CITATION`), or is a
    reported case's page and the year in its brackets read as a phone number ("84 F. [4th
    312 (2023])", `CITED_YEAR`): no number ends inside a bracket."""
    return CITATION.match(text, span.start) is not None or \
        span.label == "PHONE" and text.startswith(")", span.end) and \
        CITED_YEAR.search(span.text) is not None


def _defined_term(text: str, span: Span) -> bool:
    """Whether a name or a firm is a word of a contract's defined term in its quotes: a
    party's role or a thing the contract names ('Ocean Harvest Partners LLC (the "Stalking
    Horse [Bidder]")', '"[Permitted Liens]" means'); not a short name made of the words of
    the name it follows ('Brightline Analytics, Inc. ("[Brightline]")'), which is the firm."""
    if span.label not in ("PERSON", "COMPANY"):
        return False
    opening = max(text.rfind('"', max(0, span.start - 40), span.start),
                  text.rfind("\u201c", max(0, span.start - 40), span.start))
    close = TERM_CLOSE.match(text, span.end) if opening >= 0 else None
    if close is None:
        return False
    lead = DEFINITION_LEAD.search(text, max(0, opening - 40), opening + 1)
    if lead is None:
        return DEFINITION_MEANS.match(text, close.end() - 1) is not None
    named = text[max(0, lead.start() - 80):lead.start()]
    return not all(re.search(rf"\b{re.escape(w)}\b", named)
                   for w in text[opening + 1:close.end() - 1].split())


def _document_code(text: str, span: Span) -> bool:
    """Whether a span is one of a document's own numbers or codes: a filing's number at
    the securities regulator (`_file_number`), a case's docket number (`_docket`) or a
    judgment's neutral citation (`_neutral_citation`), a program's version
    (`_version`), a contract's numbered part (`_section`), a
    reference's piece (`_reference_piece`), an address's scheme ("[postgres]://"), a
    fiscal period (`FISCAL_PERIOD`), a security's identifier after its keyword ("CUSIP
    [037833100]", `_security_id`), a parcel's tracking number (`_tracking`), a tax
    form's name (`_tax_form`: "the revised [1040-X]", "[W-9]") or a filing cover's form
    words (`_cover_words`: "([Mark One])", "UNITED [STATES]")."""
    return _file_number(text, span) or _docket(text, span) or _neutral_citation(text, span) or \
        _version(text, span) or _section(text, span) or _reference_piece(text, span) or \
        text.startswith("://", span.end) or FISCAL_PERIOD.fullmatch(span.text) is not None or \
        _security_id(text, span) or _tracking(text, span) or _tax_form(text, span) or \
        _cover_words(text, span)


# the government whose regulator a securities filing is made to, and the regulators and
# tax offices a filing's cover or a bank's letter names: no one's personal data, which
# the model masks where a cover writes them in capitals or as a field's label ("UNITED
# STATES / SECURITIES AND EXCHANGE COMMISSION", "(I.R.S. Employer Identification No.)")
GOVERNMENT_BODIES = frozenset(body.casefold() for body in (
    "United States", "United States of America", "Securities and Exchange Commission",
    "Internal Revenue Service", "I.R.S.", "IRS", "Federal Reserve",
    "Federal Deposit Insurance Corporation", "Office of the Comptroller of the Currency",
    "Consumer Financial Protection Bureau", "Commodity Futures Trading Commission",
    "Financial Conduct Authority", "Prudential Regulation Authority", "HM Revenue & Customs",
    "HMRC", "Financial Ombudsman Service", "Federal Trade Commission", "Department of Justice",
    "Financial Industry Regulatory Authority", "Office of Foreign Assets Control",
    "Financial Crimes Enforcement Network"))
BODY_WORDS = frozenset(word for body in GOVERNMENT_BODIES for word in body.split())
# a body's name written in full, case aside: a model span inside it is a piece of it
GOVERNMENT_BODY = re.compile(r"(?i)(?<![\w.])(?:%s)(?![\w&])" % trie_pattern(GOVERNMENT_BODIES))
BODY_LONGEST = max(map(len, GOVERNMENT_BODIES))
# a filing cover's instruction to tick one of the reports it may be
MARK_ONE = re.compile(r"\(Mark One\)", re.IGNORECASE)


def _cover_words(text: str, span: Span) -> bool:
    """Whether a model span is a filing cover's form words: a government body's name
    (`GOVERNMENT_BODIES`), whole or the whole of its line ("UNITED [STATES]") or a piece
    of the name written in full around it ("The Securities and [Exchange] Commission"),
    or the cover's "(Mark One)". Only a span made of a body's words has its line read (a copy
    of the line for every span would cost a long line's length each time)."""
    if span.source != "model":
        return False
    if span.start > 0 and MARK_ONE.fullmatch(text, span.start - 1, span.end + 1) is not None:
        return True
    folded = span.text.casefold()
    if not BODY_WORDS.issuperset(folded.split()):
        return False
    if folded in GOVERNMENT_BODIES or _line(text, span).strip().casefold() in GOVERNMENT_BODIES:
        return True
    return any(m.start() <= span.start and span.end <= m.end() for m in GOVERNMENT_BODY.finditer(
        text, max(0, span.start - BODY_LONGEST), span.end + BODY_LONGEST))


def _line(text: str, span: Span) -> str:
    """The line a span stands on, whole."""
    end = text.find("\n", span.end)
    return text[text.rfind("\n", 0, span.start) + 1:end if end >= 0 else len(text)]


# the US tax forms' names whose letters say what they are ("1040-X", "1099-INT", "W-9",
# "W-8BEN-E", "K-1", "SS-4", "4506-T"), and the bare numbers of the common ones, which are
# a form's only after "Form" or "IRS" ("Form 1040", "IRS 941"; "card ending 1099" is not)
TAX_FORM = re.compile(r"(?:1040|1040A|1040EZ)-?(?:X|SR|ES|NR|V)|10(?:99|98)-[A-Z]{1,4}|"
                      r"W-?(?:2G?|3|4|7|9|8(?:BEN|BEN-E|ECI|IMY|EXP))|K-1|SS-[458]|I-9|"
                      r"(?:4506|1120|8821|2848)-[A-Z]{1,2}")
TAX_FORM_NUMBER = re.compile(r"1040|1099|1098|941|940|944|1065|1120|8949|5498|4868|990|8821|"
                             r"2848|4506|706|709")
TAX_FORM_BEFORE = re.compile(r"(?:Forms?|FORMS?|IRS|form)[ \t]+(?:No\.[ \t]*)?$")
# a retirement plan named after its section of the tax code ("401(k)", "403(b)", "457(b)")
PLAN_NUMBER = re.compile(r"40[13]|457")
PLAN_AFTER = re.compile(r"\([a-z]\)")


def _tax_form(text: str, span: Span) -> bool:
    """Whether a span is, whole, a US tax form's name (`TAX_FORM`, or a bare number of
    `TAX_FORM_NUMBER` after "Form" or "IRS"), or the number of a retirement plan's
    section before its letter (`PLAN_NUMBER`: "[401](k)"): the model reads "1040-X" and
    "401" as ID numbers, and neither names anyone."""
    return TAX_FORM.fullmatch(span.text) is not None or \
        TAX_FORM_NUMBER.fullmatch(span.text) is not None and \
        TAX_FORM_BEFORE.search(text, max(0, span.start - 12), span.start) is not None or \
        PLAN_NUMBER.fullmatch(span.text) is not None and PLAN_AFTER.match(text, span.end) is not None


def _auth_code(text: str, span: Span) -> bool:
    """Whether a model number span is a payment's authorisation code ("AUTH CODE 154"),
    the acquirer's approval of one payment, which names no one."""
    if span.label not in NUMBER_GROUPS or span.source != "model":
        return False
    line = text[text.rfind("\n", max(0, span.start - 60), span.start) + 1:span.start]
    return bool(AUTH_KEY.search(line[-40:]))


# a lawmaker's party and state as the wire services tag them ("D-Mass.", "R-N.C.", "I-Vt.")
PARTY_TAG = re.compile(r"[DRI]-(?:[A-Z][a-z]{1,4}\.|(?:[A-Z]\.){2}|[A-Z]{2}|Alaska|Hawaii|Idaho|"
                       r"Iowa|Maine|Ohio|Texas|Utah)")


def _party_tag(text: str, span: Span) -> bool:
    """Whether a span is a lawmaker's party tag (`PARTY_TAG`), its state's full stop
    perhaps left after it ("Sen. Kyrsten Sinema, [I-Ariz]., who"), or the tag's end
    without its party's letter ("R[-N.C.]", "D-[Calif]")."""
    return any((m := PARTY_TAG.match(text, at)) is not None and m.end() in (span.end, span.end + 1)
               for at in range(max(0, span.start - 2), span.start + 1))


# a role's word after a possessive or an article ("[Su] gestor, D. Álvaro Quintana",
# "[Votre] conseillère"): the model reads the capitalised possessive that opens the
# sentence as a name ("Su" is a surname too, but not before "gestor")
ROLE_AFTER = re.compile(rf"[ \t]+(?:{trie_pattern(ROLES)})(?![\w-])")


def _role_determiner(text: str, span: Span) -> bool:
    """Whether a model name is a possessive or an article before a role's word, or the
    two ("[Su gestor]")."""
    words = span.text.split()
    if not words or words[0].casefold() not in ROLE_DETERMINERS:
        return False
    if len(words) == 1:
        return ROLE_AFTER.match(text, span.end) is not None
    return len(words) == 2 and words[1] in ROLES


# a greeting or a thanks alone, which the model reads as a name where a message opens
# with it ("[Olá], my card was charged twice"); not "Ola" or "Shalom", given names too
GREETING_WORDS = frozenset((
    "Hi", "Hello", "Hey", "Hiya", "Howdy", "Greetings", "Namaste", "Aloha", "Hola", "Olá",
    "Oi", "Bonjour", "Bonsoir", "Salut", "Hallo", "Servus", "Moin", "Ciao", "Buongiorno",
    "Gracias", "Obrigado", "Obrigada", "Merci", "Danke", "Grazie", "Saludos", "Cordialement",
    "Atentamente", "Atenciosamente", "Estimado", "Estimada", "Querido", "Querida", "Prezado",
    "Prezada", "Gentile", "Egregio", "Geehrter", "Geehrte",
    # and German's greetings by the time of day ("[Guten] Tag", "[Guten Morgen] Herr Weber")
    "Guten", "Tag", "Morgen", "Abend",
    # and the words of a letter's salutation to no one and of its sign-off ("Sehr geehrte
    # [Damen] und [Herren]", "Mit freundlichen [Grüßen]", "[Mesdames], [Messieurs]")
    "Damen", "Herren", "Grüßen", "Grüße", "Grüssen", "Grüsse", "Mesdames", "Messieurs",
    "Señores", "Senhores", "Signori"))
SALUTATION_WORDS = GREETING_WORDS | {t.casefold().capitalize() for t in COURTESY_TITLES}
# a reply that opens an answer, which the model reads as a name, alone or with the name
# after it, where an answer's next sentence starts with one ("Witness: [No]. Emeka never
# said", "[No. Emeka]": `tidy._two_sentences` parts that)
REPLY_WORDS = frozenset(("no", "yes", "yeah", "yep", "nope", "okay", "ok"))
WORDS_ALONE = REPLY_WORDS | KIN_ALONE  # (and a kinship word: `lexicon.KIN_ALONE`)
# the months' abbreviations that are no one's given name, as notes and statements write
# a month alone ("[Nov] bill", "Oct rent"); not "Jan", "Mar", "May", "Jun" or "Sep"
MONTH_SHORT = frozenset(("feb", "apr", "jul", "aug", "sept", "oct", "nov", "dec"))


def _month_alone(value: str) -> bool:
    """Whether a name is a month's abbreviation (`MONTH_SHORT`), perhaps with lower-case
    words after it ("[Nov bill]", whose words in lower case `tidy` drops later)."""
    words = value.split()
    return bool(words) and words[0].casefold() in MONTH_SHORT and \
        all(w.islower() for w in words[1:])


def _salutation(value: str) -> bool:
    """Whether a span's words are a letter's salutation and courtesy titles only
    ("[Prezado Sr.]", "[Sehr geehrter Herr]", "[Sehr geehrte Damen und Herren]")."""
    words = value.split()
    return len(words) > 1 and all(
        w.rstrip(".,").capitalize() in SALUTATION_WORDS or w.casefold() in ("sehr", "und")
        for w in words)


def _letters_words(text: str, span: Span) -> bool:
    """Whether a span is, whole, a greeting's or a salutation's word (`GREETING_WORDS`:
    "Grüßen", "Hallo"), or lies in a sign-off at its line's start (`_in_sign_off`),
    which the model reads as a name or a firm."""
    return span.text.capitalize() in GREETING_WORDS or _in_sign_off(text, span)


def _in_sign_off(text: str, span: Span) -> bool:
    """Whether a span lies within a letter's sign-off that starts its line ("[Med]
    vänlig hälsning / Kind regards", `patterns.SIGN_OFF_LINE`)."""
    found = SIGN_OFF_LINE.match(text, text.rfind("\n", 0, span.start) + 1)
    return found is not None and span.end <= found.end()


# English's words that hold a sentence together, which no one is called in lower case
# ("Claire Boucher, Secretary, [be] and each hereby is authorized"): the articles,
# prepositions and possessives (`lexicon.FUNCTION_WORDS`), the pronouns
# (`lexicon.PRONOUNS`: "Both directors (Tomasz Wójcik and [myself]) signed") and these
SENTENCE_WORDS = FUNCTION_WORDS | PRONOUNS | {
    "be", "is", "are", "was", "were", "been", "being", "am", "has", "have", "had", "do", "does",
    "did", "shall", "should", "would", "could", "must", "not", "but", "if", "so", "as", "than",
    "then", "these", "those", "each", "hereby",
    # and the nouns of a family, as a form writes them after a name ("Diego Gutiérrez
    # ([son])", "Rosa (spouse)"), none a name in lower case
    "son", "daughter", "wife", "husband", "spouse", "mother", "father", "sister", "brother",
    "child", "children", "stepson", "stepdaughter", "grandson", "granddaughter", "nephew",
    "niece", "fiancé", "fiancée", "widow", "widower"}


PER_AFTER = re.compile(r"[ \t]+[a-z]")  # a word in lower case after "Per"
# an age with its unit and "old", which news gives in nearly every story ("an 89-year-old
# widow", "45 years old"): no one's number or date
AGE = re.compile(r"\d{1,3}[- ](?:year|month|week|day)s?[- ]old")


def _per_preposition(text: str, span: Span) -> bool:
    """Whether a model PERSON span is "Per" alone before a word in lower case: the
    preposition that opens business mail ("[Per] our call, please recall the wire"); the
    given name comes with a capitalised surname ("Per Gessle")."""
    return span.text == "Per" and PER_AFTER.match(text, span.end) is not None


def _function_words(value: str) -> bool:
    """Whether a span is, whole, English's function words or a family's nouns in lower
    case (`SENTENCE_WORDS`): in any text, however short, where whether the writer uses
    capitals cannot be told."""
    words = value.split()
    return bool(words) and all(w in SENTENCE_WORDS for w in words)


def _adverb(value: str) -> bool:
    """Whether a span is one English adverb in "-ly" ("[Slowly], his style changed",
    "KWAME: [Enormously]."): six letters or more, a word of the vocabulary, or one whose
    stem of five letters or more is ("enormous"), that no locale knows as a name
    ("Kelly", "Beverly" and "Connolly" are names)."""
    folded = value.casefold()
    return len(folded) >= 6 and folded.endswith("ly") and folded.isalpha() and \
        (folded in common_words() or len(folded) >= 7 and folded[:-2] in common_words()) and \
        folded not in known_names()


# a carrier's tracking keyword, right before the number ("Tracking: 1Z999AA10123456784",
# "tracking number 9400111899223", "AWB 176-12345675")
TRACKING_KEY = re.compile(r"(?:[Tt]racking|TRACKING)(?:[ \t]+(?:[Nn]o\.|[Nn]umber|NUMBER|#|ID))?"
                          r"[ \t]*[:#]?[ \t]*$|\bAWB[ \t]*(?:[Nn]o\.)?[ \t]*:?[ \t]*$")


def _tracking(text: str, span: Span) -> bool:
    """Whether a number span is a parcel's tracking number, right after its keyword
    (`TRACKING_KEY`): it names a parcel, as a ticket's number names a request."""
    return span.label in NUMBER_GROUPS and \
        TRACKING_KEY.search(text, max(0, span.start - 24), span.start) is not None


# a team's, a project's or an operation's name: one word after the word ("Team Falcon",
# "Project Atlas")
TEAM_NAME = re.compile(r"(?:Team|TEAM|Project|PROJECT|Operation|OPERATION)[ \t]+$")


# a function's or a class's name in CamelCase, as code calls it ("GetCustomer(",
# "ParseInvoiceLine("): capitals inside a word, which names have only after "Mc", "Mac",
# "O'", "De" and the like, and then never right before a bracket
CODE_CALL = re.compile(r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+")
# a method's call through its object's attributes, as code and a developer's post write
# it ("stripe.Customer.retrieve()", "User.objects.create(username"), which the model reads
# as a secret
DOTTED_CALL = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\(\w*\)?")


# the parties a complaint sues without their names: "JOHN DOES 1-10", "Jane Does 1
# through 5", "DOES 1 to 20"
UNKNOWN_PARTIES = re.compile(r"(?:(?:John|JOHN|Jane|JANE|Richard|RICHARD)[ \t]+)?"
                             r"(?:Does|DOES|Roes|ROES)"
                             r"(?:[ \t]+\d+(?:[ \t]*(?:-|–|through|THROUGH|to|TO)[ \t]*\d+)?)?")


def _unknown_parties(text: str, span: Span) -> bool:
    """Whether a model PERSON span starts the name a complaint gives the parties it sues
    without knowing them ("[JOHN] DOES 1-10"), and ends inside it."""
    found = UNKNOWN_PARTIES.match(text, span.start)
    return found is not None and found.end() >= span.end


# the title a court's opinion writes after a justice's or judge's surname in capitals
# ("SOTOMAYOR, J.", "ROBERTS, C. J.", "THOMAS and ALITO, JJ.", "SMITH, P.J.")
JUDGES_TITLE = re.compile(r"(?:C\.[ \t]?J|P\.[ \t]?J|JJ|J)\.?")
JUDGES_NAME = re.compile(r"[A-Z][A-Z'\u2019-]+,[ \t]*$")
# and the plural ("JJ."), never an initial, after a surname in any case ("Park, JJ."), or
# a US district, magistrate or bankruptcy judge's ("E. Whitcombe-Hayes, U.S.D.J.")
JUDGES_PLURAL = re.compile(r"JJ\.?|U\.?S\.?[DMB]\.?J\.?")
JUDGE_NAME = re.compile(r"[A-Z][A-Za-z'\u2019-]+,[ \t]*$")


def _judges_title(text: str, span: Span) -> bool:
    """Whether a model PERSON span is the title after a judge's surname ("ROBERTS, [C.
    J.]", "KAGAN, [JJ].", "Pooler and Park, [JJ].", "Hayes, [U.S.D.J.]"; not "Smith,
    J.", an author's initial in a citation)."""
    before = max(0, span.start - 30)
    return JUDGES_TITLE.fullmatch(span.text) is not None and \
        JUDGES_NAME.search(text, before, span.start) is not None or \
        JUDGES_PLURAL.fullmatch(span.text) is not None and \
        JUDGE_NAME.search(text, before, span.start) is not None


# a saint's title and the space after it, at the end of what comes before a span, and the
# word before the title (capitalised: "Elizabeth St. John" is a person's name), or an
# opening bracket or quote right before it ("Father Tom Brennan (St. [Agnes Parish])")
SAINT_BEFORE = re.compile(r"(?:^|(\S+)[ \t]+|[(\"\u201c])"
                          r"(?:St|ST|Ste|STE|Saint|SAINT)\.?[ \t]+$", re.MULTILINE)


# an address block's field labels, which the model reads alone as a firm or a person
# where a memo or a notice writes them in capitals or before a colon ("Jones LLP, [Attn]:
# Laura Davis Jones", "[ATTN] ACCOUNTS PAYABLE")
FIELD_LABELS = frozenset(("attn", "attention", "fao", "c/o"))
# the abbreviations of office mail and chat, which the model reads as a name, written in
# capitals ("review by [EOD]", "[FYI] the wire is late"; "Eta" may be a name)
WORK_ABBREVIATIONS = frozenset(("eod", "cob", "eow", "eom", "asap", "fyi", "tbd", "tba", "eta",
                                "ooo", "pto", "wfh", "imo", "imho", "afaik", "lgtm", "ptal",
                                "wip", "nda", "sla", "kpi", "okr", "ytd", "qoq", "yoy",
                                # and of a bank statement's lines ("TRANSFER TO [SAV]
                                # XXXX4821", "WIRE TYPE:[INTL] OUT")
                                "sav", "chk", "intl", "xfer", "trn", "bnf", "orig", "wdl",
                                "tfr",
                                # and of a support desk's reports and tickets ("[CSAT] survey
                                # sent", "RMA 20931")
                                "csat", "nps", "aht", "fcr", "rma", "sku",
                                # and of a forum's posts and their replies ("[AITA] for
                                # refusing", "[TIFU] by wiring", "[IANAL], but")
                                "aita", "wibta", "tifu", "ianal", "nta", "yta", "esh", "ysk",
                                "lpt", "eli5", "tldr", "psa", "fwiw", "iirc", "tbh", "smh",
                                "op",
                                # and the family a forum's posts name by its letters ("my
                                # [MIL] keeps asking", "[DH] says"); not "SIL" or "BIL",
                                # given names too
                                "mil", "fil", "dh", "dw"))
# the means a contract's notices go by, perhaps with their number's word ("sent by
# [telecopy]", "([Telecopy No]. (303) 555-0199)"): the model reads them as names and firms
NOTICE_MEANS = frozenset(f"{means}{number}" for means in ("facsimile", "telecopy", "telecopier",
                                                          "telefax", "telex", "fax")
                         for number in ("", " no", " number"))
# a firm's department and its desk's word, alone no firm ("Devon Achterberg | [Treasury
# Operations]"); not a firm's name that ends so ("Bluewater Card Services")
DEPARTMENT_DESKS = {f"{d} {desk}".casefold() for d in DEPARTMENTS
                    for desk in ("Operations", "Services", "Support")}
# a document's parts and a letter's notes, as a heading or a label before a colon writes
# them ("[Disclaimer]: This note ...", "[Enclosures]", "[PS]: call me"): the model reads
# the word as a name, as it does a chat's speaker; none is outside the vocabulary as a
# name is
DOCUMENT_PARTS = frozenset(w.casefold() for w in (
    "Acknowledgements", "Acknowledgments", "Addendum", "Addenda", "Amendments", "Annex",
    "Annexes", "Appendix", "Appendices", "Attachment", "Attachments", "Caveat", "Corrigendum",
    "Corrigenda", "Disclaimer", "Disclaimers", "Enclosure", "Enclosures", "Encl",
    "Endorsements", "Epilogue", "Errata", "Erratum", "Exhibit", "Exhibits", "Footnotes",
    "Foreword", "Glossary", "Postscript", "Preamble", "Preface", "Prerequisites", "Rationale",
    "Recitals", "Synopsis", "Testimonials", "Witnesseth", "PS", "NB"))
# what no name is, alone: a title, a field's label, a firm's department ("Sabine Krause,
# [Kundenservice], Rheinland Direktbank AG") or its desk, a document's part
LONE_WORDS = LONE_TITLES | FIELD_LABELS | {d.casefold() for d in DEPARTMENTS} | NOTICE_MEANS | \
    DEPARTMENT_DESKS | DOCUMENT_PARTS | {"valedictorian", "salutatorian"}  # (a class's first
#                                                                          and second)
# a form's field labels in German, Spanish, French, Italian and Portuguese, which the
# model reads as names before their colon ("[Nachname]: Havemann", "[Prénom] : Julien",
# "[Né] le : 03/07/1985")
FORM_LABELS = frozenset(w.casefold() for w in (
    "Vorname", "Nachname", "Familienname", "Name", "Geburtsdatum", "Geburtsort",
    "Kontoinhaber", "Kontoinhaberin", "Anschrift", "Wohnort", "Straße", "Staatsangehörigkeit",
    "Telefon", "Steuernummer", "Nombre", "Apellido", "Apellidos", "Titular", "Domicilio",
    "Dirección", "Teléfono", "Correo", "Nacionalidad", "Nom", "Prénom", "Né", "Née",
    "Titulaire", "Adresse", "Téléphone", "Courriel", "Nationalité", "Nome", "Cognome",
    "Intestatario", "Indirizzo", "Sobrenome", "Endereço", "Naturalidade", "Morada",
    "Localidade", "Contribuinte", "Telemóvel", "Cliente",
    # and in Dutch, Polish, Swedish, Finnish and Turkish ("[Kund]: Anna Lind", "[Müşteri]:
    # Ayşe Yılmaz"), where the same words head a customer's record
    "Klant", "Voornaam", "Achternaam", "Klient", "Imię", "Nazwisko", "Kund", "Förnamn",
    "Efternamn", "Asiakas", "Etunimi", "Sukunimi", "Müşteri", "Soyadı",
    # and a contract's notice lines in English ("[Facsimile]: (215) 555-0190"), and an
    # Italian invoice's parties and payment ("[Cedente]: Studio Rossi", "[Pagamento]:
    # bonifico"), which the model reads as firms and names
    "Facsimile", "Telecopy", "Telecopier", "Fax", "Cedente", "Cessionario", "Committente",
    "Pagamento",
    # and a company registry's officer's record ("[Correspondence] address: 10 Fleet Place")
    "Correspondence",
    # and a mail's copy lines ("[Cc]: de la Cruz, José Antonio")
    "Cc", "Bcc"))
# what follows a form's label: up to three lower-case words ("le", "de la cuenta"), a colon
LABEL_COLON = re.compile(r"(?:[ \t]+[a-zà-ÿ]+){0,3}[ \t]*:")


# a mail header's name that the servers add ("X-To:", "X-Folder:"); the model reads the
# capitalised word after "X-" as a name
MAIL_HEADER = re.compile(r"X-[A-Za-z]+(?:-[A-Za-z]+)*")


# what follows the place of a news story's dateline: perhaps its region, then the date,
# the agency or a dash ("HARARE 1996-12-06", "HILVERSUM , Netherlands 1996-08-30", "KABUL,
# Dec 3 (Reuters)", "ABUJA — President ...", "RIYADH - Saudi Aramco", plain text's "--");
# and what comes before it: the text's or a line's start, or a headline's end
DATELINE_AFTER = re.compile(
    r"(?:[ \t]*,[ \t]*[A-Z][\w.]*(?:[ \t]+[A-Z][\w.]*){0,2})?(?:[ \t]*,)?[ \t]+"
    r"(?:\d{4}-\d\d-\d\d|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d"
    r"|\((?:Reuters|AP|AFP|UPI|Bloomberg|dpa|Xinhua)\)|[\u2014\u2013]|--?[ \t])")
DATELINE_BEFORE = re.compile(r"(?:^|\n|[.!?][ \t]+)[ \t]*$")


# a name's last word and the bracket after it; and the bracket that closes
NAME_BRACKET = re.compile(r"[A-Z][^\W\d_]*\.?[ \t]*\([ \t]*$")
CLOSE_BRACKET = re.compile(r"[ \t]*\)")


def _affiliation(text: str, span: Span) -> bool:
    """Whether a model PERSON span is a well-known football club's name or a word of it
    (`_club`), or the club, team or party in brackets after a person's name ("Gabriel
    Batistuta ( [Fiorentina] )", as results and league tables write them): one word alone
    in the brackets that is nobody's given name or surname (`known_names`; a nickname,
    "Carl (Bo)", stays), or three capitals, a country's code as results write it
    ("Marileidy Paulino ([DOM])", though "Dom" is a given name)."""
    if span.label != "PERSON" or span.source != "model":
        return False
    if _club(text, span):
        return True
    code = len(span.text) == 3 and span.text.isupper()  # a country's or a team's
    if " " in span.text or (span.text.casefold() in known_names() and not code):
        return False
    return NAME_BRACKET.search(text, max(0, span.start - 40), span.start) is not None and \
        CLOSE_BRACKET.match(text, span.end) is not None


# football clubs news names, as it writes them ("Bayer Leverkusen", "Steaua Bucureşti",
# "Villarreal"), which the model reads as persons, whole or a word of them; not clubs named
# as people are ("Vasco da Gama")
CLUBS = (
    "Arsenal", "Aston Villa", "Chelsea", "Everton", "Liverpool", "Manchester City",
    "Manchester United", "Newcastle United", "Tottenham Hotspur", "West Ham United",
    "Leeds United", "Leicester City", "Wolverhampton Wanderers", "Crystal Palace",
    "Brighton & Hove Albion", "Nottingham Forest", "Fulham", "Brentford", "Southampton",
    "Sheffield United", "Sheffield Wednesday", "Blackburn Rovers", "Bolton Wanderers",
    "Middlesbrough", "Oldham Athletic", "Queens Park Rangers", "Norwich City", "Stoke City",
    "West Bromwich Albion", "Celtic", "Glasgow Rangers", "Hibernian", "Real Madrid",
    "Atlético Madrid", "Atletico Madrid", "FC Barcelona", "Athletic Bilbao", "Real Sociedad",
    "Real Betis", "Sevilla", "Villarreal", "Celta Vigo", "Espanyol", "Osasuna", "Getafe",
    "Deportivo La Coruña", "Real Zaragoza", "Rayo Vallecano", "Bayern Munich", "Bayern München",
    "Borussia Dortmund", "Borussia Mönchengladbach", "Bayer Leverkusen", "Werder Bremen",
    "Schalke 04", "VfB Stuttgart", "Eintracht Frankfurt", "VfL Wolfsburg", "Hamburger SV",
    "Hertha BSC", "RB Leipzig", "TSG Hoffenheim", "SC Freiburg", "Union Berlin", "Juventus",
    "AC Milan", "Inter Milan", "Internazionale", "AS Roma", "Lazio", "Napoli", "Fiorentina",
    "Atalanta", "Sampdoria", "Udinese", "Paris Saint-Germain", "Olympique de Marseille",
    "Olympique Lyonnais", "AS Monaco", "Stade Rennais", "Ajax", "PSV Eindhoven", "Feyenoord",
    "AZ Alkmaar", "Benfica", "FC Porto", "Sporting CP", "Sporting Lisbon", "Galatasaray",
    "Fenerbahçe", "Beşiktaş", "Steaua Bucureşti", "Steaua Bucharest", "Dinamo Bucureşti",
    "Rapid Bucureşti", "Flamengo", "Corinthians", "Palmeiras", "Fluminense", "Botafogo",
    "Grêmio", "Cruzeiro", "Boca Juniors", "River Plate", "Independiente", "Red Star Belgrade",
    "Partizan", "Dynamo Kyiv", "Dynamo Kiev", "Shakhtar Donetsk", "Spartak Moscow",
    "CSKA Moscow", "Zenit", "Olympiacos", "Panathinaikos", "Anderlecht", "Club Brugge",
    "Red Bull Salzburg", "Rapid Wien", "Molde", "Rosenborg", "Malmö FF")
CLUB = re.compile(trie_pattern(CLUBS))


def _club(text: str, span: Span) -> bool:
    """Whether a span (whole words) lies inside a club's name as the text writes it
    (`CLUBS`), and is not, whole, a club's name that is someone's given name or surname
    too ("Chelsea", "Everton" stay: the text may mean the person)."""
    return any(m.start() <= span.start and span.end <= m.end() and
               (m.group() != span.text or span.text.casefold() not in known_names())
               for m in CLUB.finditer(text, max(0, span.start - 30), span.end + 30))


# the words that make a person's name part of the name of a thing, a place or an
# institution ("Robert Wood Johnson Foundation", "John F. Kennedy International Airport",
# "Dave Matthews Band", "the Poincaré conjecture", "Lou Gehrig's disease"); and the few
# words that may stand between ("Dana-Farber Cancer Institute")
EPONYM_WORDS = ("Foundation", "Institute", "Institution", "Center", "Centre", "Clinic",
                "Hospital", "University", "College", "Academy", "Band", "Orchestra", "Quartet",
                "Quintet", "Trio", "Ensemble", "Choir", "Society", "Library", "Museum",
                "Gallery", "Airport", "Boulevard", "Blvd", "Avenue", "Bridge", "Tunnel",
                "Stadium", "Arena", "Memorial", "Prize", "Award", "Awards", "Medal", "Trophy",
                "Lecture", "Fellowship", "Scholarship", "Show", "conjecture", "theorem",
                "hypothesis", "equation", "syndrome", "disease", "ratio", "criterion",
                "coefficient")
EPONYM_BETWEEN = ("International", "National", "Regional", "Memorial", "Cancer", "Medical",
                  "Research", "Children's", "Community", "Family", "Charitable", "Presidential",
                  "Performing", "Arts", "Music", "Science", "Sports")
EPONYM_AFTER = re.compile(r"\.?(?:-[A-Z][^\W\d_]+)*(?:[ \t]+(?:&|and)(?:[ \t]+[A-Z][^\W\d_]+){1,3})?"
                          r"(?:['\u2019]s)?(?:[ \t]+(?:%s))*[ \t]+(?:%s)\b" % (
    "|".join(map(re.escape, EPONYM_BETWEEN)), "|".join(EPONYM_WORDS)))


# finance's and the law's terms named after a person, each with the words that follow
# the name in them ("a [Wells] Notice", "a [Keogh] plan", "a [Roth] conversion"): the name
# alone, right before one of its words, or with them, is the term's
EPONYM_TERMS = {"Wells": ("Notice", "notice", "Submission", "submission"),
                "Keogh": ("plan", "plans", "Plan", "Plans"),
                "Ponzi": ("scheme", "schemes", "Scheme"),
                "Roth": ("IRA", "IRAs", "401(k)", "conversion", "conversions", "contribution",
                         "contributions"),
                "Volcker": ("Rule", "rule"), "Coverdell": ("ESA", "ESAs"),
                "Pell": ("Grant", "Grants", "grant", "grants")}
EPONYM_TERM = re.compile("|".join(
    rf"{name}[ \t]+(?:{'|'.join(map(re.escape, words))})(?![\w(-])"
    for name, words in EPONYM_TERMS.items()))


# the words before a name that make it a storm's or a ship's ("Hurricane Helene",
# "Typhoon Haiyan", "USS Gerald R. Ford", "HMS Queen Elizabeth"); not "Storm" alone, a
# given name too ("Storm Reid")
EPONYM_BEFORE = ("Hurricane", "Typhoon", "Super Typhoon", "Cyclone", "Tropical Storm",
                 "Tropical Cyclone", "Winter Storm", "USS", "USNS", "HMS", "HMCS", "HMAS",
                 "HMNZS", "RMS", "SS", "MV")
_STORM_OR_SHIP = trie_pattern(EPONYM_BEFORE)
STORM_OR_SHIP = re.compile(rf"(?:{_STORM_OR_SHIP})[ \t]+")  # first in a span
STORM_OR_SHIP_BEFORE = re.compile(rf"(?<![\w-])(?:{_STORM_OR_SHIP})[ \t]+$")  # right before one


def eponym(text: str, span: Span) -> bool:
    """Whether a model PERSON span is part of the name of a thing, a place or an
    institution named after a person (`EPONYM_WORDS` right after it, perhaps past
    `EPONYM_BETWEEN`), a term of finance or the law named so (`EPONYM_TERMS`: "a [Wells]
    Notice", "[Roth IRA]"), or a storm's or a ship's name (`EPONYM_BEFORE` before it or first
    in it: "[Hurricane Helene]", "USS [Gerald R. Ford]"): no one's personal data there,
    and no person in the real corpora."""
    if span.label != "PERSON" or span.source != "model":
        return False
    return EPONYM_AFTER.match(text, span.end) is not None or \
        _eponym_term(text, span) or \
        STORM_OR_SHIP.match(span.text) is not None or \
        STORM_OR_SHIP_BEFORE.search(text, max(0, span.start - 24), span.start) is not None


def _eponym_term(text: str, span: Span) -> bool:
    """Whether a span starts a term of `EPONYM_TERMS` and ends within it."""
    term = EPONYM_TERM.match(text, span.start)
    return term is not None and span.end <= term.end()


# the numbers the SEC gives a company's filings ("Commission File Number 001-35565",
# "Registration Statement Nos. 333-181780, 333-189036 and ..."), and the words before them
FILE_NUMBER = re.compile(r"(?:\d{3})?-\d{5,6}")
FILE_NUMBER_KEY = re.compile(r"(?i)\b(?:(?:commission\s+)?file\s+(?:no\.?|number)|"
                             r"commission\s+file|registration\s+statements?(?:\s+nos?\.?)?)")


# what may stand between the words and a number of their list ("Nos. 333-1, 333-2 and")
FILE_NUMBER_LIST = re.compile(r"(?:[\s\d,;:()-]|\bNos?\.?|\band\b|\bNumbers?\b|"
                              r"\bon\s+Form\s+[\w-]+)*")


def _file_number(text: str, span: Span) -> bool:
    """Whether a model span is a filing's number at the SEC (`FILE_NUMBER` after "File
    No.", "Commission File Number" or "Registration Statement", with only the list's
    numbers and words between): a company's, not a person's."""
    if span.source != "model" or FILE_NUMBER.fullmatch(span.text) is None:
        return False
    keys = list(FILE_NUMBER_KEY.finditer(text, max(0, span.start - 120), span.start))
    return bool(keys) and FILE_NUMBER_LIST.fullmatch(text, keys[-1].end(), span.start) is not None


def _listing(text: str, span: Span) -> bool:
    """Whether a model PERSON span is an exchange's code or a ticker in the brackets that
    name where a company is listed ("Halverson Industries (NYSE: [HLV])"): a company's,
    and public."""
    if span.label != "PERSON" or span.source != "model":
        return False
    opening = text.rfind("(", max(0, span.start - 60), span.start + 1)
    if opening < 0:
        return False
    m = LISTING.match(text, opening)
    return m is not None and m.end() >= span.end


# a security's or a firm's public identifier after its keyword ("CUSIP No. 037833DX5",
# "ISIN: US0378331005", "LEI 549300DTUYXVMJXZNY75"); the identifier is the group
_ID_KEY = r"[ \t]*(?:No\.|Number|#)?[ \t]*:?[ \t]*"
SECURITY_ID = re.compile(
    rf"\b(?:CUSIP{_ID_KEY}([0-9A-Z]{{9}})|ISIN{_ID_KEY}([A-Z]{{2}}[0-9A-Z]{{9}}[0-9])"
    rf"|SEDOL{_ID_KEY}([0-9A-Z]{{7}})|LEI\)?{_ID_KEY}([0-9A-Z]{{20}})|FIGI{_ID_KEY}(BBG[0-9A-Z]{{9}}))"
    rf"(?![0-9A-Za-z])")


def _security_id(text: str, span: Span) -> bool:
    """Whether a number span is a security's or a firm's public identifier after its
    keyword (`SECURITY_ID`): "(CUSIP No. [037833DX5])", "ISIN: [US0378331005]"."""
    before = text[max(0, span.start - 40):span.start]
    if span.label not in NUMBER_GROUPS or not (
            "CUSIP" in before or "ISIN" in before or "SEDOL" in before or "LEI" in before
            or "FIGI" in before):
        return False
    for m in SECURITY_ID.finditer(text, max(0, span.start - 40), min(len(text), span.end + 2)):
        k = m.lastindex
        if m.start(k) <= span.start and span.end <= m.end(k):
            return True
    return False


# the Latin, Law French and old English of contracts and courts, which contracts write
# capitalised ("Pari Passu", "Force Majeure", "WITNESSETH") and an uncased model reads as
# names
LEGAL_LATIN = (
    "pari passu", "force majeure", "per annum", "pro rata", "pro tanto", "ultra vires",
    "quantum meruit", "de minimis", "pro forma", "mutatis mutandis", "lis pendens",
    "nunc pro tunc", "prima facie", "caveat emptor", "inter alia", "bona fide", "bona fides",
    "amicus curiae", "res judicata", "res ipsa loquitur", "forum non conveniens",
    "nolo contendere", "nolle prosequi", "sui generis", "habeas corpus", "ab initio",
    "ex parte", "in rem", "in personam", "pro se", "pro bono", "sine die", "sub judice",
    "ad hoc", "ad valorem", "de facto", "de jure", "de novo", "ex officio", "in camera",
    "in limine", "mens rea", "actus reus", "obiter dictum", "ratio decidendi",
    "stare decisis", "quid pro quo", "per curiam", "per se", "pendente lite", "certiorari",
    "subpoena duces tecum", "duces tecum", "ejusdem generis", "expressio unius",
    "contra proferentem", "in pari delicto", "non obstante", "inter vivos", "causa mortis",
    "in terrorem", "cestui que trust", "ex post facto", "in loco parentis", "voir dire",
    "lex loci", "lex mercatoria", "nemo dat", "rebus sic stantibus", "pacta sunt servanda",
    "a fortiori", "ad litem", "in forma pauperis", "pro hac vice", "qui tam", "scienter",
    "respondeat superior", "sua sponte", "in toto", "inter se", "ipso facto", "vis major",
    "casus belli", "ex gratia",
    # and the old English of a contract's preamble and recitals, which it writes in
    # capitals ("WITNESSETH: WHEREAS, ...")
    "witnesseth", "whereas", "whereof", "wherefore", "hereinafter", "hereinbefore",
    "heretofore", "hereunder", "hereof", "herein", "thereof", "therein", "thereunder")
LATIN = re.compile(r"(?<![\w-])(?:%s)(?![\w-])" % trie_pattern(
    {v for term in LEGAL_LATIN for v in (term, term.title(), term.upper(), term.capitalize())}))
LATIN_WORDS = frozenset(w for term in LEGAL_LATIN for w in term.split())  # a cheap first test


def _legal_latin(text: str, span: Span) -> bool:
    """Whether a model PERSON or COMPANY span lies inside a Latin or Law French term of
    contracts and courts (`LEGAL_LATIN`): "[Pari Passu]", "Force [Majeure]", "Ultra
    [Vires]"."""
    if span.label not in ("PERSON", "COMPANY") or span.source != "model" or \
            not all(w.casefold() in LATIN_WORDS for w in span.text.split()):
        return False
    return any(m.start() <= span.start and span.end <= m.end() for m in
               LATIN.finditer(text, max(0, span.start - 24), min(len(text), span.end + 24)))


# a party's role in a lawsuit or a contract, as captions, pleadings and agreements name
# the party ("Defendant-Appellee", "Movant", "the Mortgagee"): none of these words is a
# given name or a surname any locale knows ("Bailee" is one, and is left out); and the
# words that join them ("Debtor-in-Possession", "Third-Party Defendant")
PARTY_ROLES = frozenset((
    "plaintiff", "defendant", "appellant", "appellee", "petitioner", "respondent", "intervenor",
    "intervener", "movant", "claimant", "counterclaimant", "complainant", "debtor", "creditor",
    "garnishee", "relator", "licensor", "licensee", "lessor", "lessee", "mortgagor",
    "mortgagee", "grantor", "grantee", "assignor", "assignee", "guarantor", "obligor",
    "obligee", "pledgor", "pledgee", "transferor", "transferee", "indemnitor", "indemnitee",
    "settlor", "trustor",
    # and the parties of trade, finance, leases, franchises, estates and escrows, as
    # their agreements name them ("[Consignor] retains title", "[Escrow] Agent")
    "consignor", "consignee", "bailor", "depositary", "depositor", "custodian", "registrar",
    "noteholder", "certificateholder", "servicer", "subservicer", "underwriter",
    "sublandlord", "subtenant", "sublessor", "sublessee", "franchisor", "franchisee",
    "optionor", "optionee", "discloser", "payor", "payee", "drawee", "warrantor",
    "covenantor", "covenantee", "vendee", "lender", "borrower", "originator", "issuer",
    "purchaser", "landlord", "tenant", "executor", "executrix", "administratrix", "testator",
    "testatrix", "decedent", "beneficiary", "escrow", "escrowee",
    # and those of insurance, cards, securities and plans, as their notices greet and
    # their forms label them ("Dear [Policyholder],", "[Insured]: Marcus Reyes")
    "policyholder", "policyowner", "insured", "insurer", "reinsurer", "annuitant",
    "cardholder", "cardmember", "accountholder", "stockholder", "shareholder",
    "bondholder", "unitholder", "planholder", "subscriber", "enrollee", "homeowner",
    "occupant", "retiree", "cosigner", "coapplicant",
    # and a sale's seller, as a form labels its parties ("Sellers: Rajesh and Priya
    # Natarajan"; "Sellers" is also a surname, and stays one beside a given name)
    "seller",
    # and the banks and parties of a wire, as its instructions label them
    # ("[Intermediary Bank] (for foreign wires): Citibank N.A.")
    "intermediary", "correspondent", "remitter",
    # and the advisers a filing's or an insolvency's page of advisers labels ("[Solicitors]:
    # Slaughter and May", "[Liquidator]: Paul Whitehead")
    "solicitor", "auditor", "broker", "liquidator", "actuary", "bookrunner", "arranger",
    # and those who handle an insurance claim, as its forms label them ("[Assessor]: Johan
    # van der Merwe")
    "assessor", "adjustor", "appraiser", "surveyor"))
# (and the words that make a role with one: "Escrow Agent", "Escrow Holder",
# "Beneficiary Bank")
ROLE_JOINS = frozenset(("counter", "cross", "third", "party", "in", "possession", "the",
                        "agent", "holder", "bank"))
ROLE_WORD = re.compile(r"[^\W\d_]+")
POSSESSIVE = re.compile(r"['\u2019]s?\b")


def party_role(word: str) -> bool:
    """Whether a word, in any case, is a party's role (`PARTY_ROLES`), or their plural
    ("Borrowers")."""
    folded = word.casefold()
    return folded in PARTY_ROLES or folded.removesuffix("s") in PARTY_ROLES


def _party_role(span: Span) -> bool:
    """Whether a model PERSON or COMPANY span is a party's role, whole ("MARCUS T.
    DELGADO, [Defendant-Appellee]", "[Movant] requests relief"): its words (apart at
    spaces and hyphens, in any case, perhaps plural or possessive) all roles
    (`PARTY_ROLES`) or words that join them, one a role at least."""
    return span.label in ("PERSON", "COMPANY") and span.source == "model" and \
        party_roles(span.text)


def party_roles(value: str) -> bool:
    """Whether words are, all of them, parties' roles or words that join them, one a
    role at least ("Defendant-Appellee", "Escrow Holder")."""
    words = [w.casefold() for w in ROLE_WORD.findall(POSSESSIVE.sub("", value))]
    roles = [party_role(w) for w in words]
    return any(roles) and all(r or w in ROLE_JOINS for r, w in zip(roles, words))


# a federal case's docket number: the office, the year, the kind of case and its number,
# perhaps the judge's initials ("No. 3:24-cv-01187", "1:19-cr-00365-JSR", "22-bk-10943");
# or a bankruptcy court's: the year, five digits and the judge's initials in brackets
# ("Case No. 24-10588 (KBO)")
_JUDGES_CASE = r"\d{2}-\d{5}[ \t]*\([A-Z]{2,4}\)"
DOCKET = re.compile(r"(?<![\w:-])(?:(?:\d{1,2}:)?\d{2}-(?:cv|cr|bk|mc|md|mj|ap|sw|po|CV|CR|BK)"
                    rf"-\d{{2,6}}(?:-[A-Z]{{2,5}})*(?![\w-])|{_JUDGES_CASE})")
# (a cheap first test)
DOCKET_KIND = re.compile(rf"-(?:cv|cr|bk|mc|md|mj|ap|sw|po|CV|CR|BK)-|{_JUDGES_CASE}")


# A judgment's neutral citation: the year in square brackets (Canada's without them), the
# court's code and the judgment's number, and the High Court's division in brackets ("[2023]
# EWHC 1187 (Ch)", "[2024] EWCA Civ 512", "[2020] FCAFC 111", "2016 SCC 27"): a public
# record's reference, which a judgment cites by the dozen
_COURTS = ("UKSC", "UKPC", "UKHL", "EWCA Civ", "EWCA Crim", "EWHC", "EWFC", "EWCOP", "UKUT",
           "UKFTT", "UKEAT", "CSOH", "CSIH", "HCJAC", "NICA", "NIQB", "NIKB", "IESC", "IECA",
           "IEHC", "HCA", "FCA", "FCAFC", "NSWSC", "NSWCA", "VSC", "VSCA", "QSC", "QCA", "WASC",
           "NZSC", "NZCA", "NZHC", "SGCA", "SGHC", "HKCFA", "HKCA", "HKCFI", "ZASCA", "ZACC")
_CANADIAN_COURTS = ("SCC", "ONCA", "ONSC", "BCCA", "BCSC", "ABCA", "ABKB", "ABQB", "QCCA", "QCCS",
                    "FC")
NEUTRAL_CITATION = re.compile(
    rf"(?:\[(?:19|20)\d\d\][ \t]+(?:{trie_pattern(_COURTS)})"
    rf"|(?<![\w\[])(?:19|20)\d\d[ \t]+(?:{trie_pattern(_CANADIAN_COURTS)}))[ \t]+\d{{1,5}}"
    r"(?:[ \t]+\((?:Ch|QB|KB|Fam|Admin|Comm|TCC|Pat|IPEC|Costs|SCCO|AAC|IAC|LC|TC|GRC)\))?(?![\w-])")


def _neutral_citation(text: str, span: Span) -> bool:
    """Whether a span, of any source, lies inside a judgment's neutral citation
    (`NEUTRAL_CITATION`): "[2023] [EWHC 1187] (Ch)" is no account, "[2024] [EWCA] Civ 512"
    no person."""
    return any(a <= span.start and span.end <= b for a, b in _citations(text))


@functools.lru_cache(maxsize=4)
def _citations(text: str) -> tuple[tuple[int, int], ...]:
    """Where a text's neutral citations are: read once a text, not once a span (a text's
    hash is kept with it, so each span's lookup is a dictionary's)."""
    return tuple(m.span() for m in NEUTRAL_CITATION.finditer(text))


# a record's number after its word ("Docket No. 142", "Exhibit No. 3", "Claim #4471")
NUMBER_AFTER = re.compile(r"[ \t]*(?:No\.?|NO\.?|Number|#)[ \t]*\d")


def _form_label(text: str, span: Span) -> bool:
    """Whether a model name or firm is a form's field label in another language, or a
    notice's in English, before its colon (`FORM_LABELS`, `LABEL_COLON`: "[Kontoinhaber]:
    Jürgen Havemann", "[Titular] de la cuenta: Lucía", "[Facsimile]: (215)"), perhaps with
    the label's lower-case words in the span ("[Né le] :"); the name after the colon
    stays."""
    word = span.text.split(None, 1)[0]
    return word.casefold() in FORM_LABELS and \
        LABEL_COLON.match(text, span.start + len(word)) is not None


def _numbered(text: str, span: Span) -> bool:
    """Whether a one-word model name is a numbered record's word, right before "No." or
    "#" and a digit ("[Docket] No. 142 - MOTION to Withdraw"), and no name Faker knows
    ("Jordan No. 23" stays); or a thing's words with its Roman numeral ("[Fund III]",
    "[Phase II]", "[Title VII]", `NUMBERED_THING`): words of the vocabulary that no
    locale knows as a name ("Henry VIII" and "Walter Dunmore III" stay)."""
    if (thing := NUMBERED_THING.fullmatch(span.text)) is not None:
        words = [w.casefold() for w in thing.group(1).split()]
        return all(w in common_words() and w not in known_names() for w in words)
    return " " not in span.text and NUMBER_AFTER.match(text, span.end) is not None and \
        span.text.casefold() not in known_names()


# capitalised words and a Roman numeral of two letters or more after them (one letter
# may be an initial)
NUMBERED_THING = re.compile(r"((?:[A-Z][a-z]+ ){1,3})(?=[IVX]{2})X{0,3}(?:IX|IV|V?I{0,3})")


def _docket(text: str, span: Span) -> bool:
    """Whether a span, of any source, lies inside a case's docket number (`DOCKET`): a
    court's record, whose pieces read as a time ("3:24") and an account ("01187")."""
    window = max(0, span.start - 12), min(len(text), span.end + 24)
    return DOCKET_KIND.search(text, *window) is not None and any(
        m.start() <= span.start and span.end <= m.end() for m in DOCKET.finditer(text, *window))


# a program's version: digits and full stops, perhaps a suffix ("22.04", "3.12", "2.13.0",
# "6.5.0-14", "1.0rc1"), right after a pin ("torch==2.13.0", "numpy>=1.26") or a "v"
# ("v18.17.1"), or after a program's name or a version's word and a space ("Ubuntu
# 22.04", "Python 3.12", "version 4.2.1", "kernel 6.5")
VERSION = re.compile(r"[vV]?\d+(?:\.\d+){1,3}(?:[-+.]?[A-Za-z0-9]+)?")
VERSION_BEFORE = re.compile(
    r"(?:[=<>~!]=|(?<![\w.])[vV]|(?:^|[\s(])(?:%s|[Vv]ersions?|[Vv]er\.|[Rr]elease|[Bb]uild|"
    r"[Kk]ernel|[Ff]irmware|[Pp]atch|[Pp]ython|Node(?:\.js)?|Java|JDK|Go|Rust|Ruby|PHP|Perl|"
    r"Swift|Windows|Safari|Edge|Chromium|Electron|Rails|React|Vue|Spring|Spark|Kafka|"
    r"Jenkins|\.NET)[ \t]+)$" % "|".join(
        sorted(map(re.escape, SOFTWARE), key=len, reverse=True)))


def _version(text: str, span: Span) -> bool:
    """Whether a model DATE or DIGITAL span is a program's version (`VERSION` after
    `VERSION_BEFORE`): "Ubuntu [22.04]" is no date, "torch==[2.13.0]" no secret."""
    if span.label not in ("DATE", "DIGITAL") or span.source != "model" or \
            VERSION.fullmatch(span.text) is None:
        return False
    return VERSION_BEFORE.search(text[max(0, span.start - 24):span.start]) is not None


# a fiscal or calendar period as reports name one ("FY2026", "FY 2025/26", "Q3 2026",
# "H1-26"): a company's reporting calendar, no one's date or account
FISCAL_PERIOD = re.compile(r"(?:FY|CY|Q[1-4]|H[12])[ \t-]?(?:19|20)?\d{2}(?:[/-]\d{2,4})?")
# a reference's code: two capitals or more before its first "/" or "-", not a month's
# ("KYC/2026/0093", "INV-2026-0412"; not "MAR-2024")
REFERENCE_HEAD = re.compile(rf"(?!(?i:{MONTH})[/-])[A-Z]{{2,}}[A-Z0-9]*[/-]")


def _reference_piece(text: str, span: Span) -> bool:
    """Whether a model DATE span is part of a reference's code, in the run of characters
    without a space that starts with the code (`REFERENCE_HEAD`): "Our ref:
    KYC/[2026]/[0093]" holds no date."""
    if span.label != "DATE" or span.source != "model":
        return False
    start = span.start
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return REFERENCE_HEAD.match(text, start) is not None


# a contract's or a filing's numbered part after its word ("Schedule 9.01", "Section
# 2.03(b)", "§ 1.402"), which the model may read as a time
SECTION_NUMBER = re.compile(r"\d{1,3}(?:\.\d{1,3})+[a-z]?")
# and the sign before a statute's section ("§ 78u-4", "§ 240.10b-5", "§§ 1681a")
SECTION_SIGN = re.compile(r"§§?[ \t\u00a0]*\Z")
SECTION_BEFORE = re.compile(r"(?:^|[\s(])(?:Sections?|Schedules?|Articles?|Exhibits?|Annex|"
                            r"Appendix|Clauses?|Items?|Rules?|Parts?|SECTIONS?|SCHEDULES?|"
                            r"ARTICLES?|EXHIBITS?|ITEMS?|section|clause|§§?)[ \t]*$")


def _section(text: str, span: Span) -> bool:
    """Whether a model span is a contract's or a filing's numbered part after its word
    (`SECTION_NUMBER` after `SECTION_BEFORE`): "Schedule [9.01]" is no time; or a
    statute's section, whatever its shape, right after its sign (`SECTION_SIGN`: "15 U.S.C.
    § [78u-4](b)")."""
    return span.source == "model" and (
        SECTION_NUMBER.fullmatch(span.text) is not None and
        SECTION_BEFORE.search(text[max(0, span.start - 12):span.start]) is not None or
        SECTION_SIGN.search(text, max(0, span.start - 4), span.start) is not None)


# the letters of a degree, dotted or not, as a biography or a résumé writes it after "holds
# an" or before its field ("M.B.A.", "Ph.D.", "B.Sc. Finance")
DEGREES = frozenset((
    "B.A.", "B.S.", "B.Sc.", "B.Com.", "B.B.A.", "B.E.", "B.Eng.", "B.F.A.", "B.Tech.", "M.A.",
    "M.S.", "M.Sc.", "M.B.A.", "M.P.A.", "M.P.P.", "M.P.H.", "M.Eng.", "M.F.A.", "M.Phil.",
    "M.Com.", "M.Tech.", "Ph.D.", "D.Phil.", "Ed.D.", "J.D.", "LL.B.", "LL.M.", "M.D.",
    "D.B.A.", "BSc", "BCom", "BBA", "MSc", "MBA", "MPA", "MPH", "MPhil", "DPhil", "PhD",
    "LLB", "LLM"))
DEGREE_WORD = re.compile(r"[^\s,;:()/]+")
# the Latin honours a degree is awarded with ("Magna Cum Laude"; "Magna" alone is a firm's)
LATIN_HONOUR = re.compile(r"(?i:(?:summa|magna)[ \t]+)?(?i:cum[ \t]+laude)")


def _degree(text: str, span: Span) -> bool:
    """Whether a model PERSON or COMPANY span lies inside a degree's letters ("M.[B.A.]",
    `DEGREES`) or its Latin honour ("Magna [Cum] Laude", "[summa cum] laude",
    `LATIN_HONOUR`), or is a degree and its field, none of whose words is a name
    (`known_names`: "[B.S. Finance]", "[M.S. Computer Science]"; not "J.D. Vance")."""
    if span.label not in ("PERSON", "COMPANY") or span.source != "model":
        return False
    honour = LATIN_HONOUR.search(text, max(0, span.start - 12), span.end + 12)
    if honour is not None and honour.start() <= span.start and span.end <= honour.end():
        return True
    if "." not in span.text and span.text.split(None, 1)[0] not in DEGREES and \
            not DEGREE_WORD.match(text, span.start - 1, span.start):  # a cheap first test
        return False
    start = span.start  # the start of the word the span starts in
    while start > max(0, span.start - 8) and DEGREE_WORD.match(text, start - 1, start):
        start -= 1
    first = DEGREE_WORD.match(text, start)
    if first is None or first.group() not in DEGREES and first.group().rstrip(".") not in DEGREES:
        return False
    return not any(w.casefold() in known_names() for w in text[first.end():span.end].split())


# an amount written with thousands separators, perhaps with cents ("640,000", "2,901,337.50"),
# or as most of Europe writes it, with its cents ("18.240,55"; without them "52.520" may be
# a coordinate's degrees)
AMOUNT = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?(?![\w,]|\.\d)|"
                    r"\d{1,3}(?:\.\d{3})+,\d{2}(?![\w.,]))")


def _amount_piece(text: str, span: Span) -> bool:
    """Whether a model number span, an address or a coordinate lies inside an amount
    (`AMOUNT`): "640" of a compensation table's "640,000" is money, not a government ID,
    an ownership table's "4,512,330" shares no address, a German letter's "18.240,55 EUR"
    is no place, and a wire's "GBP 12,400.00" no bank account, its currency's code with it
    (`_currency_start`)."""
    if span.label not in NUMBER_GROUPS + ("ADDRESS", "LOCATION") or span.source != "model" or \
            "," not in text[max(0, span.start - 4):span.end + 4]:
        return False
    return any(_currency_start(text, m.start()) <= span.start and span.end <= m.end() for m in
               AMOUNT.finditer(text, max(0, span.start - 12), min(len(text), span.end + 16)))


# the words before a number that make it a piece of an address: a postal code's, a box's,
# a flat's or a suite's ("ZIP: [70501]", "P.O. Box [44512]", "Suite [200]")
POSTAL_BEFORE = re.compile(r"(?i)(?:zip|postcode|post code|postal code|postal|pin|plz|cep|"
                           r"cap|box|suite|ste|apt|apartment|unit|flat|floor|room)\b\W*$")


def _bare_number(text: str, span: Span) -> bool:
    """Whether a model ADDRESS span is a number alone that no postal word leads into
    (`POSTAL_BEFORE`): a deed's "Book [5512], Page 201", a notary's "ID No. [88214]" and
    a tax guide's "IRS Pub [969]" are no one's address; a postal code, a box's or a
    flat's number is a piece of one."""
    return span.label == "ADDRESS" and span.source == "model" and \
        span.text.replace(" ", "").replace("-", "").isdigit() and \
        POSTAL_BEFORE.search(text, max(0, span.start - 16), span.start) is None


# a currency's code or sign right before an amount ("GBP 12,400.00", "$ 1,200")
CURRENCY_BEFORE = re.compile(r"(?<![\w$\u20ac\u00a3\u00a5\u20b9\u20a6])"
                             r"(?:[A-Z]{3}|[$\u20ac\u00a3\u00a5\u20b9\u20a6])[ \t\u00a0]?\Z")


def _currency_start(text: str, start: int) -> int:
    """Where an amount that starts at `start` starts with its currency's code or sign
    before it (`CURRENCY_BEFORE`): the model's "[GBP 12],400.00" is money as much as "12"."""
    lead = CURRENCY_BEFORE.search(text, max(0, start - 4), start)
    return lead.start() if lead else start


def _dateline(text: str, span: Span) -> bool:
    """Whether a model PERSON span is the place of a news story's dateline: one word in
    capitals that is nobody's given name or surname (`known_names`), where a text, a
    line or a sentence starts, before a date or an agency ("[HARARE] 1996-12-06
    Zimbabwe's President ..."). A name in capitals before a date ("SMITH 1990-05-01") or
    two words ("JOHN DOE 1990-05-01") stay."""
    if span.label != "PERSON" or span.source != "model" or not span.text.isupper() or \
            not span.text.isalpha() or span.text.casefold() in known_names():
        return False
    return DATELINE_AFTER.match(text, span.end) is not None and \
        DATELINE_BEFORE.search(text, max(0, span.start - 4), span.start) is not None


# a state or province as the second part of a place writes it ("Sarasota, [Fla].",
# "Tempe, AZ", "Macon, Georgia", "Winnipeg, Man."): by name, as the news agencies
# abbreviate it (always with its full stop), or by its postal code where that is no
# English word in capitals ("OK", "IN", "OR", "ME", "HI", "OH", "ON" are left out)
AGENCY_STATES = ("Ala", "Ariz", "Ark", "Calif", "Cal", "Colo", "Conn", "Del", "Fla", "Ga",
                 "Ill", "Ind", "Kan", "Kans", "Ky", "La", "Md", "Mass", "Mich", "Minn", "Miss",
                 "Mo", "Mont", "Neb", "Nebr", "Nev", "N.H", "N.J", "N.M", "N.Y", "N.C", "N.D",
                 "Okla", "Ore", "Pa", "Penn", "R.I", "S.C", "S.D", "Tenn", "Tex", "Vt", "Va",
                 "Wash", "W.Va", "Wis", "Wyo", "D.C", "Ont", "Que", "Alta", "Man", "Sask",
                 "B.C", "N.S", "N.B", "Nfld")
POSTAL_STATES = tuple(c for c in US_STATES + CA_PROVINCES if c.isupper() and len(c) == 2
                      and c not in ("OK", "IN", "OR", "ME", "HI", "OH", "ON"))
STATE_NAMES = US_STATE_NAMES + tuple(c for c in CA_PROVINCES if not c.isupper())
STATE = (rf"(?:(?:{trie_pattern(AGENCY_STATES)})\.|{trie_pattern(STATE_NAMES)}"
         rf"|{trie_pattern(POSTAL_STATES)})")
# after a place: a comma, the state, and no word of its own (not "Florida's", "Florida
# governor")
STATE_WORD = re.compile(STATE)
STATE_AFTER = re.compile(rf"[ \t]*,[ \t]*{STATE}(?![\w'\u2019-])(?![ \t]+[a-z])")
# after a place's state: a ZIP code or a date, as a letter's or a notice's dateline and
# an address write them ("Houston, Texas, March 20, 2026", "Tyler, Texas 75701")
DATED_AFTER = re.compile(rf"[ \t]*,?\s*(?:\d{{5}}|(?:{MONTH})\.?[ \t]+\d)")
# before a state: a place of one to three capitalised words and a comma, on its line
PLACE_BEFORE = re.compile(r"(?<![\w.'\u2019-])[A-Z][\w'\u2019.-]*(?:[ \t]+[A-Z][\w'\u2019.-]*){0,2}"
                          r"[ \t]*,[ \t]*$")
# a place's first word that a name is not, before a word that may be one ("Fort Wayne")
PLACE_WORDS = frozenset(("Fort", "Ft.", "Saint", "St.", "San", "Santa", "New", "Los", "Las",
                         "Lake", "Port", "Mount", "Mt.", "North", "South", "East", "West"))
# a city and its state's postal code after a space, no comma, as reviews, posts and
# listings write them ("Charlotte NC", "San Jose CA"), not a code that is a firm's legal
# form too ("Engberg AB", "Philips NV", "Acme CO"); and a ZIP code after one
_FORM_LETTERS = {f.replace(".", "").casefold() for f in ABBREVIATED_FORMS + CELL_ONLY_FORMS}
_CITY_STATES = [c for c in POSTAL_STATES if c.casefold() not in _FORM_LETTERS]
CITY_STATE = re.compile(rf"([A-Z][\w'\u2019.-]*(?:[ \t]+[A-Z][\w'\u2019.-]*){{0,2}})[ \t]+"
                        rf"(?:{trie_pattern(_CITY_STATES)})")
ZIP_AFTER = re.compile(r"[ \t]*,?[ \t]*\d{5}")


def _place(text: str, span: Span) -> bool:
    """Whether a model PERSON span is a place in a place's usual writing, city then state (a
    letter's signature, a news story's dateline or a person's home town): the state itself
    after a city and a comma ("Tempe, [Ariz].", also a firm's span), the city before the
    comma and a state ("[Sarasota], FL", "[SARASOTA], Fla. --"), or both ("[Sarasota,
    Fla]."). The city is taken for one only where none of its words is a given name or a
    surname (`known_names`) or a place's first word comes first ("[Fort Wayne], Ind."):
    "Austin, Texas" and "Mary Ortiz, Texas" stay; read as a firm, one word before a state,
    or with it ("[NEWARK, N.J.] -"), is a city whatever it is ("[Charlotte], NC", where a
    firm's name would have its form or its address), and so is one before a state and a ZIP
    code or a date (`DATED_AFTER`: a notice's "[Houston], Texas, March 20, 2026"), or a
    firm's span of a city and a state's two letters without the comma (`_city_state`:
    "[Charlotte NC]")."""
    if span.label not in ("PERSON", "COMPANY") or span.source != "model":
        return False
    word = span.text.rstrip(".")
    if STATE_WORD.fullmatch(word + "." if word in AGENCY_STATES else word) is not None:
        return PLACE_BEFORE.search(text, max(0, span.start - 48), span.start) is not None
    firm = span.label == "COMPANY"
    if firm and (m := CITY_STATE.fullmatch(span.text)) is not None:
        return _city_state(text, span, m.group(1).split())
    city, comma, _ = span.text.partition(",")
    if firm and " " in city:
        return False
    after = STATE_AFTER.match(text, span.start + len(city))
    if after is None or comma and after.end() < span.end - (not span.text.endswith(".")):
        return False
    words = city.split()
    return 0 < len(words) <= 3 and all(w[:1].isupper() for w in words) and (
        words[0].capitalize() in PLACE_WORDS or firm or
        len(words) == 1 and DATED_AFTER.match(text, after.end()) is not None or
        not any(w.casefold() in known_names() for w in words))


def _city_state(text: str, span: Span, words: list[str]) -> bool:
    """Whether a firm's span that is a city's words and a state's postal code (`CITY_STATE`)
    is a place: one word, or a place's first word first ("San Jose CA"), or a known place,
    with no ZIP code after it (an address's piece is the address recognizers')."""
    return (len(words) == 1 or words[0] in PLACE_WORDS or known_place(" ".join(words))) and \
        ZIP_AFTER.match(text, span.end) is None


def _greeted_place(text: str, span: Span) -> bool:
    """Whether a model PERSON span is a place (`lexicon.a_place`) right after a greeting,
    a thanks or a wish (`patterns.GREETING_BEFORE`: "Hello [Melbourne]!", "Thank you
    [Nigeria]!"), where the model reads any capitalised word as a name. Elsewhere it
    rarely takes a city for a person, and a surname that is a city's name ("Darwin
    argued") is the person."""
    return a_place(span.text) and GREETING_BEFORE.search(
        text, max(0, span.start - 30), span.start) is not None


# a cell's edges in a table written as text, a CSV's too: a line's start, a comma, a
# semicolon or a tab right before it, or a "|" and spaces; one of them or the line's end
# after it (in prose a space follows a comma or a semicolon: "2026; Dallas, Texas, said").
# (`tidy.CELL_BEFORE` reads only a line's first cell, where a firm's name stands alone.)
CELL_START = re.compile(r"(?:^[ \t]*|[,;\t]|\|[ \t]*)$", re.MULTILINE)
CELL_END = re.compile(r"(?:[,;\t]|[ \t]*\||[ \t]*$)", re.MULTILINE)


def _place_cell(text: str, span: Span) -> bool:
    """Whether a model PERSON span is a place (`lexicon.a_place`) alone in a table's cell
    (`CELL_START`, `CELL_END`: a CSV's "city" column, "...,+7 916 555-12-34,,[Moscow]"),
    where the model reads it as it reads the names in the cells beside it. In running
    text a city's name after "in" or "to" is left to the model ("Darwin argued")."""
    return a_place(span.text) and CELL_END.match(text, span.end) is not None and \
        CELL_START.search(text, max(0, span.start - 8), span.start) is not None


# what a country or a city has and a person has not, after its possessive ("Chad's
# president", "Sydney's mayor", "Jordan's economy")
CIVIC_AFTER = re.compile(r"['\u2019]s[ \t]+(?:(?:former|new|interim|acting|outgoing|"
                         r"incoming|then)[ \t]+)?(?:president|government|economy|capital|"
                         r"(?:prime|foreign|finance|defen[cs]e|interior|health|trade) minister|"
                         r"parliament|army|military|central bank|king|queen|mayor|governor|"
                         r"premier|embassy|ambassador|elections?|borders?|currency|national "
                         r"team|ministry|cabinet|supreme court|stock market|inflation|gdp|"
                         r"GDP|population|exports|imports|police|airport|city council)\b")


def _civic(text: str, span: Span) -> bool:
    """Whether a model PERSON span is a place of `lexicon.places` with what a place has
    after its possessive (`CIVIC_AFTER`: "[Chad]'s president visited Niger", "[Sydney]'s
    mayor"): a country or a city whose name is a given name too, which the model reads
    as a person ("Chad's mother" stays); or a person's home town (`_home_town`), a
    place alone in a table's cell (`_place_cell`) or a branch's place (`_branch_place`)."""
    return span.text.casefold() in places() and CIVIC_AFTER.match(text, span.end) is not None \
        or _home_town(text, span) or _place_cell(text, span) or _branch_place(text, span)


HEADING_LINE = re.compile(r"[ \t]*:?[ \t]*(?:\n|$)")  # what may follow a heading on its line
LINE_OPEN = re.compile(r"(?:^|\n)[ \t]*$")  # a line's start and its indent


def at_line_start(text: str, i: int) -> bool:
    """Whether only spaces stand between text[i] and its line's start (forty at most)."""
    return LINE_OPEN.search(text, max(0, i - 40), i) is not None


def _capital_heading(text: str, span: Span) -> bool:
    """Whether a one-word model PERSON or COMPANY span is a heading in capitals alone on
    its line ("RECITALS", "DEFINITIONS"): a word of the vocabulary or the plural of one,
    no name Faker's locales know and no well-known firm ("EQUIFAX" alone on a credit
    report's line is the bureau)."""
    word = span.text
    if span.source != "model" or span.label not in ("PERSON", "COMPANY") or \
            not word.isupper() or not word.isalpha() or len(word) < 3 or \
            not at_line_start(text, span.start) or HEADING_LINE.match(text, span.end) is None:
        return False
    folded = word.casefold()
    return (folded in common_words() or folded.endswith("s") and folded[:-1] in common_words()) \
        and folded not in known_names() and not FIRMS.fullmatch(word) and \
        not FIRMS_IN_CAPITALS.fullmatch(word)


BRANCH_AFTER = re.compile(r" (?:branch|Branch|BRANCH)\b")


def _branch_place(text: str, span: Span) -> bool:
    """Whether a one-word model PERSON span names a bank's branch by its place ("your
    [Koramangala] branch", "the [Andheri] branch"): the word "branch" right after it,
    and the word no given name two of Faker's locales list (`widely_given`), which is
    left to the model."""
    return " " not in span.text and BRANCH_AFTER.match(text, span.end) is not None and \
        span.text.casefold() not in widely_given()


# a person's full name (perhaps with their age after a comma) and "of", before their
# home town ("Dr. and Mrs. Obinna Eze of [Enugu]", "Margaret Hale, 84, of [Duluth]")
HOME_TOWN_BEFORE = re.compile(r"[A-Z][\w'-]+ [A-Z][\w'-]+(?:, \d{1,3},)? of $")
# a word (perhaps "Jr."), a person's age between commas and "of", as a news story writes
# a home town ('Anthony "Tony" Maravelli, 46, of [Paramus]'), whatever the name before
AGED_BEFORE = re.compile(r"[^\W\d_]\.?, \d{1,3}, of $")


def _home_town(text: str, span: Span) -> bool:
    """Whether a model PERSON span is a person's home town after their name
    (`HOME_TOWN_BEFORE`), a known place (`lexicon.known_place`) that is no given name or
    surname (`known_names`: "Estate of John Smith of Houston" keeps
    "Houston", a surname); or any place after the person's age (`AGED_BEFORE`: no one
    is written "Name, 46, of Name")."""
    if AGED_BEFORE.search(text, max(0, span.start - 12), span.start) is not None:
        return True
    return known_place(span.text) and span.text.casefold() not in known_names() and \
        HOME_TOWN_BEFORE.search(text, max(0, span.start - 60), span.start) is not None


def _after_saint(text: str, span: Span) -> bool:
    """Whether a model PERSON span, or a COMPANY span that is one given name or surname
    ("of St. [Paul]" read as a firm), is a saint's name in the name of a church, a city or a
    charity ("St. [Mark]'s Church", "St. [Paul]", "St. [Vincent de Paul] Society"):
    right after "St." or "Saint", which does not follow a capitalised word ("Elizabeth
    St. John", "Yves Saint Laurent", "12 Elm St. Jane Doe" stay); a word with a comma or
    a bracket after it ends a name ("Rev. Emmanuel Boateng, St. [Luke]'s Parish")."""
    before = text[max(0, span.start - 40):span.start]
    named = span.label == "PERSON" or span.label == "COMPANY" and \
        span.text.casefold() in known_names()
    if not named or span.source != "model" or not (
            "St" in before or "ST" in before or "Saint" in before or "SAINT" in before):
        return False
    m = SAINT_BEFORE.search(text, max(0, span.start - 40), span.start)
    if m is None:
        return False
    before = m.group(1) or ""
    return not (before[:1].isupper() and before[-1:] not in ",;:)]")


# one to four of a name's words ("Oluwaseun Adebayo-Okafor", "O'Neill"); and what may
# close a sentence after them
