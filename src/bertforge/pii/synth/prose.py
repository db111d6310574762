"""Prose documents: letters, emails and threads, chats, notes, contracts, minutes,
complaints and the other documents people write."""

from __future__ import annotations

import string

from .values import Doc, Values
from .layouts import fill, sentences, signature_block, titled
from .forms import PROSE, form


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
        signature_block(doc, v)


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


def bank_letter(doc: Doc, v: Values, layout: str) -> None:
    doc.pii("company", v.company()).add("\n")
    doc.add(v.choice(["Customer Services, ", "Head Office, ", ""]))
    doc.pii("street_address", v.street_address(one_line=True)).add("\n\n")
    titled(doc, v)
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


def branch_note(doc: Doc, v: Values, layout: str) -> None:
    doc.add("On ").pii("date", v.date()).add(" ")
    titled(doc, v)
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
    titled(doc, v)
    doc.add("\n").pii("street_address", v.street_address()).add("\n\nDear ")
    titled(doc, v, "last_name")
    fill(doc, v, ",\n\nDespite our letters of {date} and {date} the balance of {decoy:amount} remains "
                 "unpaid. If we do not hear from you by {date} our client may start court "
                 "proceedings.\n\nYou can pay by card on {phone_number} or by transfer to account "
                 "{bban}, sort code {bank_routing_number}.\n")
