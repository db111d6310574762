"""Fake values that read like the ones they replace.

A fake keeps what a reader, or a downstream validator, relies on: a date keeps its
format (and, with a shift, its distance from every other date of the document); a
phone number keeps its country code, area code and layout; a street address keeps its
country (a UK postcode gets a UK address) and its line breaks; identifiers keep their
layout, letters for letters and digits for digits; an IBAN keeps its country and length
and a card its issuer and length, with their check digits made valid again (a fake card
passes Luhn, a fake IBAN mod-97, a fake routing number the ABA checksum); a name keeps
its capitals. Fakes are random, not reserved test numbers, and may belong to somebody.

Each fake is drawn from a generator seeded by a keyed hash of (group, value): the same
value and key give the same fake, and without the key nobody can tell which value a
fake stands for.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import re
import secrets
from datetime import datetime, timedelta

from ..optional import require
from . import patterns as p

# the date layouts a fake keeps; each is tried with and without zero padding, and only
# one that writes the value back exactly as it was is used
DATE_FORMATS = [
    "%Y-%m-%d", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y/%m/%d",
    "%d/%m/%Y", "%m/%d/%Y", "%d.%m.%Y", "%d-%m-%Y", "%m-%d-%Y", "%d/%m/%y", "%m/%d/%y",
    "%d %B %Y", "%d %b %Y", "%B %d, %Y", "%b %d, %Y", "%B %d %Y", "%b %d %Y", "%d-%b-%Y",
    "%a %d %b %Y %H:%M", "%a %d %b %Y", "%A, %d %B %Y", "%A, %B %d, %Y", "%a, %d %b %Y %H:%M",
    "%d %B %Y at %H:%M", "%B %d, %Y at %H:%M", "%d %b %Y %H:%M", "%d/%m/%Y %H:%M",
    "%m/%d/%Y %H:%M", "%B %Y", "%b %Y", "%d %B", "%d %b", "%B %d", "%b %d",
    "%H:%M", "%H:%M:%S", "%I:%M %p", "%I:%M%p",
]
UNPADDED = {"%d": "%-d", "%m": "%-m", "%H": "%-H", "%I": "%-I"}


def rng_for(group: str, value: str, key: bytes) -> random.Random:
    digest = hmac.new(key, f"{group}\x00{value.casefold()}".encode("utf-8", "surrogatepass"),
                      hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def date_layout(value: str) -> tuple[datetime, str] | None:
    """(the moment, a strftime layout that writes it back as `value`), or None."""
    value = value.strip()
    for fmt in DATE_FORMATS:
        dated = "%Y" in fmt or "%y" in fmt or "%d" not in fmt
        try:  # without a year, read in a leap year (so 29 February is a date)
            moment = datetime.strptime(value if dated else f"{value} 2000",
                                       fmt if dated else f"{fmt} %Y")
        except ValueError:
            continue
        variants = [fmt]
        for padded, bare in UNPADDED.items():
            variants += [v.replace(padded, bare) for v in variants if padded in v]
        for layout in variants:
            try:
                written = moment.strftime(layout)
            except ValueError:  # a C library without "%-d" (Windows): padded layouts only
                continue
            if written.lower() == value.lower():
                return moment, layout
    return None


def fake_date(value: str, rng: random.Random, shift_days: int | None = None) -> str:
    """The date moved by `shift_days` (one offset for a whole document keeps every
    interval), or else to a random day, in the value's own layout; a time of day alone
    gets a random time; a shape no layout reads keeps its shape with other digits."""
    found = date_layout(value)
    if found is None:  # "Q3 2024", "the 5th": other digits, the words kept
        return _same_shape(value, rng, letters=False)
    moment, layout = found
    if not any(c in layout for c in "dbBmYy"):  # a time of day
        moment = moment.replace(hour=rng.randrange(24), minute=rng.randrange(60),
                                second=rng.randrange(60))
    elif shift_days is not None:
        moment += timedelta(days=shift_days)
    else:
        moment = datetime(rng.randrange(1950, 2025), rng.randrange(1, 13), rng.randrange(1, 29),
                          moment.hour, moment.minute, moment.second)
    text = moment.strftime(layout)
    return text.upper() if value.isupper() else text


def _same_shape(value: str, rng: random.Random, letters: bool = True) -> str:
    """Digits for digits and (unless not `letters`) letters for letters of the same
    case; everything else kept."""
    out = []
    for c in value:
        if not c.isascii():
            out.append(c)
        elif c.isdigit():
            out.append(str(rng.randrange(10)))
        elif c.isalpha() and letters:
            letter = chr(rng.randrange(26) + ord("a"))
            out.append(letter.upper() if c.isupper() else letter)
        else:
            out.append(c)
    return "".join(out)


def _put_digits(value: str, digits: str) -> str:
    """`value` with its digits replaced, in order, by `digits`."""
    it = iter(digits)
    return "".join(next(it) if c.isdecimal() else c for c in value)


def fake_phone(value: str, rng: random.Random) -> str:
    """The same country code and area (or mobile) code, the same layout; the rest of
    the number random. The area code's length is the numbering plan's (`phonenumbers`),
    read as the UK writes national numbers that start with 0 and as the US the others."""
    digits = re.sub(r"\D", "", value)
    keep = _phone_prefix(value, digits)
    keep = min(keep, max(len(digits) - 4, 0))
    new = digits[:keep] + "".join(str(rng.randrange(10)) for _ in digits[keep:])
    return _put_digits(value, new)


def _phone_prefix(value: str, digits: str) -> int:
    """How many leading digits name the country and the area."""
    phonenumbers = require("phonenumbers", "fake phone numbers")
    international = value.lstrip().startswith(("+", "00"))
    try:
        number = phonenumbers.parse(value, None if international else
                                    "GB" if digits.startswith("0") else "US")
    except phonenumbers.NumberParseException:
        return 3
    area = phonenumbers.length_of_geographical_area_code(number) or \
        phonenumbers.length_of_national_destination_code(number) or 3
    if international:
        return len(digits) - len(str(number.national_number)) + area
    return area + (1 if digits.startswith("0") else 0)  # the trunk prefix


def fake_card(value: str, rng: random.Random) -> str:
    """Same issuer (its first digits) and length, a valid Luhn check digit."""
    digits = re.sub(r"\D", "", value)
    if len(digits) <= 4:  # a security code
        return _put_digits(value, "".join(str(rng.randrange(10)) for _ in digits))
    keep = 6 if len(digits) >= 12 else 1
    body = digits[:keep] + "".join(str(rng.randrange(10)) for _ in range(len(digits) - keep - 1))
    for check in "0123456789":
        if p.luhn(body + check):
            return _put_digits(value, body + check)
    raise AssertionError("one of ten check digits passes Luhn")


def fake_iban(value: str, rng: random.Random) -> str:
    """Same country and length, layout kept, valid mod-97 check digits."""
    compact = re.sub(r"\s", "", value).upper()
    country, bban = compact[:2], _same_shape(compact[4:], rng)
    number = int("".join(str(int(c, 36)) for c in bban + country + "00"))
    check = f"{98 - number % 97:02d}"
    fake = country + check + bban
    it = iter(fake)
    return "".join(next(it) if not c.isspace() else c for c in value)


def fake_routing(value: str, rng: random.Random) -> str:
    """A valid ABA routing number: a Federal Reserve prefix and the checksum."""
    while True:
        digits = f"{rng.choice([1, 2, 3, 5, 6, 8, 11, 21, 26, 31, 61, 67]):02d}" + \
                 "".join(str(rng.randrange(10)) for _ in range(7))
        if p.valid_routing(digits):
            return _put_digits(value, digits)


UK_POSTCODE = re.compile(r"\b[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}\b")


def fake_address(value: str, rng: random.Random) -> str:
    """An address of the same country (a UK postcode: a UK address; else the US), on as
    many lines as the original, or on one line joined by commas."""
    locale = "en_GB" if UK_POSTCODE.search(value.upper()) else "en_US"
    lines = _faker(locale, rng).address().splitlines()
    if "\n" in value.strip():
        return "\n".join(lines)
    return ", ".join(lines)


def _faker(locale: str, rng: random.Random):
    fake = require("faker", "fake values").Faker(locale)
    fake.seed_instance(rng.getrandbits(64))
    return fake


_SESSION_KEY = secrets.token_bytes(32)


def session_key() -> bytes:
    """This process's random key for fakes: consistent within a run, not across runs."""
    return _SESSION_KEY


def fake_value(group: str, value: str, key: str | bytes | None = None,
               shift_days: int | None = None) -> str:
    """A fake value of `group` that reads like `value`: the same for the same
    (group, value, key); without a key, this process's `session_key()`."""
    key = session_key() if key is None else key.encode() if isinstance(key, str) else key
    rng = rng_for(group, value, key)
    compact = value.replace(" ", "")
    if group == "DATE":
        return fake_date(value, rng, shift_days)
    if group == "PHONE":
        return fake_phone(value, rng)
    if group == "CARD":
        return fake_card(value, rng)
    if group == "ADDRESS":
        return fake_address(value, rng)
    if group == "BANK" and p.valid_iban(compact):
        return fake_iban(value, rng)
    if group == "BANK" and p.valid_routing(re.sub(r"\D", "", value)) and len(compact) == 9:
        return fake_routing(value, rng)
    if group == "GOV_ID" and p.valid_ssn(value):
        while not p.valid_ssn(fake := _same_shape(value, rng)):
            pass
        return fake
    fake = _faker("en_US", rng)
    if group == "PERSON":
        return fake.name().upper() if value.isupper() else fake.name()
    if group == "COMPANY":
        return fake.company()
    if group == "EMAIL":
        return fake.email()
    if group == "LOCATION":
        return f"{float(fake.latitude()):.4f}, {float(fake.longitude()):.4f}"
    if group == "DIGITAL" and re.fullmatch(r"[\d.]+", value):
        return fake.ipv4()
    if group == "DIGITAL" and ":" in value and re.fullmatch(r"[\da-fA-F:]+", value):
        return fake.ipv6()
    if group == "BANK" and p.valid_bic(compact):  # another bank of the same country
        return _same_shape(value[:4], rng) + value[4:6] + _same_shape(value[6:], rng)
    # sort codes, account numbers, IDs, user names, keys: the same shape, other characters
    return _same_shape(value, rng)
