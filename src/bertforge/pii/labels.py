"""The 29 kinds of personal data of Gretel's synthetic finance data set, folded into the
12 groups a masking policy acts on (a first name and a full name are both a person; an
IBAN and a routing number are both bank details)."""

from __future__ import annotations

from ..errors import BertforgeError

GROUP_OF: dict[str, str] = {
    "name": "PERSON", "first_name": "PERSON", "last_name": "PERSON",
    "company": "COMPANY",
    "street_address": "ADDRESS",
    "local_latlng": "LOCATION",
    "date": "DATE", "date_of_birth": "DATE", "date_time": "DATE", "time": "DATE",
    "email": "EMAIL",
    "phone_number": "PHONE",
    "iban": "BANK", "bban": "BANK", "swift_bic_code": "BANK", "bank_routing_number": "BANK",
    "credit_card_number": "CARD", "credit_card_security_code": "CARD",
    "ssn": "GOV_ID", "passport_number": "GOV_ID", "driver_license_number": "GOV_ID",
    "customer_id": "ACCOUNT", "employee_id": "ACCOUNT", "account_pin": "ACCOUNT",
    "ipv4": "DIGITAL", "ipv6": "DIGITAL", "user_name": "DIGITAL", "password": "DIGITAL",
    "api_key": "DIGITAL",
}
FINE_LABELS: list[str] = list(GROUP_OF)
# the groups whose values run over lines (an address); every other span ends at a line break
MULTILINE = ("ADDRESS",)
GROUPS: list[str] = ["PERSON", "COMPANY", "ADDRESS", "LOCATION", "DATE", "EMAIL", "PHONE",
                     "BANK", "CARD", "GOV_ID", "ACCOUNT", "DIGITAL"]


def group(label: str) -> str:
    """The group of a fine label (a group name is its own group)."""
    if label in GROUP_OF:
        return GROUP_OF[label]
    if label in GROUPS:
        return label
    raise BertforgeError(f"unknown personal-data label {label!r}; expected one of Gretel's "
                         f"29 labels ({', '.join(FINE_LABELS)}) or a group "
                         f"({', '.join(GROUPS)})")


# Presidio's entity types (its default recognisers, and ORGANIZATION from spaCy's NER)
# and the group each falls in: for scoring Presidio, and for speaking its API.
PRESIDIO_GROUP: dict[str, str | None] = {
    "PERSON": "PERSON", "ORGANIZATION": "COMPANY", "NRP": None, "LOCATION": "ADDRESS",
    "DATE_TIME": "DATE", "EMAIL_ADDRESS": "EMAIL", "PHONE_NUMBER": "PHONE",
    "IBAN_CODE": "BANK", "US_BANK_NUMBER": "BANK", "CREDIT_CARD": "CARD",
    "US_SSN": "GOV_ID", "US_PASSPORT": "GOV_ID", "US_DRIVER_LICENSE": "GOV_ID",
    "US_ITIN": "GOV_ID", "UK_NHS": "GOV_ID", "IP_ADDRESS": "DIGITAL", "URL": None,
    "CRYPTO": "BANK", "MEDICAL_LICENSE": "GOV_ID"}

# Each group as one Presidio entity type: the name a Presidio client filters on. Groups
# Presidio has no type for keep their own name (ACCOUNT, DIGITAL but IP addresses).
PRESIDIO_ENTITY: dict[str, str] = {
    "PERSON": "PERSON", "COMPANY": "ORGANIZATION", "ADDRESS": "LOCATION",
    "LOCATION": "LOCATION", "DATE": "DATE_TIME", "EMAIL": "EMAIL_ADDRESS",
    "PHONE": "PHONE_NUMBER", "BANK": "US_BANK_NUMBER", "CARD": "CREDIT_CARD",
    "GOV_ID": "US_SSN", "ACCOUNT": "ACCOUNT", "DIGITAL": "DIGITAL"}


def presidio_entity(label: str, value: str) -> str:
    """The Presidio entity type of a span of group `label` holding `value`."""
    import ipaddress
    import re

    compact = value.replace(" ", "")
    if label == "BANK" and re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{8,30}", compact):
        return "IBAN_CODE"
    if label == "DIGITAL":
        try:
            ipaddress.ip_address(value.strip("[]"))
            return "IP_ADDRESS"
        except ValueError:
            pass
    return PRESIDIO_ENTITY[label]


# How each public corpus's types become the redactor's groups (`--labels` overrides it).
# The rule: teach what is personal data, teach as plain text what plainly is not, and
# leave out (ignore: no loss, no score) what our groups cannot say.
#  - PER/person -> PERSON: the same thing.
#  - LOC/location -> O: a city or a country named in prose is nobody's personal data, and
#    the redactor's ADDRESS is a street address and LOCATION a pair of coordinates; taught
#    as plain text, it also unlearns the country-as-person error.
#  - ORG -> ignore: wikigold's and BTC's ORG holds teams, bands, parties and universities
#    as well as companies; calling them all COMPANY would teach that a football club is
#    a company, calling them O that a company is plain text.
#  - WNUT's corporation -> COMPANY (it is one); group -> ignore (bands, teams: as ORG).
#  - MISC, product -> O: nationalities, events, languages, products are not personal.
#  - creative-work -> ignore: a title often holds a name ("The Life of Brian").
#  - BTC marks a Twitter handle as PER, "@" and the name as two tokens, and WNUT-17 a few
#    "@name" as person: ignored (`handles_ignored`). A handle is a user name (DIGITAL),
#    not a person's name, and "@ colgo" written with a space is no handle a user sees.
CORPUS_LABELS: dict[str, str] = {
    "wikigold": "PER=PERSON,ORG=ignore,LOC=O,MISC=O",
    "wnut17": "person=PERSON,corporation=COMPANY,group=ignore,creative-work=ignore,"
              "location=O,product=O",
    "btc": "PER=PERSON,ORG=ignore,LOC=O",
}
