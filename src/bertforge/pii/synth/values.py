"""The values a document holds: `Doc` (text and exact spans as it is written) and
`Values` (Faker per locale, with the formats real values take), and the word lists
they draw from."""

from __future__ import annotations

import json
import random
import re
import string
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from ...optional import require
from ..labels import FINE_LABELS
from ..patterns import valid_card, valid_iban


EPOCH, BIRTHS = datetime(2019, 1, 1), datetime(1934, 1, 1)  # documents 2019-2025; births 1934-2005


LOCALES = ["en_US", "en_US", "en_US", "en_GB", "en_GB", "de_DE", "fr_FR", "es_ES", "it_IT",
           "nl_NL", "en_IE", "pl_PL", "tr_TR", "pt_BR", "en_IN", "sv_SE", "da_DK", "en_AU",
           "en_CA"]


# ------------------------------------------------------------------ building a document
@dataclass
class Doc:
    """Text built piece by piece; `pii` pieces are recorded as spans."""

    parts: list[str] = field(default_factory=list)
    spans: list[dict] = field(default_factory=list)
    size: int = 0

    def add(self, text: str) -> "Doc":
        self.parts.append(text)
        self.size += len(text)
        return self

    def pii(self, kind: str, value: str) -> "Doc":
        assert kind in FINE_LABELS, kind
        if value:
            self.spans.append({"start": self.size, "end": self.size + len(value), "label": kind})
            self.add(value)
        return self

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def row(self, document_type: str, split: str, template: str) -> dict:
        """The document as a row of Gretel's schema (spans as a JSON string, in order),
        with the split and template it came from."""
        return {"generated_text": self.text,
                "pii_spans": json.dumps(sorted(self.spans, key=lambda s: s["start"])),
                "document_type": document_type, "language": "English", "split": split,
                "template": template}


def _faker(locale: str):
    """A Faker for the locale whose word lists do not depend on the process: Faker's
    it_IT builds its city list from a set, so its order (and the cities drawn from one
    seed) changed with Python's hash seed from one run to the next."""
    fake = require("faker", "generating documents").Faker(locale)
    for provider in fake.providers:
        cities = getattr(provider, "cities", None)
        if isinstance(cities, list):
            provider.cities = sorted(cities)
    return fake


class Values:
    """Values of every kind, in the formats real documents use, for one document."""

    def __init__(self, rng: random.Random, locale: str):
        self.rng = rng
        self.locale = locale
        self.fake = _faker(locale)
        self.fake.seed_instance(rng.randrange(2**31))
        self.us = _faker("en_US")
        self.us.seed_instance(rng.randrange(2**31))
        self.upper_names = rng.random() < 0.15
        self.date_style = rng.randrange(len(DATE_STYLES))
        self.card_style = rng.choice(["space", "dash", "none", "none"])
        self.iban_spaced = rng.random() < 0.5
        self.people: list[tuple[str, str]] = []

    def choice(self, items):
        return self.rng.choice(items)

    # people and organisations
    def person(self) -> tuple[str, str]:
        first = self.fake.first_name()
        last = self.fake.last_name()
        self.people.append((first, last))
        return first, last

    def name(self, style: str | None = None) -> str:
        first, last = self.person() if not self.people or self.rng.random() < 0.7 \
            else self.choice(self.people)
        style = style or self.choice(["full", "full", "full", "full", "middle", "comma",
                                      "initial"])
        text = {"full": f"{first} {last}",
                "middle": f"{first} {self.choice(string.ascii_uppercase)}. {last}",
                "comma": f"{last}, {first}",
                "initial": f"{first[0]}. {last}"}[style]
        return text.upper() if self.upper_names else text

    def first_name(self) -> str:
        first, _ = self.person()
        return first.upper() if self.upper_names else first

    def last_name(self) -> str:
        _, last = self.people[-1] if self.people else self.person()
        return last.upper() if self.upper_names else last

    def company(self) -> str:
        company = self.fake.company()
        r = self.rng.random()
        if r < 0.35:  # a trade name: "Oakhurst Veterinary Clinic", "Lindell & Marsh Ltd"
            first = self.choice([self.fake.last_name(), self.choice(PLACE_WORDS),
                                 f"{self.fake.last_name()} & {self.fake.last_name()}",
                                 f"{self.choice(PLACE_WORDS)} {self.choice(PLACE_WORDS)}",
                                 self.fake.city()])
            company = f"{first} {self.choice(TRADES)}"
            if self.rng.random() < 0.5:
                company += self.choice(["", ","]) + " " + self.choice(COMPANY_SUFFIXES + LEGAL_FORMS)
        elif r < 0.5:
            company = self.choice([f"{self.fake.last_name()} {self.choice(COMPANY_WORDS)} "
                                   f"{self.choice(COMPANY_SUFFIXES)}",
                                   f"{self.choice(COMPANY_PREFIXES)} {self.fake.last_name()} "
                                   f"{self.choice(COMPANY_SUFFIXES)}"])
        return company

    def street_address(self, one_line: bool | None = None) -> str:
        address = self.fake.address()
        if one_line is None:
            one_line = self.rng.random() < 0.8
        if one_line:
            address = ", ".join(address.splitlines())
        return address

    def local_latlng(self) -> str:
        lat, lng = float(self.fake.latitude()), float(self.fake.longitude())
        return self.choice([f"{lat:.4f}, {lng:.4f}", f"({lat:.5f}, {lng:.5f})",
                            f"{lat:.6f},{lng:.6f}", f"lat {lat:.4f} lon {lng:.4f}"])

    # times
    def _moment(self):
        # fixed bounds (not "6 years ago"): the same seed gives the same documents every day
        return EPOCH + timedelta(seconds=self.rng.randrange(7 * 365 * 86400))

    def date(self, style: int | None = None) -> str:
        if style is None and self.rng.random() < 0.12:
            return self.loose_date(self._moment())
        return format_date(self._moment(), DATE_STYLES[self.date_style if style is None
                                                       else style])

    def loose_date(self, moment) -> str:
        """The ways people write dates in notes and letters."""
        day = moment.day
        nth = f"{day}{'th' if 10 < day % 100 < 14 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"
        return self.choice([
            f"{nth} of {moment:%B} {moment.year}", f"{moment:%B} {nth}, {moment.year}",
            f"{nth} {moment:%B}", f"{day} {moment:%B}", f"{moment:%b} {day}",
            f"{moment:%a} {moment.month}/{day}", f"{moment:%A} {nth}",
            f"{moment.month}-{day}-{moment:%y}", f"{moment:%m} / {moment:%d} / {moment.year}",
            f"{moment:%A}, {day} {moment:%B} {moment.year} {moment:%H:%M}",
            f"{moment:%b}. {day}", f"{day}.{moment.month}.{moment:%y}"])

    def date_of_birth(self) -> str:
        born = BIRTHS + timedelta(days=self.rng.randrange(72 * 365))
        return format_date(born, DATE_STYLES[self.date_style])

    def date_time(self) -> str:
        moment = self._moment()
        return self.choice([
            moment.strftime("%Y-%m-%d %H:%M:%S"), moment.strftime("%Y-%m-%dT%H:%M:%SZ"),
            moment.strftime("%d/%m/%Y %H:%M"), moment.strftime("%m/%d/%Y %I:%M %p"),
            f"{format_date(moment, DATE_STYLES[self.date_style])} at {moment.strftime('%H:%M')}",
            moment.strftime("%b %d, %Y %I:%M %p")])

    def time(self) -> str:
        moment = self._moment()
        hour = moment.hour % 12 or 12
        return self.choice([moment.strftime("%H:%M"), moment.strftime("%I:%M %p"),
                            moment.strftime("%H:%M:%S"), moment.strftime("%I:%M%p").lower(),
                            f"{hour}{self.choice(['am', 'pm', ' am', ' pm', 'AM', ' PM'])}",
                            f"{hour}.{moment.minute:02d}{self.choice(['am', 'pm'])}"])

    # contact
    def email(self) -> str:
        if self.people and self.rng.random() < 0.6:
            first, last = self.people[-1]
            local = self.choice([f"{first}.{last}", f"{first[0]}{last}", f"{first}{last[0]}",
                                 f"{first}_{last}{self.rng.randrange(10, 99)}"])
            local = re.sub(r"[^A-Za-z0-9._]", "", local).lower() or "info"
            return f"{local}@{self.fake.free_email_domain() if self.rng.random() < 0.5 else self.fake.domain_name()}"
        return self.fake.email()

    def phone_number(self) -> str:
        phone = self.fake.phone_number()
        if self.locale == "en_US" and self.rng.random() < 0.4:
            digits = re.sub(r"\D", "", self.us.msisdn())[-10:]
            phone = self.choice([f"({digits[:3]}) {digits[3:6]}-{digits[6:]}",
                                 f"+1 {digits[:3]} {digits[3:6]} {digits[6:]}",
                                 f"{digits[:3]}.{digits[3:6]}.{digits[6:]}"])
        return phone

    # bank and card
    def iban(self, spaced: bool | None = None) -> str:
        iban = self.fake.iban()
        if not valid_iban(iban):  # Faker's en_IN writes 21-character "GB" IBANs
            iban = self.us.iban()
        spaced = self.iban_spaced if spaced is None else spaced
        return " ".join(iban[i:i + 4] for i in range(0, len(iban), 4)) if spaced else iban

    def bban(self) -> str:
        if self.locale in ("en_GB", "en_IE") and self.rng.random() < 0.6:
            return f"{self.rng.randrange(10**7):08d}"  # a UK account number
        if self.rng.random() < 0.3:
            return str(self.rng.randrange(10**6, 10**12))
        return self.fake.bban()

    def swift_bic_code(self) -> str:
        return self.fake.swift(length=self.choice([8, 11]))

    def bank_routing_number(self) -> str:
        if self.locale in ("en_GB", "en_IE") and self.rng.random() < 0.7:  # a sort code
            code = [f"{self.rng.randrange(100):02d}" for _ in range(3)]
            return self.choice(["-".join(code), "".join(code), " ".join(code)])
        return self.us.aba()

    def credit_card_number(self) -> str:
        for _ in range(20):
            number = self.us.credit_card_number(
                card_type=self.choice(["visa16", "mastercard", "amex", "discover", "visa16"]))
            if valid_card(number):
                break
        groups = [number[i:i + 4] for i in range(0, len(number), 4)]
        if len(number) == 15:  # Amex: 4-6-5
            groups = [number[:4], number[4:10], number[10:]]
        return {"space": " ".join(groups), "dash": "-".join(groups), "none": number}[self.card_style]

    def credit_card_security_code(self) -> str:
        return self.us.credit_card_security_code()

    # government IDs
    def ssn(self) -> str:
        """A US SSN, or the national number of the document's country."""
        r, digits = self.rng, lambda k: "".join(self.rng.choices(string.digits, k=k))
        if self.locale == "en_GB" and r.random() < 0.7:  # National Insurance number
            prefix = "".join(r.choices("ABCEGHJKLMNOPRSTWXYZ", k=2))
            body, suffix = digits(6), r.choice("ABCD")
            return r.choice([f"{prefix}{body}{suffix}",
                             f"{prefix} {body[:2]} {body[2:4]} {body[4:]} {suffix}"])
        national = {"fr_FR": lambda: f"{r.choice('12')}{digits(2)}{r.randrange(1, 13):02d}{digits(10)}",
                    "nl_NL": lambda: digits(9), "de_DE": lambda: digits(11),
                    "es_ES": lambda: f"{digits(8)}{r.choice(string.ascii_uppercase)}",
                    "en_IE": lambda: f"{digits(7)}{r.choice(string.ascii_uppercase)}",
                    "it_IT": lambda: self.fake.ssn(), "pl_PL": lambda: digits(11),
                    "en_IN": lambda: f"{digits(4)} {digits(4)} {digits(4)}",
                    "en_CA": lambda: f"{digits(3)} {digits(3)} {digits(3)}"}.get(self.locale)
        if national and r.random() < 0.7:
            return national()
        ssn = self.us.ssn()
        return ssn if r.random() < 0.85 else ssn.replace("-", "")

    def passport_number(self) -> str:
        return self.choice([self.us.passport_number(), f"{self.choice(string.ascii_uppercase)}"
                            f"{self.rng.randrange(10**7, 10**8)}",
                            f"{''.join(self.rng.choices(string.ascii_uppercase, k=2))}"
                            f"{self.rng.randrange(10**6, 10**7)}"])

    def driver_license_number(self) -> str:
        letter = self.choice(string.ascii_uppercase)
        return self.choice([f"{letter}{self.rng.randrange(10**7, 10**8)}",
                            f"{letter}{self.rng.randrange(100, 999)}-{self.rng.randrange(1000, 9999)}-"
                            f"{self.rng.randrange(1000, 9999)}",
                            f"{self.rng.randrange(10**8, 10**9)}",
                            f"{''.join(self.rng.choices(string.ascii_uppercase, k=5))}"
                            f"{self.rng.randrange(10**5, 10**6)}{''.join(self.rng.choices(string.ascii_uppercase, k=2))}"])

    # accounts
    def customer_id(self) -> str:
        n = self.rng.randrange(10**5, 10**8)
        letters = "".join(self.rng.choices(string.ascii_uppercase, k=2))
        alnum = "".join(self.rng.choices(string.ascii_letters + string.digits, k=8))
        return self.choice([f"CUST-{n}", f"C{n}", f"CID{n:08d}", f"{self.choice(['AC', 'CU', 'CL'])}-"
                            f"{n % 10**6:06d}", f"{n}", f"{letters}-{n:08d}",
                            f"{self.choice(['cus_', 'acct_', 'usr_'])}{alnum}",
                            f"{letters}-{n % 10**4:04d}-{n // 10**4 % 10**4:04d}",
                            f"{n % 10**5}", f"M{n % 10**7:07d}"])

    def employee_id(self) -> str:
        n = self.rng.randrange(1000, 10**6)
        return self.choice([f"EMP-{n}", f"E{n:06d}", f"EMP{n}", f"{self.choice(['HR', 'ST', 'FN'])}{n}",
                            f"{n}", f"E-{n % 10**5:05d}", f"{n % 10**5:05d}"])

    def account_pin(self) -> str:
        return str(self.rng.randrange(10**3, 10**self.choice([4, 4, 6]))).zfill(4)

    # digital
    def ipv4(self) -> str:
        return self.choice([self.fake.ipv4_public(), self.fake.ipv4_private(), self.fake.ipv4()])

    def ipv6(self) -> str:
        address = self.fake.ipv6()
        if self.rng.random() < 0.3:
            import ipaddress
            address = str(ipaddress.IPv6Address(address))  # compressed form
        return address

    def user_name(self) -> str:
        if self.rng.random() < 0.3:
            first, last = self.people[-1] if self.people else self.person()
            base = self.choice([f"{first}.{last}", f"{first[0]}{last}",
                                f"{self.choice(['svc', 'etl', 'app', 'batch', 'api'])}_"
                                f"{self.choice(['payments', 'reports', 'sync', 'reader', 'ledger', 'admin'])}",
                                f"{last}{self.rng.randrange(1, 99)}"])
            base = re.sub(r"[^A-Za-z0-9._]", "", base).lower() or "user"
            return base + self.choice(["", "", f"_{self.rng.randrange(1, 20):02d}"])
        return self.fake.user_name()

    def password(self) -> str:
        return self.fake.password(length=self.rng.randrange(8, 17),
                                  special_chars=self.rng.random() < 0.7)

    def api_key(self) -> str:
        hexa = "".join(self.rng.choices("0123456789abcdef", k=32))
        alnum = "".join(self.rng.choices(string.ascii_letters + string.digits, k=32))
        return self.choice([f"sk_live_{alnum[:24]}", f"pk_test_{alnum[:24]}",
                            f"AKIA{''.join(self.rng.choices(string.ascii_uppercase + string.digits, k=16))}",
                            hexa, f"api_{alnum}", f"ghp_{alnum}{alnum[:4]}",
                            f"xoxb-{self.rng.randrange(10**11, 10**12)}-{alnum[:24]}",
                            f"AIza{alnum}{alnum[:3]}", f"sk_live_{alnum[:10]}{hexa[:14]}",
                            f"eyJhbGciOiJIUzI1NiJ9.{alnum}{hexa[:8]}.{alnum[::-1][:20]}"])

    def value(self, kind: str) -> str:
        return getattr(self, kind)()

    # decoys: look like data, are nobody's personal data
    def decoy(self, kind: str) -> str:
        r = self.rng
        amount = r.choice([r.uniform(5, 500), r.uniform(100, 20000), r.uniform(1000, 900000)])
        currency = {"en_GB": "£", "en_US": "$"}.get(self.locale, self.choice(["€", "EUR ", "$"]))
        return {
            "amount": f"{currency}{amount:,.2f}",
            "plain_amount": f"{amount:.2f}",
            "percent": f"{r.uniform(0.1, 24.9):.{r.choice([1, 2])}f}%",
            "invoice": f"{self.choice(['INV', 'INV-', 'Invoice #'])}{r.randrange(2019, 2027)}-{r.randrange(1, 99999):05d}",
            "reference": f"{self.choice(['REF', 'TXN', 'TRX', 'ORD', 'PO'])}-{r.randrange(10**5, 10**9)}",
            "policy": f"{self.choice(['POL', 'PLC', 'HX'])}-{r.randrange(10**5, 10**8)}",
            "loan": f"LN{r.randrange(10**6, 10**9)}",
            "product": f"{''.join(r.choices(string.ascii_uppercase, k=3))}-{r.randrange(100, 9999)}",
            "quantity": str(r.randrange(1, 500)),
            "year": str(r.randrange(2015, 2027)),
            "term": f"{r.choice([12, 24, 36, 48, 60, 120, 180, 360])} months",
            "rate": f"{r.uniform(1, 12):.2f}% APR",
            "count": f"{r.randrange(2, 40)}",
            "score": str(r.randrange(520, 850)),
        }[kind]


COMPANY_WORDS = ["Capital", "Holdings", "Partners", "Logistics", "Consulting", "Trading",
                 "Financial", "Industries", "Foods", "Systems", "Properties", "Advisors"]


COMPANY_SUFFIXES = ["LLC", "Ltd", "Inc.", "GmbH", "S.A.", "PLC", "LLP", "Group", "& Co."]


COMPANY_PREFIXES = ["First", "United", "Northern", "Pacific", "Atlas", "Summit", "Harbor"]


PLACE_WORDS = ["Oakhurst", "Riverbend", "Silver Birch", "Granite", "Willowmere", "Red Kite",
               "Stonebridge", "Larkspur", "Eastgate", "Foxglove", "Highfield", "Copper Beech",
               "Saltmarsh", "Ironwood", "Bluewater", "Thornbury", "Greystone", "Maple Leaf",
               "Westbrook", "Harbourside", "Sunnyvale", "Old Mill", "Cedar Hill", "Tidewater"]


TRADES = ["Building Society", "Credit Union", "Bank", "Savings Bank", "Bank & Trust",
          "Hotel", "Suites", "Inn", "Bistro", "Kitchen", "Cafe", "Bakery", "Brewing Co",
          "Outfitters", "Joinery", "Roofing & Gutters", "Plumbing & Heating", "Title & Escrow",
          "Pension Trustees", "Recoveries", "Finance", "Lending", "Mortgages", "Dental Practice",
          "Motors", "Airlines", "Cab Co", "Pharmacy", "Veterinary Clinic", "Insurance Brokers",
          "Accountants", "Solicitors", "Law Group", "Property Management", "Lettings",
          "Home Improvements", "Freight", "Software", "Analytics", "Health Partners",
          "Wealth Management", "Asset Management", "Capital Partners", "Electrical Services",
          "Garden Centre", "Car Wash", "Fitness", "Academy", "Medical Group", "Storage"]


LEGAL_FORMS = ["Limited", "Inc", "Corp.", "Co.", "B.V.", "AG", "SARL", "Sp. z o.o.", "Pty Ltd",
               "S.p.A.", "A/S", "AB", "Ltda.", "Pvt. Ltd."]


TITLES = ["Mr", "Mr.", "Mrs", "Mrs.", "Ms", "Ms.", "Dr", "Dr.", "Miss", "Prof."]


DATE_STYLES = ["%m/%d/%Y", "%d/%m/%Y", "%Y-%m-%d", "%B %d, %Y", "%d %B %Y", "%b %d, %Y",
               "%d.%m.%Y", "%d-%b-%Y", "%m-%d-%Y", "%A, %B %d, %Y", "%d %b %Y", "%Y/%m/%d",
               "%m/%d/%y"]


def format_date(moment, style: str) -> str:
    text = moment.strftime(style)
    # strftime pads days with a zero; writers often do not
    if "%B %d" in style or "%b %d" in style or style.startswith("%d %"):
        text = re.sub(r"\b0(\d)\b", r"\1", text)
    return text
