"""National identity and tax numbers outside the US, by their formats and check digits.

Each kind is a row of `KINDS`: its format, its check (the country's published check-digit
rule, where it has one), and the keywords of which one must stand in the 40 characters
before it (nine digits are a SIN only after "SIN", a Dutch BSN only after "BSN"). The text
is searched for the keywords first, and only the stretches after them for numbers: most
documents hold none, and cost one search. The US's own (SSN, ITIN, routing numbers) are
`patterns`' and `recognizers.NineDigits`'.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from .patterns import _digits, luhn, verhoeff


def cpf(value: str) -> bool:
    """Brazil's CPF: two check digits, each the sum of the digits before it weighted
    10, 9, ... (then 11, 10, ...) times 10, mod 11 (10 read as 0); not one digit eleven times."""
    d = [int(c) for c in _digits(value)]
    if len(d) != 11 or len(set(d)) == 1:
        return False
    for n in (9, 10):
        if sum(x * (n + 1 - i) for i, x in enumerate(d[:n])) * 10 % 11 % 10 != d[n]:
            return False
    return True


def cnpj(value: str) -> bool:
    """Brazil's CNPJ (a firm's tax number): two check digits, each the digits before it
    weighted 5, 4, 3, 2, 9, 8, ... 2 (then 6, 5, ...) mod 11, read as 0 below 2 and as 11
    less it above; not one digit fourteen times."""
    d = [int(c) for c in _digits(value)]
    if len(d) != 14 or len(set(d)) == 1:
        return False
    for n, weights in ((12, _CNPJ_WEIGHTS), (13, (6,) + _CNPJ_WEIGHTS)):
        rest = sum(w * x for w, x in zip(weights, d)) % 11
        if (0 if rest < 2 else 11 - rest) != d[n]:
            return False
    return True


_CNPJ_WEIGHTS = (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)


DNI_LETTERS = "TRWAGMYFPDXBNJZSQVHLCKE"


def dni(value: str) -> bool:
    """Spain's DNI (eight digits) and NIE (X, Y or Z and seven digits, read as 0, 1, 2):
    the letter is the number mod 23 in `DNI_LETTERS`."""
    value = re.sub(r"[\s-]", "", value.upper())
    number = str("XYZ".index(value[0])) + value[1:-1] if value[0] in "XYZ" else value[:-1]
    return number.isdigit() and DNI_LETTERS[int(number) % 23] == value[-1]


# the codice fiscale's values of a character in an odd place (1st, 3rd...); in an even
# place a digit is itself and a letter its place in the alphabet
_CF_ODD = dict(zip("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                   [1, 0, 5, 7, 9, 13, 15, 17, 19, 21] +
                   [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10,
                    22, 25, 24, 23]))


def codice_fiscale(value: str) -> bool:
    """Italy's codice fiscale: the sixteenth letter is the sum of the first fifteen's
    values (odd places by `_CF_ODD`, even ones by their place), mod 26."""
    value = value.upper()
    total = sum(_CF_ODD[c] if i % 2 == 0 else (int(c) if c.isdigit() else ord(c) - 65)
                for i, c in enumerate(value[:15]))
    return chr(65 + total % 26) == value[15]


def nir(value: str) -> bool:
    """France's social security number (NIR): thirteen characters and a key, 97 minus
    the number mod 97 (Corsica's 2A and 2B read as 19 and 18)."""
    value = re.sub(r"\s", "", value.upper())
    body, key = value[:13], value[13:]
    body = body.replace("2A", "19", 1) if body[5:7] == "2A" else \
        body.replace("2B", "18", 1) if body[5:7] == "2B" else body
    return body.isdigit() and key.isdigit() and 97 - int(body) % 97 == int(key)


def bsn(value: str) -> bool:
    """The Netherlands' BSN: the eleven test (the digits weighted 9 down to 2, minus the
    last, divisible by 11)."""
    d = [int(c) for c in _digits(value)]
    return len(d) == 9 and (sum(x * (9 - i) for i, x in enumerate(d[:8])) - d[8]) % 11 == 0


def gstin(value: str) -> bool:
    """India's GSTIN: fifteen characters (the state's two digits, the holder's PAN, the
    registration's number, "Z"), the last a check character: each of the first fourteen
    read in base 36, weighted 1 and 2 in turn, the products' base-36 digits summed; the
    check is what brings the sum to a multiple of 36."""
    total = sum(sum(divmod(int(c, 36) * (1 + i % 2), 36)) for i, c in enumerate(value[:14]))
    return int(value[14], 36) == -total % 36


def nhs(value: str) -> bool:
    """The UK's NHS number: ten digits, the first nine weighted 10 down to 2, 11 minus
    their sum mod 11 the last (11 read as 0; 10 is no valid number)."""
    d = [int(c) for c in _digits(value)]
    check = 11 - sum(x * (10 - i) for i, x in enumerate(d[:9])) % 11
    return len(d) == 10 and check % 11 == d[9]


def pesel(value: str) -> bool:
    """Poland's PESEL: eleven digits, the first ten weighted 1, 3, 7, 9 in turn; the last
    makes their sum a multiple of ten."""
    d = [int(c) for c in _digits(value)]
    return len(d) == 11 and (-sum(x * (1, 3, 7, 9)[i % 4] for i, x in enumerate(d[:10]))) % 10 == d[10]


def personnummer(value: str) -> bool:
    """Sweden's personnummer: the date (YYMMDD, perhaps with its century) and four
    digits, the ten without the century passing Luhn's check."""
    return luhn(_digits(value)[-10:])


def hetu(value: str) -> bool:
    """Finland's henkilötunnus: DDMMYY, the century's sign, three digits and a check
    character, the nine digits as one number mod 31 in "0123456789ABCDEFHJKLMNPRSTUVWXY"."""
    return "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(value[:6] + value[7:10]) % 31] == value[10]


def rut(value: str) -> bool:
    """Chile's RUT and RUN: the digits weighted 2 to 7 in turn from the right, 11 minus
    their sum mod 11 the check (11 read as 0, 10 as "K")."""
    body, check = _digits(value[:-1]), value[-1].upper()
    total = sum(int(c) * (2 + i % 6) for i, c in enumerate(reversed(body)))
    return "0123456789K0"[11 - total % 11] == check


def tckn(value: str) -> bool:
    """Turkey's T.C. Kimlik number: eleven digits, the first not 0; the tenth is seven
    times the odd places' sum less the even places' (of the first nine) mod 10, the
    eleventh the first ten's sum mod 10."""
    d = [int(c) for c in value]
    return d[9] == (7 * sum(d[0:9:2]) - sum(d[1:8:2])) % 10 and d[10] == sum(d[:10]) % 10


def prc_id(value: str) -> bool:
    """China's resident identity card: seventeen digits weighted 7, 9, 10, 5, 8, 4, 2, 1,
    6, 3 (and again), their sum mod 11 naming the check in "10X98765432"."""
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    return "10X98765432"[sum(int(c) * w for c, w in zip(value, weights)) % 11] == value[17].upper()


def hkid(value: str) -> bool:
    """Hong Kong's identity card: one or two letters, six digits, a check in brackets;
    the letters (A=10 ... Z=35, a space 36 before a single one) and digits weighted 9
    down to 2, 11 minus their sum mod 11 the check (10 read as "A")."""
    chars = re.sub(r"[()]", "", value.upper())
    body = chars[:-1].rjust(8)
    total = sum((36 if c == " " else int(c, 36)) * (9 - i) for i, c in enumerate(body))
    return "0123456789A0"[11 - total % 11] == chars[-1]


def nif_pt(value: str) -> bool:
    """Portugal's NIF: nine digits, the last 11 minus the first eight weighted 9 down to
    2, mod 11 (10 and 11 read as 0)."""
    d = [int(c) for c in _digits(value)]
    if len(d) != 9:
        return False
    return (11 - sum(x * (9 - i) for i, x in enumerate(d[:8])) % 11) % 11 % 10 == d[8]


def sa_id(value: str) -> bool:
    """South Africa's identity number: thirteen digits, the first six a birth date
    (YYMMDD), the eleventh 0 (a citizen) or 1 (a permanent resident), the last a Luhn
    check digit."""
    d = _digits(value)
    return len(d) == 13 and "01" <= d[2:4] <= "12" and "01" <= d[4:6] <= "31" and \
        d[10] in "01" and luhn(d)


def steuer_id(value: str) -> bool:
    """Germany's tax ID (Steuer-IdNr): eleven digits, the first no 0, the last an ISO 7064
    MOD 11,10 check digit."""
    d = [int(c) for c in _digits(value)]
    if len(d) != 11 or d[0] == 0:
        return False
    product = 10
    for x in d[:10]:
        total = (x + product) % 10 or 10
        product = total * 2 % 11
    return (11 - product) % 10 == d[10]


def tfn(value: str) -> bool:
    """Australia's tax file number: nine digits (or eight, older) weighted and summed,
    divisible by 11."""
    d = [int(c) for c in _digits(value)]
    weights = {9: (1, 4, 3, 7, 5, 8, 6, 9, 10), 8: (10, 7, 8, 4, 6, 3, 5, 1)}.get(len(d))
    return weights is not None and sum(w * x for w, x in zip(weights, d)) % 11 == 0


def abn(value: str) -> bool:
    """Australia's business number (eleven digits): one taken from the first digit, the
    digits weighted 10, 1, 3, 5, ... 19 and summed, divisible by 89."""
    d = [int(c) for c in _digits(value)]
    if len(d) != 11:
        return False
    d[0] -= 1
    return sum(w * x for w, x in zip((10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19), d)) % 89 == 0


def ird(value: str) -> bool:
    """New Zealand's IRD number (eight or nine digits, between 10,000,000 and
    150,000,000): the digits before the last, padded to eight, weighted 3, 2, 7, 6, 5, 4,
    3, 2 (or, where that gives 10, 7, 4, 3, 2, 5, 2, 7, 6) give the last as 11 minus the
    sum mod 11 (0 for 0; 10 twice is no valid number)."""
    d = _digits(value)
    if not 10_000_000 < int(d or 0) < 150_000_000:
        return False
    base = [int(c) for c in d[:-1].rjust(8, "0")]
    for weights in ((3, 2, 7, 6, 5, 4, 3, 2), (7, 4, 3, 2, 5, 2, 7, 6)):
        check = (11 - sum(w * x for w, x in zip(weights, base)) % 11) % 11
        if check != 10:
            return check == int(d[-1])
    return False


def nric(value: str) -> bool:
    """Singapore's NRIC and FIN (S, T, F, G and seven digits): the letter is the digits
    weighted 2, 7, 6, 5, 4, 3, 2 (plus 4 for T and G) mod 11, in the prefix's table."""
    value = value.upper()
    total = sum(w * int(c) for w, c in zip((2, 7, 6, 5, 4, 3, 2), value[1:8]))
    total += 4 if value[0] in "TG" else 0
    table = "JZIHGFEDCBA" if value[0] in "ST" else "XWUTRQPNMLK"
    return table[total % 11] == value[8]


CURP_VALUES = "0123456789ABCDEFGHIJKLMNÑOPQRSTUVWXYZ"


def curp(value: str) -> bool:
    """Mexico's CURP (eighteen letters and digits): the last digit is ten less the sum of
    the first seventeen characters' values (`CURP_VALUES`) weighted 18 down to 2, mod 10."""
    if len(value) != 18 or not value[-1].isdigit():
        return False
    total = sum(CURP_VALUES.index(c) * (18 - i) for i, c in enumerate(value[:17]))
    return (10 - total % 10) % 10 == int(value[-1])


def cuit(value: str) -> bool:
    """Argentina's CUIT and CUIL (eleven digits): the first ten weighted 5, 4, 3, 2, 7, 6,
    5, 4, 3, 2 give the last as eleven less the sum mod 11 (0 for 11, 9 for 10)."""
    d = [int(c) for c in _digits(value)]
    if len(d) != 11:
        return False
    check = 11 - sum(w * x for w, x in zip((5, 4, 3, 2, 7, 6, 5, 4, 3, 2), d)) % 11
    return {11: 0, 10: 9}.get(check, check) == d[10]


# a CURP's state: the 32 states' two letters, and NE for one born abroad
_CURP_STATES = ("AS|BC|BS|CC|CL|CM|CS|CH|DF|DG|GT|GR|HG|JC|MC|MN|MS|NT|NL|OC|PL|QT|QR|SP|SL|SR|"
                "TC|TS|TL|VZ|YN|ZS|NE")
_MX_DATE = r"\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"


@dataclass(frozen=True)
class Kind:
    """One national number: what it is, its format, its check (None: none published),
    the words one of which must come before it, and the ones among them that count only
    in capitals ("SIN", not "sin")."""
    name: str
    regex: re.Pattern
    check: Callable[[str], bool] | None
    words: tuple[str, ...]
    capitals: tuple[str, ...] = ()


_GROUP = r"[ \t-]?"  # what may stand between a number's groups


def _kind(name: str, regex: str, check, words: str, capitals: str = "") -> Kind:
    return Kind(name, re.compile(regex + r"(?![\w-]|[.,]\d)"), check,
                tuple(words.split("|")) if words else (),
                tuple(capitals.split("|")) if capitals else ())


KINDS = (
    _kind("Brazilian CPF", r"(?<![\w.-])(?:\d{3}\.\d{3}\.\d{3}-\d{2}|\d{11})", cpf, "", "CPF"),
    _kind("Brazilian CNPJ", r"(?<![\w./-])(?:\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}|\d{14})", cnpj,
          "", "CNPJ"),
    _kind("Italian codice fiscale",
          r"(?<![\w-])[A-Z]{6}[\dLMNP-V]{2}[A-EHLMPR-T][\dLMNP-V]{2}[A-Z][\dLMNP-V]{3}[A-Z]",
          codice_fiscale, "codice fiscale|cod. fisc.|c.f.", "CF"),
    _kind("French social security number",
          r"(?<![\w-])[12] ?\d{2} ?\d{2} ?(?:\d{2}|2[AB]) ?\d{3} ?\d{3} ?\d{2}", nir,
          "sécurité sociale|securite sociale|numéro de sécu|insee|carte vitale", "NIR|NSS"),
    _kind("Singapore NRIC or FIN", r"(?<![\w-])[STFG]\d{7}[A-Z]", nric, "ic no|ic number",
          "NRIC|FIN"),
    _kind("Spanish DNI or NIE", r"(?<![\w-])(?:\d{8}|[XYZ]-?\d{7})-?[A-Z]", dni,
          "documento|d.n.i.", "DNI|NIF|NIE"),
    _kind("Portuguese NIF", rf"(?<![\w-])\d{{3}}{_GROUP}\d{{3}}{_GROUP}\d{{3}}", nif_pt,
          "contribuinte|nº fiscal|n.º fiscal", "NIF"),
    _kind("South African ID", r"(?<![\w-])\d{6}[ \t]?\d{4}[ \t]?\d{3}", sa_id,
          "identity number|id number|id no", "ID|RSA ID"),
    _kind("Canadian SIN", rf"(?<![\w-])\d{{3}}{_GROUP}\d{{3}}{_GROUP}\d{{3}}",
          lambda v: luhn(_digits(v)), "social insurance", "SIN"),
    _kind("Indian Aadhaar", rf"(?<![\w-])[2-9]\d{{3}}{_GROUP}\d{{4}}{_GROUP}\d{{4}}",
          lambda v: verhoeff(_digits(v)), "aadhaar|aadhar", "UID|UIDAI"),
    _kind("Indian PAN", r"(?<![\w-])[A-Z]{3}[ABCFGHLJPT][A-Z]\d{4}[A-Z]", None,
          "permanent account number", "PAN"),
    _kind("Indian GSTIN", r"(?<![\w-])\d{2}[A-Z]{5}\d{4}[A-Z][0-9A-Z]{3}", gstin, "gst no",
          "GSTIN|GST"),
    _kind("UK National Insurance number",
          r"(?<![\w-])(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]",
          None, "national insurance|ni number|ni no", "NINO"),
    _kind("Dutch BSN", rf"(?<![\w-])(?:\d{{4}}\.?\d{{2}}\.?\d{{3}}|\d{{3}}{_GROUP}\d{{3}}{_GROUP}\d{{3}})",
          bsn, "burgerservicenummer|sofinummer", "BSN"),
    _kind("German tax ID", r"(?<![\w-])\d{2} ?\d{3} ?\d{3} ?\d{3}", steuer_id,
          "steuer-id|steuerid|steuer-idnr|steueridentifikationsnummer|identifikationsnummer",
          "IdNr"),
    _kind("UK NHS number", rf"(?<![\w-])\d{{3}}{_GROUP}\d{{3}}{_GROUP}\d{{4}}", nhs,
          "nhs number|nhs no", "NHS"),
    _kind("Nigerian BVN", r"(?<![\w-])\d{11}", None, "bank verification number", "BVN"),
    _kind("Nigerian NIN", r"(?<![\w-])\d{11}", None, "", "NIN"),
    _kind("Kenyan KRA PIN", r"(?<![\w-])[AP]\d{9}[A-Z]", None, "", "KRA"),
    _kind("Polish PESEL", r"(?<![\w-])\d{11}", pesel, "", "PESEL"),
    _kind("Swedish personnummer", r"(?<![\w-])(?:\d{2})?\d{6}[-+]?\d{4}", personnummer,
          "personnummer|personnr"),
    _kind("Finnish henkilötunnus", r"(?<![\w-])\d{6}[-+A-FU-Y]\d{3}[0-9A-Y]", hetu,
          "henkilötunnus|hetu"),
    _kind("Chilean RUT or RUN", r"(?<![\w.-])\d{1,2}\.?\d{3}\.?\d{3}-[\dkK]", rut, "", "RUT|RUN"),
    _kind("Turkish T.C. Kimlik number", r"(?<![\w-])[1-9]\d{10}", tckn, "kimlik", "TCKN"),
    _kind("Chinese resident ID", r"(?<![\w-])\d{17}[\dXx]", prc_id,
          "resident identity card|身份证"),
    _kind("Hong Kong ID", r"(?<![\w-])[A-Z]{1,2}\d{6}\(?[\dA]\)?", hkid, "", "HKID"),
    _kind("Vietnamese citizen ID", r"(?<![\w-])\d{12}", None, "", "CCCD"),
    _kind("Indonesian NIK", r"(?<![\w-])\d{16}", None, "", "NIK"),
    _kind("Malaysian MyKad", r"(?<![\w-])\d{6}-\d{2}-\d{4}", None, "mykad|k/p"),
    _kind("Australian TFN", rf"(?<![\w-])\d{{3}}{_GROUP}\d{{3}}{_GROUP}\d{{2,3}}", tfn,
          "tax file number", "TFN"),
    _kind("Australian ABN", rf"(?<![\w-])\d{{2}}{_GROUP}\d{{3}}{_GROUP}\d{{3}}{_GROUP}\d{{3}}",
          abn, "australian business number", "ABN"),
    _kind("Mexican CURP",
          rf"(?<![\w-])[A-Z][AEIOUX][A-Z]{{2}}{_MX_DATE}[HMX](?:{_CURP_STATES})"
          r"[B-DF-HJ-NP-TV-ZÑ]{3}[A-Z\d]\d", curp, "clave única de registro de población",
          "CURP"),
    _kind("Mexican RFC", rf"(?<![\w-])[A-ZÑ&]{{3,4}}{_MX_DATE}[A-Z\d]{{3}}", None,
          "registro federal de contribuyentes", "RFC"),
    _kind("Israeli identity number", r"(?<![\w-])\d{8}-?\d",
          lambda v: luhn(_digits(v)), "teudat zehut|teudat zeut|israeli id|תעודת זהות"),
    _kind("Argentine CUIT or CUIL", r"(?<![\w-])(?:20|23|24|27|30|33|34)-?\d{8}-?\d", cuit, "",
          "CUIT|CUIL"),
    _kind("Argentine DNI", r"(?<![\w.-])\d{1,2}\.\d{3}\.\d{3}", None, "", "DNI"),
    _kind("New Zealand IRD number", rf"(?<![\w-])\d{{2,3}}{_GROUP}\d{{3}}{_GROUP}\d{{3}}", ird,
          "ird number|ird no|inland revenue number", "IRD"),
)
KEYWORD_REACH = 40  # characters between a keyword's end and its number's start, at most
_NUMBER_REACH = KEYWORD_REACH + 30  # and past that, room for the longest number
# keyword -> the kinds it leads to ("documento" to the DNI, "SIN" to the SIN)
_BY_WORD = {word: [k for k in KINDS if word in k.words + k.capitals]
            for k in KINDS for word in k.words + k.capitals}
_WORDS = sorted({w for k in KINDS for w in k.words}, key=len, reverse=True)
_CAPITALS = sorted({w for k in KINDS for w in k.capitals}, key=len, reverse=True)


def _keyword_regex(words: list[str]) -> re.Pattern:
    # the lookahead for their first letters first: a pattern that starts with a
    # lookbehind is tried in full at every position
    first = "".join(sorted({re.escape(w[0]) for w in words}))
    return re.compile(rf"(?=[{first}])(?<![\w.])(?:{'|'.join(map(re.escape, words))})(?!\w)")


# the keywords: the words in lower case, looked for in the text in lower case (a plain
# substring test first, as most documents hold none), and the acronyms as written ("SIN",
# never "sin")
WORDS, CAPITALS = _keyword_regex(_WORDS), _keyword_regex(_CAPITALS)


def _keywords(text: str) -> list[tuple[int, int, str]]:
    lower = text.lower()
    hits = [(m.start(), m.end(), m.group()) for m in CAPITALS.finditer(text)]
    if len(lower) == len(text) and any(w in lower for w in _WORDS):  # "İ" lowers to two
        hits += [(m.start(), m.end(), m.group()) for m in WORDS.finditer(lower)]
    return sorted(hits)


def find(text: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, kind's name, checked) of every national number in `text`: a keyword
    of its kind, then within `KEYWORD_REACH` characters a number of its format that
    passes its check where it has one; the first kind that takes a stretch keeps it."""
    out: list[tuple[int, int, str, bool]] = []
    for start, end, word in _keywords(text):
        for kind in _BY_WORD[word]:
            for m in kind.regex.finditer(text, end, min(len(text), end + _NUMBER_REACH)):
                if m.start() - end > KEYWORD_REACH:
                    break
                if kind.check is not None and not kind.check(m.group()):
                    continue
                if not any(a < m.end() and m.start() < b for a, b, _, _ in out):
                    out.append((m.start(), m.end(), kind.name, kind.check is not None))
    return sorted(out)


def is_keyword(value: str) -> bool:
    """Whether `value` is, whole, one of the keywords ("Aadhaar", "Steuer-ID", "BSN"):
    a model that reads one as a name is wrong."""
    return value.lower() in _WORDS or value in _CAPITALS
