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

The package by concern: `values` (Doc, Values), `layouts`, `forms`, `prose`,
`machine` (formats such as MT940, ISO 20022 XML, logs). Everything is a function of
the seed. The split is by document type: the test split
holds types (so layouts and wordings) that training never saw (`split_of`). What is
scored is frozen: the validation and test splits the bundled model was judged on are
files in bench/ with their checksums, so a change here moves training data only.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from ...errors import BertforgeError
from ...files import atomic_file
from .values import Doc, LOCALES, Values
from .layouts import LAYOUTS
from .forms import DocType, FORMS
from .prose import address_change, audit_report, bank_letter, beneficiary_change, branch_note, call_notes, case_notes, chat, chatbot, collection_letter, collections_notice, complaint, contract, email_message, email_thread, expense_report, fraud_alert, gdpr_request, hr_onboarding, incident_chat, invoice, letter, meeting_minutes, memo, ocr_form, pension_statement, receipt, sms_alerts, trade_confirmation, travel_expense, wire_instructions
from .machine import card_statement, cheque, config_file, csv_export, html_table, json_export, mt940, roster, server_log, statement, swift_mt103, transaction_table, webhook, xml_message

# the forms, then the other documents, in the order the seeds rely on (a document's type
# is drawn from this list)
TYPES: list[DocType] = list(FORMS)

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
        rows.append(doc.row(doc_type.name, split_of(doc_type.name), f"{doc_type.name}/{layout}"))
    return rows


def write_rows(path: str | os.PathLike, rows) -> Path:
    """Write rows of Gretel's schema as JSONL, atomically (a half-written file is never
    left behind); its folder is made if missing."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_file(path) as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def write_splits(out: str | os.PathLike, train: int = 2500, validation: int = 300,
                 test: int = 600, seed: int = 0) -> dict[str, Path]:
    """Write train.jsonl, validation.jsonl and test.jsonl (atomically) to `out`."""
    return {split: write_rows(Path(out) / f"{split}.jsonl", generate(n, seed, split))
            for split, n in (("train", train), ("validation", validation), ("test", test))}
