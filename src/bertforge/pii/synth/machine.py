"""Machine formats: SWIFT MT103 and MT940, ISO 20022 XML, statements, CSV/JSON
exports, server logs, config files, webhooks, HTML reports, cheques with MICR lines."""

from __future__ import annotations

import json

from .values import Doc, Values
from .layouts import fill, payee, put_value
from .forms import PROSE


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
    payee(doc, v, 0.5, upper=True)
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


def xml_message(doc: Doc, v: Values, layout: str) -> None:
    doc.add("<?xml version=\"1.0\"?>\n<Payment>\n  <Debtor>\n    <Nm>").pii("name", v.name())
    doc.add("</Nm>\n    <PstlAdr>").pii("street_address", v.street_address()).add("</PstlAdr>\n    <IBAN>")
    doc.pii("iban", v.iban(spaced=False)).add("</IBAN>\n    <BIC>").pii("swift_bic_code", v.swift_bic_code())
    doc.add("</BIC>\n  </Debtor>\n  <Creditor>\n    <Nm>").pii("company", v.company())
    doc.add("</Nm>\n    <IBAN>").pii("iban", v.iban(spaced=False)).add(f"</IBAN>\n  </Creditor>\n  <Amt Ccy=\"EUR\">{v.decoy('plain_amount')}</Amt>\n  <ReqdExctnDt>")
    doc.pii("date", v.date(2)).add(f"</ReqdExctnDt>\n  <EndToEndId>{v.decoy('reference')}</EndToEndId>\n</Payment>\n")


def transaction_table(doc: Doc, v: Values, layout: str) -> None:
    doc.add(v.choice(["Card Transactions Report", "Payment Batch Report", "Settlement Report"]) + "\n")
    doc.add("| Time | Cardholder | Card | Merchant | Amount |\n|---|---|---|---|---|\n")
    for _ in range(v.rng.randrange(6, 40)):
        doc.add("| ").pii("date_time", v.date_time()).add(" | ").pii("name", v.name()).add(" | ")
        doc.pii("credit_card_number", v.credit_card_number()).add(" | ").pii("company", v.company())
        doc.add(f" | {v.decoy('amount')} |\n")


def cheque(doc: Doc, v: Values, layout: str) -> None:
    fill(doc, v, "{company}\n{street_address}\n\nDate {date}\nPay to the order of {name}   "
                 "{decoy:amount}\n\nMemo: {decoy:invoice}\n\n⑆{bank_routing_number}⑆ "
                 "{bban}⑈ {decoy:quantity}\n")


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
        put_value(doc, v, kind)
        doc.add(('"' if quoted else "") + "\n")


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
                put_value(doc, v, kind)
        doc.add("\n")


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
        payee(doc, v, 0.6, upper=v.rng.random() < 0.6)
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
            put_value(doc, v, kind)
            doc.add("</td>")
        doc.add(f"</tr>{nl}")
    doc.add(f"</table>{nl}<p>Contact ").pii("email", v.email()).add(f" with questions.</p>{nl}</body></html>\n")
