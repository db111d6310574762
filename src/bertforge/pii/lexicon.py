"""The word lists the redactor's rules consult: the titles written before a name, the
programs that developer posts name, and the names and words of whole vocabularies
(Faker's given names and surnames of every locale; the bundled model's whole words).

One place for each list, below the rules that read them (`tidy`, `nobodys`, `mentions`,
`recognizers`); nothing here decides anything.
"""

from __future__ import annotations

import functools
import importlib
import pkgutil
import unicodedata
from pathlib import Path

from ..optional import require

# courtesy titles, the titles of an office and roles, written before a name and no part of it;
# and one with the space after it, capitalised or in capitals, before more of a name.
# Royal titles ("Prince", "King") are part of how such a name is written; Britain's
# honours and peerages ("Sir", "Dame", "Baroness") are not (below).
ENGLISH_TITLES = ("Mr", "Mrs", "Ms", "Miss", "Mx", "Dr", "Prof")  # one person's, in English
COURTESY_TITLES = ENGLISH_TITLES + ("Messrs", "Mmes", "Mses", "Drs",
                   # and in Spanish, Portuguese, French, German and Italian
                   "Sr", "Sra", "Srta", "Sres", "Señor", "Señora", "Señorita", "Senhor",
                   "Senhora", "Mme", "Mlle", "Monsieur", "Madame", "Mademoiselle", "Herr",
                   "Herrn", "Frau", "Sig", "Signor", "Signora", "Dott", "Doña", "Dña", "Dra",
                   "Sig.ra", "Sig.na", "Dott.ssa",
                   # and India's and northern Nigeria's ("Shri Ramesh Iyer", "Smt. Lakshmi
                   # Narayanan", "Alhaji Aliko Dangote"; not "Sri", a given name and a
                   # country's first word too)
                   "Shri", "Smt", "Shrimati", "Alhaji", "Alhaja", "Mallam",
                   # and Britain's honours and peerages, before the name as news writes
                   # them ("Dame Alison Rose", "Baroness Lane-Fox"); not those that are a
                   # given name or a surname too ("Lady", "Lord", "Baron", "Earl", "Duke":
                   # "Lady Gaga")
                   "Sir", "Dame", "Baroness", "Viscount", "Viscountess", "Countess",
                   "Marquess")
OFFICE_TITLES = ("Judge", "Justice", "Senator", "Sen", "Representative", "Rep", "Congressman",
                 "Congresswoman", "Governor", "Gov", "Lt. Gov", "Mayor", "President",
                 "Vice President", "Chancellor", "Secretary", "Gen", "Colonel", "Col",
                 "Captain", "Capt", "Lieutenant", "Lt", "Sergeant", "Sgt", "Officer", "Detective",
                 # and the other ranks news writes before a name ("Sgt. Maj. Ricardo Alvarez",
                 # "Cpl. Jenna Morse"); not "Major" or "Private", a surname and a word too
                 "Maj", "Brigadier", "Brig", "Commander", "Cmdr", "Corporal", "Cpl", "Pfc", "Pvt",
                 "Spc",
                 "Det", "Inspector", "Insp",
                 # and Britain's and Ireland's police ranks, as news and court reports
                 # write them ("DC Harriet Lomax", "Det Supt Ian Hale"); not "DI", "Di"
                 # being a given name, nor "Constable", a surname
                 "DC", "DS", "DCI", "DSI", "DCS", "PC", "PCSO", "Supt", "Chief Inspector",
                 "Chief Superintendent", "Chief Constable",
                 "Reverend", "Rev", "Revd", "Archdeacon", "Father",
                 "Fr", "Sister", "Rabbi", "Imam", "Prime Minister", "Minister", "Commissioner",
                 "Chairman", "Chairwoman",
                 "Director", "Professor", "Coach", "Agent", "Adjuster", "Nurse", "Manager",
                 "Supervisor", "Deputy", "Sheriff", "Attorney", "Pastor", "Teller", "Banker",
                 "Analyst", "Investigator", "Examiner", "Auditor", "Underwriter", "Paralegal",
                 "Clerk", "Cashier", "CEO", "CFO", "COO", "CTO", "CIO", "CISO", "CMO", "CRO",
                 "CCO", "EVP", "SVP", "VP", "Ambassador", "Amb", "Admiral", "Adm", "Councilman",
                 "Councilwoman", "Councillor", "Councilmember", "Alderman", "Speaker",
                 # and a councillor's and an alderman's abbreviations, and a monsignor's,
                 # as minutes and parish notes write them ("Cllr. Janet Oduya", "Ald. Robert
                 # Szymanski", "Msgr. Liam Keane"); not "Deacon", a given name too
                 "Cllr", "Ald", "Msgr", "Monsignor",
                 # and the money-laundering reporting and data protection officers, as
                 # notices and reports name them ("former MLRO Gareth Pughe-Morgan")
                 "MLRO", "DPO",
                 "Chief Justice",
                 # and the judges of England's Court of Appeal, as its judgments and law
                 # reports write them ("Lord Justice Moylan", "Lady Justice Falk"; not
                 # "Lord" or "Lady" alone, names too), and Nigeria's engineers ("Engr.
                 # Tunde Fashola")
                 "Lord Justice", "Lady Justice", "Engr",
                 # and the offices of public money and its supervision, as financial news
                 # writes them before a name ("Comptroller Brad Lander", "Superintendent
                 # Adrienne Harris", "State Treasurer Fiona Ma")
                 "Comptroller", "Superintendent", "Treasurer", "Registrar",
                 # and a university's or a school's heads, as its notices write them
                 # ("Provost Ramón Echeverría"); not "Dean", a given name too
                 "Provost", "Vice-Provost", "Vice Provost", "Vice-Chancellor",
                 "Vice Chancellor", "Headmaster", "Headmistress", "Headteacher",
                 # and a deed's witness to its signing, as the signature block writes
                 # them ("before me, Lourdes Ibarra, Notary Public"; "[Notary] Public")
                 "Notary", "Notary Public",
                 # and a retired professor's or officer's, after the title as notices write
                 # it ("Professor Emerita Joan Blake", "Chairman Emeritus")
                 "Emeritus", "Emerita",
                 # an honorific of judges, ministers and members ("Hon. Patricia
                 # Whelan-Moss", "The Honourable Mark Dreyfus")
                 "Hon", "Honorable", "Honourable",
                 # and a retired officer's mark after the rank ("Gen. (Ret.) William
                 # Hargrove", "Col. Ann Ruiz, USA (Ret.)"), read as a name alone
                 "Ret",
                 # and Malaysia's federal and state honours, as its business news writes
                 # them before a name ("Tan Sri Azman Hashim", "Datuk Seri Najib Razak");
                 # not "Tun", a part of Burmese names ("Tun Tun Aung")
                 "Tan Sri", "Puan Sri", "Datuk Seri", "Datin Seri", "Dato' Sri", "Datuk",
                 "Dato'", "Dato", "Datin", "Toh Puan")
LONE_TITLES = {t.casefold() for t in COURTESY_TITLES + OFFICE_TITLES}
# kinship words; they and the courtesy titles are written in lower case too ("my uncle
# Ray", "mr peterson")
KIN = ("Uncle", "Aunt", "Auntie", "Aunty", "Cousin", "Brother", "Grandma", "Grandpa", "Granny",
       "Mom", "Mum", "Dad",
       # and the words for grandparents and parents that families sign with ("Love, Gran
       # xx", "it's Grandad"), written before a name too ("Papa Joe")
       "Gran", "Grandad", "Granddad", "Grandmother", "Grandfather", "Gramps", "Grampa",
       "Mummy", "Mommy", "Daddy", "Mama", "Papa", "Pops",
       # and the grandparents, aunts and uncles of other languages, as English posts write
       # them ("my grandma (Nonna Lucia)", "Abuela Rosa"), none a given name of Faker's
       "Nonna", "Nonno", "Abuela", "Abuelo", "Abuelita", "Abuelito", "Opa", "Bubbe", "Zayde",
       "Tío", "Zia", "Zio", "Tante", "Onkel")
# those that no one is named, alone ("Love, [Gran] xx"): not "Cousin", a surname too
KIN_ALONE = frozenset(w.casefold() for w in KIN) - {"cousin"}
# the roles and relations running text writes before a person's name, after "my",
# "our" or "the" ("our server Brianna", "my landlord Oksana", "the teller
# Ashley Nguyen"): no part of the name. Not "host", which names a platform as often
# ("our host Airbnb").
ROLES = ("server", "waiter", "waitress", "bartender", "cashier", "teller", "banker", "manager",
         "supervisor", "agent", "rep", "representative", "advisor", "adviser", "adjuster",
         "broker", "realtor", "lawyer", "attorney", "accountant", "planner", "doctor",
         "dentist", "nurse", "therapist", "landlord", "landlady", "neighbor", "neighbour",
         "boss", "coworker", "co-worker", "colleague", "friend", "roommate", "tenant",
         "technician", "driver", "officer", "detective", "recruiter", "mechanic",
         "contractor", "plumber", "electrician", "instructor", "teacher", "tutor", "coach",
         "trainer", "pastor", "nanny", "caregiver", "assistant", "specialist", "consultant",
         "associate", "clerk", "partner", "husband", "wife", "son", "daughter", "brother",
         "sister", "mother", "father", "mom", "mum", "dad", "uncle", "aunt", "cousin",
         "nephew", "niece", "grandson", "granddaughter", "grandmother", "grandfather",
         "grandma", "grandpa", "boyfriend", "girlfriend", "fiancé", "fiancée", "fiance",
         "fiancee", "CPA",
         # and in French, Spanish, Portuguese, Italian and German, as written ("ma femme
         # Élodie", "mi gestor Carlos", "a atendente Fernanda", "Ihr Mitarbeiter Herr
         # Özdemir"); not German's "Mann", a surname as often, nor "Frau", a title too
         "conseiller", "conseillère", "banquier", "banquière", "gestionnaire", "femme",
         "mari", "fils", "fille", "frère", "sœur", "collègue", "gestor", "gestora", "asesor",
         "asesora", "esposa", "esposo", "marido", "mujer", "hijo", "hija", "hermano",
         "hermana", "agente", "compañero", "compañera", "atendente", "gerente", "consultor",
         "consultora", "assessor", "assessora", "filho", "filha", "irmão", "irmã",
         "consulente", "moglie", "marito", "figlio", "figlia", "fratello", "sorella",
         "collega", "Mitarbeiter", "Mitarbeiterin", "Berater", "Beraterin", "Sachbearbeiter",
         "Sachbearbeiterin", "Kundenberater", "Kundenberaterin", "Sohn", "Tochter",
         "Bruder", "Schwester", "Kollege", "Kollegin")
# the possessives and articles before such a role ("my", "the", "mon", "mi", "a",
# "Ihr", "il mio": one of them, perhaps with one more word)
# English's articles, prepositions and possessives: no name's run of words stands alone
# as one of them ("The Mikado": `mentions`), nor is anyone called one in lower case
# (`nobodys`, with the other function words)
FUNCTION_WORDS = frozenset(("the", "a", "an", "and", "or", "of", "for", "in", "on", "at", "to",
                            "by", "with", "from", "this", "that", "my", "our", "your", "his",
                            "her", "its", "their"))
# the personal pronouns, which a writer puts beside a name ("Henrik Aasgaard and myself")
PRONOUNS = frozenset(("i", "me", "we", "us", "you", "he", "him", "she", "it", "they", "them",
                      "myself", "yourself", "himself", "herself", "itself", "ourselves",
                      "yourselves", "themselves"))
ROLE_DETERMINERS = ("my", "our", "the", "your", "his", "her", "their", "a", "mon", "ma",
                    "notre", "votre", "le", "la", "mi", "su", "nuestro", "nuestra", "el",
                    "meu", "minha", "o", "seu", "sua", "nosso", "nossa", "il", "mio", "mia",
                    "mein", "meine", "ihr", "ihre", "unser", "unsere", "der", "die")
# public bodies by their acronyms, as news and filings name them: central banks,
# regulators and supervisors, tax authorities, international bodies. The model reads a
# short one in capitals as a person ("[ECB] board member Isabel Schnabel"); they are
# institutions, masked (if at all) as a firm is.
BODIES = frozenset((
    "ECB", "IMF", "BIS", "OECD", "FSB", "IOSCO", "BCBS", "FATF", "OPEC", "WTO", "WHO", "NATO",
    "UN", "EU", "EIB", "EBRD", "ADB", "AIIB", "FCA", "PRA", "BoE", "BoJ", "BOJ", "PBOC", "PBoC",
    "RBA", "RBI", "RBNZ", "SNB", "ESMA", "EBA", "EIOPA", "SRB", "BaFin", "AMF", "CONSOB",
    "CNMV", "ASIC", "APRA", "MAS", "HKMA", "SFC", "OSFI", "FINMA", "SEC", "CFTC", "FINRA",
    "FDIC", "OCC", "CFPB", "FSOC", "FHFA", "NCUA", "OFAC", "FinCEN", "NYDFS", "HMRC", "IRS",
    "CRA", "ATO", "FTC", "DOJ", "CBI",
    # and the regulators and central banks of the other markets English financial news
    # covers (India, China, Japan, Korea, Africa, the Gulf, South-East Asia, Latin America)
    "SEBI", "IRDAI", "NPCI", "PFRDA", "CSRC", "CBIRC", "JFSA", "FSS", "SARB", "CBN", "CBK",
    "SAMA", "DFSA", "BNM", "OJK", "BSP", "SBP", "BCB", "CVM", "BCRA", "Banxico", "PCAOB",
    "FASB", "IASB", "MSRB", "SIPC", "FINTRAC", "AUSTRAC", "SFO",
    # the development banks, and the trade bodies whose forms and definitions contracts
    # name ("the 2021 ISDA Definitions", "the LMA's recommended form")
    "AfDB", "IDB", "IsDB", "NDB", "IFC", "MIGA", "ISDA", "ICMA", "LMA", "LSTA", "SIFMA",
    "AFME", "IIF",
    # and the short names news and talk give a central bank and a finance ministry ("So,
    # the [Fed]. Powell said", "the [Treasury] auctioned")
    "Fed", "Treasury", "Bundesbank", "Riksbank"))
# programs, libraries, services, devices and file formats that support and developer
# posts name, and whose rare pieces the model reads as a name ("Gunicorn keeps timing
# out", "restart the Jupyter kernel", a pasted contact's "BEGIN:[VCARD]"); not the ones
# people are also called ("Jenkins", "Kafka", "Julia", "Ruby", "Alexa", "Siri", "Claude",
# "Spark"), which the model's reading decides
SOFTWARE = frozenset("""
    Jupyter Conda Anaconda Miniconda Gunicorn Uvicorn Maven Gradle Docker Kubernetes Terraform
    Ansible Grafana Prometheus Redis Flask Django Heroku Webpack Vite CUDA NumPy Pandas PyTorch
    TensorFlow Keras Postman Zapier HubSpot Slack Jira Confluence Trello Figma Airflow Celery
    Nginx Tomcat Kibana Elasticsearch Splunk Datadog Postgres PostgreSQL MySQL MongoDB SQLite
    Hadoop Presto Snowflake Databricks Tableau Looker Excel PowerPoint Outlook Zoom Webex Gmail
    Firefox Chrome Linux Ubuntu Debian Fedora CentOS macOS iOS Android Xcode IntelliJ PyCharm
    VSCode Vim Emacs GitHub GitLab Bitbucket Yarn Angular Svelte Laravel Kotlin Scala Golang
    Matlab Stata Pytest Selenium Cypress Playwright Mocha TypeScript JavaScript Photoshop
    Lightroom Canva Shopify Magento WordPress Drupal Joomla Squarespace Twilio SendGrid
    Mailchimp Auth0 Cloudflare Akamai Netlify Vercel Fargate Kinesis Redshift DynamoDB BigQuery
    Firebase Supabase Prisma Hibernate FastAPI Streamlit Gradio Ollama ChatGPT Copilot Cortana
    Bixby Quicken QuickBooks Xero Metamask Trezor Hive Mozilla Gecko KHTML WebKit AppleWebKit
    Chromium vCard iCal
""".split())
# and as code and commands write them, in lower case or capitals ("import pandas")
SOFTWARE_FOLDED = frozenset(w.casefold() for w in SOFTWARE)


def known_names() -> frozenset[str]:
    """The given names and surnames of every locale of Faker's person providers, in
    lower case (about 56,000 words)."""
    return _faker_names(GIVEN + ("last_names",))


def given_names() -> frozenset[str]:
    """The given names alone, as `known_names`."""
    return _faker_names(GIVEN)


GIVEN = ("first_names", "first_names_male", "first_names_female", "first_names_nonbinary")


@functools.lru_cache(maxsize=1)
def common_words() -> frozenset[str]:
    """The whole words of the bundled model's vocabulary (about 22,500: English's most
    frequent words, and the names frequent in its text), in lower case: a word missing
    from it is rare, as a name from another language is. Empty if the file is missing."""
    try:
        lines = (Path(__file__).parent / "model" / "vocab.txt").read_text("utf-8").split()
    except OSError:
        return frozenset()
    return frozenset(w for w in lines if w.isalpha())



def name_or_rare(word: str) -> bool:
    """Whether a word in lower case is a given name or surname Faker's locales know, or a
    word the bundled vocabulary lacks: where a name stands (after a greeting, before an
    initial), either is one ("anh", "thanh"); a word of the vocabulary that no locale
    knows ("again", "support") is not."""
    return word in known_names() or word not in common_words()


@functools.lru_cache(maxsize=1)
def places() -> frozenset[str]:
    """The cities the IANA time zones are named after ("Melbourne", "Addis Ababa",
    "Lagos"; the `tzdata` package's, or the system's; not Antarctica's stations, named
    after people, or the towns of a state's own zones, "Indiana/Knox") and the countries
    Faker's English locale names, in lower case (about 650): the places a message
    greets ("Hello Melbourne!"), where the model, and a greeting's name, read a person."""
    import zoneinfo

    require("faker", "telling a place from a name")
    from faker.providers.address.en import Provider

    cities = {zone.rsplit("/", 1)[-1].replace("_", " ")
              for zone in zoneinfo.available_timezones()
              if zone.count("/") == 1 and not zone.startswith(("Antarctica/", "Etc/"))}
    return frozenset(p.casefold() for p in cities | set(Provider.countries))


# the cities an address names after its street that no time zone is named after (the
# capitals, big cities and financial centres of the places the redactor's users write
# from: "P.O. Box 8830, Doha", "12 Marine Drive, Mumbai", "Taunusanlage 12, Frankfurt"),
# in lower case: with `places`, the known places (`known_place`)
CITIES = frozenset(city.casefold() for city in (
    "Abu Dhabi", "Sharjah", "Ajman", "Doha", "Manama", "Kuwait City", "Jeddah", "Mecca",
    "Medina", "Dammam", "Khobar", "Salalah", "Sohar", "Sanaa", "Mumbai", "Delhi",
    "New Delhi", "Bengaluru", "Bangalore", "Chennai", "Hyderabad", "Pune", "Ahmedabad",
    "Surat", "Jaipur", "Lucknow", "Kanpur", "Nagpur", "Indore", "Bhopal", "Patna",
    "Gurugram", "Gurgaon", "Noida", "Chandigarh", "Kochi", "Coimbatore", "Thane",
    "Navi Mumbai", "Visakhapatnam", "Vadodara", "Ludhiana", "Mysuru",
    "Thiruvananthapuram", "Lahore", "Islamabad", "Rawalpindi", "Faisalabad", "Multan",
    "Peshawar", "Chittagong", "Sylhet", "Kandy", "Pokhara", "Abuja", "Ibadan", "Kano",
    "Port Harcourt", "Benin City", "Enugu", "Kaduna", "Mombasa", "Kisumu", "Nakuru",
    "Arusha", "Zanzibar", "Kumasi", "Takoradi", "Tamale", "Durban", "Pretoria",
    "Port Elizabeth", "Gqeberha", "Bloemfontein", "Sandton", "Soweto", "Bulawayo",
    "Ndola", "Kitwe", "Alexandria", "Giza", "Luxor", "Aswan", "Marrakesh", "Marrakech",
    "Fes", "Rabat", "Tangier", "Sfax", "Oran", "Benghazi", "Misrata", "Omdurman",
    "Kisangani", "Goma", "Yaounde", "Beijing", "Shenzhen", "Guangzhou", "Chengdu",
    "Tianjin", "Wuhan", "Hangzhou", "Nanjing", "Xi'an", "Suzhou", "Qingdao", "Dalian",
    "Xiamen", "Kowloon", "Osaka", "Yokohama", "Nagoya", "Kyoto", "Kobe", "Fukuoka",
    "Sapporo", "Sendai", "Hiroshima", "Busan", "Incheon", "Daegu", "Daejeon", "Gwangju",
    "Taichung", "Kaohsiung", "Tainan", "Hanoi", "Da Nang", "Haiphong", "Cebu", "Davao",
    "Quezon City", "Makati", "Taguig", "Surabaya", "Bandung", "Medan", "Bali",
    "Denpasar", "Penang", "George Town", "Johor Bahru", "Ipoh", "Shah Alam",
    "Petaling Jaya", "Chiang Mai", "Phuket", "Pattaya", "Siem Reap", "Mandalay",
    "Washington", "Ottawa", "Boston", "Houston", "Dallas", "Austin", "San Antonio",
    "San Diego", "San Jose", "San Francisco", "Seattle", "Miami", "Atlanta",
    "Philadelphia", "Baltimore", "Pittsburgh", "Cleveland", "Columbus", "Cincinnati",
    "Minneapolis", "Kansas City", "Nashville", "Memphis", "Charlotte", "Raleigh",
    "Orlando", "Tampa", "Jacksonville", "Las Vegas", "Portland", "Sacramento", "Oakland",
    "San Juan", "Salt Lake City", "Brooklyn", "Queens", "Manhattan", "Calgary",
    "Quebec City", "Mississauga", "Brampton", "Hamilton", "Saskatoon", "Guadalajara",
    "Puebla", "Medellin", "Medellín", "Cali", "Barranquilla", "Cartagena", "Quito",
    "Arequipa", "Cusco", "Córdoba", "Valparaiso", "Brasilia", "Brasília",
    "Rio de Janeiro", "Salvador", "Curitiba", "Porto Alegre", "Belo Horizonte",
    "Campinas", "Maracaibo", "Valencia", "Frankfurt", "Munich", "München", "Hamburg",
    "Cologne", "Köln", "Stuttgart", "Düsseldorf", "Dusseldorf", "Leipzig", "Dresden",
    "Hanover", "Nuremberg", "Bremen", "Bonn", "Milan", "Milano", "Turin", "Torino",
    "Naples", "Napoli", "Florence", "Firenze", "Venice", "Venezia", "Bologna", "Genoa",
    "Palermo", "Barcelona", "Seville", "Sevilla", "Bilbao", "Malaga", "Málaga",
    "Zaragoza", "Porto", "Braga", "Geneva", "Genève", "Basel", "Bern", "Lausanne",
    "Lugano", "Rotterdam", "The Hague", "Den Haag", "Utrecht", "Eindhoven", "Antwerp",
    "Antwerpen", "Ghent", "Gent", "Liège", "Marseille", "Lyon", "Toulouse", "Nantes",
    "Strasbourg", "Bordeaux", "Lille", "Montpellier", "Manchester", "Birmingham",
    "Leeds", "Liverpool", "Bristol", "Sheffield", "Newcastle", "Nottingham", "Leicester",
    "Cambridge", "Oxford", "Edinburgh", "Glasgow", "Aberdeen", "Cardiff", "Swansea",
    "Cork", "Galway", "Limerick", "Gothenburg", "Göteborg", "Malmö", "Uppsala", "Bergen",
    "Trondheim", "Aarhus", "Odense", "Tampere", "Turku", "Krakow", "Kraków", "Gdansk",
    "Gdańsk", "Wroclaw", "Wrocław", "Poznan", "Poznań", "Lodz", "Łódź", "Brno",
    "Ostrava", "Graz", "Salzburg", "Innsbruck", "Linz", "Cluj-Napoca", "Timisoara",
    "Iasi", "Plovdiv", "Varna", "Thessaloniki", "Patras", "Izmir", "İzmir", "Ankara",
    "Antalya", "Bursa", "Kharkiv", "Odesa", "Odessa", "Lviv", "Dnipro",
    "Saint Petersburg", "St Petersburg", "Kazan", "Haifa", "Eilat", "Gold Coast",
    "Wellington", "Christchurch"))


def known_place(value: str) -> bool:
    """Whether a run of words is a place of `places` or a city of `CITIES`, in any case and
    with or without its accents ("São Paulo", "Bogotá": the time zones write "Sao_Paulo")."""
    folded = value.casefold()
    if folded in places() or folded in CITIES:
        return True
    plain = unicodedata.normalize("NFKD", folded).encode("ascii", "ignore").decode()
    return plain != folded and (plain in places() or plain in CITIES)


def a_place(value: str) -> bool:
    """Whether a would-be name is a known place (`known_place`) and not a given name two
    of Faker's locales list ("Sydney", "Austin", "Victoria" stay names; "London" and
    "Denver", surnames and given names in one long list only, "Santo Domingo" and "São
    Paulo" are places)."""
    return known_place(value) and value.casefold() not in widely_given()


@functools.lru_cache(maxsize=2)
def _faker_names(kinds: tuple[str, ...]) -> frozenset[str]:
    return frozenset().union(*_faker_locales(kinds))


@functools.lru_cache(maxsize=2)
def _faker_locales(kinds: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """The names of these kinds each of Faker's person providers lists, in lower case."""
    require("faker", "telling a lower-case name from a word")
    import faker.providers.person as providers

    out = []
    for module in pkgutil.iter_modules(providers.__path__):
        try:
            provider = importlib.import_module(f"{providers.__name__}.{module.name}").Provider
        except (ImportError, AttributeError):
            continue
        names: set[str] = set()
        for kind in kinds:
            listed = vars(provider).get(kind)  # a class attribute, not a locale's property
            if isinstance(listed, (list, tuple, dict)):
                names.update(n.casefold() for n in listed if isinstance(n, str))
        out.append(frozenset(names))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def widely_given() -> frozenset[str]:
    """Given names two of Faker's locales list at least ("sofia", "sydney", "austin"):
    not those only the longest list holds, which has nearly every name a child was ever
    given ("london", "denver", "berlin")."""
    seen: dict[str, int] = {}
    for names in _faker_locales(GIVEN):
        for name in names:
            seen[name] = seen.get(name, 0) + 1
    return frozenset(name for name, n in seen.items() if n >= 2)
