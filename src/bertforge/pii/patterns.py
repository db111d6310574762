"""The shapes of personal data and their validators: compiled patterns, checksums (IBAN
mod-97, card Luhn plus issuer prefix, ABA routing weights) and structural rules (SSN
area/group/serial, BIC country code, real calendar dates), each testable alone.
`recognizers.py` builds the recognizers from them; `not_personal(text)` names the
stretches a format says hold no personal data (the figures of SWIFT MT940 statements,
the references of ISO 20022 payments), which the merge keeps model spans out of.
`PatternMatch` is what a recognizer finds: `checked` says whether a checksum (or a shape
as strict as one: email, IP address) backs it, which is what the merge policy acts on.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import date

from .labels import GROUP_OF
from .lexicon import (COURTESY_TITLES, ENGLISH_TITLES, KIN_ALONE, OFFICE_TITLES, ROLE_DETERMINERS,
                      ROLES)


# Word processors, PDFs and web pages write a value's spaces and hyphens as other
# characters: a card number with no-break spaces, an SSN with non-breaking hyphens, a
# sort code with en dashes, digits and "@" in their full-width forms; and they put
# invisible ones inside it: zero-width spaces and joiners, soft hyphens, byte-order
# marks. The patterns read a copy with the first as their plain characters and without
# the second, and what they find is mapped back to the text's own offsets.
INVISIBLE = "\u00ad\u200b\u200c\u200d\u2060\ufeff"
FOLD = str.maketrans({
    **dict.fromkeys("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
                    "\u2009\u200a\u202f\u205f\u3000", " "),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63", "-"),
    **{chr(0xFF01 + i): chr(0x21 + i) for i in range(94)},  # full-width ASCII
})


def fold(text: str) -> tuple[str, list[int] | None]:
    """(the text with Unicode spaces as " ", dashes as "-", full-width ASCII as ASCII and
    no invisible characters; None, or where each of its characters stands in the text
    when invisible ones were dropped)."""
    text = text.translate(FOLD)
    if not any(c in text for c in INVISIBLE):
        return text, None
    where = [i for i, c in enumerate(text) if c not in INVISIBLE]
    return "".join(text[i] for i in where), where


@dataclass(frozen=True)
class PatternMatch:
    start: int
    end: int
    kind: str        # a fine label ("iban", "credit_card_number", ...) or a group
    checked: bool    # backed by a checksum or an equally strict shape
    by: str = ""     # the recognizer that found it
    sure_start: bool = True  # False: a model span of its group ending with it says where it starts

    @property
    def group(self) -> str:
        return GROUP_OF.get(self.kind, self.kind)


# ------------------------------------------------------------------ validators
def luhn(digits: str) -> bool:
    """The Luhn check digit test (cards, and many other identifiers)."""
    if not digits.isdigit():
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        n = int(d)
        if i % 2 == 1:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def card_issuer(digits: str) -> str | None:
    """The scheme a card number's prefix and length belong to, or None."""
    n = len(digits)
    two, four, six = int(digits[:2]), int(digits[:4]), int(digits[:6])
    if digits[0] == "4" and n in (13, 16, 19):
        return "visa"
    if (51 <= two <= 55 or 2221 <= four <= 2720) and n == 16:
        return "mastercard"
    if two in (34, 37) and n == 15:
        return "amex"
    if (four == 6011 or two == 65 or 644 <= int(digits[:3]) <= 649
            or 622126 <= six <= 622925) and 16 <= n <= 19:
        return "discover"
    if 3528 <= four <= 3589 and 16 <= n <= 19:
        return "jcb"
    if (300 <= int(digits[:3]) <= 305 or two in (36, 38, 39)) and 14 <= n <= 19:
        return "diners"
    if (two in (50, 56, 57, 58) or two == 63 or two == 67) and 12 <= n <= 19:
        return "maestro"
    if two == 62 and 16 <= n <= 19:
        return "unionpay"
    return None


def valid_card(number: str) -> bool:
    digits = re.sub(r"[ -]", "", number)
    return 13 <= len(digits) <= 19 and digits.isdigit() and luhn(digits) \
        and card_issuer(digits) is not None


# IBAN lengths by country (ISO 13616 registry).
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
    "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}


_SPACE, _IBAN_SHAPE = re.compile(r"\s"), re.compile(r"[A-Z]{2}\d{2}[A-Z0-9]+")


def valid_iban(value: str) -> bool:
    """Country length and the mod-97 check (ISO 13616)."""
    iban = _SPACE.sub("", value).upper()
    if not _IBAN_SHAPE.fullmatch(iban):
        return False
    if IBAN_LENGTHS.get(iban[:2]) != len(iban):
        return False
    rearranged = iban[4:] + iban[:4]
    return int("".join(str(int(c, 36)) for c in rearranged)) % 97 == 1


def iban_in(value: str) -> str | None:
    """The longest start of `value` (an IBAN written in groups, perhaps run into the next
    group of characters) that ends at a space and is a valid IBAN, or None. Only one start
    can have the country's length, so only that one is checked."""
    length = IBAN_LENGTHS.get(value[:2].upper())
    if length is None:
        return None
    count = 0
    for end, c in enumerate(value, 1):
        count += not c.isspace()
        if count == length:
            break
    else:
        return None
    if end < len(value) and not value[end].isspace():
        return None
    return value[:end] if valid_iban(value[:end]) else None


def valid_routing(digits: str) -> bool:
    """ABA routing number: a Federal Reserve prefix and the 3-7-1 weighted checksum."""
    if not re.fullmatch(r"\d{9}", digits):
        return False
    prefix = int(digits[:2])
    if not (prefix <= 12 or 21 <= prefix <= 32 or 61 <= prefix <= 72 or prefix == 80):
        return False
    d = [int(c) for c in digits]
    return (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0


def valid_ssn(value: str) -> bool:
    """US SSN rules: area not 000, 666 or 900-999; group not 00; serial not 0000."""
    digits = re.sub(r"[ -]", "", value)
    if not re.fullmatch(r"\d{9}", digits):
        return False
    area, group, serial = int(digits[:3]), int(digits[3:5]), int(digits[5:])
    return area not in (0, 666) and area < 900 and group != 0 and serial != 0


# Verhoeff's tables: multiplication in the dihedral group D5, and the position
# position permutations (each row is the one above permuted by the second)
_D5 = [[int(c) for c in row] for row in (
    "0123456789",
    "1234067895",
    "2340178956",
    "3401289567",
    "4012395678",
    "5987604321",
    "6598710432",
    "7659821043",
    "8765932104",
    "9876543210",
)]
_P = [[int(c) for c in row] for row in (
    "0123456789",
    "1576283094",
    "5803796142",
    "8916043527",
    "9453126870",
    "4286573901",
    "2793806415",
    "7046913258",
)]


def verhoeff(digits: str) -> bool:
    """The Verhoeff check digit test (India's Aadhaar, some account numbers): catches
    every single-digit error and every swap of neighbours."""
    if not digits.isdigit():
        return False
    check = 0
    for i, d in enumerate(reversed(digits)):
        check = _D5[check][_P[i % 8][int(d)]]
    return check == 0


COUNTRIES = set(IBAN_LENGTHS) | set(
    "US CA MX AU NZ JP CN HK SG IN KR TW TH MY ID PH VN ZA NG KE MA AR CL CO PE VE UY RU "
    "IR NP LK BD BM KY BS PA JM TT IM JE GG".split())


def valid_bic(value: str) -> bool:
    """SWIFT/BIC: 4 letters (bank), an ISO country, 2 characters (location), and
    optionally 3 (branch)."""
    return bool(re.fullmatch(r"[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?", value)) \
        and value[4:6] in COUNTRIES


# ------------------------------------------------------------------ the recognisers
MONTHS = ("january february march april may june july august september october november "
          "december").split()
MONTH = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?" \
        r"|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
TIME = r"\d{1,2}:\d{2}(?::\d{2}(?:\.\d+|,\d{3}(?!\d))?)?(?:\s?(?:[AaPp]\.[Mm]\.|[AaPp][Mm]))?(?:\s?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}))?"

# (and its "@" percent-encoded, as a URL's query and a web server's log write it:
# "?email=maria.g%40gmail.com")
EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]*(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*"
                   r"\.[A-Za-z]{2,24}(?![\w-])")
# the user and password of an address that holds them ("postgres://admin:S3cr3t@db.
# example.com", as configuration files and logs write a database's or a broker's): a
# secret, and no email address after the colon
URL_CREDENTIALS = re.compile(r"(?<=://)([^\s:/@]+:[^\s/@]+)@(?=[\w.-])")
# (an email's shape that starts inside the password, after a symbol that no address
# starts with, "://svc:hK9$vQ2!xL@cluster0.example.net", is the password's end too)
URL_USER_BEFORE = re.compile(r"://[^\s:/@]+:[^\s/@]*$")
# the user and password a command line gives curl for basic authentication ("curl -u
# jsmith:Winter2026! https://...", "--user 'svc:p@ss w'", a quoted one whole), as
# support posts paste it
CURL_USER = re.compile(r"\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t=]+['\"]?("
                       r"(?<=')[^'\n:]+:[^'\n]+(?=')|(?<=\")[^\"\n:]+:[^\"\n]+(?=\")"
                       r"|[^\s:'\"]+:[^\s'\"]+)")
# "@" and a user name: nothing glued on the left (an email, "git@host"), and on the right
# a space, the text's end or punctuation that ends a word ("@app.route", "@types/node",
# "@y2bv*nBT" go on, so they are no handle); `recognizers.Handles` drops code
# A bank named "Bank of …": the words a bank's name puts before it, "Bank of", up to four
# capitalised words ("the" may lead them: "Bank of the West") that are not a contract's
# terms after a bank's name ("Bank of England Base Rate"), and ", N.A." or "plc" after
# them. Or a US national bank by its legal form: capitalised words ending in "Bank" (one at
# least before it: "the Bank, N.A." names none) or a name ending in "bank" ("Citibank"),
# then ", N.A." or "National Association" ("Fifth Third Bank, National Association").
# Case as written: "the bank of the river" is no bank; and the same shape wholly in
# capitals, as filings write their parties ("ROYAL BANK OF CANADA, as Lender").
_BANK_LEADS = ("Royal", "National", "Commonwealth", "Federal", "Reserve", "Central", "First",
               "State", "Savings", "Development", "Export-Import", "Industrial", "Agricultural",
               "Merchants", "Co-operative", "Mutual", "Investment", "People's",
               # the US's regional banks for lenders ("Federal Home Loan Bank of Atlanta")
               "Home", "Loan")
_NOT_BANK = ("Base", "Rate", "Rates", "Prime", "Plaza", "Tower", "Building", "Centre", "Center",
             "Branch", "Account", "Accounts", "Loan", "Loans", "Agreement", "Card", "Cards",
             "Arena", "Stadium",
             # the titles news writes after a bank's name, before a person's ("Bank of Japan
             # Governor Kazuo Ueda", "Bank of America Chief Executive Brian Moynihan")
             "Governor", "Deputy", "President", "Chairman", "Chairwoman", "Chair", "Chief", "CEO",
             "CFO", "COO", "Head", "Economist", "Analyst", "Analysts", "Strategist", "Director",
             "Executive", "Vice", "Managing", "Senior", "Board", "Policymaker", "Member",
             "Spokesman", "Spokeswoman", "Spokesperson", "Official", "Officials", "Researcher")


def _banks(case, word: str) -> str:
    """The banks' shapes with their fixed words written by `case` (str or str.upper) and
    a name's words matched by `word`; before "Bank, N.A." no word that ends a sentence
    ("Commitments. JPMorgan Chase Bank, N.A.": a heading's), while "U.S. Bank" keeps its."""
    name = r"(?!(?:%s)\b)" % "|".join(map(case, _NOT_BANK)) + word
    national = r"(?: ?,)? (?:N\.A\.|%s)" % case("National Association")
    return (r"\b(?:(?:%s) )*%s (?:%s )?" % ("|".join(map(case, _BANK_LEADS)), case("Bank of"),
                                            case("the"))
            + name + r"(?: " + name + r"){0,3}(?: %s)?" % case("Company")
            + r"(?:(?: ?,)? (?:N\.A\.|%s|plc|PLC))?" % case("National Association")
            + r"|\b(?:(?!%s\b)[A-Z][\w'&.-]*(?<![a-z]{3}\.) ){1,3}%s" % (case("The"), case("Bank"))
            + national
            + r"|\b[A-Z][\w'&-]*%s" % case("bank") + national)


# in capitals a name's words cannot be told from the words after it ("BANK OF AMERICA
# PAYMENT 42.00" on a statement), so there the name ends where a party's does: at a comma
# (with a space before it in text split into words, "BANK OF AMERICA , N.A."), a bracket,
# " as" or the line's end
# (a saint's "St." in a place's name is a word of it: "Federal Reserve Bank of St. Louis")
BANK_OF = re.compile(_banks(str, r"(?:St\.|[A-Z][\w'&-]*)") + "|(?:"
                     + _banks(str.upper, r"(?:ST\.|[A-Z][A-Z\d'&-]*)") + r")(?=[ \t]?,|[ \t]*[(\n]| as\b|[ \t]*$)",
                     re.MULTILINE)
# A bank's own name before a bank's word ("Summit State Bank", "Evergreen Credit Union",
# "Harbor Federal Savings", "Yorkshire Building Society", "Coastal Trust Company"), which
# the model misses in a signature's or a wire's short lines: the bank's word (not before
# "of": `BANK_OF` reads "Bank of ..."), found first (a literal first character lets the
# engine skip to it), then one to four capitalised words right before it
# (`BANK_NAME_BEFORE`), not starting with a word that starts a sentence or a phrase
# before a name (`_NOT_BANK_LEADS`: "Contact [Evergreen Credit Union]"), not only words
# that say what kind of bank it is or where it stands (`BANK_KINDS`: "Investment Bank",
# "Food Bank", "Beneficiary Bank"), and not ending in a river's or a sea's side
# (`BANK_SIDES`: "the Israeli-occupied West Bank"): `recognizers.NamedBanks`
_NOT_BANK_LEADS = ("The", "A", "An", "At", "To", "From", "With", "By", "For", "In", "On", "Our",
                   "Your", "My", "His", "Her", "Their", "Its", "This", "That", "And", "Or",
                   "But", "Via", "Both", "Each", "Any", "If", "When", "Please", "Contact", "Call",
                   "Visit", "Ask", "Email", "Pay", "Send", "Join", "Choose", "Try", "Use", "See",
                   "Thanks", "Thank", "Dear", "Hi", "Hello", "Re", "Fwd", "Subject", "Dept",
                   "Department", "Team")
BANK_WORDS = ("Bank", "Credit Union", "Building Society", "Trust Company", "Federal Savings",
              "Savings and Loan", "Savings & Loan")
BANK_WORD = re.compile(rf"(?<![\w&-])(?:{'|'.join(map(re.escape, BANK_WORDS))})(?:[ \t]+Bank)?"
                       rf"(?![\w&-]|[ \t]+of\b)")
BANK_NAME_BEFORE = re.compile(
    rf"(?<![\w&'\u2019.-])(?:(?!(?:{'|'.join(_NOT_BANK_LEADS)})[ \t])[A-Z][\w&'\u2019-]*[ \t]+)"
    rf"{{1,4}}\Z")
BANK_KINDS = frozenset("""
    West East North South Left Right River Food Blood Sperm Data Memory Piggy Seed Gene
    Tissue Milk Eye Time Central Investment Commercial Retail Private Merchant Development
    Reserve Savings Online Digital Mobile Partner Sponsor Custodian Custodial Lead Agent
    Agency Beneficiary Intermediary Correspondent Receiving Sending Issuing Paying Drawee
    Depository Member Local Community National Federal State Foreign Domestic Regional
    Global International Big Small Major Swiss German Japanese Chinese American European
    British Islamic Cooperative Co-operative Universal Mutual Virtual Neo Challenger
    Clearing Settlement Sovereign World Land Mortgage Trade Export Import Postal Crypto""".split())
BANK_SIDES = frozenset(("West", "East", "North", "South", "Left", "Right", "Dogger", "Georges"))
BANK_OF_WORDS = ("Bank of ", "BANK OF ", "N.A.", "National Association",
                 "NATIONAL ASSOCIATION")  # one is in every match
# Well-known firms by name: banks, brokers, asset managers, insurers, auditors,
# consultancies, rating agencies, exchanges, law firms and large companies that financial
# text names again and again, and whose names read like people's or like words (the
# known-firms record). A name that is also a person's in ordinary use, or an ordinary word,
# is listed only with the word that makes it a firm ("Raymond James Financial", "Apollo
# Global Management"); a name that is also a common surname is not listed alone. Case as
# written. A match takes in a legal form and firm words after the name.
KNOWN_FIRMS = (
    # banks and brokers
    "Goldman Sachs", "Morgan Stanley", "JPMorgan Chase", "JPMorgan", "J.P. Morgan",
    "J. P. Morgan", "Citigroup", "Citibank", "Wells Fargo", "Merrill Lynch", "BofA Securities",
    "Lehman Brothers", "Bear Stearns", "Salomon Brothers", "Smith Barney", "PaineWebber",
    "Paine Webber", "Kidder Peabody", "Kidder, Peabody", "Drexel Burnham Lambert",
    "Dean Witter Reynolds", "Brown Brothers Harriman", "Credit Suisse", "UBS", "Deutsche Bank", "Dresdner Bank",
    "Commerzbank", "Barclays", "HSBC", "Lloyds Banking Group", "Lloyds Bank", "NatWest",
    "Standard Chartered", "BNP Paribas", "Société Générale", "Societe Generale",
    "Crédit Agricole", "Credit Agricole", "Natixis", "Banco Santander", "Santander UK",
    "BBVA", "UniCredit", "Intesa Sanpaolo", "ABN AMRO", "Rabobank", "ING Groep", "ING Group",
    "ING Bank", "Nomura Holdings", "Nomura Securities", "Nomura International",
    "Mizuho Financial Group", "Mizuho Bank", "Mizuho Securities", "MUFG", "Mitsubishi UFJ",
    "Sumitomo Mitsui", "SMBC", "RBC Capital Markets", "TD Securities", "Scotiabank",
    "BMO Capital Markets", "CIBC", "Macquarie Group", "Macquarie Bank", "Macquarie Capital",
    "Jefferies", "Lazard", "Evercore", "Houlihan Lokey", "Moelis", "PJT Partners",
    "Perella Weinberg", "Centerview Partners", "Guggenheim Partners", "Cantor Fitzgerald",
    "Stifel", "Piper Sandler", "Raymond James Financial", "Raymond James & Associates",
    # and the brokers whose analysts news quotes by name ("Keefe, Bruyette & Woods analyst
    # Brady Gailey"), written as news writes them
    "Keefe, Bruyette & Woods", "KBW", "D.A. Davidson", "Wedbush", "TD Cowen", "Evercore ISI",
    "BTIG", "Hovde Group", "JMP Securities", "Janney", "Compass Point",
    "Charles Schwab Corporation", "Charles Schwab & Co.", "Edward Jones Investments",
    "Fannie Mae", "Freddie Mac", "Ginnie Mae", "Sallie Mae", "American Express", "Mastercard",
    "MasterCard", "Visa Inc.", "Capital One", "Discover Financial", "PayPal", "Ally Financial",
    "Western Union", "MoneyGram", "Coinbase", "Revolut", "Klarna",
    # the short names news gives banks and brokers ("Citi named ...", "At BofA, ..."),
    # none a name or a word (not "Regions", "Citizens", "Discover", "Ally")
    "Citi", "BofA", "BNY", "StanChart", "SocGen", "Truist", "PNC", "KeyBanc", "KeyBank",
    "Fifth Third", "Synchrony", "Amex", "Ameriprise", "LPL Financial", "Nordea", "Danske Bank",
    # the banks of the other markets English financial news covers (Latin America, the
    # Gulf, India, South-East and East Asia, Africa, Russia, Turkey)
    "Itaú Unibanco", "Itaú", "Banorte", "Grupo Financiero Banorte", "Bradesco",
    "Banco do Brasil", "Nubank", "Emirates NBD", "Mashreq", "First Abu Dhabi Bank",
    "Qatar National Bank", "Al Rajhi Bank", "ICICI Bank", "HDFC Bank", "Kotak Mahindra Bank",
    "Axis Bank", "State Bank of India", "DBS Bank", "DBS Group", "OCBC", "UOB", "Maybank",
    "CIMB", "Bank Mandiri", "Bank Central Asia", "ICBC", "China Construction Bank",
    "Agricultural Bank of China", "KB Financial", "Shinhan", "Woori", "Standard Bank Group",
    "Absa", "Nedbank", "FirstRand", "Ecobank", "Zenith Bank", "Equity Bank", "Sberbank", "VTB",
    "Akbank", "Garanti BBVA",
    # the central banks news names in their own language or without "Bank of" ("Banque
    # de France governor ..."; those named "Bank of ..." are the `banks` recognizer's)
    "Banque de France", "Banca d'Italia", "Banco de España", "Banco de Portugal",
    "De Nederlandsche Bank", "Deutsche Bundesbank", "Bundesbank", "Swiss National Bank",
    "Sveriges Riksbank", "Norges Bank", "Danmarks Nationalbank", "Banco Central do Brasil",
    "Banco de México", "Banxico", "Bank Negara Malaysia", "Bank Indonesia",
    "Bangko Sentral ng Pilipinas", "Monetary Authority of Singapore",
    "Hong Kong Monetary Authority", "South African Reserve Bank", "Saudi Central Bank",
    "European Central Bank", "Banco Central de Chile", "Banco de la República",
    "Czech National Bank", "Magyar Nemzeti Bank", "Bank Al-Maghrib",
    "Banco Central de la República Argentina",
    # asset managers and investors
    "BlackRock", "Vanguard Group", "Fidelity Investments", "State Street Corporation",
    "State Street Bank", "State Street Global Advisors", "Northern Trust", "BNY Mellon",
    "Invesco", "Franklin Templeton", "T. Rowe Price", "PIMCO", "Wellington Management",
    "AllianceBernstein", "Blackstone", "KKR", "Kohlberg Kravis Roberts", "Carlyle Group",
    "Apollo Global Management", "TPG Capital", "Bain Capital", "Warburg Pincus",
    "Bridgewater Associates", "Citadel Securities", "Renaissance Technologies", "Two Sigma",
    "D. E. Shaw", "Elliott Management", "Berkshire Hathaway",
    # insurers and brokers of insurance
    "Allianz", "AXA", "Aviva plc", "Prudential Financial", "Prudential plc", "MetLife", "AIG",
    "American International Group", "Zurich Insurance", "Munich Re", "Swiss Re",
    "Lloyd's of London", "Marsh & McLennan", "Marsh McLennan", "Willis Towers Watson",
    # and the health, car and home insurers that bills, claims and complaints name (a name
    # that is a word, "Anthem", "Progressive", only with its firm's words)
    "Aetna", "Cigna", "Humana", "UnitedHealthcare", "Elevance Health", "Anthem Blue Cross",
    "Kaiser Permanente", "Blue Cross Blue Shield", "BlueCross BlueShield", "Centene",
    "Molina Healthcare", "Delta Dental", "Bupa", "GEICO", "Geico", "State Farm", "Allstate",
    "Liberty Mutual", "USAA", "Chubb Limited", "Progressive Insurance", "Nationwide Mutual",
    "Farmers Insurance", "Manulife", "Sun Life Financial", "Legal & General", "AIA Group",
    # ratings, data and exchanges
    "Moody's Investors Service", "Moody's Corporation", "Standard & Poor's", "S&P Global",
    "Fitch Ratings", "Morningstar", "Bloomberg L.P.", "Bloomberg LP", "Thomson Reuters",
    "Refinitiv", "Dow Jones", "Nasdaq", "New York Stock Exchange", "London Stock Exchange",
    "Deutsche Börse", "Euronext", "Intercontinental Exchange", "CME Group",
    # auditors and consultancies
    "Deloitte & Touche", "Deloitte", "PricewaterhouseCoopers", "PwC", "KPMG", "Ernst & Young",
    "Grant Thornton", "BDO", "Arthur Andersen", "McKinsey & Company", "Boston Consulting Group",
    "Bain & Company", "Accenture", "Booz Allen Hamilton", "Oliver Wyman",
    # law firms
    "Sullivan & Cromwell", "Skadden, Arps, Slate, Meagher & Flom", "Skadden",
    "Davis Polk & Wardwell", "Davis Polk", "Simpson Thacher & Bartlett", "Simpson Thacher",
    "Cleary Gottlieb Steen & Hamilton", "Cleary Gottlieb", "Wachtell, Lipton, Rosen & Katz",
    "Cravath, Swaine & Moore", "Debevoise & Plimpton", "Paul, Weiss, Rifkind, Wharton & Garrison",
    "Weil, Gotshal & Manges", "Shearman & Sterling", "White & Case", "Clifford Chance",
    "Linklaters", "Freshfields Bruckhaus Deringer", "Slaughter and May", "Herbert Smith Freehills",
    "Allen & Overy", "Baker McKenzie", "Baker & McKenzie", "DLA Piper", "Norton Rose Fulbright",
    "Hogan Lovells", "Mayer Brown", "Sidley Austin", "Jones Day", "Ropes & Gray",
    "Gibson, Dunn & Crutcher", "Morgan, Lewis & Bockius", "Covington & Burling",
    "Latham & Watkins", "Kirkland & Ellis", "Willkie Farr & Gallagher", "Proskauer Rose",
    "Akin Gump Strauss Hauer & Feld", "Fried, Frank, Harris, Shriver & Jacobson",
    "Cahill Gordon & Reindel", "Goodwin Procter", "Wilson Sonsini Goodrich & Rosati",
    "Fenwick & West", "Orrick, Herrington & Sutcliffe", "Vinson & Elkins", "Dechert",
    # companies named after people, or after words
    "Johnson & Johnson", "Procter & Gamble", "Marks & Spencer", "Hewlett-Packard",
    "Hewlett Packard Enterprise", "Walt Disney Company", "Ford Motor Company",
    "General Electric", "General Motors", "Philip Morris International", "Philip Morris USA",
    "Eli Lilly and Company", "Merck & Co.", "Bristol-Myers Squibb", "Abbott Laboratories",
    "John Lewis Partnership",
    # companies the news names (a name that is a person's or a word: with its firm's word)
    "Microsoft", "Alphabet Inc.", "Google", "Meta Platforms", "Facebook", "Amazon.com",
    "Apple Inc.", "Nvidia", "NVIDIA", "Intel Corporation", "Advanced Micro Devices", "Qualcomm",
    "Broadcom", "Texas Instruments", "Micron Technology", "Cisco Systems", "IBM",
    "Oracle Corporation", "Salesforce", "Adobe Inc.", "SAP SE", "Dell Technologies",
    "Hewlett Packard", "Lenovo", "Samsung Electronics", "Samsung", "Sony Group", "Sony",
    "Panasonic", "Toshiba", "Hitachi", "Huawei", "Xiaomi", "Alibaba", "Tencent", "Baidu",
    "ByteDance", "TikTok", "Foxconn", "TSMC", "Taiwan Semiconductor", "Nokia", "Netflix",
    "Spotify", "Uber Technologies", "Lyft", "Airbnb", "eBay", "LinkedIn", "YouTube", "Rakuten",
    "Instagram", "WhatsApp", "OpenAI", "Anthropic", "SpaceX", "Tesla Inc.", "Tesla Motors",
    "Toyota", "Volkswagen", "BMW", "Mercedes-Benz", "Daimler AG", "Stellantis", "Chrysler",
    "Fiat Chrysler", "Renault SA", "Peugeot SA", "Nissan", "Honda Motor", "Hyundai Motor",
    "Hyundai", "Kia Motors", "Volvo Cars", "Ford Motor", "Boeing", "Airbus", "Lockheed Martin",
    "Raytheon", "Northrop Grumman", "BAE Systems", "Rolls-Royce", "Caterpillar Inc.",
    "Honeywell International", "Siemens AG", "Philips", "ABB Ltd", "Exxon Mobil",
    "ExxonMobil", "Chevron Corporation", "ConocoPhillips", "Royal Dutch Shell", "Shell plc",
    "BP plc", "TotalEnergies", "Gazprom", "Rosneft", "Saudi Aramco", "Petrobras", "Pemex",
    "Glencore", "Rio Tinto", "BHP", "ArcelorMittal", "Pfizer", "Moderna", "AstraZeneca",
    "GlaxoSmithKline", "GSK plc", "Novartis", "Roche Holding", "Sanofi", "Bayer AG", "AbbVie",
    "Amgen", "Gilead Sciences", "Biogen", "Medtronic", "Novo Nordisk", "UnitedHealth",
    "CVS Health", "Walgreens", "Coca-Cola", "PepsiCo", "Nestlé", "Nestle", "Unilever",
    "Danone", "Kraft Heinz", "Anheuser-Busch", "Heineken", "Diageo", "McDonald's",
    "Starbucks", "Walmart", "Wal-Mart", "Costco", "Home Depot", "Best Buy", "Tesco",
    "Sainsbury's", "Carrefour", "Aldi", "Lidl", "IKEA", "H&M", "Zara", "Inditex",
    # and the shops, grocers and delivery apps that card disputes, police reports and
    # posts name where a purchase was made ("used her debit card at [Kroger]")
    "Kroger", "Safeway", "Publix", "Albertsons", "Whole Foods", "Trader Joe's",
    "Dollar General", "Dollar Tree", "Family Dollar", "Macy's", "Kohl's", "Lowe's",
    "Etsy", "Shopify", "DoorDash", "Instacart", "Grubhub", "Uber Eats", "Cash App",
    "Flipkart", "Swiggy", "Zomato",
    "Nike Inc.", "Adidas", "AT&T", "Verizon", "T-Mobile", "Vodafone", "Deutsche Telekom",
    "BT Group", "Telefónica", "Telefonica", "Comcast", "Warner Bros", "Time Warner",
    "Viacom", "News Corp", "Delta Air Lines", "United Airlines", "American Airlines",
    "Southwest Airlines", "Lufthansa", "British Airways", "Air France", "Ryanair", "easyJet",
    "Qantas", "FedEx", "DHL", "UPS", "Maersk", "Enron", "WorldCom", "Stripe Inc.",
    "Robinhood Markets", "Wealthfront", "Square Inc.",
    # the firms people pay and complain about: credit bureaus, payments and transfers,
    # app banks and lenders, a crypto-asset exchange
    "Equifax", "Experian", "TransUnion", "Venmo", "Zelle", "Payoneer", "Wise plc", "Monzo",
    "Starling Bank", "Chime Financial", "SoFi", "Affirm Holdings", "Afterpay",
    "Synchrony Financial", "Synchrony Bank", "Navient", "Rocket Mortgage", "Quicken Loans",
    "Credit Karma", "NerdWallet", "Intuit", "H&R Block", "Binance", "Kraken Digital",
    "Block, Inc.", "Adyen", "Worldpay", "Fiserv", "Global Payments Inc.",
    # and the sites where people review them and their employers ("Reviewed by Kelsey M.
    # on Trustpilot"; not "Indeed", a word)
    "Trustpilot", "Glassdoor", "Yelp",
    # the investors startup news names, and fintech firms
    "Andreessen Horowitz", "Y Combinator", "Founders Fund", "Sequoia Capital", "Accel",
    "Kleiner Perkins", "Lightspeed Venture Partners", "Tiger Global", "SoftBank",
    "Insight Partners", "General Catalyst", "Index Ventures", "Greylock Partners",
    "Khosla Ventures", "Bessemer Venture Partners", "Thrive Capital", "Coatue",
    "Ribbit Capital", "Union Square Ventures", "First Round Capital",
    "New Enterprise Associates", "Robinhood", "Brex", "Plaid Inc.",
    # the sovereign wealth and public pension funds deal news names as buyers ("Mubadala is
    # weighing a bid", "Temasek-backed"); not their letters alone ("GIC", "PIF", "ADQ"),
    # which name other things too
    "Mubadala", "Temasek", "Abu Dhabi Investment Authority", "Public Investment Fund",
    "Qatar Investment Authority", "Kuwait Investment Authority", "Khazanah Nasional",
    "Norges Bank Investment Management", "China Investment Corporation", "CPP Investments",
    "CalPERS", "CalSTRS", "CDPQ", "Ontario Teachers' Pension Plan",
    # filings: auditors of smaller companies
    "Marcum LLP", "Moss Adams", "RSM US", "Baker Tilly", "Plante Moran", "CohnReznick",
    "Eide Bailly", "Mazars", "Forvis", "Crowe LLP", "WithumSmith+Brown",
    "Cherry Bekaert", "MaloneBailey", "Friedman LLP", "UHY LLP", "Haskell & White",
    "BF Borgers", "Frazier & Deeter", "Weinberg & Company", "Grassi & Co.",
    # filings: counsel
    "Ellenoff Grossman & Schole", "Greenberg Traurig", "Paul Hastings LLP", "Holland & Knight",
    "King & Spalding", "Alston & Bird", "Morrison & Foerster", "O'Melveny & Myers",
    "Quinn Emanuel Urquhart & Sullivan", "Winston & Strawn", "Foley & Lardner",
    "Squire Patton Boggs", "Arnold & Porter", "WilmerHale", "Wilmer Cutler Pickering Hale and Dorr",
    "Haynes and Boone", "Baker Botts", "Nelson Mullins Riley & Scarborough",
    "McDermott Will & Emery", "Seward & Kissel", "Schulte Roth & Zabel", "Loeb & Loeb",
    "Mintz, Levin, Cohn, Ferris, Glovsky and Popeo", "Pillsbury Winthrop Shaw Pittman",
    "Perkins Coie", "Dorsey & Whitney", "Faegre Drinker Biddle & Reath", "Blank Rome LLP",
    "Duane Morris LLP", "Lowenstein Sandler", "Sheppard, Mullin, Richter & Hampton",
    "Sheppard Mullin", "Munger, Tolles & Olson", "Katten Muchin Rosenman", "Mayer Brown LLP",
    "Sichenzia Ross Ference Carmel", "Lucosky Brookman", "Olshan Frome Wolosky",
    "Kramer Levin Naftalis & Frankel", "Cahill Gordon", "Hunton Andrews Kurth",
    "Bryan Cave Leighton Paisner", "Eversheds Sutherland", "Venable LLP", "Goodwin Procter LLP",
    # filings: underwriters, placement agents and brokers
    "EarlyBirdCapital", "William Blair & Company", "Robert W. Baird & Co.", "Oppenheimer & Co.",
    "Ladenburg Thalmann", "H.C. Wainwright & Co.", "Roth Capital Partners", "Maxim Group",
    "ThinkEquity", "Cowen and Company", "KeyBanc Capital Markets", "Wedbush Securities",
    "B. Riley Securities", "B. Riley Financial", "Janney Montgomery Scott", "D.A. Davidson & Co.",
    "Needham & Company", "Canaccord Genuity", "Craig-Hallum Capital Group", "Chardan Capital Markets",
    "Aegis Capital Corp.", "Joseph Gunnar & Co.", "Spartan Capital Securities",
    "Boustead Securities", "Benchmark Company", "Cantor Fitzgerald & Co.", "Truist Securities",
    "Citizens JMP Securities", "Stephens Inc.", "Siebert Williams Shank", "Loop Capital Markets",
    "Academy Securities", "Mischler Financial Group", "CastleOak Securities",
    # filings: transfer agents and trustees
    "Continental Stock Transfer & Trust", "American Stock Transfer & Trust", "Computershare",
    "Equiniti Trust", "Broadridge Financial Solutions", "VStock Transfer", "Transhare",
    "Wilmington Trust", "Wilmington Savings Fund Society", "U.S. Bank Trust Company",
    "UMB Bank", "Delaware Trust Company",
    # news agencies and broadcasters that news quotes (a surname, "Bloomberg", only with
    # its firm's word)
    "Reuters", "Associated Press", "Agence France-Presse",
    "Agence France Presse", "AFP", "Xinhua", "Interfax", "Kyodo", "Jiji Press", "Itar-Tass",
    "ITAR-TASS", "TASS", "Tass", "RIA Novosti", "Bernama", "Yonhap", "ANSA", "IRNA",
    "Anadolu Agency", "Press Trust of India", "Deutsche Presse-Agentur", "Notimex",
    "Prensa Latina", "Bloomberg News", "NHK", "BBC", "CNN",
    "CNBC", "Al Jazeera",
    # the brokers, agents and portals of property, as listings, leases and mortgage files
    # name them (many after their founders: "Keller Williams", "Douglas Elliman")
    "Coldwell Banker", "Keller Williams", "RE/MAX", "Century 21",
    "Sotheby's International Realty", "Berkshire Hathaway HomeServices", "eXp Realty",
    "Douglas Elliman", "Howard Hanna", "Redfin", "Zillow", "Realtor.com", "Opendoor",
    "Knight Frank", "Savills", "CBRE", "JLL", "Jones Lang LaSalle", "Cushman & Wakefield",
    "Colliers International", "Engel & Völkers", "Foxtons", "Rightmove", "Zoopla",
    # the mobile money and payment apps of Africa, Asia and Latin America, as complaints and
    # KYC notes there name them ("my M-Pesa number", "paid via GCash"; not "Maya" or
    # "Toss", a name and a word)
    "M-Pesa", "M-PESA", "MTN MoMo", "Airtel Money", "Safaricom", "Paystack", "Flutterwave",
    "OPay", "Opay", "Kuda", "Moniepoint", "PalmPay", "GCash", "GrabPay", "Paytm", "PhonePe",
    "Razorpay", "Alipay", "WeChat Pay", "Mercado Pago", "Kakao Pay", "LINE Pay", "PayPay",
    "Ant Group",
    # the servicers of student loans and mortgages, the lenders, brokers and apps people
    # borrow, invest and send money through, and the debt buyers that collection letters
    # name, as forum posts and complaints write them ("paying off [Nelnet] today"; not
    # "Upstart", "Marcus" or "Dave", a word or a name alone)
    "Nelnet", "MOHELA", "Mohela", "Aidvantage", "EdFinancial", "Edfinancial", "FedLoan Servicing",
    "loanDepot", "PennyMac", "Freedom Mortgage", "LendingClub", "MoneyLion", "OneMain Financial",
    "Oportun", "Sezzle", "Webull", "E*Trade", "E*TRADE", "Remitly", "Barclaycard", "PenFed",
    "Navy Federal", "Portfolio Recovery Associates", "Midland Credit Management", "LVNV Funding",
    "Encore Capital", "Paychex", "TurboTax", "QuickBooks",
    # the large companies of Africa, Asia, Europe and Latin America that business news
    # names alone ("Naspers chief Fabricio Bloisi said Prosus would buy back shares"; not
    # "Vale", "Eni" or "Jio", a word or a name too)
    "Naspers", "Prosus", "MTN Group", "Vodacom", "Dangote Cement", "Shoprite", "Sasol",
    "Anglo American", "Old Mutual", "Sanlam", "Capitec", "Reliance Industries", "Tata Group",
    "Tata Motors", "Tata Steel", "Tata Consultancy Services", "Infosys", "Wipro",
    "Adani Group", "Bharti Airtel", "Petronas", "Sinopec", "PetroChina", "CNOOC", "SABIC",
    "Meituan", "JD.com", "Pinduoduo", "BYD", "CATL", "Geely", "Keyence", "Fast Retailing",
    "Uniqlo", "Infineon", "ASML", "Equinor", "Ørsted", "LVMH", "Kering", "L'Oréal",
    "Iberdrola", "Embraer", "Ambev", "MercadoLibre", "Mercado Libre", "Grupo Bimbo", "Cemex",
    "Femsa",
    # the sites, forums and tools that support threads and posts name ("asked on [Stack
    # Overflow]", "synced from Zendesk to Jira"; not "Slack", "Medium", "Notion" or
    # "Discord", words too)
    "Stack Overflow", "Stack Exchange", "GitHub", "GitLab", "Bitbucket", "Reddit", "Quora",
    "Twitter", "Substack", "Patreon", "Kickstarter", "GoFundMe", "Zendesk", "Dropbox",
    "Atlassian", "Trello", "Jira",
    # the incident-response, security and identity-protection firms that data-breach
    # notices and incident reports name ("conducted with the assistance of [Mandiant]";
    # not "Okta", "Norton" or "Aura", names too)
    "Mandiant", "CrowdStrike", "Kroll", "FireEye", "Palo Alto Networks", "SentinelOne",
    "Fortinet", "Zscaler", "Rapid7", "Recorded Future", "Chainalysis", "LifeLock",
    "NortonLifeLock", "Gen Digital", "McAfee", "Sophos", "Trend Micro", "Proofpoint",
    "Darktrace", "Arctic Wolf", "Secureworks", "Trustwave", "Epiq",
    # the money-transfer services, Europe's app banks and the payment firms that migrants'
    # forums, complaints and statements name ("I've used Wise and [Lemfi]"; not "Wise",
    # "Tide" or "Curve", words, nor "Ria", a given name, each alone)
    "WorldRemit", "Zepz", "LemFi", "Lemfi", "Sendwave", "Azimo", "TransferGo", "TransferWise",
    "Paysend", "Skrill", "Neteller", "Xoom", "Mukuru", "Chipper Cash", "Taptap Send",
    "Ria Money Transfer", "Instarem", "Airwallex", "Bunq", "N26", "Qonto", "Monese", "Kroo",
    "Trade Republic", "eToro", "mBank", "PKO Bank Polski", "Bank Pekao", "Pekao",
    "Nationwide Building Society", "GoCardless", "TrueLayer", "SumUp", "iZettle", "Zettle",
    "Checkout.com",
)
_FIRM_TAIL = (r"(?:,? (?:Inc\.|Inc|Incorporated|LLC|L\.L\.C\.|LLP|L\.P\.|LP|plc|PLC|Ltd\.|Ltd|"
              r"Limited|AG|SE|S\.A\.|N\.V\.|N\.A\.|National Association|FSB|Corp\.|"
              r"Corporation|Company|& Co\.|Co\.)"
              r"| (?:Group|Holdings|Securities|Capital Markets|Asset Management|Investments|"
              r"Financial|Bank|Bancorp|Bancorporation|Bancshares|Bankshares|Trust Company|Trust|"
              r"International|Partners|Advisors|Advisers|"
              r"Associates|Ratings|USA|UK|Europe|Motor|Motors))")


def trie_pattern(words) -> str:
    """One regular expression for a set of literal strings, shaped as the tree of their
    shared beginnings ("Nomura(?: (?:Holdings|Securities))?"): it tries each position's
    few candidates instead of every string in turn, and, being greedy, prefers the
    longest string that matches, as an alternation sorted by length would."""
    tree: dict = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a string ends here

    def pattern(node: dict) -> str:
        ends = "" in node
        branches = [re.escape(char) + pattern(child) for char, child in sorted(node.items()) if char]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:%s)" % "|".join(branches)
        return "(?:%s)?" % body if ends else body

    return pattern(tree)


def _firm_names(names, tail: str, lead: str = "", possessive: str = "s") -> re.Pattern:
    """Whole words that are one of `names`, with up to three of a firm's words or forms
    after them (`tail`), not glued to a possessive's other words ("Lazard's" is
    "Lazard"; "Lazard'ville" is nothing). First, a look-ahead for the letters the names
    start with: the engine skips to them; `lead`, what else the start must be."""
    first = re.escape("".join(sorted({name[0] for name in names})))
    return re.compile(rf"(?=[{first}])(?<![\w&.'-]){lead}(?:{trie_pattern(names)})(?:{tail}){{0,3}}"
                      rf"(?![\w&-])(?!['\u2019](?!{possessive}\b)\w)")


# (a capital, perhaps after the lower-case letters of the few written so, "eBay",
# "easyJet", "loanDepot"; "Ørsted" starts with a capital too)
FIRMS = _firm_names(KNOWN_FIRMS, _FIRM_TAIL, lead=r"(?=[A-ZÀ-ÖØ-Þ]|[a-z]+[A-Z])")
# A UK address written inline, anchored by its postcode ("12 Harbour Road, Leeds LS1
# 4AB"): a house number, or a flat, unit, studio or PO box and its number (and perhaps a
# building and a house number after it); the street, perhaps with a flat after it ("14
# Albany Road, Flat 2, Cardiff CF24 3RP"), and up to three more runs of capitalised words
# (building, town, county), each after a comma, a space or a line break; the postcode. A
# word with a digit is no word of it.
UK_POSTCODE = re.compile(r"(?=[A-Z])(?<![\w-])[A-Z]{1,2}\d[A-Z\d]? \d[ABD-HJLNP-UW-Z]{2}(?![\w-])")
_ADDRESS_WORD = r"[A-ZÀ-ÖØ-Þ](?:[^\W\d_]|['\u2019-])*\.?(?![\w'\u2019-])"  # "Montréal" too
_ADDRESS_RUN = rf"{_ADDRESS_WORD}(?: {_ADDRESS_WORD}){{0,3}}"
# a signature's or a letterhead's separator between an address's parts, with spaces
# around it ("Hahnenstraße 57 | 50667 Köln", "221B Baker Street · London NW1 6XE")
_FIELD_SEP = r"[ \t]+[|\u00b7\u2022][ \t]+"
_ADDRESS_SEP = rf"(?:,?[ \t]+|,?[ \t]*\n[ \t]*|{_FIELD_SEP})"
_HOUSE = r"\d{1,4}[A-Za-z]?"
_FLAT = r"(?:Flat|Unit|Studio|Apartment|Apt\.?|Suite|Room)"
UK_ADDRESS = re.compile(
    rf"(?<![\w/.,-])(?:(?:{_FLAT}|P\.?O\.? Box) {_HOUSE}{_ADDRESS_SEP}"
    rf"(?:{_ADDRESS_RUN}{_ADDRESS_SEP}{_HOUSE},?[ \t]+|{_HOUSE},?[ \t]+)?|{_HOUSE},?[ \t]+)"
    rf"{_ADDRESS_RUN}(?:{_ADDRESS_SEP}{_FLAT} {_HOUSE})?(?:{_ADDRESS_SEP}{_ADDRESS_RUN}){{0,3}}"
    rf"{_ADDRESS_SEP}{UK_POSTCODE.pattern}")
# A US address written inline, anchored by its state and ZIP code ("88 Harbor Blvd, Suite
# 300, Long Beach, CA 90802", "P.O. Box 64854, St. Paul, MN 55164-0854"): a house number
# and the street, or a PO box; perhaps a suite, unit or floor; the city; the state, as
# the Postal Service writes it or in full; the ZIP code. Commas may have a space before
# them (text split into words). The state's two capitals after a comma or a city's word.
US_STATES = ("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT "
             "NE NV NH NJ NM NY NC ND OH OK OR PA PR RI SC SD TN TX UT VT VA WA WV WI WY").split()
US_STATE_NAMES = ("Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado",
                  "Connecticut", "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois",
                  "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland",
                  "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana",
                  "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York",
                  "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania",
                  "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah",
                  "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming")
US_ZIP = re.compile(r"(?<![\w-])\d{5}(?:-\d{4})?(?![\w-])")
_US_SEP = rf"(?:[ \t]?,[ \t]*|[ \t]+|[ \t]?,?[ \t]*\n[ \t]*|{_FIELD_SEP})"
_US_UNIT_WORD = r"(?:Suite|Ste\.?|Apt\.?|Apartment|Unit|Floor|Fl\.?|Room|Rm\.?|Bldg\.?|Building|No\.?|#)[ \t]*#?"
# a unit, or a floor by its ordinal ("21st Floor", as filings write an office's address)
_US_UNIT = rf"(?:{_US_UNIT_WORD}[\w-]{{1,6}}|\d{{1,3}}(?:st|nd|rd|th)[ \t]+(?:Floor|FLOOR|Fl\.?))"
US_UNIT_BEFORE = re.compile(_US_UNIT_WORD + "$")  # a suite's number is no house number
_US_STREET_WORD = (r"(?:[A-ZÀ-ÖØ-Þ](?:[^\W\d_]|['\u2019-])*\.?|\d{1,3}(?:st|nd|rd|th)|[NSEW]\.?)"
                   r"(?![\w'\u2019-])")


_SPELT_NUMBER = r"(?:One|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten)"
# a flat, suite or floor written before the house number, as Canada and Australia write
# it ("Apt 12, 88 Wellington St W", "Level 9, 120 Edward Street")
_UNIT_FIRST = r"(?:(?:Apt\.?|Apartment|Suite|Unit|Flat|Level)[ \t]*\w{1,5},?[ \t]+)?"
_PO_BOX = r"(?:P\.?[ \t]?O\.?[ \t]+Box[ \t]+\d{1,6}|PO Box[ \t]+\d{1,6})(?:-\d{5})?"
# a PO box where a street's number would stand, as the Gulf and East Africa write an
# address, without a postcode ("PO Box 1234, Dubai, United Arab Emirates") or with
# Kenya's after a hyphen ("P.O. Box 30301-00100, Nairobi"): the places after it are the
# `streets` recognizer's (`PLACE_RUNS`)
PO_BOX = re.compile(rf"(?<![\w/.,-]){_PO_BOX}")


def _postal_address(region: str) -> re.Pattern:
    """An address written the US way, up to a region's ending (`region`: its state or
    province and its postal code): perhaps a unit first, a house number (or a tower's
    spelt one, "One Liberty Plaza"; or a unit's and the house's, as Australia writes them,
    "14/3 Barkly Ave") and the street, or a PO box; perhaps a unit and a floor; the city."""
    return re.compile(
        rf"(?<![\w/.,-])(?:{_UNIT_FIRST}(?:\d{{1,6}}[A-Za-z]?(?:[-/]\d{{1,4}})?|{_SPELT_NUMBER})[ \t]+{_US_STREET_WORD}"
        rf"(?:[ \t]+(?:(?:of|the|de|la|del|du|des)[ \t]+)*{_US_STREET_WORD}){{0,4}}"
        rf"|{_PO_BOX})"
        rf"(?:{_US_SEP}{_US_UNIT}){{0,2}}{_US_SEP}{_ADDRESS_RUN}[ \t]?,?[ \t]+{region}")


US_ADDRESS = _postal_address(rf"(?:{'|'.join(US_STATES)}|{'|'.join(US_STATE_NAMES)})[ \t]+"
                             r"\d{5}(?:-\d{4})?(?![\w-])")
# Canada and Australia write addresses the US way, with their own provinces or states
# and postal codes ("Montréal, QC H3G 1K4", "Fitzroy VIC 3065")
_CA_CODE = r"[A-Z]\d[A-Z][ \t]?\d[A-Z]\d(?![\w-])"
CA_POSTCODE = re.compile(r"(?<![\w-])" + _CA_CODE)
CA_PROVINCES = ("AB BC MB NB NL NS NT NU ON PE QC SK YT").split() + [
    "Alberta", "British Columbia", "Manitoba", "New Brunswick", "Newfoundland and Labrador",
    "Nova Scotia", "Northwest Territories", "Nunavut", "Ontario", "Prince Edward Island",
    "Quebec", "Québec", "Saskatchewan", "Yukon"]
CA_ADDRESS = _postal_address(rf"(?:{'|'.join(CA_PROVINCES)})[ \t]+{_CA_CODE}")
# the town and the state or province after a street address that prose writes without
# a ZIP code ("at 900 Commerce Way[, Plano, Texas].", "41 Elm Street[, Springfield, IL],
# with"): a comma, up to three capitalised words and a comma (or none, where the span
# holds its town), the state's or province's name or code, perhaps a ZIP code
TOWN_AND_STATE = re.compile(
    rf",[ \t]+(?:{_ADDRESS_WORD}(?: {_ADDRESS_WORD}){{0,2}},[ \t]+)?"
    rf"(?:{trie_pattern([*US_STATES, *US_STATE_NAMES, *CA_PROVINCES])})"
    r"(?:[ \t]+\d{5}(?:-\d{4})?)?(?![\w-])")
# and up to three runs of capitalised words after a street address, one after each comma,
# where prose writes the district, the town and the country ("23 Nkrumah Road[, Osu,
# Accra, Ghana]"): which of them end at a known place is the `streets` recognizer's check
_PLACE_WORD = r"[A-ZÀ-ÖØ-Þ](?:[^\W\d_]|['\u2019-])*(?![\w'\u2019-])"  # (no full stop)
_PLACE_RUN = rf"{_PLACE_WORD}(?: {_PLACE_WORD}){{0,2}}"
PLACE_RUNS = re.compile(rf"(?:,[ \t]+{_PLACE_RUN}){{1,3}}")
PLACE_RUN = re.compile(rf",[ \t]+({_PLACE_RUN})")
# an address whose streets are numbered, as Qatar, Bahrain and Oman write one ("Villa 14,
# Street 820, Zone 66", "Flat 21, Building 1234, Road 2819, Block 428", "House 12, Way
# 4512"): a unit or more with their numbers, a numbered street, perhaps its zone or
# block; the places after it are the `streets` recognizer's (`PLACE_RUNS`)
NUMBERED_STREET = re.compile(
    r"(?=[VBFHO])(?:(?:Villa|Building|Flat|House|Office)[ \t]+\d{1,5},[ \t]+)+"
    r"(?:Street|Road|Way)[ \t]+\d{1,5}(?:,[ \t]+(?:Zone|Block)[ \t]+\d{1,4})?")
# a Korean road address written in English ("110 Sejong-daero", "25 Teheran-ro 4-gil"):
# the building's number, the road's name and its word joined by a hyphen (a boulevard's
# "-daero", a road's "-ro", a street's "-gil", perhaps a numbered street of a road after
# it); the ward, the city and the country after it are the `streets` recognizer's
# (`PLACE_RUNS`)
KR_STREET = re.compile(r"\d{1,4}[ \t]+[A-Z][a-z]+-(?:daero|ro|gil)(?:[ \t]+\d{1,3}-gil)?")
AU_STATES = ("NSW", "VIC", "QLD", "SA", "WA", "TAS", "NT", "ACT")
_AU_REGION = rf"(?:{'|'.join(AU_STATES)})[ \t]+\d{{4}}(?![\w-])"
AU_POSTCODE = re.compile(r"(?<![\w-])" + _AU_REGION)
AU_ADDRESS = _postal_address(_AU_REGION)
# A continental European address written inline, anchored by its postcode and town:
# the street first and its number after it ("Bahnhofstraße 14, 8001 Zürich", "Calle Mayor
# 12, 3º B, 28013 Madrid", "ul. Marszałkowska 84/92, 00-514 Warszawa", "Keizersgracht 123,
# 1015 CJ Amsterdam"), or the number first as French writes it ("12 rue de Rivoli, 75001
# Paris", "14 Rue de la Paix, 75002 Paris"). The street is a word that ends in a street's
# word ("-straße", "-gracht", "-gatan"; in capitals too, as a payment message writes it:
# "FRIEDRICHSTRASSE"), one to three words and a Nordic street's word apart ("Karl Johans
# gate"), or a street's word and the name after it ("Via Roma", "Rua Augusta"); the
# postcode, after a comma or a line break, is its country's shape (five digits, four,
# "1015 CJ", "111 43", "00-514", "4050-262"), perhaps after a country letter ("D-10117"),
# and the town one to three capitalised words.
_EU_TOWN_WORD = r"[A-ZÀ-ÖØ-ÞĀ-Ž][^\W\d_]*(?:[-'\u2019][^\W\d_]+)*"  # no full stop: a sentence's
_EU_WORD = _EU_TOWN_WORD + r"\.?"  # a street's word may be abbreviated ("Av.")
_EU_PARTICLE = r"(?:de la|de l'|de|del|della|di|da|do|dos|das|du|des|van|von|der|den|d')"
EU_STREET_ENDS = ("straße", "strasse", "str.", "gasse", "weg", "platz", "allee", "ring", "damm",
                  "ufer", "gracht", "kade", "laan", "straat", "plein", "singel", "dijk",
                  "gatan", "vägen", "gata", "gränd", "torget", "gade", "vej", "veien", "gate",
                  "katu", "tie")
# and the Nordic street words written apart, in lower case, after the name ("Karl
# Johans gate 22", "Frederiks allé 4", "Drottning Kristinas väg 7")
EU_STREET_AFTER = ("gate", "gata", "gatan", "vei", "veien", "vegen", "vej", "gade", "allé",
                   "väg", "vägen", "plass", "torg", "torv")
EU_STREET_STARTS = ("ul.", "al.", "pl.", "os.", "Via", "Viale", "Vicolo", "Piazza", "Piazzale",
                    "Corso", "Largo", "Calle", "C/", "Avenida", "Avda.", "Av.", "Plaza", "Paseo",
                    "Carrer", "Rambla", "Rua", "Travessa", "Praça", "Rue", "Avenue", "Boulevard",
                    "Place", "Quai", "Chemin", "Allée", "Impasse", "Route", "Chaussée", "Cours")
_FR_STREET_WORDS = ("rue", "avenue", "av.", "boulevard", "bd", "place", "quai", "chemin", "allée",
                    "impasse", "route", "cours", "chaussée", "square", "passage")
# Malaysia writes its addresses the French way, the number first and the postcode before
# the town ("25 Jalan Ampang, 50450 Kuala Lumpur")
_MY_STREET_WORDS = ("Jalan", "Jln.", "Lorong", "Persiaran", "Lebuh")
# (the French words capitalised too, as letterheads and English text write them: "14 Rue
# de la Paix, 75002 Paris")
_NUMBER_FIRST_STREETS = (_FR_STREET_WORDS + tuple(w.capitalize() for w in _FR_STREET_WORDS)
                         + _MY_STREET_WORDS)
_EU_NUMBER = r"\d{1,4}[a-zA-Z]?(?:[-/]\d{1,4}[a-zA-Z]?)?"
_EU_UNIT = (r"(?:,?[ \t]*(?:\d{1,2}[ \t]?[º°ª][ \t]?[A-Z]?|(?:apto|apt|piso|puerta|Top|Stiege|"
            r"bus|boîte|étage|Whg\.?|Wohnung)\.?[ \t]*\w{1,4}))?")
_EU_POSTCODE = (r"(?:(?:D|F|I|E|A|CH|NL|B|L|S|PL|P|DK|N|FI)-)?"
                r"(?:\d{2}-\d{3}|\d{4}-\d{3}|\d{4}[ \t]?[A-Z]{2}(?![\w])|\d{3}[ \t]\d{2}|\d{4,5})")
_EU_TOWN = (rf"{_EU_TOWN_WORD}(?:[ -](?:(?:am|an|der|sur|sous|le|la|de|del|di|im|upon)[ -])?"
            rf"{_EU_TOWN_WORD}){{0,2}}")
# what an address's postcode follows (a comma or a line break) and the postcode before a
# capitalised word: where `EU_ADDRESS` is tried; not a date's year ("Jan 28, 2024 Train")
EU_POSTCODE_TOWN = re.compile(rf"[,\n|\u00b7\u2022][ \t]*{_EU_POSTCODE}[ \t]+(?=[A-ZÀ-ÖØ-ÞĀ-Ž])")
EU_DATE_BEFORE = re.compile(rf"{MONTH}\.?[ \t]+\d{{1,2}}(?:st|nd|rd|th)?$")
EU_ADDRESS = re.compile(
    rf"(?<![\w.-])(?:"
    rf"(?:(?:{_EU_WORD} ){{0,2}}[A-ZÀ-ÖØ-ÞĀ-Ž][^\W\d_]*(?i:{'|'.join(map(re.escape, EU_STREET_ENDS))})"
    rf"|(?:{_EU_WORD} ){{1,3}}(?:{'|'.join(EU_STREET_AFTER)})"
    rf"|(?:{'|'.join(map(re.escape, EU_STREET_STARTS))})(?: {_EU_PARTICLE})?(?: {_EU_WORD}){{1,3}})"
    rf" {_EU_NUMBER}"
    rf"|{_EU_NUMBER}(?: ?(?:bis|ter))?,? (?:{trie_pattern(_NUMBER_FIRST_STREETS)})"
    rf"(?: {_EU_PARTICLE})? ?{_EU_WORD}(?: (?:{_EU_PARTICLE} )?{_EU_WORD}){{0,3}})"
    rf"{_EU_UNIT}(?:,[ \t]*|,?[ \t]*\n[ \t]*|{_FIELD_SEP}){_EU_POSTCODE}[ \t]+{_EU_TOWN}(?![\w'\u2019-])")
# the same street written first, its number after it, without a postcode ("Av.
# Providencia 1234", "Calle de Alcalá 45", "Rua Augusta 1500"): the `streets` recognizer
# takes it where known places follow (`PLACE_RUNS`: "..., Santiago")
STREET_FIRST = re.compile(
    rf"(?=[{''.join(sorted({w[0] for w in EU_STREET_STARTS}))}])(?<![\w.-])"
    rf"(?:{trie_pattern(EU_STREET_STARTS)})(?: {_EU_PARTICLE})?"
    rf"(?: {_EU_WORD}){{1,3}} {_EU_NUMBER}")
# what a Latin American address writes after such a street, one after each comma: its
# unit ("Piso 5", "Of. 207", "Depto. 4B"), a Mexican colonia ("Col. Juárez"), a postcode
# (Mexico's five digits, perhaps after "C.P."; Argentina's "C1043AAZ" or "C1043") with its
# town after it, or a place with its postcode after it ("Lima 15074"); which of them end the
# address is the `streets` recognizer's check
ES_UNITS = ("Piso", "Of.", "Oficina", "Depto.", "Depto", "Dpto.", "Int.", "Interior", "Local",
            "Torre")
ADDRESS_RUN = re.compile(
    rf",[ \t]*(?:(?:{trie_pattern(ES_UNITS)})[ \t]*[\w-]{{1,5}}(?![\w-])"
    rf"|(?P<colonia>Col(?:\.|onia)(?: {_EU_PARTICLE})?(?: {_EU_TOWN_WORD}){{1,3}})(?![\w'\u2019-])"
    rf"|(?P<postcode>(?:C\.[ \t]?P\.[ \t]*)?(?:\d{{5}}|[A-HJ-NP-Z]\d{{4}}(?:[A-Z]{{3}})?))(?![\w-])"
    rf"(?:[ \t]+{_EU_TOWN}(?![\w'\u2019-]))?"
    rf"|(?P<place>{_EU_TOWN})(?![\w'\u2019-])(?P<code>[ \t]+\d{{5}}(?![\w-]))?)")
# a Colombian address, its streets numbered and the house's number the cross street's
# and the distance ("Carrera 7 # 71-21", "Calle 100 No. 8A-55", "Cra. 15 # 93-47"); the
# places after it are the `streets` recognizer's (`PLACE_RUNS`)
CO_STREET = re.compile(r"(?=[CKDT])(?:Calle|Carrera|Cra\.|Cl\.|Kr\.|Diagonal|Transversal)"
                       r"[ \t]+\d{1,3}[A-Z]?[ \t]*(?:#|No\.)[ \t]*\d{1,3}[A-Z]?[ \t]*-[ \t]*\d{1,3}")
# A Brazilian address: a street's word and its name, the number, perhaps a flat or block
# and a district, then the town, its state's two capitals and the CEP ("Rua Augusta 1500,
# apto 32, São Paulo - SP, 01304-001"): the town and state come before the postcode there.
BR_STATES = ("AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE "
             "TO").split()
BR_CEP = re.compile(r"(?<![\w-])\d{5}-\d{3}(?![\w-])")
_BR_STREET = ("Rua", "R.", "Avenida", "Av.", "Travessa", "Tv.", "Alameda", "Al.", "Praça",
              "Estrada", "Rodovia", "Largo")
_BR_PARTICLE = r"(?:da|de|do|das|dos|e)"
_BR_UNIT = r"(?:apto|apt|ap|sala|bloco|bl|conj|casa|lote|andar)\.?[ \t]*\w{1,5}"
BR_ADDRESS = re.compile(
    rf"(?<![\w.])(?:{'|'.join(map(re.escape, _BR_STREET))})"
    rf"(?: (?:{_BR_PARTICLE} )?{_EU_WORD}){{1,4}},? (?:n[º°o]\.? ?)?\d{{1,5}}[A-Za-z]?"
    rf"(?:,? {_BR_UNIT})*(?:,? [-–]? ?{_EU_TOWN})?,? {_EU_TOWN} ?[-–/] ?(?:{'|'.join(BR_STATES)}),?"
    rf"[ \t]*(?:\n[ \t]*)?(?:CEP:?[ \t]*)?\d{{5}}-\d{{3}}(?![\w-])")
# A street address without its town ("at 118 Juniper Court", "9 Ferncliff Lane"): a house
# number, perhaps a compass word, one to three capitalised words and a street word. Not a
# number glued to a comma, a point or a currency sign ("1,000 Main Street customers"), a
# court of law ("Chapter 11 Bankruptcy Court"), or a year after "in", "since" ... ("in 2019
# Wall Street banks"); no street words that are as often something else ("Row", "Hill").
_STREET_END = (r"(?:Street|St\.?|Road|Rd\.?|Lane|Ln\.?|Avenue|Ave\.?|Court|Ct\.?|Drive|Dr\.?|"
               r"Boulevard|Blvd\.?|Way|Place|Pl\.?|Terrace|Close|Crescent|Parkway|Pkwy\.?|"
               r"Circle|Cir\.?|Mews|Square|Sq\.?|Quay|Gardens|Grove|Parade|Highway|Hwy\.?|"
               r"Plaza)")
STREET = re.compile(r"(?<![\w,.$£€-])(\d{1,5})[A-Za-z]?(?:-\d{1,4})?[ \t]+"
                    r"(?:(?:[NSEW]\.?|North|South|East|West)[ \t]+)?"
                    rf"((?:[A-Z][a-z'\u2019-]+[ \t]+){{1,3}}){_STREET_END}(?![\w-])")
# the same in lower case, as a post or a chat writes it ("my landlord lives at 44 maple st
# apt 2"): a house number, one or two lower-case words and a street word that is no
# ordinary word ("st", "ave", "rd", "blvd", "street", "avenue", "road", "lane"; not
# "drive" or "court": "a 5 min drive"), perhaps a flat's number after it
LOWER_STREET = re.compile(r"(?<![\w,.$£€-])\d{1,5}[ \t]+(?:[a-z]+[ \t]+){1,2}"
                          r"(?:st|ave|rd|blvd|street|avenue|road|lane)(?![\w-])"
                          r"(?:\.?,?[ \t]+(?:apt|unit|suite|#)\.?[ \t]*#?\d{1,5}[a-z]?(?![\w-]))?")
# and in capitals, as statements, forms and mail labels print it ("14 BIRCHWOOD LN",
# "1187 PEACHTREE INDUSTRIAL BLVD APT 14B"): a house number, one to three words and a
# street word, perhaps a flat's number after it
UPPER_STREET = re.compile(r"(?<![\w,.$£€-])\d{1,5}[ \t]+(?:[NSEW][ \t]+)?"
                          r"(?:[A-Z][A-Z'-]+[ \t]+){1,3}"
                          r"(?:ST|AVE|RD|BLVD|LN|DR|CT|PL|PKWY|HWY|CIR|TER|STREET|AVENUE|ROAD|"
                          r"LANE|DRIVE|COURT|PLACE|WAY|BOULEVARD|PARKWAY|HIGHWAY|CIRCLE|TERRACE)"
                          r"(?![\w-])"
                          r"(?:\.?,?[ \t]+(?:[NSEW]{1,2}[ \t]+)?(?:APT|UNIT|STE|SUITE|#)\.?[ \t]*#?"
                          r"\d{1,5}[A-Z]?(?![\w-]))?")
# An address of the markets that end one with a postcode written neither the UK's nor the
# US's way: Ireland's Eircode ("14 Fitzwilliam Square, Dublin 2, D02 X285"), Singapore's
# six digits after its name ("1 Raffles Place, #44-01, Singapore 048616") and India's PIN
# after its city ("B-204, Sunshine Apartments, Andheri West, Mumbai 400053"). It starts
# with a flat's or unit's word and number ("Plot No. 14"), a house number (perhaps a
# block's letter before it) and a street, or a building or street without a number, the
# street's or building's word last ("South Bank House", "Barrow Street"); then up to four
# runs of capitalised words (perhaps a house number before one, a district's number
# after: "Co. Cork", "80 Shenton Way", "Dublin 15") or a unit's "#44-01", and the postcode.
_EIRCODE = r"(?:[AC-FHKNPRTV-Y]\d\d|D6W)[ \t]?[0-9AC-FHKNPRTV-Y]{4}(?![\w-])"
_BUILDING_END = r"(?:House|Building|Tower|Park|Apartments|Chambers)"
_NAMED_PLACE = rf"(?:{_ADDRESS_WORD} ){{0,3}}(?:{_STREET_END}|{_BUILDING_END})(?![\w'\u2019-])"
_WORLD_START = (rf"(?:(?:Flat|Unit|Apartment|Apt\.?|Suite|Plot|Block)[ \t]*(?:No\.[ \t]*)?"
                rf"[\w/-]{{1,6}}"
                rf"|(?:[A-Z]-)?{_HOUSE},?[ \t]+{_NAMED_PLACE}|{_NAMED_PLACE})")
# (and Japan's, written in English: the district's block and house numbers and its name,
# "5-2-1 Ginza", the ward and the city, the postcode "104-0061")
_JP_START = rf"\d{{1,2}}-\d{{1,2}}(?:-\d{{1,3}})?[ \t]+{_ADDRESS_WORD}"
_WORLD_RUN = rf"(?:(?:{_HOUSE} )?{_ADDRESS_RUN}(?: \d{{1,2}}W?)?|#\d{{1,3}}-\d{{1,4}})"
# the postcodes that may end one, where the recognizer looks (an Eircode's shape, six
# digits, Japan's "104-0061"), their first character tried first: a lookbehind at every
# position was slower
WORLD_POSTCODE = re.compile(rf"{_EIRCODE}|\d{{6}}(?![\w-])|\d{{3}}-\d{{4}}(?![\w-])")
WORLD_ADDRESS = re.compile(
    rf"(?<![\w/.,-])(?:{_WORLD_START}(?:{_ADDRESS_SEP}{_WORLD_RUN}){{0,4}}"
    rf"(?:{_ADDRESS_SEP}{_EIRCODE}|{_ADDRESS_SEP}Singapore \d{{6}}(?!\d)"
    rf"|[ \t]*[-\u2013]?[ \t]*[1-9]\d{{5}}(?![\w-]))"
    rf"|{_JP_START}(?:{_ADDRESS_SEP}{_WORLD_RUN}){{0,3}}[ \t]+\d{{3}}-\d{{4}})")
# what makes a street's match no address: the word before "Court", and the word before a year
LAW_COURTS = frozenset({"Bankruptcy", "District", "Supreme", "Appeals", "Circuit", "Superior",
                        "County", "Family", "Tax", "Claims", "Crown", "Magistrates", "Federal",
                        "High", "Municipal", "Probate", "Juvenile", "Chancery", "Commercial",
                        "Criminal", "Civil", "Appellate", "Trial"})
BEFORE_YEAR = re.compile(r"(?:\b(?:in|since|by|of|until|from|during|before|after|In|Since|By)[ \t]+)$")
# the legal forms of Ireland ("DAC", "CLG"), Malaysia, Indonesia, Mexico, Hungary, the former
# Yugoslavia, Russia and its neighbours, Thailand, a Luxembourg fund, French Canada and French
# Switzerland, as their registers write them after the name; not "PT", "AO", "UC", "SE", "AS"
# or "AB", which are words, places and compass points
FORMS_ABROAD = ("DAC", "CLG", "Sdn. Bhd.", "Berhad", "Bhd", "Bhd.", "Tbk", "Tbk.",
                "S.A.B. de C.V.", "S. de R.L. de C.V.", "Kft.", "Zrt.", "Nyrt.", "d.o.o.",
                "d.d.", "PJSC", "OJSC", "JSC", "PCL", "SICAV", "Ltée", "Sàrl")
# The abbreviated legal forms written after a firm's name, matched as a tree of their
# shared beginnings (the longest that fits: "S.A. de C.V." before "S.A."); not
# "Corporation", "Company" or "Limited", which contracts' defined terms end in ("the
# Surviving Corporation"). CELL_ONLY_FORMS are words or places in a sentence ("Calgary,
# AB", "Reno, NV"), a form only alone in a cell. (`tidy.LEGAL_FORMS` are the forms a
# model's firm takes in after it, long ones included.)
ABBREVIATED_FORMS = (
    "Inc.", "Inc", "LLC", "L.L.C.", "LLP", "L.L.P.", "L.P.", "LP", "LLLP", "PLLC", "P.L.L.C.",
    "P.C.", "Ltd.", "Ltd", "PLC",
    "plc", "Plc", "ULC", "Corp.", "Corp", "Co.", "GmbH & Co. KG", "GmbH & Co. OHG", "AG & Co. KG",
    "AG & Co. OHG", "& Co. KG", "& Co. OHG", "GmbH", "AG", "KGaA", "KG", "OHG", "S.A. de C.V.",
    "S.A.", "S.A.S.", "S.à r.l.", "S.a r.l.", "SARL", "S.p.A.", "SpA", "S.r.l.", "Srl", "S.L.U.",
    "S.L.", "B.V.", "N.V.", "A/S", "ApS", "ASA", "Oyj", "Oy", "A.Ş.", "Sp. z o.o.", "s.r.o.",
    "a.s.", "K.K.", "Pty Ltd", "Pty. Ltd.", "Pty Ltd.", "Pte. Ltd.", "Pte Ltd", "Pvt. Ltd.",
    "Pvt Ltd", "Ltda.", "Ltda", "Lda.", *FORMS_ABROAD)
CELL_ONLY_FORMS = ("SA", "SAS", "BV", "NV", "AB")
# the words a US bank holding company's name ends in, which end no one's name and stand
# where a legal form does ("Sandy Spring Bancorp", "First Citizens BancShares")
BANK_HOLDING_WORDS = ("Bancorp", "Bancorporation", "Bancshares", "BancShares", "Bankshares")


# a legal form after a space or a comma, which every match of the two firm patterns below
# holds: a text without one is not searched (the patterns look back from each capital)
FORM_AFTER_NAME = re.compile(
    rf"[ \t,](?:{trie_pattern(ABBREVIATED_FORMS + BANK_HOLDING_WORDS)})(?![\w/-])")
CELL_FORM = re.compile(rf"[ \t,](?:{trie_pattern(ABBREVIATED_FORMS + CELL_ONLY_FORMS)})")


# A job title and its comma before the firm ("Head of People, Kestrel Analytics Ltd", a
# signature's line) stand outside the firm; a job word is whole (a space or the comma
# follows it), so "Partners" in a firm's name is none.
JOB_WORDS = ("Head", "Director", "Manager", "Officer", "Chief", "President", "VP", "SVP", "EVP",
             "Partner", "Associate", "Counsel", "Lead", "Secretary", "Analyst", "Engineer",
             "Consultant", "Specialist", "Coordinator", "Executive", "Administrator",
             "Controller", "Treasurer", "Founder", "Co-Founder", "Owner", "Principal",
             "Advisor", "Adviser", "Representative", "Agent", "Clerk", "Supervisor",
             "Assistant", "Chair", "Chairman", "Chairwoman", "Chairperson", "Trustee",
             "Attorney", "Paralegal", "Accountant", "Auditor", "Underwriter", "Broker",
             "Banker", "Planner", "Recruiter", "Developer", "Scientist", "Editor",
             "Strategist", "CEO", "CFO", "COO", "CTO", "CIO", "CISO", "CMO", "CRO", "CCO")
# the other words of a job's title ("Chief Financial Officer", "EVP, Operations", "Head
# of Investor Relations"), and the job's words that are no firm's name too (a span
# "Principal Financial" may be the insurer)
TITLE_MODIFIERS = frozenset((
    "Vice", "Senior", "Sr.", "Junior", "Executive", "General", "Financial", "Operating",
    "Technology", "Information", "Risk", "Compliance", "Operations", "Finance", "Marketing",
    "Sales", "Legal", "Human", "Resources", "Investment", "Accounting", "Deputy", "Managing",
    "Corporate", "Global", "Regional", "Independent", "Non-Executive", "Board", "Audit",
    "Committee", "Development", "Product", "Strategy", "Treasury", "Credit", "Internal",
    "Investor", "Relations", "Public", "Affairs", "Business", "Commercial", "Digital", "Data",
    "Security", "Administrative", "Revenue", "Tax", "Lending", "Retail", "Wealth", "People",
    "Chief", "Head", "Lead", "Principal", "Partner", "Associate", "Counsel",
    "and", "of", "the", "for", "&"))
SURE_JOB_WORDS = frozenset(JOB_WORDS) - TITLE_MODIFIERS
# the first words of a bank's or a firm's division, which a signature writes after a title
# as it writes the firm ("Managing Director, Wealth Management", "Analyst, Equity
# Research", "Portfolio Manager, Asset Management"): a name after a title that starts with
# one of them (or a title's word, `TITLE_MODIFIERS`) is a firm's only where one of its
# words is a name or rare (`recognizers._signature_firm`)
DIVISION_WORDS = frozenset((
    "Asset", "Assets", "Equity", "Property", "Real", "Estate", "Transaction", "Portfolio",
    "Private", "Institutional", "Structured", "Fixed", "Income", "Cash", "Trade", "Merchant",
    "Card", "Cards", "Consumer", "Mortgage", "Small", "Enterprise", "Client", "Customer",
    "Member", "Capital", "Fund", "Funds", "Trust", "Insurance", "Group", "Investments",
    "Banking", "Market", "Markets", "Debt", "Loan", "Loans", "Leasing", "Payments",
    "Research", "Advisory", "Family", "Office", "Premier", "Personal", "Household",
    "Facilities", "Project", "Projects", "Programme", "Program", "Regulatory", "Quality",
    "Our", "My", "Your"))


def job_title(value: str) -> bool:
    """Whether a value's words are a job's title only, one of them a job's word that
    names no firm ("President and CEO", "EVP, Operations", "Chief Financial Officer"; not
    "Principal Financial", nor "Head & Shoulders")."""
    words = re.findall(r"[^\s,/]+", value)
    return any(w in SURE_JOB_WORDS for w in words) and \
        all(w in SURE_JOB_WORDS or w in TITLE_MODIFIERS for w in words)


# a department and its comma before the firm, on a signature's line ("Accounts
# Receivable, Greenline Supply Co.", "Kundenservice, Rheinland Direktbank AG"), stand
# outside the firm too
DEPARTMENTS = ("Accounts Receivable", "Accounts Payable", "Customer Service",
               "Customer Services", "Customer Support", "Customer Care", "Client Services",
               "Member Services", "Human Resources", "HR", "Finance", "Legal", "Compliance",
               "Operations", "Treasury", "Payroll", "Billing", "Collections", "Sales",
               "Marketing", "Procurement", "Purchasing", "Investor Relations",
               "Media Relations", "Corporate Communications", "Risk Management",
               "Underwriting", "Claims", "Loan Servicing", "Kundenservice", "Kundendienst",
               "Buchhaltung", "Service Client", "Service client", "Servicio al Cliente",
               "Atención al Cliente", "Atendimento ao Cliente", "Servizio Clienti")
# a department, perhaps with its word after it ("Legal Department", "HR Team")
DEPARTMENT = rf"(?:{trie_pattern(DEPARTMENTS)})(?:[ \t]+(?:Department|Dept\.?|Team|Desk))?"
_TITLE_WORD = r"[A-Za-z][\w&'\u2019.-]*"
_CELL_TITLE = (rf"(?:(?:(?:{_TITLE_WORD}[ \t]+)*?(?:{'|'.join(JOB_WORDS)})(?:[ \t]+{_TITLE_WORD})*"
               rf"|{DEPARTMENT})[ \t]*,[ \t]*)?")
# A firm written alone in a table's cell or a list's line, ending in an abbreviated legal
# form ("AbbVie Biotechnology Ltd<TAB>Bermuda", "Allergan Holdco US, Inc.", as a filing's
# list of subsidiaries writes them): the cell starts at a line's start, a tab, a "|" or a
# bullet, and ends at the line's end, a tab, a "|", a bracket or a semicolon. Not a
# sentence's words: a cell holds the name and nothing before it, and no word of four
# lower-case letters or more and a full stop ("Schedule 5.13 Subsidiaries. Aurelia
# Holdings Sub I, LLC" is a heading, then a firm; "Warner Bros. Discovery, Inc." is one).
_CELL_WORD = r"[A-Z0-9][\w&'\u2019.-]*"
# where a group's firm sits, in brackets between its name and its form ("Marlowe
# Holdings (BVI) Ltd", "HSBC Bank (Hong Kong) Ltd", South Africa's "Vodacom (Pty) Ltd"):
# one to three capitalised words
FIRM_SEAT = r"(?: \([A-Z][\w.]*(?: [A-Z][\w.]*){0,2}\))?"
FIRM_CELL = re.compile(
    rf"(?:^|(?<=[\t|•·]))[ \t]*{_CELL_TITLE}((?:{_CELL_WORD}|&)(?:,?(?<![a-z]{{4}}\.) (?:{_CELL_WORD}|&|of|and|de|du|der)){{0,6}}"
    rf"{FIRM_SEAT},? (?:{trie_pattern(ABBREVIATED_FORMS + CELL_ONLY_FORMS)}))(?=[ \t]*(?:$|[\t|(;]))", re.MULTILINE)
# A firm named in running text with its abbreviated legal form ("The invoice from Sharma
# Textiles Ltd. was paid", "da Rocha Bakery, Co."): capitalised words, a name's particles
# before them, then the form (or a bank holding company's word, `BANK_HOLDING_WORDS`:
# "Sandy Spring Bancorp"). The name does not start with a word that starts sentences
# and mail; "AG" and "Co." before a capitalised word are an attorney general and an Irish
# county ("Ohio AG Dave Yost", "Ballina, Co. Mayo"). The lookahead first (a capital or
# a particle's first letter) spares the rest at most of a text's characters.
NOT_FIRM_STARTS = tuple(w for word in (
    "The", "A", "An", "Our", "Your", "Their", "His", "Her", "Its", "My", "This", "That",
    "These", "Those", "Dear", "From", "To", "By", "For", "With", "At", "In", "On", "And", "But",
    "Or", "If", "When", "While", "After", "Before", "Since", "As", "Per", "Via", "Thanks", "Hi",
    "Hello", "Re", "Fwd", "Attn", "Subject", "Note", "Please", "Pay", "Paid", "Send", "Sent",
    "Wire", "Contact", "Call", "Email", "Both", "Each", "Every", "Yesterday", "Today",
    "Tomorrow", "Payment", "Invoice", "Supplier", "Vendor", "Customer", "Client", "Buyer",
    "Seller", "Tenant", "Landlord", "Lender", "Borrower", "Contractor", "Shares", "Units")
    for w in (word, word.upper()))
# (not where the firm is based, which news writes before its name: "Fort [Worth-based]")
_FIRM_WORD = r"(?![\w&'\u2019.-]*-based\b)[A-ZÀ-ÖØ-ÞĀ-ž][\w&'\u2019.-]*"
# the codes of stock exchanges as press releases and news write them before a ticker, and
# a ticker ("Halverson Industries (NYSE: HLV)", "(TSX: APX) (OTCQX: APXMF)", "(Nasdaq:
# RWBC; TSX: RWB)", "(TYO: 6521)", "(NYSE: BF.B)")
EXCHANGES = ("NYSE", "NYSE American", "NYSE MKT", "NYSE Arca", "Nasdaq", "NASDAQ", "Nasdaq GS",
             "Nasdaq GM", "Nasdaq CM", "AMEX", "TSX", "TSXV", "TSX-V", "TSX Venture", "CSE",
             "NEO", "ASX", "NZX", "LSE", "AIM", "OTC", "OTCQX", "OTCQB", "OTC Pink", "OTCBB",
             "OSE", "TYO", "TSE", "JPX", "HKEX", "HKSE", "SEHK", "HK", "SGX", "JSE", "NSE", "BSE",
             "Euronext", "XETRA", "Xetra", "FWB", "FRA", "ETR", "EPA", "AMS", "EBR", "ELI",
             "SIX", "SWX", "BME", "BIT", "OMX", "STO", "CPH", "HEL", "OSL", "WSE", "TASE", "B3",
             "BVMF", "BMV", "KRX", "KOSDAQ", "KOSPI", "TWSE", "TPE", "SSE", "SZSE", "IDX",
             "SET", "Bursa", "TADAWUL", "Tadawul", "ADX", "DFM", "EGX", "Cboe", "CBOE", "BATS")
_LISTING = r"(?:%s)[ \t]*:[ \t]*[A-Z0-9]{1,6}(?:[.-][A-Z0-9]{1,3})?" % "|".join(
    map(re.escape, sorted(EXCHANGES, key=len, reverse=True)))
LISTING = re.compile(rf"\([ \t]*{_LISTING}(?:[ \t]*[;,/][ \t]*{_LISTING})*[ \t]*\)")
# the well-known firms with lower-case letters in their names, in capitals, as credit
# reports, statements and signature blocks print them ("CAPITAL ONE", "EQUIFAX"), with a
# legal form or a firm's word in capitals after them ("TOYOTA MOTOR"); not an exchange's,
# which capitals write for the market ("(NASDAQ: CRBS)")
FIRMS_IN_CAPITALS = _firm_names({firm.upper() for firm in KNOWN_FIRMS} - set(KNOWN_FIRMS) -
                                {exchange.upper() for exchange in EXCHANGES},
                                _FIRM_TAIL.upper(), possessive="S")
# a firm's name right before the brackets that say where it is listed ("Founded in 2014,
# Meridian Payments (NASDAQ: MRDP) serves ..."), which press releases and news write for a
# company whatever its name: one to five capitalised words ("&" between them), not
# starting with a word that starts sentences (`NOT_FIRM_STARTS`); after a dateline's
# dashes too ("--(BUSINESS WIRE)--Northwind Semiconductor Corp. (NASDAQ: NWSC)")
LISTED_FIRM = re.compile(
    rf"(?=[A-ZÀ-ÖØ-ÞĀ-ž])(?<![\w&.'\u2019])(?!{trie_pattern(NOT_FIRM_STARTS)}(?![\w&'\u2019.-]))"
    rf"({_FIRM_WORD}(?: (?:{_FIRM_WORD}|&)){{0,4}})[ \t]*(?=\([ \t]*{_LISTING})")

_PARTICLE = r"(?:da|de|di|do|du|dos|das|del|della|van|von|der|den|ter|le|la|d'|d\u2019)"
# a name's particle written alone before its surname, where a name may start in lower
# case ("de la Cruz", "van der Berg", "al Thani", "bin Salman")
NAME_PARTICLE = re.compile(rf"{_PARTICLE}|bin|binti|ibn|al|el|ben|zu|ten")
_RUNNING_FORMS = [f for f in ABBREVIATED_FORMS if f not in ("AG", "Co.")] + list(BANK_HOLDING_WORDS)
FIRM_FORM = re.compile(
    rf"(?=[A-ZÀ-ÖØ-ÞĀ-ždltv])(?<![\w&.'\u2019-])(?!{trie_pattern(NOT_FIRM_STARTS)}(?![\w&'\u2019.-]))"
    rf"(?:{_PARTICLE} ?)*{_FIRM_WORD}(?: (?:{_FIRM_WORD}|&|of|de|del|der|van|von|di|du|la)){{0,6}}"
    rf"{FIRM_SEAT},? (?:(?:AG|Co\.)(?![ \t]+[A-Z])|{trie_pattern(_RUNNING_FORMS)})"
    rf"(?![\w/-])")
# A person's full name right after a label that names one: a copy's ("cc", "Attn"), a
# ticket's verb ("Assigned to", "Reviewed by") or, with its colon, a form's field
# ("Account Holder:", "Borrower:"), or a payment app's on a statement (`_P2P_PAYEE`). The
# name is two to four capitalised words one space apart (initials and a name's particles
# between them; a wider space parts fields) and ends the field: the line's end, a comma, a
# bracket, "<", a full stop, a wider space, a lower-case word, a digit or the next field's
# label. Who the words may belong to is the
# recognizer's check (`recognizers._labelled_person`).
_BY_VERBS = ("Prepared", "Reviewed", "Approved", "Submitted", "Signed", "Authorized",
             "Authorised", "Requested", "Reported", "Handled", "Written", "Verified",
             "Witnessed", "Checked", "Completed", "Processed", "Raised", "Opened", "Closed",
             "Updated", "Created", "Initiated", "Entered", "Countersigned", "Notarized")
_TO_VERBS = ("Assigned", "Reassigned", "Escalated", "Forwarded", "Transferred", "Referred")
_COPY_LABELS = ("cc", "bcc", "Attn", "Attention", "FAO", "c/o")
NAME_FIELDS = (
    "Name", "Full Name", "Full Legal Name", "Legal Name", "Account Holder", "Account Holders",
    "Account Name", "Cardholder", "Card Holder", "Cardholder Name", "Joint Owner",
    "Joint Holder", "Joint Account Holder", "Primary Owner", "Owner", "Borrower",
    "Co-Borrower", "Guarantor", "Applicant", "Co-Applicant", "Beneficiary", "Beneficiary Name",
    "Payee", "Payer", "Remitter", "Sender", "Recipient", "Customer", "Customer Name",
    "Client", "Client Name", "Contact", "Contact Person", "Contact Name", "Requester",
    "Requestor", "Reporter", "Assignee", "Agent", "Representative", "Advisor", "Adviser",
    "Loan Officer", "Relationship Manager", "Account Manager", "Employee", "Employee Name",
    "Patient", "Tenant", "Landlord", "Witness", "Notary", "Signatory", "Authorized Signatory",
    "Insured", "Policyholder", "Policy Holder", "Claimant", "Decedent", "Executor",
    "Trustee", "Spouse", "Emergency Contact", "Next of Kin", "Nominee", "From", "To")
_NAME_FIELD_WORD = r"(?:[A-ZÀ-ÖØ-Þ](?:[^\W\d_]+(?:[-'\u2019][A-Za-zÀ-ÖØ-öø-ÿ][^\W\d_]*)*|\.))"
_NAME_FIELD_VALUE = rf"{_NAME_FIELD_WORD}(?: (?:{_PARTICLE} )?{_NAME_FIELD_WORD}){{1,3}}"


def _cases(words, lower: bool) -> list[str]:
    """Each word as written, capitalised, in capitals and (where `lower`) in lower case:
    listed rather than matched case-blind, which is slower by half, as is the lookahead
    for their first letters that spares the rest at most positions."""
    return sorted({v for w in words for v in (w, w.capitalize(), w.upper()) + ((w.lower(),) if lower else ())})


# a person-to-person payment's app before its payee on a statement's line ("VENMO *JAMAL
# WASHINGTON", "CASH APP*TYLER BROOKS"): the model finds a given name there and misses a
# surname that is a word
_P2P_PAYEE = r"(?:VENMO|Venmo|CASH[ \t]APP|Cash[ \t]App)[ \t]*\*"
_NAME_LABELS = (_cases(_BY_VERBS, True), _cases(_TO_VERBS, True), _cases(_COPY_LABELS, True),
                _cases(NAME_FIELDS, False))  # "name:" in lower case is rarely a form's
NAME_FIELD = re.compile(
    rf"(?=[{''.join(sorted({w[0] for ws in _NAME_LABELS for w in ws}))}])(?<![\w/-])"
    rf"(?:(?:{trie_pattern(_NAME_LABELS[0])})[ \t]+(?:by|By|BY)[ \t]*:?"
    rf"|(?:{trie_pattern(_NAME_LABELS[1])})[ \t]+(?:to|To|TO)[ \t]*:?"
    rf"|(?:{trie_pattern(_NAME_LABELS[2])})(?![\w/])[ \t]*:?"
    rf"|(?:{trie_pattern(_NAME_LABELS[3])})[ \t]*:|{_P2P_PAYEE})[ \t]*({_NAME_FIELD_VALUE})"
    rf"(?=[ \t]*(?:$|[\n,;<(\[|]|-[ \t]|\.(?:\s|$))|[ \t]{{2}}|[ \t]+(?:[a-z\d]|[A-Z][\w .-]{{0,25}}:))",
    re.MULTILINE)
# A form's address field: a label that names a postal address (a kind of address before
# "Address", or the word in another language), its colon, and the value to the line's end,
# a field's separator or a sentence after it ("Address: 99/1 Sukhumvit Soi 21, Bangkok
# 10110"); not an email's, an IP's or a wallet's address, whose words before "Address" are
# no kind of these. Whether the value is an address is the recognizer's check
# (`recognizers._address_value`).
ADDRESS_KINDS = ("Registered", "Billing", "Mailing", "Postal", "Home", "Residential",
                 "Permanent", "Correspondence", "Current", "Business", "Office", "Shipping",
                 "Delivery")
ADDRESS_LABELS = ("Address", "Alamat", "Dirección", "Direccion", "Domicilio", "Adresse",
                  "Anschrift", "Endereço", "Indirizzo")
# (a label's letters in any case: a text without one is not searched)
ADDRESS_LABEL = re.compile("(?i)%s" % "|".join(map(re.escape, ADDRESS_LABELS)))
ADDRESS_FIELD = re.compile(
    rf"(?:^|(?<=[\t|\u00b7\u2022])|(?<=[,;] ))[ \t]*"
    rf"(?:(?:{trie_pattern(_cases(ADDRESS_KINDS, True))})[ \t]+)?"
    rf"(?:{trie_pattern(_cases(ADDRESS_LABELS, True))})[ \t]*:[ \t]*"
    rf"(\S(?:[^\n\t|]*?\S)?)\.?"
    rf"(?=[ \t]*(?:$|\t|[ \t]{{2}}|\|)|\.[ \t]+[A-Z][a-z]+[ \t]+[a-z])", re.MULTILINE)
# A lawsuit's caption in running text ("In Okafor v. Meridian Bank, the court held", "See
# Smith v. Jones"): up to four capitalised words each side of "v." or "vs."; which of
# them are a person's name is the recognizer's check (`recognizers.CaseParties`).
CASE_CAPTION = re.compile(rf"(?<![\w.-])({_NAME_FIELD_WORD}(?: {_NAME_FIELD_WORD}){{0,3}})[ \t]+vs?\."
                          rf"[ \t]+({_NAME_FIELD_WORD}(?: {_NAME_FIELD_WORD}){{0,3}})(?![\w-])")
# A mail's display name before its address in angle brackets, as headers and quoted
# replies write it ('"Okafor, Chinedu (NYC)" <chinedu.okafor@...>', "Marisol Delgado
# <mdelgado@...> wrote:"): two to four capitalised words (a comma after the first where
# the surname leads), perhaps in quotes (Outlook's "'Pruitt, Loretta'" in two) and with a
# department or an office in brackets after them, which is not part of the name; not the
# "PM" of a quoted reply's time before it ("at 3:22 PM Marisol Delgado <...> wrote:").
MAIL_NAME = re.compile(
    rf"(?<![\w@.-])(?!(?:AM|PM) )({_NAME_FIELD_WORD}(?:,? (?:{_PARTICLE} )?{_NAME_FIELD_WORD})"
    rf"(?: (?:{_PARTICLE} )?{_NAME_FIELD_WORD}){{0,2}})(?:[ \t]+\([^()\n]{{1,30}}\))?"
    r"[\"']{0,2}[ \t]*<[^<>\s@]+@[^<>\s]+>")
# The addressee's name on its own line right above a postal address's street line, as a
# statement, a notice or a letter prints its block ("ROBERT & LINDA GARCIA\n1142 MAPLE
# GROVE RD"): two to seven capitalised words (joint holders joined by "&" or "AND"), after
# a courtesy title or two if any (not the name's), then a line that starts with a street's
# number and a word, or a post office box. Whether the words are a person's is the
# recognizer's check (`recognizers.Addressees`).
_ADDRESSEE_TITLE = r"(?:MR|MRS|MS|DR|Mr|Mrs|Ms|Dr)\.?"
_ADDRESSEE_WORD = rf"(?:{_NAME_FIELD_WORD}|[A-Z](?![\w.]))"  # or an initial without its stop
ADDRESSEE = re.compile(
    rf"^[ \t]*(?:{_ADDRESSEE_TITLE}(?:[ \t]+(?:&|AND|and)[ \t]+{_ADDRESSEE_TITLE})?[ \t]+)?"
    rf"({_ADDRESSEE_WORD}(?:[ \t]+(?:&|AND|and|{_ADDRESSEE_WORD})){{1,6}})[ \t]*\r?\n"
    r"[ \t]*(?=\d{1,6}[A-Za-z]?(?:-\d+)?[ \t]+[A-Za-z]|(?:P\.?[ \t]?O\.?|PO)[ \t]+(?:BOX|Box))",
    re.MULTILINE)
# A name with an Irish surname's particle, which no English word is ("Siobhán Ní
# Bhriain", "Aoife Nic Aodha", "Ciarán Ó Súilleabháin", "Eibhlín Uí Cheallaigh", "Máire
# Nic Giolla Phádraig", "Ní hÉigeartaigh"): perhaps a given name (group 1), the particle and
# the surname, perhaps after "Giolla" (group 2). Whether the word before is a given name is the
# recognizer's check (`recognizers.GaelicNames`).
_GAELIC_WORD = r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:-[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+)?"
# An account's registration, as brokerage statements, confirmations and tax forms print
# it in capitals: the owners' names joined by the marks of how they own it (joint
# tenancy "JTWROS", "JT TEN"; a trustee "TTEE", "TR"; a custodian "CUST" for a minor
# under a state's gifts act, "UTMA NJ"; "FBO", for the benefit of; a transfer or a
# payment on death "TOD", "POD"; a power of attorney "POA"; an estate's executor or
# administrator, "EXECUTRIX", "ADMR"): a line in capitals (after a field's label,
# perhaps) with one mark at least, and the pieces between the marks, "&" and commas.
REGISTRATION_MARK = (r"JTWROS|JT WROS|JT TEN|JTTEN|TEN COM|TEN ENT|TTEES?|TRS?|"
                     r"CUST(?: FOR| FBO)?|FBO|F/B/O|U[TG]MA(?:[/ ][A-Z]{2})?|TOD|POD|POA|"
                     r"EXECUTORS?|EXECUTRIX|EXECS?|EXRS?|ADMINISTRATORS?|ADMINISTRATRIX|ADMRS?")
REGISTRATION_LINE = re.compile(r"(?m)^(?:[^\n:]{1,40}:[ \t]*)?([A-Z][A-Z0-9 .,&/'-]+?)[ \t]*$")
REGISTERED = re.compile(rf"(?:^|(?<=[ ,/]))(?:{REGISTRATION_MARK})(?=$|[ ,/])")
REGISTRATION_CUT = re.compile(rf"{REGISTERED.pattern}|[&,]")
# A name as airlines, travel agents and card networks print it, surname, slash, given
# names, in capitals, perhaps a title after it ("OKONKWO/CHIDI MR", "SMITH/JOHN PAUL"):
# the name without its title
_TRAVEL_WORD = r"[A-Z][A-Z'-]+"
_TRAVEL_TITLE = r"(?:MR|MRS|MS|MISS|MSTR|DR|PROF)(?![\w/])"
TRAVEL_NAME = re.compile(rf"(?<![\w/])({_TRAVEL_WORD}/{_TRAVEL_WORD}(?: (?!{_TRAVEL_TITLE})"
                         rf"{_TRAVEL_WORD})?)(?![\w/])")
GAELIC_PARTICLES = ("Ní", "Nic", "Uí", "Ó")
GAELIC_NAME = re.compile(rf"(?<![\w-])(?:({_GAELIC_WORD})[ \t]+)?((?:{'|'.join(GAELIC_PARTICLES)})"
                         rf"[ \t]+(?:Giolla[ \t]+)?h?{_GAELIC_WORD})(?![\w-])")
# A name's value after its key in data and code: JSON, a dict, a query string, a setter,
# XML ('"last_name": "Young"', "family_name='Rivers'", "last_name=Field&",
# 'setLastName("Black")', "<LastName>Gardner</LastName>"), where the model misses a surname
# that is a word. The key is a given name's, a surname's or a full name's (not "name"
# alone, which files, hosts and users have); the value one to four capitalised words
# (a query string's "+" or a space between them), up to a quote, "&", "<" or the like;
# not a placeholder (`NO_NAMES`).
_NAME_KEY = r"(?i:(?:first|last|given|family|middle|full)[_-]?name|surname|forename)"
_KEYED_VALUE = r"[A-ZÀ-ÖØ-Þ][^\W\d_]*(?:(?:[-'\u2019]|[ +])[A-ZÀ-ÖØ-Þ][^\W\d_]*){0,3}"
KEYED_NAME = re.compile(rf"(?=[FfGgLlMmSs]){_NAME_KEY}[\"']?[ \t]*[:=(>][ \t]*[\"']?"
                        rf"({_KEYED_VALUE})(?=[\"'&,;<}}\])\s]|$)")
KEYED_NAME_WORDS = ("name", "Name", "NAME")  # one is in every match
# values that stand for no one ("Unknown", "None", "Test")
NO_NAMES = frozenset(("None", "Null", "NULL", "Unknown", "Test"))
# An account's number after its keyword: "account", "acct" or "a/c" (and perhaps its
# number word), or a member's, customer's, client's, loan's or patient's keyword with its
# number word, or a patient's record number ("MRN"), or the registry numbers of a
# broker and a loan officer ("CRD# 4417723", "NMLS #1840221"); a colon or "is" may stand
# between (not "ending in": the last four digits are what banks print in clear). The
# number: digits in groups joined by hyphens, spaces or dots, perhaps a few capitals
# before it ("AC-812978"); four digits at least is the recognizer's check. Not a
# policy's, ticket's, case's, claim's or reference's number: they name a contract or a
# request, not what a person holds.
_NUMBER_WORD = r"(?:number|Number|NUMBER|No\.?|NO\.?|no\.?|Num\.?|#|ID|Id|Nr\.?)"
_ACCOUNT_KEY = (rf"(?:(?:{trie_pattern(_cases(('Account', 'Acct', 'A/C'), True))})\.?"
                rf"(?:[ \t]*{_NUMBER_WORD})?"
                rf"|(?:{trie_pattern(_cases(('Member', 'Customer', 'Client', 'Loan', 'Patient'), True))})"
                rf"[ \t]*{_NUMBER_WORD}|(?:MRN|CRD|NMLS)(?:[ \t]*(?:ID|Id|No\.?|#))?)")
# and the same keywords in German, French, Spanish, Portuguese and Italian ("Kundennummer
# lautet", "numéro de client", "número de cuenta", "número da conta", "codice cliente"),
# with their verbs for "is"
_ACCOUNT_KEY_ABROAD = (r"(?i:(?:kunden|konto)(?:nummer|[- ]?nr\.?)|(?:num[ée]ro|n[°º])[ \t]*"
                       r"(?:de[ \t]+)?(?:client|compte)|compte[ \t]+n[°º]|n[úu]mero[ \t]+d[ea][ \t]+"
                       r"(?:cliente|cuenta|conta)|(?:cuenta|conta)[ \t]+n[°º]|numero[ \t]+"
                       r"(?:di[ \t]+)?(?:cliente|conto)|codice[ \t]+cliente)")
ACCOUNT_NUMBER = re.compile(
    rf"(?=[AaMmCcLlPpKkNn])(?<![\w/])(?:{_ACCOUNT_KEY}|{_ACCOUNT_KEY_ABROAD})[ \t]*[:#.=]?[ \t]*"
    rf"(?:(?:is|ist|lautet|est|es|é|è)[ \t]+)?"
    rf"((?:[A-Z]{{1,4}}[-/ ]?)?\d+(?:[- .]\d+)*(?:-[A-Z0-9]{{1,4}})?)(?![\w-]|[.,]\d)")
# words that make a labelled name a team's, a desk's or a role's ("Attn: Accounts
# Payable", "cc: Legal Team", "Approved by: Risk Committee", a notice clause's
# "Attention: General Counsel"; "General" is a given name in one of Faker's locales; a
# loan agent's desk, "Attention: Loan Agency", "Loan" being a Vietnamese given name)
NOT_NAME_WORDS = frozenset(w.casefold() for w in (
    "Team", "Teams", "Department", "Dept", "Desk", "Committee", "Board", "Office", "Unit",
    "Division", "Branch", "Support", "Service", "Services", "Operations", "Ops", "Payable",
    "Payables", "Receivable", "Receivables", "Legal", "Finance", "Compliance", "Treasury",
    "Accounting", "Accounts", "Audit", "Risk", "Security", "Admin", "Administration",
    "Center", "Centre", "Helpdesk", "Help", "Customer", "Customers", "Client", "Clients",
    "Sales", "Marketing", "Billing", "Payroll", "Human", "Resources", "Relations",
    "Investor", "Investors", "Underwriting", "Servicing", "Collections", "Fraud", "Disputes",
    "Onboarding", "Engineering", "Product", "Products", "Staff", "Members", "Member",
    "Everyone", "All", "Others", "Records", "Registry", "Registrar", "Secretariat",
    "Mailroom", "Reception", "Recipients", "Account", "Holder", "Card", "Estate", "Trust",
    "General", "Agency"))
# A person's name alone where a message puts one: after a greeting, a thanks or a request
# ("Hi Thanh,", "Thanks Anh!", "Ask Nomvula about it", "loop in Xochitl?"), before
# "from" and a team ("Anh from support said ..."), or on its own line under a sign-off
# ("Regards,\nThanh"). One or two capitalised words (a hyphen or an apostrophe inside
# one: "Ji-Woo", "O'Neil"); who they may belong to is the recognizer's check
# (`recognizers._greeted_person`): the model misses the rare given names here, which
# its pieces do not know as names.
# a letter's salutation in Spanish, Portuguese, Italian and German; and those that are
# names too ("Cara", "Caro", "Cher"), a salutation only before a title (`tidy._without_title`)
LETTER_SALUTATIONS = ("Estimado", "Estimada", "Querido", "Querida", "Prezado", "Prezada",
                      "Gentile", "Egregio", "Sehr geehrter", "Sehr geehrte", "Lieber", "Liebe")
NAME_SALUTATIONS = ("Cher", "Chère", "Chers", "Caro", "Cara")
_GREETINGS = ("Hi", "Hello", "Hey", "Hiya", "Dear", "Thanks", "Thank you", "Thx", "Cheers",
              "Congrats", "Congratulations", "Welcome", "Morning", "Bye", "Shoutout to",
              "Shout-out to", "Shout out to", "Kudos to", "Props to", "Ask", "Ping",
              "Loop in", "cc'ing", "Per", "As per", "Greetings", "Good morning",
              "Good afternoon", "Good evening", "Namaste",
              # Spanish, Portuguese, French, German and Italian
              "Hola", "Buenos días", "Buenas tardes", "Gracias", "Olá", "Oi", "Bom dia",
              "Obrigado", "Obrigada", "Bonjour", "Bonsoir", "Salut", "Merci", "Hallo",
              "Guten Tag", "Danke", "Ciao", "Buongiorno", "Grazie",
              # and their letters' salutations
              *LETTER_SALUTATIONS,
              # praise and wishes before the one they are for, as comments write them
              # ("Great video Shan!", "Happy birthday Ngozi!", "RIP Kobe")
              "Great video", "Great vid", "Nice video", "Nice vid", "Awesome video",
              "Amazing video", "Good video", "Great job", "Good job", "Nice job",
              "Great work", "Nice work", "Good work", "Well done", "Great post", "Nice post",
              "Nice one", "Happy birthday", "Happy bday", "Get well soon", "RIP",
              "Rest in peace", "Proud of you", "Love you", "Miss you")
_SIGN_OFFS = ("Regards", "Best regards", "Kind regards", "Warm regards", "Best wishes", "Best",
              "Thanks", "Many thanks", "Thank you", "Thanks again", "Cheers", "Sincerely",
              "Yours", "Yours truly", "Yours sincerely", "Respectfully", "Cordially",
              "Take care", "Talk soon", "Rgds", "Warmly", "All the best",
              "Saludos", "Un saludo", "Atentamente", "Gracias", "Atenciosamente", "Abraços",
              "Obrigado", "Obrigada", "Cordialement", "Bien à vous", "Merci", "Viele Grüße",
              "Viele Grüsse", "Liebe Grüße", "Mit freundlichen Grüßen", "Danke", "Grazie",
              "Cordiali saluti", "Saluti",
              # and their short forms and kin ("Att, Thiago", "MfG\nJürgen")
              "Att", "Atte", "Abs", "Bjs", "Cdlt", "Bien cordialement", "MfG", "LG", "VG",
              "BG", "Beste Grüße", "Freundliche Grüße", "Herzliche Grüße", "Un abrazo",
              "Saludos cordiales", "Cordiales saludos", "Distinti saluti",
              # and the Nordic and Dutch ones ("Med vänlig hälsning", "Met vriendelijke groet")
              "Med vänlig hälsning", "Med vänliga hälsningar", "Vänliga hälsningar",
              "Med venlig hilsen", "Venlig hilsen", "Med vennlig hilsen", "Vennlig hilsen",
              "Met vriendelijke groet", "Met vriendelijke groeten", "Vriendelijke groet",
              "Ystävällisin terveisin")
# what introduces its writer's name: in English the name ends as after a greeting; in
# the other languages the phrase alone says a name follows. Not German's "ich bin",
# which its capitalised nouns follow as often ("ich bin Kunde").
_INTRODUCTIONS = ("My name is", "My name's", "This is", "I'm", "I am", "It's", "It is")
# (those that open their clause, `CLAUSE_OPENS`; and what may open it before them)
OPENING_INTRODUCTIONS = ("this is", "i'm", "i am", "it's", "it is")
_OPENERS = ("there", "yes", "yeah", "ok", "okay", "oh", "sorry")
_INTRODUCTIONS_ABROAD = ("Me llamo", "Mi nombre es", "Meu nome é", "Me chamo",
                         "Je m'appelle", "Mi chiamo", "Soy", "Sou", "Je suis", "Sono",
                         "Mein Name ist", "Ich heiße",
                         # and Portuguese's article before a name ("sou o Thiago Mendes")
                         "Sou o", "Sou a", "Aqui é o", "Aqui é a")
_TEAMS = ("support", "billing", "accounts", "sales", "IT", "HR", "legal", "finance",
          "compliance", "ops", "operations", "payroll", "onboarding", "customer service",
          "customer care", "customer support", "tech support", "the help desk", "the helpdesk")
_GREETED_WORD = r"[A-ZÀ-ÖØ-Þ][a-zß-öø-ÿ]+(?:[-'\u2019][A-Za-zÀ-ÖØ-öø-ÿ][a-zß-öø-ÿ]+)?"
_GREETED = rf"{_GREETED_WORD}(?: {_GREETED_WORD})?"
# (each pattern with the cheap first test the engine needs to skip most positions: a
# greeting's or an introduction's first letter, the word "from", a line's start)
_GREETING = trie_pattern(_cases(_GREETINGS, True))
GREETED_NAME = re.compile(
    rf"(?=[{''.join(sorted({w[0] for w in _cases(_GREETINGS, True)}))}])(?<![\w-])"
    rf"(?:{_GREETING})[ \t]+({_GREETED})"
    rf"(?=[ \t]*(?:[,!?;:]|\.(?:\s|$)|['\u2019]s\b|$)|[ \t]+(?:about|for|to|if|when|on|from)\b)",
    re.MULTILINE)
INTRODUCED_NAME = re.compile(
    rf"(?=[{''.join(sorted({w[0] for w in _cases(_INTRODUCTIONS + _INTRODUCTIONS_ABROAD, True)}))}])"
    rf"(?<![\w-])(?:(?:{trie_pattern(_cases(_INTRODUCTIONS, True))})[ \t]+({_GREETED})"
    rf"(?=[ \t]*(?:[,!?;:]|\.(?:\s|$)|$)|[ \t]+(?:from|here|calling|speaking|and)\b)"
    rf"|(?:{trie_pattern(_cases(_INTRODUCTIONS_ABROAD, True))})[ \t]+({_GREETED})(?![\w-]))",
    re.MULTILINE)
# where an introduction by "it's", "this is" or "I'm" opens what its writer says: its
# line's start, a punctuation mark, or a greeting, a thanks or a reply, perhaps with the
# name greeted ("Hi Sam it's Gran"); not after a word of the same clause ("I think it's
# Lloyds", "so I'm Black")
CLAUSE_OPENS = re.compile(
    rf"(?:^|[,.!?;:()\u2014-]|(?<![\w-])(?:{_GREETING}|{trie_pattern(_cases(_OPENERS, True))})"
    rf"(?:[ \t]+{_GREETED})?)[ \t]*\Z", re.MULTILINE)
AND_AFTER = re.compile(r"[ \t]+and\b")  # what may end an introduced name (`recognizers._introduced`)
# a name after a verb of office chat that asks someone to be reached ("ping Marta or
# me", "can you DM Kofi?", "loop in Ravi")
CHAT_VERB_NAME = re.compile(
    rf"(?<![\w-])(?:[Pp]ing|[Aa]sk|[Tt]ell|DM|[Dd]m|[Tt]ext|[Mm]essage|[Ll]oop in|[Ee]mail)"
    rf"[ \t]+({_GREETED})(?![\w-])")
# a name called on before a comma and a request or a question, at a sentence's start
# ("Priyanka, can you review the FX assumptions?", "Mike, please send", "Ana, any
# update?"): found from the request (a literal first character lets the engine skip to
# it), the name before it with `CALLED_NAME`
VOCATIVE_REQUEST = re.compile(
    r",[ \t]+(?:(?:can|could|would|will|do|did|are|have)[ \t]+(?:you|we)|please|pls|"
    r"any[ \t]+(?:update|news|chance|thoughts)|let[ \t]+me[ \t]+know|thoughts\?|"
    r"quick[ \t]+question)\b")
CALLED_NAME = re.compile(rf"(?:^|(?<=[.!?] ))[ \t]*({_GREETED})\Z", re.MULTILINE)
# a name after what a person spends time with them on, as receipts, calendars and
# bookings write it ("Trip with Oleksandr · 4.92", "Call with Priya at 3pm")
WITH_NAME = re.compile(
    rf"(?<![\w-])(?:[Tt]rip|[Rr]ide|[Cc]hat|[Cc]all|[Mm]eeting|[Ss]ession|[Aa]ppointment|"
    rf"[Ll]esson|[Cc]onsultation)[ \t]+with[ \t]+({_GREETED})(?![\w-])")
# a name after a courtesy title of Spanish, Portuguese, German, Italian or French letters
# ("Doña Pilar Echeverría", "Frau Katharina Brandstätter", "Maria das Graças"): one to four
# capitalised words, perhaps with a name's particles between them. Not "Don" or "M.",
# as often a given name and an initial; not the English titles, after which the model
# finds the name itself.
_FOREIGN_TITLES = ("Sr.", "Sra.", "Srta.", "Doña", "Dña.", "Señor", "Señora", "Señorita",
                   "Senhor", "Senhora", "Herr", "Frau", "Sig.", "Sig.ra", "Sig.na", "Mme",
                   "Mme.", "Mlle", "Mlle.", "Monsieur", "Madame", "Dott.", "Dott.ssa", "Dra.",
                   # and who signs for a German firm ("i. A. Markus Feldhaus", "ppa.")
                   "i. A.", "i.A.", "i. V.", "i.V.", "ppa.")
_PARTICLES = r"(?:d[aeo]s?|del|della|di|van|von|der|den|la|le|du)"
TITLED_NAME = re.compile(
    rf"(?=[{''.join(sorted({w[0] for w in _FOREIGN_TITLES}))}])(?<![\w.])"
    rf"(?:{trie_pattern(_FOREIGN_TITLES)})[ \t]+"
    rf"({_GREETED_WORD}(?:[ \t]+(?:{_PARTICLES}[ \t]+)?{_GREETED_WORD}){{0,3}})(?![\w-])")
FROM_TEAM = re.compile(rf"(?<=[ \t])from[ \t]+(?:the[ \t]+)?(?:{trie_pattern(_cases(_TEAMS, True))})\b")
NAME_BEFORE = re.compile(rf"(?<![\w-])({_GREETED})[ \t]+$")
# a greeting, a thanks or a wish right before a word ("Hello ", "Good morning, ")
GREETING_BEFORE = re.compile(rf"(?<![\w-])(?:{_GREETING})[ \t]*,?[ \t]*$")
_SIGN_OFF = trie_pattern(_cases(_SIGN_OFFS, False))
# a sign-off alone on its line's start, before a comma, a slash to its translation or the
# line's end ("Med vänlig hälsning / Kind regards"), whose words the model may read as a
# name ("[Med]")
SIGN_OFF_LINE = re.compile(rf"[ \t]*(?:{_SIGN_OFF})(?=[ \t]*(?:[,!./|]|$))", re.MULTILINE)
SIGNED_NAME = re.compile(
    rf"^[ \t]*(?=[{''.join(sorted({w[0] for w in _SIGN_OFFS}))}])"
    rf"(?:{_SIGN_OFF})[ \t]*[,!.]?[ \t]*\n[ \t]*"
    rf"({_GREETED})[ \t]*$", re.MULTILINE)
# a chat's speaker before what they said, at a line's start, perhaps after the message's
# time ("Thanh: the build is green now", "[10:02] Nomvula: can you check?"): the name, a
# colon, and the message's first three words one space apart, none with a digit, an "@"
# or an "_", one in lower case, the first two not both capitalised (a form's field holds
# a value, a name or a number, not a sentence: "Status: Pending", "Date: 30 Jul 2020",
# "Guarantor: Wen-Hsiung Lo, an individual")
_CLOCK = r"\d{1,2}:\d\d(?::\d\d)?"  # a message's time, perhaps with its seconds
_CHAT_TIME = rf"^[ \t]*(?:[\[(]?{_CLOCK}(?:[ \t]?[AaPp][Mm])?[\])]?[ \t]+)?"
SPEAKER_NAME = re.compile(
    _CHAT_TIME + rf"({_GREETED})[ \t]*:[ \t]+(?=(?:[^\s\d@_]+ ){{2}}[^\s\d@_]+(?:\s|$))"
    r"(?=(?:[^\s\d@_]+ ){0,2}[a-z])(?![A-Z][^\s]* [A-Z])", re.MULTILINE)
# a chat export's line: its stamp (a time, perhaps with its date, in square brackets:
# "[10:03]", "[2024-11-02 09:14:22]", "[12/03/2024, 10:02:11]"; or WhatsApp's date, time
# and dash: "12/03/2024, 10:02 - "), then the speaker's one to four words and a colon; or
# Discord's head of a message, the user's name, an em dash and when ("cryptoqueen88 —
# Today at 10:03 AM"). A form's field has no such stamp. (Its dashes as `fold` leaves
# them: "-".)
_STAMP_TIME = rf"{_CLOCK}(?:[ \t]?[AaPp]\.?[Mm]\.?)?"
_STAMP_DATE = r"\d{1,4}[./-]\d{1,2}[./-]\d{2,4}"
_SPEAKER = r"[^\W\d][\w.'\u2019-]*(?: [^\W\d][\w.'\u2019-]*){0,3}"
CHAT_SPEAKER = re.compile(
    rf"^[ \t]*(?:\[(?:{_STAMP_DATE},?[ \t]+)?{_STAMP_TIME}\]|{_STAMP_DATE},?[ \t]+{_STAMP_TIME}"
    rf"[ \t]+-)[ \t]*({_SPEAKER}):(?=[ \t]|$)"
    rf"|^([^\W\d][\w.-]*)[ \t]+-[ \t]+(?:(?:Today|Yesterday)[ \t]+at|{_STAMP_DATE})[ \t]+"
    rf"{_STAMP_TIME}[ \t]*$", re.MULTILINE)
# a speaker's name in brackets after their role, before the colon, at a line's start
# ("[14:02] Agent (Sipho): Good afternoon!", "SPEAKER 2 (Marcus Oyelaran): Sure.")
SPEAKER_ROLE_NAME = re.compile(
    _CHAT_TIME + r"[A-Z][A-Za-z]*(?:[ \t]+(?:[A-Z][A-Za-z]*|\d{1,2}))?[ \t]*"
    rf"\(({_GREETED})\)[ \t]*:", re.MULTILINE)
# a name after a sign-off on its line, ending the line, after a comma or a spaced dash
# ("Merci, Étienne", "Thanks - Aoife"): found from the comma or the dash (a first
# character of a class lets the engine skip to it), the sign-off before it, at a
# sentence's start, checked with `SIGN_OFF_BEFORE`
COMMA_NAME = re.compile(rf"[,\-\u2013\u2014~](?:(?<=,)|(?<=[ \t][-\u2013\u2014~]))"
                        rf"[ \t]*({_GREETED})[ \t]*[.!]?[ \t]*$", re.MULTILINE)
SIGN_OFF_BEFORE = re.compile(
    rf"(?:^|(?<=[.!?] ))(?:{_SIGN_OFF})[ \t]*\Z", re.MULTILINE)
# a name after a dash after a sentence's end, ending the line ("Thanks for nothing. -
# Rashida")
DASHED_NAME = re.compile(rf"[-\u2013\u2014~](?<=[.!?] [-\u2013\u2014~])[ \t]?"
                         rf"({_GREETED}(?:[ \t][A-Z]\.)?)[ \t]*$", re.MULTILINE)
# a name after a person's role or relation, after "my", "our", "the" or another
# possessive or article, perhaps with one word before the role and "named" or a
# courtesy title after it ("Our server Brianna was amazing", "my financial advisor
# Kevin", "a supervisor named Adaeze", "Ihr Mitarbeiter Herr Özdemir"), or a bracket
# ("My CPA (Linda at H&R Block)"): one or two words, checked as after a greeting
_DETERMINERS = _cases(ROLE_DETERMINERS, False)
ROLE_NAME = re.compile(
    rf"(?=[{''.join(sorted({w[0] for w in _DETERMINERS}))}])(?<![\w-])"
    rf"(?:{trie_pattern(_DETERMINERS)})[ \t]+(?:[a-z]+[ \t]+)?(?:{trie_pattern(ROLES)})[ \t]+"
    rf"(?:(?:named|called)[ \t]+|(?:{trie_pattern(COURTESY_TITLES)})\.?[ \t]+|\()?"
    rf"({_GREETED})(?![\w-])")
# the same role at a name's start, which is no part of it ("teller [Ashley Nguyen]")
ROLE_LEAD = re.compile(rf"(?:(?:{trie_pattern(_DETERMINERS)})[ \t]+)?(?:{trie_pattern(ROLES)})"
                       r"[ \t]+(?=[^\W\d_])")
# a surname alone after a title of office or an English courtesy title, the sentence
# going on in lower case or ending ("Judge Park dissented", "Detective Cross testified",
# "Mr. Cross's letter"): the model misses the surnames that are words too. The word is
# checked as after a greeting; not one that makes a title with the title ("Attorney
# General", "Captain America"). One space after a title written out: more, or a tab, part
# a table's columns ("Analyst    Ext. 4412" of a staff list); an abbreviated title's
# full stop may have two after it, as typists write
_SURNAME_TITLES = OFFICE_TITLES + ENGLISH_TITLES
# (a full stop only after the titles that are abbreviated: after a title written out it
# ends a sentence, "Patricia Okonkwo, Vice President. Attest: ...")
_ABBREVIATED_TITLES = ("Sen", "Rep", "Gov", "Lt. Gov", "Gen", "Col", "Capt", "Lt", "Sgt",
                       "Maj", "Brig", "Cmdr", "Cpl", "Pfc", "Pvt", "Spc", "Det", "Insp", "Supt",
                       "Rev", "Fr", "Adm", "Amb", "Hon", *ENGLISH_TITLES)
TITLED_SURNAME = re.compile(
    rf"(?=[{''.join(sorted({t[0] for t in _SURNAME_TITLES}))}])(?<![\w.-])"
    rf"(?:(?:{trie_pattern(_SURNAME_TITLES)}) |(?:{trie_pattern(_ABBREVIATED_TITLES)})\. {{1,2}})"
    rf"({_GREETED_WORD})"
    r"(?=['\u2019]s\b|[ \t]+[a-z]|[ \t]*[,.;:!?)]|[ \t]*$)", re.MULTILINE)
TITLE_WORDS = frozenset(("General", "America", "Marvel", "House", "Elect", "Emeritus",
                         "Orange", "Pepper"))  # (and "Agent Orange", "Dr Pepper")
# a given name written as two syllables joined by a hyphen, the second in lower case, as
# Korean names are romanised ("Ji-woo", "Seo-yeon", "Min-jun"); not a word with a
# prefix ("Co-op", "Re-send", "Pre-order")
SYLLABLE_NAME = re.compile(r"[A-Z][a-z]{1,4}-[a-z]{2,5}")
NOT_SYLLABLE_NAMES = frozenset({
    "co", "re", "pre", "ex", "non", "self", "anti", "multi", "semi", "sub", "vice", "post",
    "mid", "pro", "mega", "ultra", "over", "under", "out", "well", "half", "all", "low",
    "high", "top", "long", "short", "de", "un", "in", "up", "on", "off", "by", "x", "e",
    "t", "bi", "tri", "mini", "micro", "auto", "inter", "intra", "super", "hyper", "neo"})
# what a greeting or a thanks is said to that is nobody's name ("Hi there", "Thanks again",
# "Cheers mate", "Welcome aboard")
NOT_GREETED = frozenset(w.casefold() for w in (
    "There", "Again", "Guys", "Guy", "Folks", "Mate", "Mates", "Man", "Bro", "Buddy", "Sir",
    "Sirs", "Madam", "Friend", "Friends", "Everybody", "Both", "Much", "So", "Lot", "Anyway",
    "Boss", "Dude", "Love", "Honey", "Doc", "Gents", "Ladies", "Gentlemen", "Aboard", "Back",
    "Home", "World", "Folks", "Y'all", "Yall", "Lads", "Peeps",
    "Fam", "Hun", "Babe", "Darling", "Sweetie", "Chief", "Captain", "Partner", "Pal",
    "Neighbor", "Neighbour", "Colleagues", "Coworkers", "Valued", "Again", "Kindly", "Very",
    "Tons", "Heaps", "Loads", "Alot", "Brother", "Sister", "Sis", "Santa", "God", "Lord",
    "Jesus", "Heavens", "Goodness",
    # and in the other languages greeted ("Hola Equipo", "Danke Schön", "Merci Beaucoup")
    "Equipo", "Equipe", "Equipa", "Amigo", "Amiga", "Amigos", "Todos", "Todas", "Senhor",
    "Senhora", "Señor", "Señora", "Señores", "Beaucoup", "Madame", "Monsieur", "Messieurs",
    "Mesdames", "Tous", "Schön", "Schoen", "Sehr", "Vielmals", "Zusammen", "Leute", "Mille",
    "Tutti", "Ragazzi", "Signore", "Signora", "Herr", "Frau",
    # and the titles said after another ("Herr Doktor", "Señor Presidente")
    "Doktor", "Doctor", "Professor", "Direktor", "Presidente", "Präsident", "Director",
    # and the labels of forms, mails and posts before a colon that the vocabulary lacks,
    # or that are also someone's name ("Attn:", "Edit:", "Reason:"), which a speaker's
    # name may not be
    "Attn", "Bcc", "Fax", "Acct", "Amt", "Qty", "Desc", "Addr", "Msg", "Edit", "NB", "Fwd",
    "Fw", "Subj", "Sig", "DOB", "SSN", "Txn", "Tkt", "Pls", "ETA", "Todo", "FYI", "Btw",
    "Imo", "Tldr", "Nvm", "Pros", "Cons", "Ans", "Sol", "Soln", "Prob", "Misc", "Reason",
    "Admin", "Mod", "Bot", "Host", "Guest", "Agent", "Customer", "User", "Caller", "Rep",
    "Date", "Login", "Username",
    # and the roles a transcript, a hearing's record or a ticket names its speakers by
    # ("Interviewer: When did you first notice?"; a lawsuit's parties are
    # `nobodys.PARTY_ROLES`)
    "Interviewer", "Interviewee", "Panelist", "Panellist", "Deponent", "Juror",
    "Facilitator", "Questioner", "Transcriber", "Stenographer", "Adjudicator", "Arbitrator",
    "Mediator", "Ombudsman", "Attendee", "Dispatcher", "Approver", "Requester", "Requestor",
    "Submitter")) | KIN_ALONE  # (and "Hi Grandma", "it's Gran")
# a handle's name may hold full stops between its characters ("@jasmine.r", as Instagram's)
# or hyphens ("@sarah-okonkwo", as GitHub's)
HANDLE = re.compile(r"(?=@)(?<![\w@.+\-/])@((?=[\w.-]{1,39}(?![\w.-]|[.-]\w))"
                    r"[A-Za-z_][A-Za-z0-9_]*(?:[.-][A-Za-z0-9_]+)*)"
                    r"(?=$|[\s:,;!?)\]'\"\u2019\u201d\u2026]|\.(?!\w))")
# a Reddit user name as the forum writes it ("u/name", "/u/name"): nothing glued before
# it ("reddit.com/u/x", "menu/item"), not a unit after a number ("5 u/min")
REDDIT_USER = re.compile(r"(?=[u/])(?<![\w/.@-])(?<!\d )/?u/([A-Za-z0-9_-]{3,20})"
                         r"(?=$|[\s:,;!?)\]'\"\u2019\u201d\u2026]|\.(?!\w))")
# a post's author as forums and trackers write it, after "posted by", "opened by", "reply
# from" and the like: one word, which `recognizers.Handles` keeps where it has a user
# name's shape and not a name's (`USER_NAME_SHAPE`: "Ifeoma_N", "mkowalski-dev",
# "RetiredInOhio"; not "McDonald" or "DeShawn", `NAME_CAPITALS`, nor a version or a
# ticket's key, `NOT_AUTHORS`)
_POSTED = ("posted", "submitted", "opened", "created", "commented", "reported", "asked",
           "answered", "edited", "closed", "merged")
# (found from "by" or "from", which the engine can skip to, the verb before checked
# with `POSTED_VERB`)
POSTED_BY = re.compile(r"(?=[bBfF])(?<![\w-])(?:by|By|BY|from|From|FROM)[ \t]*:?[ \t]+"
                       r"([A-Za-z][\w.-]{1,38}[A-Za-z\d_])(?![\w@/-])")
POSTED_VERB = re.compile(rf"(?i:\b(?:{'|'.join(_POSTED)})[ \t]+(?=by)|\breply[ \t]+(?=from))"
                         r"[A-Za-z]+[ \t]*:?[ \t]+\Z")
# and in brackets before a colon, as forum exports write a post's author ("Reply
# (dave_w):", "OP (jess_m_1990):")
BRACKETED_AUTHOR = re.compile(r"(?<![\w-])(?:[Rr]eply|REPLY|OP|[Cc]omment|[Aa]nswer|[Pp]ost)"
                              r"[ \t]*\(([A-Za-z][\w.-]{1,38}[A-Za-z\d_])\)[ \t]*:")
USER_NAME_SHAPE = re.compile(r"[\w.-]*(?:[_\d]|[a-z]-[a-z]|[a-z][A-Z])")
NAME_CAPITALS = re.compile(r"(?:Mc|Mac|De|Di|Da|Du|La|Le|Van|Von|St)[A-Z][a-z]+")
# and not a version or a ticket's key, which close and merge posts too ("v2.3.1", "PR-123")
NOT_AUTHORS = re.compile(r"[vV]\d[\w.-]*|[A-Z]{2,}-\d+")
# a user's name as the directory of a home in a path: "/home/rkapoor/", "/Users/ann.lee/",
# "C:\Users\Svetlana.Ivanova\" (a stack trace's or a log's); not the names systems and CI
# give their own users (`NOT_HOME_USERS`)
# a person's profile address on a social site, whose path is their user name
# ("linkedin.com/in/jordanlee", "x.com/sallykohn", "instagram.com/ewa.k",
# "github.com/mkowalski-dev"); not the sites' own pages (`NOT_PROFILES`), nor a GitHub
# path that goes on to a repository ("github.com/pytorch/pytorch": an organisation as
# often as a person)
PROFILE_URL = re.compile(
    r"(?=[fgilmrtwxy])(?<![\w.-])(?:www\.)?(?:linkedin\.com/in|twitter\.com|x\.com|facebook\.com|"
    r"instagram\.com|tiktok\.com/@|medium\.com/@|threads\.net/@|youtube\.com/@|"
    r"reddit\.com/u(?:ser)?|github\.com(?=/[\w.-]+(?:/?(?:[?#\s)\],;:'\"]|$)|\.(?:\s|$))))"
    r"/([A-Za-z0-9_][\w.-]{1,99}?)(?=[/?#]|\.?(?:\s|$)|[)\],;:'\"])")
# the user name in a person-to-person payment's link ("paypal.me/jaylenbrooks",
# "venmo.com/u/marisol-v", "cash.app/$JaylenB2004", "revolut.me/ewakowal", "monzo.me/tom")
PAYMENT_URL = re.compile(r"(?=[pvcrm])(?<![\w.-])(?:www\.)?(?:paypal\.me|venmo\.com(?:/u)?|"
                         r"cash\.app/\$|revolut\.me|monzo\.me)/?([A-Za-z0-9_][\w.-]{1,39}?)"
                         r"(?=[/?#]|\.?(?:\s|$)|[)\],;:'\"])")
# an Ethereum Name Service name, a crypto wallet's name as its owner gives it ("My ENS is
# segun.eth"): lower-case labels, the last ".eth"
ENS_NAME = re.compile(r"(?<![\w.@/-])((?:[a-z0-9][a-z0-9-]*\.)+eth)(?![\w-]|\.\w)")
# a Cash App user's "$cashtag" ("my Cash App $JaylenB2004"), taken only where the app or
# the cashtag is named before it on its line (`CASH_APP`): elsewhere "$" and a word is a
# ticker ("$TSLA") or a program's variable ("$user"); a ticker in capitals stays even there
CASHTAG = re.compile(r"\$([A-Za-z][A-Za-z0-9_-]{0,19})(?![\w$-])")
CASH_APP = re.compile(r"(?i:cash[ \t]?app|cash[ \t]?tag).{0,60}$")
TICKER = re.compile(r"[A-Z]{1,5}")
# an Indian UPI payment address ("ramesh.kumar@okhdfcbank", "9876543210@paytm"): a name or
# a phone number, "@" and the payment app's or bank's handle, with no dot after it (an
# email address has its domain's); where "UPI" or "VPA" is written before it on its line
# (`UPI_BEFORE`), any handle; elsewhere one of the apps' own (`UPI_HANDLES`)
UPI_ID = re.compile(r"([\w.-]{2,64}@([a-z]{2,20}))(?![\w@-]|\.\w)")
UPI_BEFORE = re.compile(r"\b(?:UPI|VPA|upi|vpa)\b.{0,60}$")
UPI_HANDLES = frozenset(("okhdfcbank", "okaxis", "okicici", "oksbi", "ybl", "ibl", "axl",
                         "paytm", "apl", "upi", "ptyes", "ptaxis", "pthdfc", "ptsbi"))
NOT_PROFILES = frozenset({
    "home", "search", "explore", "login", "signup", "settings", "about", "help", "share",
    "sharer", "sharer.php", "profile.php", "intent", "hashtag", "i", "messages",
    "notifications", "groups", "pages", "events", "marketplace", "watch", "orgs", "topics",
    "features", "pricing", "enterprise", "sponsors", "apps", "policies", "privacy", "terms",
    "legal", "jobs", "company", "school", "feed", "pulse", "learning", "reel", "reels", "p",
    "stories", "tag", "tags", "status", "compose", "tos", "business", "ads", "developers"})
# the user a web server's access log names (the Common and Combined Log Formats: the
# client's address, "-", the user, the time in brackets): "10.0.4.17 - jdoe
# [05/Dec/2026:07:12:39 +0000]"; "-" where there is none, which is no value to mask
ACCESS_LOG_USER = re.compile(r"(?m)^[\w.:-]+[ \t]+\S+[ \t]+([^\s\[\]\"]+)[ \t]+"
                             r"\[\d{2}/[A-Z][a-z]{2}/\d{4}:\d{2}:\d{2}:\d{2}")
HOME_DIR = re.compile(r"(?:(?<![\w.~-])/(?:home|Users)/|(?<![\w])[A-Za-z]:\\(?:Users|Documents and Settings)\\)"
                      r"([A-Za-z0-9_][\w.@-]{0,63}?)(?=[/\\]|$|[\s'\"),;:])")
NOT_HOME_USERS = frozenset({
    "public", "default", "default user", "all users", "shared", "guest", "root", "runner",
    "runneradmin", "ubuntu", "ec2-user", "admin", "administrator", "user", "username", "vagrant",
    "jenkins", "git", "www-data", "travis", "circleci", "node", "app", "you", "me", "name",
    "yourname", "your_user", "your-user", "your_username", "codespace", "vscode", "coder",
    "linuxbrew", "pi", "centos", "debian", "fedora", "opc", "azureuser", "docker", "postgres",
    "mysql", "nobody", "appveyor", "build", "buildbot", "ci", "test", "tester", "demo", "dev",
    "developer", "work", "workspace", "myuser", "john.doe", "jdoe", "foo", "bar", "x"})
# a chat log's nick as IRC and its exports write it, after the line's time stamp in
# brackets ("[2026-11-02 09:14] <kwame_a> ..."), or as other chats' exports do, with full
# stops between its parts ("<priya.k>"); without the time stamp "<name>" is markup
CHAT_NICK = re.compile(r"(?m)^[ \t]*\[[^\]\n]{3,30}\][ \t]*<[@+%]?"
                       r"([A-Za-z_\\`^{}|\[\]][\w\\`^{}|\[\]-]{1,29}(?:\.[\w-]+)*)>")
# what stands in angle brackets after a log line's stamp and is no nick
NOT_NICKS = frozenset({"module", "stdin", "stdout", "stderr", "string", "lambda", "genexpr",
                       "listcomp", "dictcomp", "setcomp", "unknown", "none", "null", "nil",
                       "anonymous", "main", "html", "head", "body", "div", "span", "br", "hr",
                       "script", "style", "table", "tr", "td", "th", "root", "xml", "p", "a",
                       "b", "i", "u", "li", "ul", "ol", "pre", "code", "em", "strong"})
# names after "@" that are code, markup or everyone in a channel, not a user
NOT_HANDLES = frozenset({
    "param", "return", "returns", "throws", "throw", "see", "since", "author", "version",
    "deprecated", "type", "typedef", "example", "link", "inheritdoc", "override", "todo",
    "media", "import", "charset", "supports", "keyframes", "font", "page", "namespace",
    "layer", "container", "tailwind", "apply", "include", "mixin", "extend", "if", "else",
    "each", "use", "forward", "interface", "implementation", "end", "synthesize",
    "property", "protocol", "here", "channel", "everyone", "all", "someone", "font-face",
    "counter-style", "font-feature-values", "font-palette-values", "starting-style",
    "view-transition", "position-try", "scope"})
# words that follow a code annotation on its own line ("@Test public void run()")
AFTER_ANNOTATION = frozenset({
    "public", "private", "protected", "internal", "static", "final", "abstract", "open",
    "override", "func", "fun", "def", "async", "class", "void", "var", "val", "let",
    "const", "export", "readonly", "suspend", "inline", "data", "sealed"})
# A pattern that starts with a look-behind or "\b" gives the regex engine no first
# character to scan for, so it tries the whole pattern at every position; a look-ahead
# for the first character the pattern needs anyway ("(?=\d)", here and in FIRMS,
# UK_POSTCODE and HANDLE above) lets it skip ahead (a quarter to a half less time, the
# same matches).
IBAN = re.compile(r"(?=[A-Z])\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b")
CARD = re.compile(r"(?=\d)(?<![\d-])\d(?:[ -]?\d){11,18}(?![\d-])")
CVV = re.compile(r"(?i)\b(?:cvv2?|cvc2?|cid|card security code|security code|csc)\b\W{0,6}"
                 r"(?:\w+\W{1,3}){0,2}?(\d{3,4})\b")
CVV_WORDS = ("cvv", "cvc", "cid", "security code", "csc")  # one is in every match, casefolded
# a user name after its keyword ("Your username is tamika.j.reed", "User ID: ksharma",
# "user=rpatel"), which the model reads as a person's name or misses; one token with a
# letter in it, perhaps quoted, not an email address (the `email` recognizer's) nor what
# code assigns ("user = User.objects.create(...)"); after "is", no word of the
# vocabulary ("my username is not working": `recognizers._user_name`)
USER_NAME = re.compile(r"(?i)(?=u)\b(?:user[ _-]?name|user[ _-]?id|user(?=[ \t]*=))"
                       r"[ \t]*(?:is|:|=)[ \t]*:?[ \t]*[\"']?"
                       r"((?=[\w.+-]*[A-Za-z])[A-Za-z0-9](?:[\w.+-]{0,62}[A-Za-z0-9_])?)(?![\w+@(-]|\.\w)")
# a phone number after its keyword, in English and the languages of Europe and Latin
# America ("Mobil: 0171 2345678", "Mon portable : 06 12 34 56 78", "Tel. 030 1234567"):
# where no "+" gives its country, the US's and the UK's numbering plans (`recognizers.Phones`)
# cannot read it; eight to fifteen digits (`recognizers._phone_digits`)
KEYED_PHONE = re.compile(
    r"(?i)(?=[cfhmptw])\b(?:tel|tél|phone|telephone|téléphone|telefon|telefone|teléfono|telefono|mobile?|"
    r"mobil|handy|portable|cell|cellphone|cellulare|celular|móvil|movil|fax|mob|whatsapp)"
    r"\.?(?:[ \t]+(?:no|nr|number|n°|nº)\.?)?[ \t]*:?[ \t]*(\+?\(?\d[\d()./ -]{5,20}\d)(?![\w-])")
PHONE_WORDS = ("tel", "tél", "phone", "mob", "handy", "portable", "cell", "celular", "móvil",
               "movil", "fax", "whatsapp")  # one is in every match, casefolded
# a PIN, a passcode or a one-time code after its keyword ("your temporary passcode is
# 884120", "OTP: 551903"), which a bank's or an app's message sends in clear; four to
# eight digits
ACCESS_CODE = re.compile(r"(?i)\b(?:pass ?code|pin(?: code| number)?|one-time code|otp|"
                         r"verification code|access code|authentication code|sign-in code|"
                         r"login code)\b[ \t]*(?:is|was|#)?[ \t]*:?[ \t]*(\d{4,8})\b")
ACCESS_WORDS = ("pass", "pin", "code", "otp")  # one is in every match, casefolded
SSN = re.compile(r"(?=\d)(?<![\d-])\d{3}([- ])\d{2}\1\d{4}(?![\d-])")
NINE = re.compile(r"(?=\d)(?<![\d-])\d{9}(?![\d-])")
SSN_CONTEXT = re.compile(r"(?i)\b(?:ssn|social security|soc\.? sec|taxpayer id|tin)\b")
ROUTING_CONTEXT = re.compile(r"(?i)\b(?:routing|aba|rtn|transit)\b|⑆")  # ⑆: MICR's transit symbol
BIC = re.compile(r"(?=[A-Z])\b[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?\b")
BIC_CONTEXT = re.compile(r"(?i)\b(?:swift|bic)\b")
# India's IFSC, a bank branch's code (the bank's four letters, "0", the branch's six),
# after its keyword ("IFSC: HDFC0001234")
IFSC = re.compile(r"[A-Z]{4}0[A-Z0-9]{6}(?![\w-])")
IFSC_CONTEXT = re.compile(r"\b(?:IFSC|ifsc|Ifsc)\b")
LATLNG = re.compile(r"(?=[-\d(l])(?<![\w.-])(?:lat(?:itude)?:? ?)?\(?(-?\d{1,2}\.\d{3,8}),? ?(?:lon(?:g|gitude)?:? ?)?"
                    r"(-?\d{1,3}\.\d{3,8})\)?(?![\w.])")
IPV4 = re.compile(r"(?=\d)(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])")
# a program and its version, as a user agent or a log writes it ("Chrome/120.0.0.0",
# "okhttp/4.12.0"): no address and nobody's; and the program's name and slash before a
# version (not a path's "api/v1/" nor a scheme's "//")
PRODUCT_VERSION = re.compile(r"[A-Za-z][\w.+-]*/\d+(?:\.\d+)+")
PRODUCT_BEFORE = re.compile(r"(?<![\w/.-])[A-Za-z][\w.+-]*/$")
IPV6 = re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])")
DATES = re.compile(
    r"(?<![\w/.-])(?:"
    rf"\d{{4}}-\d{{1,2}}-\d{{1,2}}(?:[T ]{TIME})?"           # 2023-01-15, 2023-01-15T10:30:00Z
    r"|\d{4}/\d{1,2}/\d{1,2}"                                # 2023/01/15
    r"|\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})"              # 15/01/2023, 01-15-23, 15.01.2023
    rf"|\d{{1,2}}(?:st|nd|rd|th)?[ -](?:day of |of )?{MONTH}\.?,?[ -]\d{{4}}"  # 15 January 2023
    rf"|{MONTH}\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}"         # January 15, 2023
    rf"|{MONTH} \d{{4}}"                                      # March 2023
    rf"|(?<!day of ){MONTH}, \d{{4}}"         # March, 2023 (not after a day in words)
    r")(?:,? (?:at )?" + TIME + r")?(?![\w/-])")
# A date written in German, French, Spanish, Portuguese, Italian or Dutch: the day (German's
# full stop, French's "er", an ordinal's "º"), perhaps "de", the month's name, perhaps the
# year ("3. März 2024", "12 février", "15 de marzo de 2024", "10 aprile 2024");
# the names English spells the same only after German's full stop ("3. April")
FOREIGN_MONTHS = (
    "Januar", "Jänner", "Februar", "März", "Mai", "Juni", "Juli", "Oktober", "Dezember",
    "janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre",
    "octobre", "novembre", "décembre", "enero", "febrero", "marzo", "abril", "mayo", "junio",
    "julio", "agosto", "septiembre", "setiembre", "octubre", "noviembre", "diciembre",
    "janeiro", "fevereiro", "março", "maio", "junho", "julho", "setembro", "outubro",
    "dezembro", "gennaio", "febbraio", "aprile", "maggio", "giugno", "luglio", "settembre",
    "ottobre", "dicembre", "januari", "februari", "maart", "mei", "augustus")
# (as written, German's capitalised and the others' in lower case, or in capitals: "12 Mars
# bars" is no date)
FOREIGN_DATE = re.compile(
    rf"(?<![\w/.,-])(\d{{1,2}})(?:\.[ \t]*(?:April|August|September|November|December)(?![\w-])"
    rf"|(?:\.|er|º|°)?[ \t]+(?:de[ \t]+)?"
    rf"(?:{trie_pattern(FOREIGN_MONTHS + tuple(m.upper() for m in FOREIGN_MONTHS))})(?![\w-]))"
    rf"(?:(?:,?[ \t]+|[ \t]+del?[ \t]+)(?:19|20)\d\d(?![\w-]))?")
# not the office and year that open a case's docket number ("3:24-cv-01187"), nor a race's
# time in minutes, seconds and their hundredths ("Faith Kipyegon (Kenya) 3:50.07")
TIMES = re.compile(r"(?<![\w:.])" + TIME + r"(?![\w:]|-[A-Za-z]|\.\d)")
# A cheque's MICR line: ⑆transit (routing or sort code)⑆ on-us (account number)⑈
MICR = re.compile(r"⑆ ?(\d[\d -]{4,12}\d) ?⑆ ?([0-9A-Z][0-9A-Z -]{2,30}?[0-9A-Z]) ?⑈")
# A travel document's machine-readable zone (ICAO 9303) as a scan's text holds it: a
# passport's two lines of 44 characters (TD3: its type, issuing state and holder's name;
# then its number, nationality, birth date, sex, expiry and their check digits) or an
# identity card's three lines of 30 (TD1: type, state and number; the dates; the name).
# "<" fills; the name is the surname, "<<", and the given names apart by "<" (group
# "name": a passport's whole first line, which holds no space to part them).
MRZ_PASSPORT = re.compile(r"^[ \t]*(?P<name>P[A-Z<][A-Z<]{3}[A-Z<]{39})[ \t]*\n[ \t]*"
                          r"(?P<number>(?P<doc>[A-Z0-9<]{9})(?P<doc_check>\d)[A-Z<]{3}"
                          r"(?P<born>\d{6})(?P<born_check>\d)[MFX<]\d{7}[A-Z0-9<]{14}[\d<]\d)"
                          r"[ \t]*$", re.MULTILINE)
MRZ_CARD = re.compile(r"^[ \t]*(?P<number>[ACI][A-Z<][A-Z<]{3}(?P<doc>[A-Z0-9<]{9})"
                      r"(?P<doc_check>\d)[A-Z0-9<]{15})[ \t]*\n[ \t]*(?P<dates>(?P<born>\d{6})"
                      r"(?P<born_check>\d)[MFX<]\d{7}[A-Z<]{3}[A-Z0-9<]{11}\d)[ \t]*\n[ \t]*"
                      r"(?P<name>[A-Z<]{30})[ \t]*$", re.MULTILINE)
MRZ_VALUES = {c: k for k, c in enumerate("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")} | {"<": 0}


def mrz_check(field: str, digit: str) -> bool:
    """Whether a machine-readable zone's field has the check digit written after it
    (ICAO 9303: its characters' values weighted 7, 3, 1 in turn, modulo 10)."""
    return sum(MRZ_VALUES[c] * (7, 3, 1)[k % 3] for k, c in enumerate(field)) % 10 == int(digit)


# Fields of SWIFT MT940/MT942 statements that are never personal data: balances
# (":60F:C240131EUR1234,56"), statement lines up to the owner's reference
# (":61:2401310131D12,50NTRFNONREF"), sums, floor limits, the statement number.
SWIFT_FIGURES = re.compile(r"(?m)^(?::6[02][FM]:|:6[45]:)[CD]\d{6}[A-Z]{3}\d[\d,]*"
                           r"|^:61:\d{6}(?:\d{4})?R?[CD][A-Z]?\d[\d,]*[NFS][A-Z0-9]{3}[^\n/]{0,16}"
                           r"|^:9[08][DC]:\d+[A-Z]{3}\d[\d,]*|^:34F:[A-Z]{3}[CD]?\d[\d,]*"
                           r"|^:28C:\d+(?:/\d+)?")
# The qualified names of Java classes that logs print, and a stack trace's frames
# ("java.lang.IllegalStateException", a logger's "c.n.p.PaymentService", "at
# com.northgate.payments.PaymentService.charge(PaymentService.java:142)"): code, whose
# dotted packages and CamelCase class the model reads as names, firms and secrets. Two
# lower-case packages at least ("fine.Thanks" of a missed space is none).
JAVA_NAMES = re.compile(r"(?:[a-z][a-z0-9_]*\.){2,}[A-Z][\w$]*(?:\.[\w$<>]+)*"
                        r"(?:\([\w$.-]*(?::\d+)?\))?")
# The identifiers an ISO 20022 payment message gives itself (pain.001, pacs.008, camt):
# references chosen by a bank or its software, not by or about a person
ISO_REFERENCES = re.compile(r"<((?:\w+:)?(?:MsgId|PmtInfId|InstrId|EndToEndId|TxId|UETR))>"
                            r"([^<]{1,64})</\1>")


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


# the validators a declared recognizer may name (a policy file, Presidio's YAML): each
# takes the matched text and says whether its check passes
_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def valid_base58check(value: str) -> bool:
    """A Bitcoin address in base58: its last four bytes are the first four of the
    double SHA-256 of the rest."""
    number = 0
    for c in value:
        if c not in _BASE58:
            return False
        number = number * 58 + _BASE58.index(c)
    raw = number.to_bytes(25, "big") if number < 1 << 200 else b""
    return len(raw) == 25 and hashlib.sha256(hashlib.sha256(raw[:-4]).digest()).digest()[:4] == raw[-4:]


_BECH32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"


def valid_bech32(value: str) -> bool:
    """A Bitcoin address in bech32 or bech32m ("bc1..."): its BCH checksum (BIP 173, 350)."""
    value = value.lower()
    hrp, _, data = value.rpartition("1")
    if hrp != "bc" or len(data) < 7 or any(c not in _BECH32 for c in data):
        return False
    check = 1
    for v in [ord(c) >> 5 for c in hrp] + [0] + [ord(c) & 31 for c in hrp] + \
            [_BECH32.index(c) for c in data]:
        top, check = check >> 25, (check & 0x1FFFFFF) << 5 ^ v
        for i, g in enumerate((0x3B6A57B2, 0x26508E6D, 0x1EA119FA, 0x3D4233DD, 0x2A1462B3)):
            check ^= g if top >> i & 1 else 0
    return check in (1, 0x2BC830A3)  # bech32, bech32m


# A crypto wallet's address: Ethereum's ("0x" and 40 hex digits), Bitcoin's in base58
# ("1..." or "3...") or bech32 ("bc1..."); the checksums are the recognizer's
CRYPTO_WALLET = re.compile(r"(?=[0-9bB])(?<![\w])(?:0x[0-9a-fA-F]{40}|[13][1-9A-HJ-NP-Za-km-z]{25,34}"
                           r"|(?:bc|BC)1[02-9ac-hj-np-zAC-HJ-NP-Z]{11,71})(?![\w])")


def valid_wallet(value: str) -> bool:
    """An Ethereum address by its shape; a Bitcoin address by its checksum."""
    if value.startswith("0x"):
        return True
    return valid_bech32(value) if value[:3].lower() == "bc1" else valid_base58check(value)


VALIDATORS = {
    "luhn": lambda value: luhn(_digits(value)),
    "card": valid_card,
    "mod97": valid_iban,
    "aba": lambda value: valid_routing(_digits(value)),
    "verhoeff": lambda value: verhoeff(_digits(value)),
    "ssn": valid_ssn,
    "bic": lambda value: valid_bic(value.upper()),
}


# Numbers, dates and email addresses as people say them, in call transcripts and in
# what speech recognition writes: "four four seven one", "oh nine", "double five", with
# spaces, commas or hyphens between; a month with its day and year in words ("March
# third, nineteen eighty-two"); "dwayne dot pettigrew at gmail dot com".
SPOKEN_DIGIT = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4",
                "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9"}
_DIGIT_WORD = r"(?:(?:double|triple)[ \t]+)?(?:%s)" % "|".join(SPOKEN_DIGIT)
SPOKEN_DIGITS = re.compile(rf"(?i)(?=[zotfsend])(?<![\w-]){_DIGIT_WORD}(?:(?:[ \t]*[,-][ \t]*|[ \t]+)"
                           rf"{_DIGIT_WORD}){{2,}}(?![\w-])")  # four digits at least: counted after the match
_ORDINAL = (r"(?:(?:twenty|thirty)[ -])?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|"
            r"ninth)|tenth|eleventh|twelfth|(?:thir|four|fif|six|seven|eigh|nine)teenth|"
            r"twentieth|thirtieth")
_TENS = r"(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ -](?:one|two|three|four|five|six|seven|eight|nine))?"
_TEENS = r"(?:ten|eleven|twelve|(?:thir|four|fif|six|seven|eigh|nine)teen)"
_SPOKEN_YEAR = (rf"(?:nineteen|twenty)[ -](?:{_TENS}|{_TEENS}|oh[ -](?:one|two|three|four|five|six|"
                rf"seven|eight|nine)|hundred)|two thousand(?:(?: and)? (?:{_TENS}|{_TEENS}|one|two|"
                rf"three|four|five|six|seven|eight|nine))?")
MONTH_NAME = "(?:%s)" % "|".join(MONTHS)  # read case-blind where it is used
# digits said one by one as a call's automatic transcript writes them, a space or a comma
# and a space between ("call me back at 8 6 6, 5 5 5, 0 1 9 2"): seven at least
SENTENCE_END = re.compile(r"[.!?\n]")
SPACED_DIGITS = re.compile(r"(?=\d)(?<![\w.,-])(?<!\d )(?<!\d, )\d(?:,? \d){6,}(?![\w-]|\.\d)")
SPOKEN_DATE = re.compile(
    rf"(?i)\b{MONTH_NAME}[ \t]+(?:{_ORDINAL})\b(?:,?[ \t]+(?:{_SPOKEN_YEAR})\b)?")
SPOKEN_EMAIL = re.compile(r"(?i)(?=[a-z0-9_])(?<![\w.])[a-z0-9_]+(?:[ \t]+(?:dot|underscore)[ \t]+[a-z0-9_]+)*"
                          r"[ \t]+at[ \t]+[a-z0-9-]+(?:[ \t]+dot[ \t]+[a-z0-9-]+)*[ \t]+dot[ \t]+"
                          r"(?:com|org|net|edu|gov|io|co|uk|us|ca|au|de|fr|in|info|biz|me)\b")
# an email address disguised from scrapers, its "@" written "[at]" or "(at)" in brackets
# and its dots perhaps "[dot]" ("marisol[at]vegalaw[dot]com", "j.okafor (at) mail.ng")
BRACKETED_EMAIL = re.compile(r"(?i)[\w.+-]+[ \t]*[\[(]at[\])][ \t]*[\w-]+"
                             r"(?:(?:[ \t]*[\[(]dot[\])][ \t]*|\.)[\w-]+)+")
# what a spoken number is, by the words before it
SPOKEN_KINDS = (
    ("credit_card_number", re.compile(r"(?i)\b(?:card|visa|mastercard|amex|discover)\b")),
    ("ssn", re.compile(r"(?i)\b(?:ssn|social|soc sec)\b")),
    ("bank_routing_number", re.compile(r"(?i)\b(?:routing|aba)\b")),
    ("account_pin", re.compile(r"(?i)\b(?:pin|passcode|password|security code)\b")),
    ("customer_id", re.compile(r"(?i)\b(?:account|acct|member|policy|claim|case|ticket|order|"
                               r"reference|confirmation)\b")),
    ("phone_number", re.compile(r"(?i)\b(?:phone|call|reach|cell|mobile|text|fax)\b")),
)  # not "number", which every kind has, nor "customer", a transcript's speaker


def spoken_digits(value: str) -> str:
    """The digits a spoken number says ("double five one" is "551")."""
    out, times = [], 1
    for word in re.findall(r"[a-z]+", value.lower()):
        if word in ("double", "triple"):
            times = 2 if word == "double" else 3
        elif word in SPOKEN_DIGIT:
            out.append(SPOKEN_DIGIT[word] * times)
            times = 1
    return "".join(out)


def spoken_keyword(text: str, start: int, in_sentence: bool = False) -> str | None:
    """The kind the nearest keyword in the 50 characters before a spoken number names
    (`SPOKEN_KINDS`), or None; `in_sentence`: only after the last sentence's or line's end
    among them."""
    before = text[max(0, start - 50):start]
    if in_sentence:
        before = SENTENCE_END.split(before)[-1]
    found = [(m.end(), kind) for kind, pattern in SPOKEN_KINDS for m in pattern.finditer(before)]
    return max(found)[1] if found else None


def spoken_kind(text: str, start: int, digits: int) -> str:
    """The kind of a spoken number: named by the nearest keyword in the 50 characters
    before it (`spoken_keyword`), else by its length (16 digits a card, 10 or 11 a
    phone, else an account or customer number)."""
    keyword = spoken_keyword(text, start)
    if keyword is not None:
        return keyword
    if digits >= 13:
        return "credit_card_number"
    return "phone_number" if digits in (10, 11) else "customer_id"


# a year of birth after its keyword ("Year of Birth: 1979", "YOB 1979", "DOB: 1979"),
# which the dates' shapes (a day, a month and a year) do not take alone
BIRTH_YEAR = re.compile(r"(?i)(?=[ybd])\b(?:year\s+of\s+birth|birth\s*year|yob|dob|date\s+of\s+birth)"
                        r"\s*[:#-]?\s*((?:19|20)\d\d)(?![\w/.-]*\d)")


def context(text: str, start: int, pattern: re.Pattern, before: int = 40) -> bool:
    """Whether `pattern` occurs in the `before` characters ahead of `start`."""
    return bool(pattern.search(text, max(0, start - before), start))


def real_date(value: str) -> bool:
    """Reject shapes that are no calendar date (month 13, day 32, 2023-02-30)."""
    numbers = [int(n) for n in re.findall(r"\d+", value.split("T")[0])[:3]]
    if len(numbers) < 3 or re.search(r"[A-Za-z]{3}", value.split("T")[0]):
        return True  # a month name: the regex already pinned the shape
    a, b, c = numbers
    if a > 31:                      # year first
        candidates = [(a, b, c)]
    else:
        year = c + 2000 if c < 100 else c
        candidates = [(year, b, a), (year, a, b)]  # day/month or month/day
    for y, m, d in candidates:
        try:
            date(y, m, d)
            return 1900 <= y <= 2100
        except ValueError:
            continue
    return False


# A court reporter's citation, as opinions and briefs cite cases ("617 F.3d 688, 706",
# "578 U.S. 330, 339", "2021 WL 4307384"): a volume, the reporter's abbreviation, the
# first page and any pages cited after it; and a joint appendix's pages ("J.A. 214-16").
# The model reads the first as an address and the appendix's initials as a person's.
REPORTERS = ("U.S.", "S. Ct.", "S.Ct.", "L. Ed. 2d", "L. Ed.", "F.4th", "F.3d", "F.2d", "F.",
             "F. Supp. 3d", "F. Supp. 2d", "F. Supp.", "F. App'x", "F. App\u2019x", "B.R.",
             "Fed. Cl.", "A.3d", "A.2d", "N.E.3d", "N.E.2d", "N.W.2d", "S.W.3d", "S.W.2d",
             "S.E.2d", "P.3d", "P.2d", "So. 3d", "So. 2d", "Cal. Rptr. 3d", "Cal. Rptr. 2d",
             "N.Y.S.3d", "N.Y.S.2d", "WL")
CASE_CITATION = re.compile(
    r"(?<![\w.])\d{1,4} (?:%s) \d{1,7}(?:(?:, |[-\u2013])\d{1,7})*(?![\w.]\w)"
    r"|(?<![\w.])J\.A\. \d{1,5}(?:[-\u2013]\d{1,5})?(?!\w)" % "|".join(
        map(re.escape, sorted(REPORTERS, key=len, reverse=True))))


# A cited work's authors, as papers, research notes and the studies banks and regulators
# publish cite them, where the model (which never saw a citation) leaves an author after
# "&" or "and" in clear. A reference list's authors: each a surname, a comma and its
# initials, joined by commas, "&" or "and", then the year ("Acemoglu, D., Johnson, S., &
# Robinson, J. A. (2001)", "Harvey, C.R., Liu, Y. and Zhu, H., 2016"; the group, each
# author one `REFERENCE_AUTHOR`). And in running text: one surname, two joined, three or
# more in a list, or one and "et al.", before a year in brackets ("Fama and French
# (1993)", "Smith et al. (2019)") or in brackets before a comma and a year ("(Hou, Xue
# and Zhang, 2015; Novy-Marx, 2013)"; the group, each surname one `CITED_SURNAME`).
# Whether each is a name is `recognizers.CitedAuthors`'s to say.
# (not `_PARTICLE`: its "do" is English's verb before a surname in running text, "so do
# Servon and Kaestner (2008)")
_CITED_SURNAME = r"(?:(?:van|von|de|der|den|del|della|da|di|du|le|la|dos|ten) ){0,2}" \
                 r"[A-ZÀ-ÖØ-ÞĀ-Ž][^\W\d_'\u2019-]*(?:-[^\W\d_]+|['\u2019](?!s\b)[^\W\d_]+)*"
_INITIALS = r"[A-Z]\.(?:[ -]?[A-Z]\.){0,3}"
_YEAR = r"(?:19|20)\d\d[a-z]?"
REFERENCE_AUTHOR = re.compile(rf"({_CITED_SURNAME}), {_INITIALS}")
REFERENCE_AUTHORS = re.compile(
    rf"(?<![\w.,'\u2019-])({_CITED_SURNAME}, {_INITIALS}"
    rf"(?:,? (?:&|and) {_CITED_SURNAME}, {_INITIALS}|, {_CITED_SURNAME}, {_INITIALS})*)"
    rf"(?:,? et al\.)?,? \(?{_YEAR}(?!\w)")
_CITED = rf"{_CITED_SURNAME}(?: et al\.?|(?:, {_CITED_SURNAME})*,? (?:and|&) {_CITED_SURNAME})?"
CITED_AUTHORS = re.compile(
    rf"(?<![\w.'\u2019-])({_CITED})(?:['\u2019]s)? \({_YEAR}(?=[,;:)])"
    rf"|(?:\(|; )(?:(?:see|see also|cf\.|e\.g\.,?) )?({_CITED}), {_YEAR}(?=[,;:)])")
CITED_SURNAME = re.compile(rf"(?<![\w'\u2019-]){_CITED_SURNAME}")
# where one may end: a year after a word and " (" or ", " (not a date's "June 16th, 2019")
CITATION_YEAR = re.compile(rf"(?: \(|, )(?<=[^\d\s] \(|[^\d\s], )(?<!\d[a-z]{{2}}, )"
                           rf"{_YEAR}(?!\d)")


# the states as citations abbreviate them where they are no initials ("Cal.", "Ill.")
COURT_STATES = ("Ala", "Alaska", "Ariz", "Ark", "Cal", "Colo", "Conn", "Del", "Fla", "Ga",
                "Haw", "Idaho", "Ill", "Ind", "Iowa", "Kan", "Ky", "La", "Me", "Md", "Mass",
                "Mich", "Minn", "Miss", "Mo", "Mont", "Neb", "Nev", "Ohio", "Okla", "Or", "Pa",
                "Tenn", "Tex", "Utah", "Vt", "Va", "Wash", "Wis", "Wyo", "Guam")
# A US court's abbreviation as a case's citation writes it in brackets, perhaps with the
# year or the day's date, perhaps after what happened that day (the abbreviation is the
# group): a district ("(S.D. Cal.)", "(S.D.N.Y. 2019)", "(N.D. Cal. Mar. 4, 2019)",
# "(S.D.N.Y. filed Nov. 20, 2026)", "(D. Mass.)", "(D.D.C.)"), a circuit ("(9th Cir.
# 2021)", "(Fed. Cir.)") or a bankruptcy court ("(Bankr. D. Del.)"). The model reads the
# abbreviation as a person's initials ("([S.D. Cal].)") and the circuit or its year as a
# date ("([4th] Cir. 2004)", "([4th Cir. 2008])").
COURT = re.compile(r"\([ \t]*((?:Bankr\.[ \t]?)?(?:(?:[NSEWCM]\.[ \t]?)?D\.[ \t]?"
                   r"(?:(?:%s)\.?|[A-Z]\.(?:[ \t]?[A-Z]\.?){0,2})?"
                   r"|(?:\d{1,2}(?:st|nd|d|rd|th)|Fed\.|D\.C\.)[ \t]?Cir\.?))"
                   r"[ \t]*(?:(?:filed|decided|argued|entered)[ \t]+)?"
                   r"(?:(?:[A-Z][a-z]{2,3}\.?[ \t]\d{1,2},[ \t])?\d{4}[ \t]*)?\)"
                   % "|".join(COURT_STATES))


def not_personal(text: str) -> list[tuple[int, int]]:
    """Stretches whose format says they hold no personal data, as (start, end): the
    figures of SWIFT statement messages (balances, statement lines, sums), the
    message, instruction and end-to-end references of ISO 20022 payments, Java's
    qualified class names and stack frames (`JAVA_NAMES`), a court reporter's or a
    joint appendix's citation (`CASE_CITATION`) and a court's abbreviation in brackets,
    with its year (`COURT`). A model that never saw MT940 reads "C240131EUR1234,56" as an
    account number."""
    return sorted([m.span() for m in SWIFT_FIGURES.finditer(text)] +
                  [m.span(2) for m in ISO_REFERENCES.finditer(text)] +
                  [m.span() for m in JAVA_NAMES.finditer(text)] +
                  [m.span() for m in CASE_CITATION.finditer(text)] +
                  [m.span() for m in COURT.finditer(text)])


def real_time(value: str) -> bool:
    hours, minutes = (int(n) for n in re.findall(r"\d+", value)[:2])
    return hours < 24 and minutes < 60
