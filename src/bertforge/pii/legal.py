"""Contract prose for training: the capitalised defined terms of credit agreements,
indentures and servicing agreements ("the Servicer", "Liens", "the Indenture"), which are
nobody's name, around the few values in such a document that are personal data (the
parties' companies, the signatories, notice addresses and dates).

Real contracts are mostly such prose, and a tagger that learned names from generated
forms and tweets takes a capitalised word in a sentence for a name; these documents
teach it otherwise. Written in Gretel's schema, like `synth.generate`, and as
deterministic by seed.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from .synth import write_rows
from .synth.layouts import fill
from .synth.values import LOCALES, Doc, Values

ROLES = ["Servicer", "Master Servicer", "Sub-Servicer", "Trustee", "Indenture Trustee",
         "Owner Trustee", "Issuer", "Depositor", "Seller", "Purchaser", "Originator",
         "Borrower", "Lender", "Administrative Agent", "Collateral Agent", "Guarantor",
         "Obligor", "Custodian", "Paying Agent", "Calculation Agent", "Arranger", "Landlord",
         "Tenant", "Licensor", "Licensee", "Company", "Parent", "Holder", "Pledgor",
         "Secured Party", "Assignee", "Assignor", "Administrator", "Manager", "Sponsor"]
PARTIES = ["Lenders", "Noteholders", "Certificateholders", "Holders", "Guarantors",
           "Secured Parties", "Indemnitees", "Loan Parties", "Subsidiaries", "Affiliates",
           "Required Lenders", "Majority Holders", "Rating Agencies", "Issuing Banks"]
DOCUMENTS = ["Indenture", "Agreement", "Credit Agreement", "Security Agreement",
             "Pooling and Servicing Agreement", "Loan Documents", "Intercreditor Agreement",
             "Guaranty", "Trust Agreement", "Note Purchase Agreement", "Notes", "Collateral",
             "Pledged Securities", "Receivables", "Mortgage Loans", "Transaction Documents",
             "Fee Letter", "Servicing Agreement", "Custodial Agreement", "Lease", "Premises"]
TERMS = ["Liens", "Permitted Liens", "Event of Default", "Default", "Material Adverse Effect",
         "Closing Date", "Maturity Date", "Business Day", "Payment Date", "Determination Date",
         "Record Date", "Obligations", "Indebtedness", "Applicable Law", "Governmental Authority",
         "Applicable Margin", "Commitment", "Revolving Loans", "Term Loans", "Interest Period",
         "Distribution Date", "Collection Period", "Servicing Fee", "Reserve Account",
         "Collection Account", "Eligible Investments", "Change of Control", "Excluded Taxes",
         "Person", "Responsible Officer", "Officer's Certificate", "Opinion of Counsel",
         "Effective Date", "Termination Date", "Confidential Information"]
STATES = ["Delaware", "New York", "Nevada", "Maryland", "Texas", "Illinois", "California"]
FORMS = ["limited liability company", "corporation", "statutory trust", "limited partnership",
         "national banking association", "banking corporation"]
TITLES = ["Managing Director", "Vice President", "Authorized Signatory", "Chief Financial Officer",
          "Secretary", "Treasurer", "President", "Director", "General Counsel"]

# {R} a role, {P} parties, {D} a document, {T} a term, {S} a section number, {N} a number
# of days, {ST} a state, {F} a legal form; {name}, {company}, {date}... are personal data.
CLAUSES = [
    "The {R} shall, pursuant to Section {S}, deliver to the {R} an Officer's Certificate "
    "stating that no {T} has occurred and is continuing.",
    "Notwithstanding anything to the contrary herein, the {R} shall not be liable for any "
    "action taken in good faith in accordance with the {D}.",
    "The {R} hereby grants to the {R}, for the benefit of the {P}, a security interest in "
    "all of its right, title and interest in the {D}, free and clear of all Liens other than "
    "Permitted Liens.",
    "Each of the {P} shall indemnify and hold harmless the {R} from and against any losses "
    "arising out of the {D}, except to the extent caused by its gross negligence.",
    "If an Event of Default occurs, the {R} may, and at the direction of the Required "
    "Lenders shall, declare the Obligations immediately due and payable.",
    "All notices hereunder shall be in writing and delivered by hand, by courier or by "
    "facsimile to the address of the {R} set forth in Schedule {N}.",
    "The {R} (hereinafter referred to as the \"{R}\") shall maintain the Collection Account "
    "with an Eligible Institution.",
    "No amendment of the {D} shall be effective without the prior written consent of the "
    "{R} and the {P}.",
    "On each Payment Date, the {R} shall withdraw from the Reserve Account the amount "
    "required under Section {S} and remit it to the Paying Agent.",
    "The {R} represents that it is duly organized under the laws of the State of {ST} and "
    "has full power to execute the {D}.",
    "Any {T} that is not cured within {N} Business Days shall constitute an Event of Default "
    "under the {D}.",
    "The {R} may resign upon {N} days' written notice to the {R}, the {R} and each Rating "
    "Agency.",
    "Capitalized terms used but not defined herein have the meanings given to them in the "
    "{D}.",
    "The {R} shall not create, incur or suffer to exist any Lien on the {D}, other than "
    "Permitted Liens.",
    "Upon the occurrence of a Change of Control, each Holder shall have the right to require "
    "the {R} to repurchase its Notes.",
    "The Servicing Fee shall be payable monthly in arrears on each Distribution Date from "
    "Collections on the Receivables.",
    "This {D} shall be governed by, and construed in accordance with, the laws of the State "
    "of {ST}.",
    "The obligations of the {R} under this Guaranty are absolute and unconditional, "
    "irrespective of the validity of the {D}.",
    "WHEREAS, the {R} wishes to sell, and the {R} wishes to purchase, the Receivables on the "
    "terms set forth herein;",
    "NOW, THEREFORE, in consideration of the premises and the mutual covenants herein, the "
    "parties agree as follows:",
    "Each Responsible Officer of the {R} shall certify the accuracy of the Monthly Report "
    "delivered pursuant to Section {S}.",
    "The Interest Period for each Revolving Loan shall be one, three or six months, as the "
    "{R} may elect.",
    "Any payment due on a day that is not a Business Day shall be made on the next "
    "succeeding Business Day.",
    "The {R} shall furnish to the Administrative Agent, within {N} days after the end of each "
    "fiscal quarter, its unaudited financial statements.",
    "Excluded Taxes shall not be grossed up by the {R} under any Loan Document.",
    "The {R} shall cause the Custodian to hold the Mortgage Files in trust for the benefit "
    "of the Certificateholders.",
    "Nothing in this {D} shall be construed to create a partnership or joint venture between "
    "the {R} and the {R}.",
    "The Commitment of each Lender shall terminate on the Termination Date.",
    "Notices to the {R} shall be sent to {company}, {street_address}, Attention: {name}.",
    "This {D} is dated as of {date} and is effective as of the Closing Date.",
    "The {R}'s counsel, {company}, shall deliver an Opinion of Counsel on the Closing Date.",
    "Any Material Adverse Effect shall be reported by the {R} to the {P} within {N} days.",
]
HEADINGS = ["ARTICLE {A}\nDEFINITIONS", "ARTICLE {A}\nREPRESENTATIONS AND WARRANTIES",
            "ARTICLE {A}\nCOVENANTS", "ARTICLE {A}\nEVENTS OF DEFAULT",
            "ARTICLE {A}\nTHE SERVICER", "ARTICLE {A}\nMISCELLANEOUS",
            "Section {S}. Indemnification.", "Section {S}. Notices.",
            "Section {S}. Governing Law.", "Section {S}. Liens."]
ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]


def _words(v: Values, template: str) -> str:
    """The template's defined-term slots filled (its personal-data slots left for `fill`)."""
    rng = v.rng
    slots = {"{R}": lambda: rng.choice(ROLES), "{P}": lambda: rng.choice(PARTIES),
             "{D}": lambda: rng.choice(DOCUMENTS), "{T}": lambda: rng.choice(TERMS),
             "{S}": lambda: f"{rng.randrange(1, 12)}.{rng.randrange(1, 20):02d}"
                            + rng.choice(["", "", f"({rng.choice('abcdef')})"]),
             "{N}": lambda: str(rng.choice([5, 10, 15, 30, 45, 60, 90])),
             "{ST}": lambda: rng.choice(STATES), "{F}": lambda: rng.choice(FORMS),
             "{A}": lambda: rng.choice(ROMAN)}
    for slot, make in slots.items():
        while slot in template:
            template = template.replace(slot, make(), 1)
    return template


def agreement(doc: Doc, v: Values) -> None:
    """A run of clauses: a preamble naming the parties, headings, clauses, signatures."""
    rng = v.rng
    title = rng.choice(DOCUMENTS[:4] + ["Servicing Agreement", "Indenture", "Guaranty"])
    roles = rng.sample(ROLES, 2)
    if rng.random() < 0.7:
        doc.add(f"{title.upper()}\n\nThis {title} (this \"{title.split()[-1]}\"), dated as of ")
        doc.pii("date", v.date()).add(", is entered into by and between ")
        for k, role in enumerate(roles):
            doc.pii("company", v.company()).add(f", a {rng.choice(STATES)} {rng.choice(FORMS)} "
                                                f"(the \"{role}\")")
            doc.add(", and " if k == 0 else ".\n\n")
    for _ in range(rng.randrange(4, 14)):
        if rng.random() < 0.2:
            doc.add("\n\n" + _words(v, rng.choice(HEADINGS)) + "\n\n")
        fill(doc, v, _words(v, rng.choice(CLAUSES)))
        doc.add(rng.choice([" ", " ", "\n\n"]))
    if rng.random() < 0.5:
        doc.add("\n\nIN WITNESS WHEREOF, the parties have caused this Agreement to be executed "
                "by their duly authorized officers.\n")
        for role in roles:
            signatory = v.name("full")
            doc.add(f"\n{role.upper()}\nBy: /s/ ").pii("name", signatory)
            doc.add("\nName: ").pii("name", signatory)
            doc.add(f"\nTitle: {rng.choice(TITLES)}\n")


def generate_legal(n: int, seed: int = 0) -> list[dict]:
    """n contract-prose documents in Gretel's schema, deterministic by seed."""
    rows = []
    for i in range(n):
        rng = random.Random(f"legal/{seed}/{i}")
        v = Values(rng, rng.choice(LOCALES))
        doc = Doc()
        agreement(doc, v)
        rows.append(doc.row("contract prose", "train", "legal/agreement"))
    return rows


def write_legal(path: str | os.PathLike, n: int, seed: int = 0) -> Path:
    """Write `generate_legal(n, seed)` as JSONL (atomically)."""
    return write_rows(path, generate_legal(n, seed))
