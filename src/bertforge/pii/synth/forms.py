"""Forms: a title, sections of fields in one of the layouts, prose, a signature; and
the form document types."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .values import Doc, Values
from .layouts import Field, fill, render_fields


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


FORMS: list[DocType] = [
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
