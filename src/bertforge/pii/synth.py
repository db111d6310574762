"""A generator of realistic financial documents with exact character spans of personal data.

Gretel's synthetic finance set cannot be downloaded here, so this writes documents of the
same kind in the same schema (`generated_text`, `pii_spans` as a JSON string,
`document_type`, `language`), with the same 29 labels, on Faker:

- 61 document types: forms (loan and account applications, KYC records, insurance
  claims, payroll ...), statements with many rows, letters, emails and email threads
  with quoted replies and signature blocks, chat, chatbot and incident-channel
  transcripts, terse case notes, SWIFT MT103 and MT940 messages, ISO 20022 XML, HTML
  reports, CSV, TSV and JSON exports, webhook payloads, config files, server logs,
  contracts, invoices, scanned-form text, expense reports, and more;
- ten layouts per form ("Label: value", upper-case labels, dotted leaders, Markdown
  tables, key = value, bullets, two columns, label above value, label and value far
  apart, all fields on one line) and several wordings per prose sentence;
- values formatted as real ones vary: a dozen date formats plus the loose ones of notes
  ("3rd of May 1990", "Thu 6/13", "10am"), spaced and unspaced IBANs, UK sort codes and
  account numbers, national ID numbers by country, cards with spaces, dashes or
  nothing, names upper-case in some layouts, written "LAST, First" or after a title,
  trade-style company names ("Oakhurst Veterinary Clinic"), 16 Faker locales;
- unlabelled decoys that look like data but are not personal: amounts, percentages,
  invoice and transaction references, policy and loan numbers, product codes;
- long documents (statements, logs, exports, contracts) with personal data to the end,
  so more than 10% run past 512 tokens.

Everything is a function of the seed. The split is by document type: the test split
holds types (so layouts and wordings) that training never saw; see `SPLIT_OF`.
"""

from __future__ import annotations

import json
import os
import random
import re
import string
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from ..errors import BertforgeError
from ..optional import require
from ..files import atomic_file
from .labels import FINE_LABELS
from .patterns import valid_card, valid_iban

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


# ------------------------------------------------------------------ layouts of a form
Field = tuple[str, str]  # (label, kind): kind is a fine label, "decoy:<kind>" or "text:<...>"


def render_fields(doc: Doc, v: Values, fields: list[Field], layout: str) -> None:
    """Write labelled fields in one of several layouts."""
    if layout == "table":
        doc.add("| Field | Value |\n|---|---|\n")
    pairs = list(fields)
    i = 0
    while i < len(pairs):
        label, kind = pairs[i]
        if layout == "columns" and i + 1 < len(pairs):
            _field(doc, v, label, kind, "colon")
            doc.add("    ")
            _field(doc, v, *pairs[i + 1], "colon")
            doc.add("\n")
            i += 2
            continue
        _field(doc, v, label, kind, layout)
        doc.add(" |\n" if layout == "table" else "; " if layout == "inline" and i + 1 < len(pairs)
                else "\n")
        i += 1


# Other ways forms name the same field; a label is swapped for one of these at random.
SYNONYMS = {
    "Full Name": ["Full Name", "Name", "Applicant Name", "Customer Name", "Name of Applicant",
                  "Account Holder", "Client"],
    "Date of Birth": ["Date of Birth", "DOB", "Birth Date", "Born"],
    "Address": ["Address", "Home Address", "Residential Address", "Mailing Address", "Street Address"],
    "Phone": ["Phone", "Telephone", "Mobile", "Phone Number", "Tel.", "Contact Number", "Cell"],
    "Email": ["Email", "E-mail", "Email Address", "Contact Email"],
    "SSN": ["SSN", "Social Security Number", "Social Security No.", "SSN/TIN"],
    "IBAN": ["IBAN", "Account (IBAN)", "IBAN Number", "International Account No."],
    "Employer": ["Employer", "Employer Name", "Company", "Current Employer"],
    "Customer ID": ["Customer ID", "Customer No.", "Client Number", "Member ID", "Account ID"],
    "Employee ID": ["Employee ID", "Employee No.", "Staff ID", "Personnel Number"],
    "Username": ["Username", "User ID", "Login", "User name"],
    "Card Number": ["Card Number", "Card No.", "Credit Card", "PAN"],
}


def _field(doc: Doc, v: Values, label: str, kind: str, layout: str) -> None:
    if label in SYNONYMS and v.rng.random() < 0.6:
        label = v.choice(SYNONYMS[label])
    shown = label.upper() if layout == "upper" else label
    if layout in ("colon", "upper"):
        doc.add(f"{shown}: ")
    elif layout == "dots":
        doc.add(f"{shown} {'.' * max(3, 28 - len(shown))} ")
    elif layout == "table":
        doc.add(f"| {shown} | ")
    elif layout == "keyvalue":
        doc.add(f"{re.sub(r'[^a-z0-9]+', '_', label.lower()).strip('_')} = ")
    elif layout == "bullets":
        doc.add(f"* {shown}: ")
    elif layout == "stacked":  # the label on its line, the value under it (scanned forms)
        doc.add(f"{shown}\n")
    elif layout == "ocr":  # label and value far apart, as text pulled out of a PDF
        doc.add(f"{shown}{' ' * v.rng.randrange(2, 14)}")
    elif layout == "inline":
        doc.add(f"{shown}{v.choice([': ', '=', ' - ', ': '])}")
    else:
        doc.add(f"{shown}: ")
    _value(doc, v, kind)


def _value(doc: Doc, v: Values, kind: str) -> None:
    if kind.startswith("decoy:"):
        doc.add(v.decoy(kind[6:]))
    elif kind.startswith("text:"):
        doc.add(v.choice(kind[5:].split("|")))
    else:
        doc.pii(kind, v.value(kind))


LAYOUTS = ["colon", "colon", "upper", "dots", "table", "keyvalue", "bullets", "columns",
           "stacked", "ocr", "inline"]


def fill(doc: Doc, v: Values, template: str) -> None:
    """Prose with {kind} slots: "I, {name}, authorise {company} ..."."""
    for piece in re.split(r"(\{[^{}\n]+\})", template):
        if piece.startswith("{") and piece.endswith("}"):
            _value(doc, v, piece[1:-1])
        else:
            doc.add(piece)


def sentences(doc: Doc, v: Values, options: list[str], least: int, between: str = " ",
              numbered: bool = False) -> None:
    """A random selection (at least `least`) of prose sentences, in random order."""
    for n, sentence in enumerate(v.rng.sample(options, v.rng.randrange(least, len(options) + 1)), 1):
        if numbered:
            doc.add(f"{n}. ")
        fill(doc, v, sentence)
        doc.add(between)


# ------------------------------------------------------------------ document types
PROSE = {
    "consent": [
        "I, {name}, hereby authorise {company} to verify the information given above and to "
        "obtain a credit report.",
        "By signing below, {name} confirms that the information provided is true and complete "
        "to the best of their knowledge.",
        "The applicant agrees that {company} may contact them at {phone_number} or "
        "{email} about this request.",
    ],
    "notice": [
        "Please note that the interest rate of {decoy:rate} applies from {date}.",
        "Payments received after {date} will incur a late fee of {decoy:amount}.",
        "This document was generated on {date_time} and is valid for {decoy:term}.",
        "Our records show an outstanding balance of {decoy:amount} as of {date}.",
    ],
    "contact": [
        "If you have any questions, call {name} on {phone_number} or write to {email}.",
        "For assistance, contact our support team at {phone_number} ({company}).",
        "Questions? Reach {name} at {email}, Monday to Friday.",
    ],
}


@dataclass(frozen=True)
class DocType:
    name: str
    make: Callable[[Doc, Values, str], None]  # (doc, values, layout)
    long: bool = False


def form(title_options: list[str], sections: list[tuple[str, list[Field]]],
         prose: list[str] = (), signature: bool = True) -> Callable:
    """A form document: a title, sections of fields in a layout, some prose, a signature."""

    def make(doc: Doc, v: Values, layout: str) -> None:
        title = v.choice(title_options)
        doc.add(v.choice([f"{title}\n\n", f"{title.upper()}\n{'=' * len(title)}\n\n",
                          f"--- {title} ---\n\n", f"# {title}\n\n"]))
        for heading, fields in sections:
            keep = [f for f in fields if v.rng.random() < 0.85] or fields[:1]
            doc.add(v.choice([f"{heading}\n", f"{heading.upper()}\n", f"## {heading}\n",
                              f"{heading}:\n"]))
            render_fields(doc, v, keep, layout)
            doc.add("\n")
        for group in prose:
            fill(doc, v, v.choice(PROSE[group]))
            doc.add("\n")
        if signature:
            doc.add("\n")
            fill(doc, v, v.choice(["Signature: {name}    Date: {date}\n",
                                   "Signed: ______________________  ({name})\nDate: {date}\n",
                                   "Authorised by {name} on {date}\n",
                                   "Applicant signature ______________ Date {date}\n"]))
    return make


def _person_fields() -> list[Field]:
    return [("Full Name", "name"), ("Date of Birth", "date_of_birth"),
            ("Address", "street_address"), ("Phone", "phone_number"), ("Email", "email")]


def _split_name_fields() -> list[Field]:
    return [("First Name", "first_name"), ("Last Name", "last_name"),
            ("Date of Birth", "date_of_birth"), ("Home Address", "street_address"),
            ("Mobile", "phone_number"), ("E-mail", "email")]


TYPES: list[DocType] = [
    DocType("Loan Application", form(
        ["Loan Application", "Personal Loan Application Form", "Application for Credit"],
        [("Applicant Information", _person_fields() + [("Social Security Number", "ssn")]),
         ("Employment", [("Employer", "company"), ("Employer Address", "street_address"),
                         ("Annual Income", "decoy:amount"), ("Employee ID", "employee_id")]),
         ("Loan Details", [("Loan Amount", "decoy:amount"), ("Term", "decoy:term"),
                           ("Interest Rate", "decoy:rate"), ("Application No.", "decoy:loan")])],
        ["consent", "notice"])),
    DocType("Mortgage Application", form(
        ["Uniform Residential Loan Application", "Mortgage Application"],
        [("Borrower", _split_name_fields() + [("SSN", "ssn")]),
         ("Property", [("Property Address", "street_address"), ("Purchase Price", "decoy:amount"),
                       ("Down Payment", "decoy:amount"), ("Coordinates", "local_latlng")]),
         ("Co-Borrower", [("Name", "name"), ("Date of Birth", "date_of_birth"),
                          ("Phone", "phone_number")])],
        ["consent"])),
    DocType("Account Opening Form", form(
        ["Account Opening Form", "New Account Application", "Current Account Application"],
        [("Personal Details", _split_name_fields() + [("Passport Number", "passport_number")]),
         ("Account", [("Customer ID", "customer_id"), ("Account Type", "text:Checking|Savings|Current|Business"),
                      ("Initial Deposit", "decoy:amount"), ("PIN", "account_pin")]),
         ("Online Banking", [("Username", "user_name"), ("Temporary Password", "password")])],
        ["consent"])),
    DocType("KYC Record", form(
        ["Know Your Customer (KYC) Record", "Customer Due Diligence Form", "KYC Verification"],
        [("Identity", [("Customer Name", "name"), ("Date of Birth", "date_of_birth"),
                       ("Passport No", "passport_number"), ("Driver's License", "driver_license_number"),
                       ("SSN", "ssn")]),
         ("Residence", [("Residential Address", "street_address"), ("Geo", "local_latlng")]),
         ("Verification", [("Verified On", "date_time"), ("Officer", "name"),
                           ("Risk Score", "decoy:score"), ("Case Ref", "decoy:reference"),
                           ("Client ID", "customer_id")])],
        [], signature=False)),
    DocType("Insurance Claim Form", form(
        ["Insurance Claim Form", "Health Insurance Claim", "Property Damage Claim"],
        [("Policyholder", _person_fields() + [("Policy Number", "decoy:policy")]),
         ("Incident", [("Date of Incident", "date"), ("Time", "time"), ("Location", "street_address"),
                       ("Estimated Loss", "decoy:amount")]),
         ("Payment", [("Bank", "company"), ("IBAN", "iban"), ("BIC", "swift_bic_code")])],
        ["consent"])),
    DocType("Payroll Record", form(
        ["Payroll Record", "Employee Payslip", "Salary Statement"],
        [("Employee", [("Employee Name", "name"), ("Employee ID", "employee_id"),
                       ("SSN", "ssn"), ("Address", "street_address")]),
         ("Employer", [("Company", "company"), ("Pay Date", "date"), ("Gross Pay", "decoy:amount"),
                       ("Net Pay", "decoy:amount"), ("Tax Withheld", "decoy:amount")]),
         ("Direct Deposit", [("Routing Number", "bank_routing_number"), ("Account Number", "bban")])],
        [], signature=False)),
    DocType("Credit Card Application", form(
        ["Credit Card Application", "Card Application Form"],
        [("Applicant", _person_fields() + [("SSN", "ssn")]),
         ("Existing Card", [("Card Number", "credit_card_number"), ("CVC", "credit_card_security_code"),
                            ("Card PIN", "account_pin")]),
         ("Financial", [("Employer", "company"), ("Annual Income", "decoy:amount"),
                        ("Credit Score", "decoy:score")])],
        ["consent", "notice"])),
    DocType("Card Replacement Request", form(
        ["Card Replacement Request", "Lost or Stolen Card Report"],
        [("Cardholder", [("Cardholder Name", "name"), ("Card Number", "credit_card_number"),
                         ("Expiry", "text:09/27|11/26|03/28|12/29"), ("CVV", "credit_card_security_code"),
                         ("Phone", "phone_number")]),
         ("Report", [("Date Noticed", "date"), ("Reference", "decoy:reference")])],
        ["contact"])),
    DocType("Direct Debit Mandate", form(
        ["Direct Debit Mandate", "SEPA Direct Debit Mandate"],
        [("Debtor", [("Name", "name"), ("Address", "street_address"), ("IBAN", "iban"),
                     ("BIC", "swift_bic_code")]),
         ("Creditor", [("Creditor Name", "company"), ("Mandate Reference", "decoy:reference"),
                       ("Date", "date")])],
        ["consent"])),
    DocType("Wire Transfer Request", form(
        ["Wire Transfer Request", "International Payment Order", "Outgoing Wire Form"],
        [("Sender", [("Name", "name"), ("Account", "bban"), ("Phone", "phone_number")]),
         ("Beneficiary", [("Beneficiary Name", "name"), ("Beneficiary Bank", "company"),
                          ("IBAN", "iban"), ("SWIFT Code", "swift_bic_code"),
                          ("ABA Routing", "bank_routing_number")]),
         ("Payment", [("Amount", "decoy:amount"), ("Value Date", "date"), ("Purpose", "text:Invoice payment|Tuition|Family support|Property deposit")])],
        ["notice"])),
    DocType("Tax Form", form(
        ["W-9 Request for Taxpayer Identification", "Tax Information Form", "Form 1099 Summary"],
        [("Taxpayer", [("Name", "name"), ("Business Name", "company"), ("Address", "street_address"),
                       ("Taxpayer ID (SSN)", "ssn")]),
         ("Amounts", [("Tax Year", "decoy:year"), ("Total Income", "decoy:amount"),
                      ("Federal Tax Withheld", "decoy:amount")])],
        [])),
    DocType("Employment Verification", form(
        ["Employment Verification Letter Request", "Verification of Employment"],
        [("Employee", [("Employee", "name"), ("Employee Number", "employee_id"),
                       ("Start Date", "date"), ("Salary", "decoy:amount")]),
         ("Employer", [("Employer", "company"), ("HR Contact", "name"), ("Phone", "phone_number"),
                       ("Email", "email")])],
        ["contact"])),
    DocType("Vendor Registration", form(
        ["Vendor Registration Form", "Supplier Onboarding"],
        [("Vendor", [("Company Name", "company"), ("Registered Address", "street_address"),
                     ("Contact Person", "name"), ("Email", "email"), ("Phone", "phone_number")]),
         ("Banking", [("Bank Name", "company"), ("IBAN", "iban"), ("SWIFT/BIC", "swift_bic_code"),
                      ("Vendor ID", "customer_id")])],
        ["consent"])),
    DocType("Brokerage Account Form", form(
        ["Brokerage Account Application", "Investment Account Form"],
        [("Owner", _person_fields() + [("SSN", "ssn"), ("Driver License", "driver_license_number")]),
         ("Trusted Contact", [("Name", "name"), ("Phone", "phone_number")]),
         ("Online Access", [("User ID", "user_name"), ("IP Address at Signup", "ipv4")])],
        ["consent"])),
    DocType("Password Reset Ticket", form(
        ["IT Support Ticket", "Password Reset Request", "Access Request"],
        [("Requester", [("Name", "name"), ("Employee ID", "employee_id"), ("Email", "email")]),
         ("System", [("Username", "user_name"), ("Temporary Password", "password"),
                     ("Source IP", "ipv4"), ("Requested At", "date_time"), ("Ticket", "decoy:reference")])],
        [], signature=False)),
    DocType("API Credentials Sheet", form(
        ["API Credentials", "Integration Settings", "Payment Gateway Configuration"],
        [("Merchant", [("Merchant", "company"), ("Technical Contact", "name"), ("Email", "email")]),
         ("Credentials", [("API Key", "api_key"), ("Secret", "password"), ("Webhook Server", "ipv4"),
                          ("IPv6 Endpoint", "ipv6"), ("Issued", "date")])],
        [], signature=False)),
]


# ---- prose documents
LETTER_BODIES = [
    "Your online banking user ID {user_name} has been unlocked; the last access came from {ipv4} "
    "on {date_time}.",
    "We are writing to confirm that your account ending in {decoy:quantity} has been updated. "
    "As requested on {date}, the registered address is now {street_address}.",
    "Following our conversation on {date}, we have approved a credit limit of {decoy:amount} "
    "for {company}. Your customer number is {customer_id}.",
    "Our records show that a payment of {decoy:amount} was returned on {date}. Please make sure "
    "that the account {iban} can receive funds, or provide new details.",
    "Please find enclosed your new card. The card number is {credit_card_number}; you will "
    "receive the PIN separately.",
    "We have received the documents for {name} (date of birth {date_of_birth}) and will complete "
    "the review within {decoy:count} business days.",
    "The transfer to {name} at {company} ({swift_bic_code}) was executed on {date} for "
    "{decoy:amount}.",
    "Your loan {decoy:loan} of {decoy:amount} at {decoy:rate} will be paid out to the account "
    "with routing number {bank_routing_number} and account number {bban}.",
]


def letter(doc: Doc, v: Values, layout: str) -> None:
    sender = v.company()
    doc.add(f"{sender}\n")
    doc.pii("street_address", v.street_address(one_line=v.rng.random() < 0.5)).add("\n")
    doc.add("Tel. ").pii("phone_number", v.phone_number()).add("\n\n")
    doc.pii("date", v.date()).add("\n\n")
    doc.pii("name", v.name()).add("\n")
    doc.pii("street_address", v.street_address()).add("\n\n")
    if v.rng.random() < 0.5:
        doc.add(v.choice(["Dear Mr. ", "Dear Ms. ", "Dear Mrs. ", "Dear Dr. "]))
        doc.pii("last_name", v.last_name()).add(",\n\n")
    else:
        doc.add(v.choice(["Dear ", "Hello ", "Hi "])).pii("first_name", v.first_name()).add(",\n\n")
    sentences(doc, v, LETTER_BODIES, 2, "\n\n")
    fill(doc, v, v.choice(PROSE["contact"]))
    doc.add(v.choice(["\n\nYours sincerely,\n\n", "\n\nKind regards,\n", "\n\nBest wishes,\n"]))
    doc.pii("name", v.name()).add("\n")
    doc.add(v.choice(["Customer Service Manager", "Relationship Manager", "Head of Operations"]))
    doc.add(f"\n{sender}\n")


EMAIL_BODIES = [
    "Hi {first_name},\n\nAs discussed, please send the signed agreement by {date}. The wire "
    "should go to IBAN {iban} (BIC {swift_bic_code}).\n",
    "Hello,\n\nI noticed a charge of {decoy:amount} on my card {credit_card_number} on {date} "
    "that I do not recognise. Could you look into it? My customer ID is {customer_id}.\n",
    "Dear team,\n\nOur new controller, {name}, starts on {date}. Please set up access for the "
    "user {user_name} and send the temporary password to {email}.\n",
    "Hi,\n\nThe invoice {decoy:invoice} for {decoy:amount} is attached. Payment terms are "
    "{decoy:count} days. Remit to account {bban}, routing {bank_routing_number}.\n",
    "{first_name},\n\nThe client {name} called at {time} about the mortgage for "
    "{street_address}. Call back on {phone_number}.\n",
    "Good morning,\n\nPlease update the payroll for employee {employee_id} ({name}): new SSN on "
    "file is {ssn}.\n",
]


def email_message(doc: Doc, v: Values, layout: str) -> None:
    doc.add("From: ")
    sender = v.name()
    if v.rng.random() < 0.6:
        doc.pii("name", sender).add(" <").pii("email", v.email()).add(">\n")
    else:
        doc.pii("email", v.email()).add("\n")
    doc.add("To: ").pii("email", v.email()).add("\n")
    doc.add("Date: ").pii("date_time", v.date_time()).add("\n")
    doc.add(f"Subject: {v.choice(['Re: your application', 'Payment details', 'Account update', 'URGENT: card issue', 'Onboarding', 'Fwd: invoice'])}\n\n")
    sentences(doc, v, EMAIL_BODIES, 1, "\n")
    doc.add(v.choice(["Thanks,\n", "Best,\n", "Regards,\n"]))
    doc.pii("name", v.name()).add("\n")
    doc.pii("company", v.company()).add(" | ").pii("phone_number", v.phone_number()).add("\n")


CHAT_LINES = [
    ("customer", "Hi, I can't log in to my account, my username is {user_name}"),
    ("agent", "Sorry to hear that. Can you confirm your full name and date of birth?"),
    ("customer", "{name}, born {date_of_birth}"),
    ("agent", "Thanks. And the last transaction amount on the account?"),
    ("customer", "about {decoy:amount} on {date}"),
    ("customer", "my card number is {credit_card_number} if that helps"),
    ("agent", "Please never share your full card number in chat. I have masked it."),
    ("customer", "my email is {email} and phone {phone_number}"),
    ("agent", "I have sent a reset link. Your case number is {decoy:reference}."),
    ("customer", "also I moved, new address is {street_address}"),
    ("agent", "Updated. Anything else, {first_name}?"),
    ("customer", "can you send money to {name}, IBAN {iban}?"),
    ("agent", "For transfers over {decoy:amount} we need a call back on {phone_number}."),
    ("customer", "ok my SSN is {ssn} for verification"),
    ("customer", "the pin is {account_pin} right?"),
    ("customer", "card {credit_card_number}, security code {credit_card_security_code}"),
    ("agent", "Is your surname still {last_name}?"),
]


def chat(doc: Doc, v: Values, layout: str) -> None:
    agent, customer = v.first_name(), v.name()
    doc.add(v.choice(["Chat transcript\n", "Live chat export\n", "Support conversation\n"]))
    doc.add("Started: ").pii("date_time", v.date_time()).add("\n\n")
    lines = v.rng.sample(CHAT_LINES, v.rng.randrange(6, len(CHAT_LINES)))
    for who, line in lines:
        stamp = v.time()
        doc.add("[").pii("time", stamp).add("] ")
        if who == "agent":
            doc.add("Agent ").pii("first_name", agent).add(": ")
        else:
            doc.pii("name", customer).add(": ")
        fill(doc, v, line)
        doc.add("\n")


def call_notes(doc: Doc, v: Values, layout: str) -> None:
    doc.add(v.choice(["Call notes", "Phone call summary", "Customer call log"]) + "\n")
    doc.add("Caller: ").pii("name", v.name()).add(" (").pii("phone_number", v.phone_number()).add(")\n")
    doc.add("When: ").pii("date_time", v.date_time()).add("\n\n")
    options = [
        "Customer called about a disputed charge of {decoy:amount}.",
        "Verified identity with date of birth {date_of_birth} and the last four of the SSN.",
        "Caller asked to change the mailing address to {street_address}.",
        "Advised that the replacement card will arrive by {date}.",
        "Customer mentioned they bank with {company} as well.",
        "Gave the callback number {phone_number}.",
        "Account flagged for review under case {decoy:reference}.",
        "Customer's employer is {company}; monthly income {decoy:amount}.",
    ]
    sentences(doc, v, options, 3)
    doc.add("\n")


def _payee(doc: Doc, v: Values, person: float, upper: bool) -> None:
    """A payee that is a person (with probability `person`) or a company, labelled as such."""
    kind = "name" if v.rng.random() < person else "company"
    value = v.value(kind)
    doc.pii(kind, value.upper() if upper else value)


def swift_mt103(doc: Doc, v: Values, layout: str) -> None:
    doc.add("{1:F01").pii("swift_bic_code", v.fake.swift(length=8) + "XXXX"[:0]).add("AXXX0000000000}")
    doc.add("{2:I103").pii("swift_bic_code", v.fake.swift(length=8)).add("XXXXN}\n")
    doc.add(f":20:{v.decoy('reference')}\n:23B:CRED\n:32A:")
    doc.add(f"{v.rng.randrange(20, 27)}{v.rng.randrange(1, 13):02d}{v.rng.randrange(1, 29):02d}")
    doc.add(f"{v.choice(['EUR', 'USD', 'GBP'])}{v.decoy('plain_amount').replace('.', ',')}\n")
    doc.add(":50K:/").pii("iban", v.iban(spaced=False)).add("\n").pii("name", v.name().upper()).add("\n")
    doc.pii("street_address", v.street_address().upper()).add("\n")
    doc.add(":57A:").pii("swift_bic_code", v.fake.swift(length=11)).add("\n")
    doc.add(":59:/").pii("iban", v.iban(spaced=False)).add("\n")
    _payee(doc, v, 0.5, upper=True)
    doc.add("\n")
    doc.pii("street_address", v.street_address().upper()).add("\n")
    doc.add(f":70:{v.choice(['INVOICE', 'RFB', 'SALARY', 'RENT'])} {v.decoy('invoice')}\n:71A:SHA\n-}}\n")


def statement(doc: Doc, v: Values, layout: str) -> None:
    doc.add(v.choice(["Account Statement", "Monthly Statement", "Bank Statement"]) + "\n")
    doc.pii("company", v.company()).add("\n\n")
    if v.rng.random() < 0.3:  # a joint account: two people, two spans
        doc.add("Account holders: ").pii("name", v.name()).add(v.choice([" & ", " and ", ", "]))
        doc.pii("name", v.name()).add("\n")
    else:
        doc.add("Account holder: ").pii("name", v.name()).add("\n")
    doc.pii("street_address", v.street_address()).add("\n")
    doc.add("IBAN: ").pii("iban", v.iban()).add("   BIC: ").pii("swift_bic_code", v.swift_bic_code()).add("\n")
    doc.add("Customer no.: ").pii("customer_id", v.customer_id()).add("\n")
    doc.add("Period: ").pii("date", v.date()).add(" to ").pii("date", v.date()).add("\n\n")
    doc.add(v.choice(["Date | Description | Amount | Balance\n",
                      "DATE        DESCRIPTION                      AMOUNT      BALANCE\n",
                      "Date,Description,Debit,Credit,Balance\n"]))
    for _ in range(v.rng.randrange(12, 70)):
        doc.pii("date", v.date()).add(" | ")
        r = v.rng.random()
        if r < 0.3:
            doc.add("Transfer to ").pii("name", v.name())
        elif r < 0.5:
            doc.add("Card payment ").pii("company", v.company())
        elif r < 0.6:
            doc.add("SEPA credit ").pii("iban", v.iban())
        elif r < 0.7:
            doc.add("Direct debit ").pii("company", v.company()).add(" ").add(v.decoy("reference"))
        else:
            doc.add(v.choice(["ATM withdrawal", "Interest", "Monthly fee", "Cash deposit",
                              "Standing order", "Cheque deposit"]))
            doc.add(f" {v.decoy('reference')}")
        doc.add(f" | {v.decoy('amount')} | {v.decoy('amount')}\n")
    doc.add("\nClosing balance: " + v.decoy("amount") + "\n")
    fill(doc, v, v.choice(PROSE["contact"]))
    doc.add("\n")


def csv_export(doc: Doc, v: Values, layout: str) -> None:
    columns = v.choice([
        ["customer_id", "name", "email", "phone_number", "date", "decoy:amount"],
        ["employee_id", "first_name", "last_name", "ssn", "bban", "bank_routing_number"],
        ["name", "credit_card_number", "decoy:amount", "date_time", "ipv4"],
        ["customer_id", "company", "street_address", "iban", "swift_bic_code"],
    ])
    sep = v.choice([",", ";", "\t", "|"])
    header = [c.replace("decoy:", "") for c in columns]
    doc.add(sep.join(header) + "\n")
    for _ in range(v.rng.randrange(5, 45)):
        for k, column in enumerate(columns):
            if k:
                doc.add(sep)
            decoy = column.startswith("decoy:")
            value = v.decoy(column[6:]) if decoy else v.value(column).replace("\n", ", ")
            quote = '"' if sep in value else ""
            doc.add(quote)
            doc.add(value) if decoy else doc.pii(column, value)
            doc.add(quote)
        doc.add("\n")


def json_export(doc: Doc, v: Values, layout: str) -> None:
    records = v.rng.randrange(1, 8)
    keys = v.choice([
        [("customerId", "customer_id"), ("fullName", "name"), ("email", "email"),
         ("phone", "phone_number"), ("dob", "date_of_birth"), ("balance", "decoy:plain_amount")],
        [("user", "user_name"), ("password", "password"), ("lastLoginIp", "ipv4"),
         ("lastLogin", "date_time"), ("apiKey", "api_key")],
        [("payee", "name"), ("iban", "iban"), ("bic", "swift_bic_code"),
         ("amount", "decoy:plain_amount"), ("reference", "decoy:reference"), ("date", "date")],
        [("employee_id", "employee_id"), ("name", "name"), ("ssn", "ssn"),
         ("address", "street_address"), ("salary", "decoy:plain_amount")],
    ])
    indent = v.choice([0, 2, 4])
    nl, pad = ("\n", " " * indent) if indent else ("", "")
    doc.add("[" + nl)
    for r in range(records):
        doc.add(pad + "{" + nl)
        for k, (key, kind) in enumerate(keys):
            doc.add(f'{pad * 2}"{key}": ')
            if kind.startswith("decoy:"):
                doc.add(v.decoy(kind[6:]))
            else:
                value = v.value(kind).replace("\n", ", ")
                doc.add('"').pii(kind, json.dumps(value)[1:-1]).add('"')
            doc.add(("," if k < len(keys) - 1 else "") + (nl or " "))
        doc.add(pad + "}" + ("," if r < records - 1 else "") + nl)
    doc.add("]\n")


def server_log(doc: Doc, v: Values, layout: str) -> None:
    for _ in range(v.rng.randrange(8, 60)):
        stamp = v.date_time()
        level = v.choice(["INFO", "INFO", "WARN", "ERROR", "DEBUG"])
        doc.pii("date_time", stamp).add(f" {level} ")
        event = v.rng.random()
        if event < 0.25:
            doc.add("login ok user=").pii("user_name", v.user_name()).add(" ip=").pii("ipv4", v.ipv4())
        elif event < 0.35:
            doc.add("login failed user=").pii("email", v.email()).add(" from ").pii("ipv6", v.ipv6())
        elif event < 0.45:
            doc.add("payment authorised card=").pii("credit_card_number", v.credit_card_number())
            doc.add(f" amount={v.decoy('plain_amount')} ref={v.decoy('reference')}")
        elif event < 0.5:
            doc.add("config loaded api_key=").pii("api_key", v.api_key())
        elif event < 0.6:
            doc.add("customer ").pii("customer_id", v.customer_id()).add(" updated address")
        elif event < 0.65:
            doc.add("password reset for ").pii("user_name", v.user_name()).add(" new=").pii("password", v.password())
        else:
            doc.add(v.choice(["healthcheck ok", "cache refreshed", f"batch {v.decoy('reference')} done",
                              f"latency {v.decoy('quantity')}ms", "job scheduled", "connection pool resized"]))
        doc.add("\n")


def contract(doc: Doc, v: Values, layout: str) -> None:
    title = v.choice(["Loan Agreement", "Service Agreement", "Lease Agreement",
                      "Guarantee Agreement", "Non-Disclosure Agreement", "Consulting Agreement"])
    doc.add(f"{title.upper()}\n\nThis {title} is made on ").pii("date", v.date()).add(" between ")
    doc.pii("company", v.company()).add(", with its registered office at ").pii("street_address", v.street_address())
    doc.add(' (the "Company"), and ').pii("name", v.name()).add(", residing at ").pii("street_address", v.street_address())
    doc.add(' (the "Client").\n\n')
    clauses = [
        "The Company shall provide the services described in Schedule A for a fee of {decoy:amount}.",
        "Payment shall be made to IBAN {iban} within {decoy:count} days of each invoice.",
        "Interest on late payments accrues at {decoy:percent} per month.",
        "Notices to the Client shall be sent to {email} or to the address above.",
        "This agreement terminates on {date} unless renewed in writing.",
        "The Client's contact for operational matters is {name}, telephone {phone_number}.",
        "Each party shall keep the other's confidential information secret for {decoy:term}.",
        "The guarantor, {name}, born on {date_of_birth}, guarantees all obligations of the Client.",
        "Disputes shall be settled by the courts at the Company's seat.",
        "The Client authorises debits from account {bban} (routing {bank_routing_number}).",
        "Amendments require the written consent of both parties.",
        "The Company's data protection officer can be reached at {email}.",
    ]
    for n in range(1, v.rng.randrange(6, 30)):
        doc.add(f"{n}. ")
        fill(doc, v, v.choice(clauses))
        doc.add("\n")
    doc.add("\nSigned for the Company: ").pii("name", v.name()).add("\nSigned by the Client: ")
    doc.pii("name", v.name()).add("\nDate: ").pii("date", v.date()).add("\n")


def invoice(doc: Doc, v: Values, layout: str) -> None:
    doc.add(v.choice(["INVOICE", "Tax Invoice", "Invoice"]) + f" {v.decoy('invoice')}\n\n")
    doc.pii("company", v.company()).add("\n").pii("street_address", v.street_address()).add("\n")
    doc.add("VAT No. " + "".join(v.rng.choices(string.digits, k=9)) + "\n\nBill to:\n")
    doc.pii("name", v.name()).add("\n").pii("company", v.company()).add("\n")
    doc.pii("street_address", v.street_address()).add("\n\nInvoice date: ").pii("date", v.date())
    doc.add("\nDue date: ").pii("date", v.date()).add("\n\nItem | Qty | Price\n")
    for _ in range(v.rng.randrange(2, 12)):
        doc.add(f"{v.decoy('product')} {v.choice(['Consulting hours', 'Software licence', 'Audit fee', 'Hardware', 'Support plan'])} | {v.decoy('quantity')} | {v.decoy('amount')}\n")
    doc.add(f"\nTotal due: {v.decoy('amount')} (incl. VAT {v.decoy('percent')})\n\nPay to: ")
    doc.pii("iban", v.iban()).add(" / ").pii("swift_bic_code", v.swift_bic_code()).add("\n")


def sms_alerts(doc: Doc, v: Values, layout: str) -> None:
    for _ in range(v.rng.randrange(3, 10)):
        fill(doc, v, v.choice([
            "{company}: A purchase of {decoy:amount} was made on your card ending {decoy:quantity} on {date}. Not you? Call {phone_number}.",
            "Your one-time code is {account_pin}. Do not share it. {company}",
            "{company}: card {credit_card_number} exp {text:04/27|10/28|01/26} CVV {credit_card_security_code} was added to a new wallet.",
            "Hi {first_name}, your payment of {decoy:amount} to {name} is complete. Ref {decoy:reference}.",
            "New sign-in to your account from {ipv4} at {time}. If this wasn't you, reset your password.",
            "{company}: Your statement for account {customer_id} is ready.",
        ]))
        doc.add("\n")


def meeting_minutes(doc: Doc, v: Values, layout: str) -> None:
    doc.add(v.choice(["Credit Committee Minutes", "Board Meeting Minutes", "Risk Review Minutes"]))
    doc.add("\nDate: ").pii("date", v.date()).add("   Time: ").pii("time", v.time()).add("\nPresent: ")
    for k in range(v.rng.randrange(2, 6)):
        doc.add(", " if k else "").pii("name", v.name())
    doc.add("\n\n")
    items = [
        "The committee reviewed the exposure to {company} of {decoy:amount} and approved a limit increase of {decoy:percent}.",
        "{name} presented the quarterly results; net interest margin was {decoy:percent}.",
        "The application of {name} ({customer_id}) for {decoy:amount} was deferred until {date}.",
        "It was noted that {company} moved its headquarters to {street_address}.",
        "Action: {name} to contact the client at {email} before {date}.",
        "The collateral at {local_latlng} was valued at {decoy:amount}.",
        "{name} reported that the online banking user {user_name} was locked after failed logins from {ipv4}.",
    ]
    sentences(doc, v, items, 3, "\n", numbered=True)


def audit_report(doc: Doc, v: Values, layout: str) -> None:
    doc.add(v.choice(["Internal Audit Report", "Compliance Review", "AML Alert Review"]) + "\n\n")
    paragraphs = [
        "During the review period ending {date}, the team examined {decoy:count} accounts held by {company}.",
        "Transactions from the IP address {ipv4} were linked to the customer {name} (customer ID {customer_id}).",
        "A wire of {decoy:amount} to {iban} at {swift_bic_code} was flagged as unusual.",
        "The relationship manager, {name}, confirmed the client's address as {street_address}.",
        "The customer's passport {passport_number} expired on {date} and was not renewed.",
        "No exceptions were found in the sample of {decoy:count} payments above {decoy:amount}.",
        "Login records show access by {user_name} from {ipv6} at {date_time}.",
    ]
    sentences(doc, v, paragraphs, 3, "\n\n")
    doc.add("Prepared by ").pii("name", v.name()).add(", ").pii("employee_id", v.employee_id()).add("\n")


def xml_message(doc: Doc, v: Values, layout: str) -> None:
    doc.add("<?xml version=\"1.0\"?>\n<Payment>\n  <Debtor>\n    <Nm>").pii("name", v.name())
    doc.add("</Nm>\n    <PstlAdr>").pii("street_address", v.street_address()).add("</PstlAdr>\n    <IBAN>")
    doc.pii("iban", v.iban(spaced=False)).add("</IBAN>\n    <BIC>").pii("swift_bic_code", v.swift_bic_code())
    doc.add("</BIC>\n  </Debtor>\n  <Creditor>\n    <Nm>").pii("company", v.company())
    doc.add("</Nm>\n    <IBAN>").pii("iban", v.iban(spaced=False)).add(f"</IBAN>\n  </Creditor>\n  <Amt Ccy=\"EUR\">{v.decoy('plain_amount')}</Amt>\n  <ReqdExctnDt>")
    doc.pii("date", v.date(2)).add(f"</ReqdExctnDt>\n  <EndToEndId>{v.decoy('reference')}</EndToEndId>\n</Payment>\n")


def complaint(doc: Doc, v: Values, layout: str) -> None:
    doc.add(v.choice(["Customer Complaint", "Formal Complaint", "Dispute Letter"]) + "\n\n")
    options = [
        "My name is {name} and I have been a customer of {company} since {date}.",
        "On {date} I noticed a transfer of {decoy:amount} that I never authorised.",
        "The money went to an account with IBAN {iban}, which I do not know.",
        "I called your hotline on {phone_number} at {time} and was told to write to you.",
        "Please reply to {email} or to my home address, {street_address}.",
        "My card {credit_card_number} has been blocked since then.",
        "For reference, my customer number is {customer_id} and my date of birth is {date_of_birth}.",
        "I expect a refund within {decoy:count} days.",
    ]
    sentences(doc, v, options, 4)
    doc.add("\n\nSincerely,\n").pii("name", v.name()).add("\n")


def transaction_table(doc: Doc, v: Values, layout: str) -> None:
    doc.add(v.choice(["Card Transactions Report", "Payment Batch Report", "Settlement Report"]) + "\n")
    doc.add("| Time | Cardholder | Card | Merchant | Amount |\n|---|---|---|---|---|\n")
    for _ in range(v.rng.randrange(6, 40)):
        doc.add("| ").pii("date_time", v.date_time()).add(" | ").pii("name", v.name()).add(" | ")
        doc.pii("credit_card_number", v.credit_card_number()).add(" | ").pii("company", v.company())
        doc.add(f" | {v.decoy('amount')} |\n")


def hr_onboarding(doc: Doc, v: Values, layout: str) -> None:
    doc.add("Welcome aboard!\n\n")
    fill(doc, v, "Dear {first_name},\n\nWe are pleased to confirm your start date of {date} at "
                 "{company}. Your employee number is {employee_id} and your manager is {name}.\n"
                 "Your login is {user_name}; the initial password is {password} and must be "
                 "changed on first use. Payroll will pay your salary of {decoy:amount} into the "
                 "account {bban} (routing {bank_routing_number}).\n\nPlease bring your passport "
                 "({passport_number}) or driver's license ({driver_license_number}) on day one.\n\n"
                 "HR Team\n{email}\n")


def fraud_alert(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, v.choice(["FRAUD ALERT", "Suspicious Activity Report", "Security Notice"]) +
         "\nCase {decoy:reference} opened {date_time}\nSubject: {name}, DOB {date_of_birth}, SSN "
         "{ssn}\nDevice IP: {ipv4} / {ipv6}\nLast known location: {local_latlng}\nCards involved: "
         "{credit_card_number}\nLinked accounts: {iban}, {bban}\nAnalyst: {name} ({employee_id})\n"
         "Notes: Multiple logins from new devices within {decoy:count} minutes; velocity "
         "rule {decoy:product} triggered.\n")


def receipt(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, "{company}\n{street_address}\nTel {phone_number}\n\n" + "RECEIPT {decoy:reference}\n"
                 "{date_time}\n")
    for _ in range(v.rng.randrange(2, 8)):
        doc.add(f"{v.choice(['Coffee', 'Consulting', 'Fee', 'Book', 'Parking'])} {v.decoy('amount')}\n")
    fill(doc, v, "TOTAL {decoy:amount}\nCARD {credit_card_number}\nAUTH CODE {decoy:quantity}\n"
                 "Served by {first_name}\n")


def memo(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, "MEMORANDUM\n\nTo: {name}\nFrom: {name}\nDate: {date}\nRe: "
         + v.choice(["Account migration", "Client escalation", "Collections update"]) + "\n\n")
    sentences(doc, v, [
            "The account of {company} (customer {customer_id}) will move to the new platform on {date}.",
            "The client, {name}, asked that all correspondence go to {email}.",
            "Outstanding balance is {decoy:amount}; {decoy:percent} is past due.",
            "Bank details on file: {iban} / {swift_bic_code}.",
            "Please call {phone_number} before {time} tomorrow.",
            "The new office is at {street_address}."], 3, "\n")


def pension_statement(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, "Annual Pension Statement\n\nMember: {name}\nMember number: {customer_id}\n"
                 "National Insurance / SSN: {ssn}\nDate of birth: {date_of_birth}\nEmployer: "
                 "{company}\nStatement date: {date}\n\nYour fund value is {decoy:amount}, a "
                 "return of {decoy:percent} over the year. Contributions of {decoy:amount} were "
                 "received. Contact {phone_number} with questions.\n")


def collections_notice(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, "FINAL NOTICE\n\n{name}\n{street_address}\n\nAccount: {customer_id}\nAmount "
                 "due: {decoy:amount}\nDue since: {date}\n\nUnless payment is received by "
                 "{date}, the debt will be referred to a collection agency. Pay online with your "
                 "card or transfer to {iban} quoting {decoy:reference}. Questions: {phone_number}"
                 " or {email}.\n")


def trade_confirmation(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, "Trade Confirmation\n\nClient: {name}   Account: {customer_id}\nTrade date: "
                 "{date}   Settlement: {date}\nExecuted: {time}\n\nBought {decoy:quantity} "
                 "shares of {company} at {decoy:amount}; commission {decoy:amount}.\nBroker: "
                 "{name} ({employee_id})\nSettlement account: {bban}\n")


def beneficiary_change(doc: Doc, v: Values, layout: str) -> None:
    form(["Beneficiary Change Form", "Change of Beneficiary"],
         [("Policy Owner", [("Owner Name", "name"), ("Policy Number", "decoy:policy"),
                            ("Phone", "phone_number")]),
          ("New Beneficiary", [("Name", "name"), ("Relationship", "text:Spouse|Child|Sibling|Partner"),
                               ("Date of Birth", "date_of_birth"), ("SSN", "ssn"),
                               ("Share", "decoy:percent")])], ["consent"])(doc, v, layout)


def address_change(doc: Doc, v: Values, layout: str) -> None:
    form(["Change of Address Request", "Address Update Form"],
         [("Customer", [("Name", "name"), ("Customer ID", "customer_id"), ("Date of Birth", "date_of_birth")]),
          ("Addresses", [("Old Address", "street_address"), ("New Address", "street_address"),
                         ("Effective", "date")])], ["contact"])(doc, v, layout)


def travel_expense(doc: Doc, v: Values, layout: str) -> None:
    doc.add("Travel Expense Claim\n\nEmployee: ").pii("name", v.name()).add(" (").pii("employee_id", v.employee_id()).add(")\n")
    doc.add("Corporate card: ").pii("credit_card_number", v.credit_card_number()).add("\n\n")
    for _ in range(v.rng.randrange(3, 60)):
        doc.pii("date", v.date()).add(f" {v.choice(['Hotel', 'Taxi', 'Flight', 'Meals', 'Train'])} ")
        doc.pii("company", v.company()).add(f" {v.decoy('amount')}\n")
    doc.add("\nApproved by ").pii("name", v.name()).add("\n")


def gdpr_request(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, "Data Subject Access Request\n\nTo the Data Protection Officer of {company},\n\n"
                 "I, {name}, of {street_address}, request a copy of all personal data you hold "
                 "about me under Article 15 GDPR. My customer number is {customer_id} and I "
                 "was born on {date_of_birth}. Please reply to {email} within one month of "
                 "{date}.\n\nYours faithfully,\n{name}\n")


def cheque(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, "{company}\n{street_address}\n\nDate {date}\nPay to the order of {name}   "
                 "{decoy:amount}\n\nMemo: {decoy:invoice}\n\n⑆{bank_routing_number}⑆ "
                 "{bban}⑈ {decoy:quantity}\n")


TYPES += [
    DocType("Customer Letter", letter), DocType("Email", email_message),
    DocType("Chat Transcript", chat), DocType("Call Notes", call_notes),
    DocType("SWIFT MT103", swift_mt103), DocType("Bank Statement", statement, long=True),
    DocType("CSV Export", csv_export, long=True), DocType("JSON Export", json_export),
    DocType("Server Log", server_log, long=True), DocType("Contract", contract, long=True),
    DocType("Invoice", invoice), DocType("SMS Alerts", sms_alerts),
    DocType("Meeting Minutes", meeting_minutes), DocType("Audit Report", audit_report),
    DocType("ISO 20022 XML", xml_message), DocType("Complaint", complaint),
    DocType("Card Transactions Report", transaction_table, long=True),
    DocType("HR Onboarding Email", hr_onboarding), DocType("Fraud Alert", fraud_alert),
    DocType("Receipt", receipt), DocType("Memo", memo),
    DocType("Pension Statement", pension_statement),
    DocType("Collections Notice", collections_notice),
    DocType("Trade Confirmation", trade_confirmation),
    DocType("Beneficiary Change Form", beneficiary_change),
    DocType("Change of Address Form", address_change),
    DocType("Travel Expense Claim", travel_expense, long=True),
    DocType("Data Subject Access Request", gdpr_request),
    DocType("Cheque", cheque),
]


# ---- more document types: the shapes real documents take beyond forms
def _titled(doc: Doc, v: Values, kind: str = "name") -> None:
    """A name, sometimes after a title that is not part of it: "Mrs [Evelyn Sato]"."""
    if v.rng.random() < 0.35:
        doc.add(v.choice(TITLES) + " ")
    doc.pii(kind, v.value(kind))


def _signature(doc: Doc, v: Values) -> None:
    doc.pii("name", v.name(style="full")).add(v.choice([" | ", "\n", ", "]))
    doc.add(v.choice(["Senior Payments Analyst", "Relationship Manager", "Loan Officer",
                      "Director of Finance", "Customer Support", "Accounts Payable"]) + "\n")
    doc.pii("company", v.company()).add("\n")
    if v.rng.random() < 0.6:
        doc.pii("street_address", v.street_address(one_line=True)).add("\n")
    doc.add(v.choice(["T: ", "Tel: ", "Phone ", "Direct: ", "m. "])).pii("phone_number", v.phone_number())
    if v.rng.random() < 0.5:
        doc.add(v.choice(["  M: ", " | Mobile: ", "\nMob: "])).pii("phone_number", v.phone_number())
    doc.add("\n")


THREAD_LINES = [
    "please update the supplier record before the next payment run; details below from the client.",
    "our bank changed after the merger. New account for all invoices: IBAN {iban}, BIC {swift_bic_code}.",
    "The old account will close on {date}.",
    "can you confirm the payee {name} is set up? They gave {email} for remittance advice.",
    "I've attached the statement for {company}; the disputed item is from {date}.",
    "Please call me on {phone_number} when you have a minute.",
    "the customer's new address is {street_address}, effective {date}.",
    "Approved. Use routing {bank_routing_number} and account {bban} for the deposit.",
    "Looping in {name} from compliance, who asked for the passport copy ({passport_number}).",
    "Reminder: the user {user_name} still has admin rights on the ledger.",
]


def email_thread(doc: Doc, v: Values, layout: str) -> None:
    for reply in range(v.rng.randrange(2, 4)):
        quote = "> " if reply and v.rng.random() < 0.5 else ""
        if reply:
            if v.rng.random() < 0.5:
                doc.add("\n-----Original Message-----\n")
            else:
                doc.add("\nOn ").pii("date_time", v.date_time()).add(", ").pii("name", v.name(style="full"))
                doc.add(" <").pii("email", v.email()).add("> wrote:\n")
                doc.add(quote + "Hi,\n")
                sentences(doc, v, THREAD_LINES, 1, "\n" + quote)
                continue
        doc.add(quote + "From: ").pii("name", v.name(style="full"))
        opening, closing = v.choice([(" <", ">"), (" <", ">"), (" [mailto:", "]"), (" (", ")")])
        doc.add(opening).pii("email", v.email()).add(closing + "\n")
        doc.add(quote + "Sent: ").pii("date_time", v.date_time()).add("\n")
        doc.add(quote + "To: ").add(v.choice(["Payments Ops", "Accounts Team", "Client Services"]))
        doc.add(" <").pii("email", v.email()).add(">\n")
        doc.add(quote + f"Subject: {v.choice(['RE: ', 'FW: ', ''])}{v.choice(['remittance details', 'account change', 'urgent', 'statement query'])}\n\n")
        doc.add(quote + v.choice(["Hello ", "Hi ", "Team, ", "Dear "]))
        doc.pii("first_name", v.first_name()).add(",\n" + quote)
        sentences(doc, v, THREAD_LINES, 2, "\n" + quote)
        doc.add("\n" + quote + v.choice(["Thanks,", "Regards,", "Best,", "Cheers,"]) + "\n")
        _signature(doc, v)


NOTE_LINES = [
    "call w/ cust {name} re: heloc draw.", "dob {date_of_birth}, ssn chk ok ({ssn}).",
    "says employer now {company} (was self-emp).", "wants funds to chkg acct {bban}, rtg {bank_routing_number}.",
    "new cell {phone_number}, old one disconnected.", "verified addr {street_address}.",
    "appraisal booked {date} at {time}.", "f/u w/ underwriting ({first_name}) re DTI {decoy:percent}.",
    "cust emailed from {email}, asked for payoff qte.", "card {credit_card_number} reissued, old one blocked.",
    "spoke to {name} (spouse, on acct) - ok'd to discuss.", "left vm on {phone_number} @ {time}.",
    "cust id {customer_id}; payoff {decoy:amount} good thru {date}.", "dl {driver_license_number} scanned to file.",
    "online login {user_name} locked after 5 fails from {ipv4}.",
]


def case_notes(doc: Doc, v: Values, layout: str) -> None:
    for _ in range(v.rng.randrange(1, 4)):
        doc.pii("date", v.date()).add(v.choice([" - ", ": ", " "]))
        sentences(doc, v, NOTE_LINES, 3, " ")
        doc.add("-- ").add("".join(v.rng.choices(string.ascii_uppercase, k=2))).add("\n\n")


def config_file(doc: Doc, v: Values, layout: str) -> None:
    entries = [("DB_HOST", "ipv4"), ("DB_USER", "user_name"), ("DB_PASSWORD", "password"),
               ("STRIPE_SECRET_KEY", "api_key"), ("API_TOKEN", "api_key"), ("SUPPORT_EMAIL", "email"),
               ("ONCALL_PHONE", "phone_number"), ("ADMIN_USER", "user_name"), ("SMTP_PASSWORD", "password"),
               ("REDIS_HOST", "ipv6"), ("OWNER", "name")]
    plain = [("MAX_RETRIES", "decoy:count"), ("TIMEOUT_MS", "decoy:quantity"), ("APP_ENV", "text:production|staging"),
             ("LOG_LEVEL", "text:info|debug|warn"), ("REGION", "text:eu-west-1|us-east-2"), ("PORT", "text:5432|6379|8080")]
    chosen = v.rng.sample(entries, v.rng.randrange(4, len(entries))) + v.rng.sample(plain, 3)
    v.rng.shuffle(chosen)
    style = v.choice(["env", "yaml", "ini"])
    doc.add(f"# {v.choice(['payments-service', 'ledger-sync', 'kyc-worker'])} {v.choice(['production', 'config'])}\n")
    if style == "ini":
        doc.add("[default]\n")
    for key, kind in chosen:
        key = key.lower() if style == "yaml" else key
        doc.add(f"{key}{'=' if style == 'env' else ': ' if style == 'yaml' else ' = '}")
        quoted = style == "yaml" and v.rng.random() < 0.4
        doc.add('"' if quoted else "")
        _value(doc, v, kind)
        doc.add(('"' if quoted else "") + "\n")


def bank_letter(doc: Doc, v: Values, layout: str) -> None:
    doc.pii("company", v.company()).add("\n")
    doc.add(v.choice(["Customer Services, ", "Head Office, ", ""]))
    doc.pii("street_address", v.street_address(one_line=True)).add("\n\n")
    _titled(doc, v)
    doc.add("\n").pii("street_address", v.street_address(one_line=v.rng.random() < 0.5)).add("\n\n")
    doc.pii("date", v.date()).add("\n\n")
    doc.add(v.choice(["Dear Mr ", "Dear Mrs ", "Dear Ms ", "Dear Dr "])).pii("last_name", v.last_name()).add(",\n\n")
    doc.add(f"Your {v.choice(['Cash ISA', 'Easy Saver', 'Current Account', 'Fixed Rate Bond'])}, ")
    fill(doc, v, v.choice(["sort code {bank_routing_number}, account number {bban}\n\n",
                           "account {bban} (sort code {bank_routing_number})\n\n",
                           "IBAN {iban}\n\n"]))
    sentences(doc, v, [
        "Thank you for confirming your National Insurance number, {ssn}, which we need before we can open the account.",
        "Your first payment of {decoy:amount} was credited on {date} and the variable rate is {decoy:percent} AER.",
        "If anything above is wrong, please call us on {phone_number} quoting your membership number {customer_id}.",
        "We will write to you again before {date} with your annual summary.",
        "Your new debit card ending in {decoy:quantity} will arrive separately.",
        "You can also email {email} or visit any branch."], 2, "\n\n")
    doc.add("\n\nYours sincerely,\n").pii("name", v.name(style="full")).add("\n")
    doc.add(v.choice(["Savings Team", "Customer Services", "Branch Manager"]) + "\n")


ROSTER_COLUMNS = [
    (["emp_no", "Employee No", "staff_id"], "employee_id"), (["surname", "Last Name"], "last_name"),
    (["forename", "First Name"], "first_name"), (["ni_number", "NI No", "ssn", "Tax ID"], "ssn"),
    (["sort_code", "Routing"], "bank_routing_number"), (["account", "Account No"], "bban"),
    (["email", "Work Email"], "email"), (["mobile", "Phone"], "phone_number"),
    (["dob", "Birth Date"], "date_of_birth"), (["member_id", "Customer"], "customer_id"),
    (["net_pay", "Amount"], "decoy:plain_amount"), (["dept", "Cost Centre"], "decoy:quantity"),
]


def roster(doc: Doc, v: Values, layout: str) -> None:
    columns = sorted(v.rng.sample(range(len(ROSTER_COLUMNS)), v.rng.randrange(4, 8)))
    sep = v.choice(["\t", "\t", ",", ";", "  "])
    doc.add(sep.join(v.choice(ROSTER_COLUMNS[c][0]) for c in columns) + "\n")
    for _ in range(v.rng.randrange(3, 40)):
        first, last = v.person()  # one person per row
        for k, c in enumerate(columns):
            doc.add(sep if k else "")
            kind = ROSTER_COLUMNS[c][1]
            if kind in ("first_name", "last_name"):
                name = first if kind == "first_name" else last
                doc.pii(kind, name.upper() if v.upper_names else name)
            else:
                _value(doc, v, kind)
        doc.add("\n")


def incident_chat(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, ":rotating_light: @here incident INC-{decoy:quantity}: " + v.choice([
        "the nightly export went to the shared bucket unencrypted.",
        "credentials were pasted into a public channel.", "a customer file was emailed to the wrong address."]) + "\n")
    sentences(doc, v, [
        "Affected records include {name} (client {customer_id}, {email}) and {name} (client {customer_id}).",
        "The bucket was read from {ipv4} at {date_time} by user {user_name}.",
        "Rotated the service token ({api_key}); @{first_name} please confirm the new one is in the vault.",
        "Also seen from {ipv6}; blocked at the firewall.",
        "The leaked sheet had card numbers like {credit_card_number} and DOBs.",
        "{first_name}: the password for {user_name} was {password}, now reset.",
        "Notified the DPO ({name}, {phone_number}) at {time}."], 3, "\n")
    doc.add("\n")


def expense_report(doc: Doc, v: Values, layout: str) -> None:
    doc.add(f"Expense report {v.decoy('invoice')} | Employee: ").pii("name", v.name())
    doc.add(" (").pii("employee_id", v.employee_id()).add(f") | Cost centre {v.decoy('quantity')}\n")
    doc.add(v.choice(["Date       Category      Merchant                               Amount\n",
                      "Date,Category,Merchant,Amount\n", "| Date | Category | Merchant | Amount |\n"]))
    sep = v.choice(["  ", " | ", ",", "\t"])
    for _ in range(v.rng.randrange(3, 35)):
        doc.pii("date", v.date()).add(sep)
        doc.add(v.choice(["Lodging", "Ground", "Meals", "Airfare", "Hotel", "Taxi", "Fuel", "Parking",
                          "Office supplies", "Client entertainment", "Subscriptions", "Rail"]) + sep)
        doc.pii("company", v.company()).add(f"{sep}{v.decoy('amount')}\n")
    doc.add(f"Paid with corporate card ending {v.rng.randrange(1000, 9999)}. Approved by ")
    doc.pii("name", v.name()).add(" on ").pii("date", v.date()).add(".\n")


def wire_instructions(doc: Doc, v: Values, layout: str) -> None:
    sender = v.company()
    doc.pii("company", sender).add("\n").pii("street_address", v.street_address(one_line=True)).add("\n\n")
    doc.add(f"WIRE INSTRUCTIONS - Escrow No. {v.rng.randrange(10, 99)}-{v.rng.randrange(10**4, 10**5)}\n\n")
    doc.add("Buyer(s): ").pii("name", v.name(style="full"))
    if v.rng.random() < 0.6:
        doc.add(v.choice([" and ", " & "])).pii("name", v.name(style="full"))
    doc.add("\nProperty: ").pii("street_address", v.street_address(one_line=True)).add("\n")
    doc.add("Receiving bank: ").pii("company", v.company()).add("\n")
    doc.add("ABA: ").pii("bank_routing_number", v.us.aba()).add("    Account: ").pii("bban", v.bban()).add("\n")
    doc.add(f"For further credit to: {sender}\nClosing date: ").pii("date", v.date()).add("\n\n")
    doc.add("ALWAYS call our office at ").pii("phone_number", v.phone_number())
    doc.add(" to verify these instructions before you send funds.\n")


def webhook(doc: Doc, v: Values, layout: str) -> None:
    def field(key, kind, last=False):
        doc.add(f'"{key}":"')
        doc.pii(kind, json.dumps(v.value(kind).replace("\n", ", "))[1:-1])
        doc.add('"' + ("" if last else ","))
    doc.add('{"event":"' + v.choice(["customer.updated", "payment.succeeded", "account.created"]) + '","created":"')
    doc.pii("date_time", v.date_time()).add('","data":{')
    field("id", "customer_id")
    field("name", "name")
    field("email", "email")
    field("phone", "phone_number")
    doc.add('"address":{')
    field("line1", "street_address", last=True)
    doc.add('},"metadata":{')
    for key, kind in v.rng.sample([("passport", "passport_number"), ("last_login_ip", "ipv4"),
                                   ("ip6", "ipv6"), ("iban", "iban"), ("dob", "date_of_birth"),
                                   ("tax_id", "ssn")], 2):
        field(key, kind)
    doc.add(f'"amount":{v.decoy("plain_amount")}}}}},"livemode":true}}\n')


def branch_note(doc: Doc, v: Values, layout: str) -> None:
    doc.add("On ").pii("date", v.date()).add(" ")
    _titled(doc, v)
    doc.add(" came into the branch with her son ").pii("first_name", v.first_name())
    doc.add(", who holds power of attorney. ")
    sentences(doc, v, [
        "She wants her pension from {company} paid to a new joint account rather than to {iban}.",
        "I checked her driving licence ({driver_license_number}) and his passport ({passport_number}).",
        "She says she no longer uses the email {email}; the phone on file, {phone_number}, is still good.",
        "Card {credit_card_number} was cancelled at her request.",
        "Her address is unchanged: {street_address}.", "Next review {date}.",
        "Her tax number {ssn} was confirmed against the letter from HMRC."], 3)
    doc.add("Logged by ").pii("name", v.name()).add(", staff no. ").pii("employee_id", v.employee_id()).add(".\n")


def ocr_form(doc: Doc, v: Values, layout: str) -> None:
    pad = lambda: " " * v.rng.randrange(2, 10)
    doc.add(f"{v.choice(['CARDMEMBER DISPUTE FORM', 'CHANGE OF DETAILS', 'ACCOUNT CLOSURE REQUEST'])}{' ' * 24}page 1 of 2\n")
    for label, kind in v.rng.sample([("Cardmember name", "name"), ("Account number", "credit_card_number"),
                                     ("Daytime phone", "phone_number"), ("Transaction date", "date"),
                                     ("Merchant", "company"), ("Home address", "street_address"),
                                     ("Customer number", "customer_id"), ("Date of birth", "date_of_birth"),
                                     ("E mail", "email")], 6):
        doc.add(label + pad())
        value = v.value(kind).replace("\n", ", ")
        if kind == "name" and v.rng.random() < 0.5:
            value = value.upper().replace(" ", "  ", 1)
        doc.pii(kind, value).add(f"{pad()}{v.decoy('amount') if v.rng.random() < 0.3 else ''}\n")
    doc.add("[ ] I did not authorize this charge\n[x] I returned the merchandise on ").pii("date", v.date()).add("\n")
    doc.add("Signature  _____").pii("name", v.name(style="initial")).add("______   Date ").pii("date", v.date()).add("\n")


def chatbot(doc: Doc, v: Values, layout: str) -> None:
    bot = v.choice(["Penny", "Max", "Ava", "bot"])
    turns = [("bot", "Hi! I'm the virtual assistant. How can I help?"),
             ("guest", "my card got declined twice today"),
             ("bot", "Sorry to hear that. Can I take your full name and date of birth?"),
             ("guest", "{name} {date_of_birth}"), ("bot", "Thanks {first_name}. What's the long number on the card?"),
             ("guest", "{credit_card_number}"), ("guest", "can someone ring me on {phone_number}"),
             ("bot", "Of course. Your case number is {decoy:quantity}."),
             ("guest", "also i moved, new address is {street_address}"), ("guest", "email is {email}")]
    for who, line in turns[:v.rng.randrange(6, len(turns) + 1)]:
        doc.pii("time", v.time()).add(f" {bot if who == 'bot' else v.choice(['guest', 'you', 'customer'])}: ")
        fill(doc, v, line)
        doc.add("\n")


def collection_letter(doc: Doc, v: Values, layout: str) -> None:
    doc.pii("company", v.company()).add(" acts for ").pii("company", v.company()).add("\n\n")
    doc.add(f"Our ref: CR/{v.rng.randrange(1000, 9999)}/{v.rng.randrange(1000, 9999)}\nYour account: ")
    doc.pii("customer_id", v.customer_id()).add("\n\n")
    _titled(doc, v)
    doc.add("\n").pii("street_address", v.street_address()).add("\n\nDear ")
    _titled(doc, v, "last_name")
    fill(doc, v, ",\n\nDespite our letters of {date} and {date} the balance of {decoy:amount} remains "
                 "unpaid. If we do not hear from you by {date} our client may start court "
                 "proceedings.\n\nYou can pay by card on {phone_number} or by transfer to account "
                 "{bban}, sort code {bank_routing_number}.\n")


def card_statement(doc: Doc, v: Values, layout: str) -> None:
    doc.add("Statement for ").pii("name", v.name()).add("   Card ").pii("credit_card_number", v.credit_card_number()).add("\n")
    doc.add("Statement date ").pii("date", v.date()).add("\n\n")
    for _ in range(v.rng.randrange(5, 40)):
        doc.pii("date", v.date()).add("  ")
        doc.add(v.choice(["POS ", "SQ *", "PAYPAL *", "CONTACTLESS ", "", "", "DD "]))
        doc.pii("company", v.company().upper() if v.rng.random() < 0.5 else v.company())
        doc.add(f" {v.fake.city().upper() if v.rng.random() < 0.4 else ''}  {v.decoy('amount')}\n")


def mt940(doc: Doc, v: Values, layout: str) -> None:
    doc.add(f":20:{v.decoy('reference')}\n:25:").pii("iban", v.iban(spaced=False)).add("\n:28C:00001/001\n")
    doc.add(f":60F:C{v.rng.randrange(200101, 251231)}EUR{v.decoy('plain_amount').replace('.', ',')}\n")
    for _ in range(v.rng.randrange(3, 25)):
        doc.add(f":61:{v.rng.randrange(200101, 251231)}{v.choice(['C', 'D'])}{v.decoy('plain_amount').replace('.', ',')}NTRFNONREF\n:86:")
        _payee(doc, v, 0.6, upper=v.rng.random() < 0.6)
        doc.add(" ").pii("iban", v.iban(spaced=False)).add(f" {v.choice(['INVOICE', 'RENT', 'SALARY'])} {v.decoy('invoice')}\n")
    doc.add(f":62F:C{v.rng.randrange(200101, 251231)}EUR{v.decoy('plain_amount').replace('.', ',')}\n-\n")


def html_table(doc: Doc, v: Values, layout: str) -> None:
    columns = v.choice([[("Name", "name"), ("Email", "email"), ("Phone", "phone_number"), ("Balance", "decoy:amount")],
                        [("Customer", "customer_id"), ("Holder", "name"), ("IBAN", "iban"), ("Opened", "date")],
                        [("Payee", "company"), ("Account", "bban"), ("Sort code / ABA", "bank_routing_number"),
                         ("Amount", "decoy:amount")],
                        [("Employee", "name"), ("ID", "employee_id"), ("Address", "street_address"), ("DOB", "date_of_birth")]])
    nl = v.choice(["\n", "", "\n  "])
    doc.add(f"<html><body>{nl}<p>{v.choice(['Dear ', 'Hello '])}").pii("first_name", v.first_name())
    doc.add(f", please review the records below.</p>{nl}<table class=\"data\">{nl}<tr>")
    doc.add("".join(f"<th>{h}</th>" for h, _ in columns) + f"</tr>{nl}")
    for _ in range(v.rng.randrange(2, 15)):
        doc.add("<tr>")
        for _, kind in columns:
            doc.add(v.choice(["<td>", '<td class="c">']))
            _value(doc, v, kind)
            doc.add("</td>")
        doc.add(f"</tr>{nl}")
    doc.add(f"</table>{nl}<p>Contact ").pii("email", v.email()).add(f" with questions.</p>{nl}</body></html>\n")


TYPES += [
    DocType("HTML Report", html_table, long=True),
    DocType("Email Thread", email_thread), DocType("Case Notes", case_notes),
    DocType("Config File", config_file), DocType("Bank Letter", bank_letter),
    DocType("Staff Roster", roster, long=True), DocType("Incident Chat", incident_chat),
    DocType("Expense Report", expense_report, long=True),
    DocType("Wire Instructions", wire_instructions), DocType("Webhook Payload", webhook),
    DocType("Branch Visit Note", branch_note), DocType("Scanned Form", ocr_form),
    DocType("Chatbot Transcript", chatbot), DocType("Debt Collection Letter", collection_letter),
    DocType("Card Statement", card_statement, long=True), DocType("MT940 Statement", mt940, long=True),
]

# Document types held out of training: the test split's layouts and wordings are unseen.
TEST_TYPES = {"Insurance Claim Form", "Direct Debit Mandate", "Brokerage Account Form",
              "API Credentials Sheet", "Call Notes", "ISO 20022 XML", "Audit Report",
              "Fraud Alert", "Collections Notice", "Change of Address Form", "Cheque",
              "Complaint", "Travel Expense Claim", "MT940 Statement", "Wire Instructions"}
VALID_TYPES = {"Employment Verification", "Receipt", "Trade Confirmation", "Memo",
               "Password Reset Ticket", "Card Transactions Report", "Debt Collection Letter"}


def split_of(doc_type: str) -> str:
    return "test" if doc_type in TEST_TYPES else "validation" if doc_type in VALID_TYPES else "train"


# ------------------------------------------------------------------ the generator
def generate(n: int, seed: int = 0, split: str | None = None) -> list[dict]:
    """n documents in Gretel's schema (plus "split" and "template"), deterministic by
    seed. split: only documents of that split's types."""
    types = [t for t in TYPES if split is None or split_of(t.name) == split]
    if not types:
        raise BertforgeError(f"no document types in split {split!r}; use train, validation or test")
    rows = []
    for i in range(n):
        rng = random.Random(f"{seed}/{split}/{i}")
        doc_type = rng.choice(types)
        layout = rng.choice(LAYOUTS)
        values = Values(rng, rng.choice(LOCALES))
        doc = Doc()
        doc_type.make(doc, values, layout)
        if doc_type.long and rng.random() < 0.25:  # some run on: more rows, more clauses
            doc.add("\n")
            doc_type.make(doc, values, layout)
        text = doc.text
        spans = sorted(doc.spans, key=lambda s: s["start"])
        rows.append({"generated_text": text, "pii_spans": json.dumps(spans),
                     "document_type": doc_type.name, "language": "English",
                     "split": split_of(doc_type.name), "template": f"{doc_type.name}/{layout}"})
    return rows


def write_splits(out: str | os.PathLike, train: int = 2500, validation: int = 300,
                 test: int = 600, seed: int = 0) -> dict[str, Path]:
    """Write train.jsonl, validation.jsonl and test.jsonl (atomically) to `out`."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    for split, n in (("train", train), ("validation", validation), ("test", test)):
        path = out / f"{split}.jsonl"
        with atomic_file(path) as f:
            for row in generate(n, seed, split):
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        paths[split] = path
    return paths
