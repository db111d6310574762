"""How fields and sentences are laid out: ten layouts of a form's fields, templates
filled with values, and the pieces several document types share (titled names,
signature blocks, payees)."""

from __future__ import annotations

import re

from .values import Doc, TITLES, Values


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
    put_value(doc, v, kind)


def put_value(doc: Doc, v: Values, kind: str) -> None:
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
            put_value(doc, v, piece[1:-1])
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


def payee(doc: Doc, v: Values, person: float, upper: bool) -> None:
    """A payee that is a person (with probability `person`) or a company, labelled as such."""
    kind = "name" if v.rng.random() < person else "company"
    value = v.value(kind)
    doc.pii(kind, value.upper() if upper else value)


# ---- more document types: the shapes real documents take beyond forms
def titled(doc: Doc, v: Values, kind: str = "name") -> None:
    """A name, sometimes after a title that is not part of it: "Mrs [Evelyn Sato]"."""
    if v.rng.random() < 0.35:
        doc.add(v.choice(TITLES) + " ")
    doc.pii(kind, v.value(kind))


def signature_block(doc: Doc, v: Values) -> None:
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
