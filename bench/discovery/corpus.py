"""A synthetic registry: agents with varied descriptions in known capability categories,
and labelled queries (a described need and the category that answers it)."""

from __future__ import annotations

import random
from dataclasses import dataclass

# category: (name words, skill names, topic phrases, tags)
CATEGORIES: dict[str, tuple[list[str], list[str], list[str], list[str]]] = {
    "translation": (
        ["translator", "polyglot", "linguist"],
        ["Document translation", "Localization", "Subtitle translation"],
        [
            "translates contracts between French and German",
            "localizes apps into Japanese",
            "renders technical manuals in Spanish",
            "translates legal documents",
        ],
        ["translation", "language", "localization"],
    ),
    "weather": (
        ["forecaster", "meteo", "climatologist"],
        ["Weather forecast", "Storm alerts", "Rainfall outlook"],
        [
            "forecasts rain and wind for farmers",
            "issues storm warnings for coasts",
            "predicts temperatures for the week",
        ],
        ["weather", "forecast", "climate"],
    ),
    "math": (
        ["calculator", "mathematician", "solver"],
        ["Arithmetic", "Equation solving", "Symbolic algebra"],
        [
            "computes square roots and factorials",
            "solves equations step by step",
            "simplifies algebraic expressions",
        ],
        ["math", "calculation", "algebra"],
    ),
    "market-research": (
        ["analyst", "researcher", "strategist"],
        ["Market sizing", "Competitor analysis", "Consumer survey"],
        [
            "estimates market size for new products",
            "compares competitors' pricing",
            "writes quarterly market reports",
        ],
        ["market", "research", "competitors"],
    ),
    "travel": (
        ["planner", "concierge", "tourguide"],
        ["Itinerary planning", "Hotel booking", "Flight search"],
        [
            "plans trips to Beijing with hotels and trains",
            "books flights and hotels",
            "suggests sights for a weekend city break",
        ],
        ["travel", "itinerary", "hotel"],
    ),
    "code-review": (
        ["reviewer", "linter", "auditor"],
        ["Code review", "Static analysis", "Security audit"],
        [
            "reviews Python pull requests",
            "finds bugs in Java code",
            "audits code for injection vulnerabilities",
        ],
        ["code", "review", "security"],
    ),
    "database": (
        ["dba", "sqlwizard", "indexer"],
        ["Query tuning", "Schema design", "Database migration"],
        [
            "tunes slow SQL queries in PostgreSQL",
            "designs relational schemas",
            "migrates databases between MySQL and PostgreSQL",
        ],
        ["database", "sql", "postgresql"],
    ),
    "legal": (
        ["lawyer", "paralegal", "counsel"],
        ["Contract review", "Compliance check", "Privacy policy drafting"],
        [
            "reviews employment contracts for risks",
            "checks GDPR compliance",
            "drafts privacy policies",
        ],
        ["legal", "contract", "compliance"],
    ),
    "image": (
        ["painter", "illustrator", "designer"],
        ["Image generation", "Logo design", "Photo retouching"],
        [
            "draws illustrations for children's books",
            "designs logos for startups",
            "retouches portrait photos",
        ],
        ["image", "design", "illustration"],
    ),
    "finance": (
        ["accountant", "bookkeeper", "auditor"],
        ["Bookkeeping", "Tax filing", "Invoice processing"],
        [
            "keeps the books for small businesses",
            "prepares tax returns",
            "processes invoices and receipts",
        ],
        ["finance", "accounting", "tax"],
    ),
    "medical": (
        ["triage", "clinician", "pharmacist"],
        ["Symptom triage", "Drug interactions", "Medical coding"],
        [
            "checks drug interactions for prescriptions",
            "triages symptoms before a visit",
            "assigns ICD codes to clinical notes",
        ],
        ["medical", "health", "pharmacy"],
    ),
    "music": (
        ["composer", "musician", "mixer"],
        ["Melody composition", "Audio mixing", "Lyrics writing"],
        [
            "composes background music for videos",
            "mixes and masters songs",
            "writes lyrics for pop songs",
        ],
        ["music", "audio", "song"],
    ),
    "logistics": (
        ["dispatcher", "router", "shipper"],
        ["Route optimization", "Shipment tracking", "Warehouse planning"],
        [
            "optimizes delivery routes for trucks",
            "tracks parcels across carriers",
            "plans warehouse inventory",
        ],
        ["logistics", "shipping", "delivery"],
    ),
    "education": (
        ["tutor", "teacher", "coach"],
        ["Homework help", "Exam preparation", "Language lessons"],
        [
            "tutors high school physics",
            "prepares students for exams",
            "teaches English conversation",
        ],
        ["education", "tutoring", "learning"],
    ),
    "recruiting": (
        ["recruiter", "headhunter", "screener"],
        ["Resume screening", "Interview scheduling", "Job description writing"],
        [
            "screens resumes for engineering roles",
            "schedules interviews with candidates",
            "writes job descriptions",
        ],
        ["recruiting", "hiring", "resume"],
    ),
    "cooking": (
        ["chef", "cook", "nutritionist"],
        ["Recipe creation", "Meal planning", "Nutrition facts"],
        [
            "creates vegetarian recipes",
            "plans weekly meals on a budget",
            "computes calories and nutrition facts",
        ],
        ["cooking", "recipe", "nutrition"],
    ),
}

GENERIC = [
    "It is fast, reliable and available around the clock.",
    "Built for teams that need answers quickly.",
    "It can also summarize documents and write short reports.",
    "Works with data from spreadsheets and text files.",
    "Ask it anything related to its field; it explains its work.",
    "It is a helpful assistant for small companies and individuals.",
    "Integrates with other agents through the hub.",
    "Trusted by many users for accurate analysis.",
    "Supports English and Chinese.",
    "It keeps your information private and secure.",
]
ADJECTIVES = ["swift", "bright", "calm", "eager", "keen", "noble", "quick", "wise", "bold", "neat"]

QUERIES: list[tuple[str, str]] = [
    ("I need someone to translate a contract from French to German", "translation"),
    ("localize my app into Japanese", "translation"),
    ("will it rain tomorrow on my farm", "weather"),
    ("storm warning for the coast", "weather"),
    ("calculate the square root of 9 factorial", "math"),
    ("solve this equation for x", "math"),
    ("estimate the market size for a new product", "market-research"),
    ("write a quarterly report on competitors pricing", "market-research"),
    ("plan a trip to Beijing with a hotel", "travel"),
    ("book a flight and hotel for a weekend", "travel"),
    ("review my Python pull request for bugs", "code-review"),
    ("audit code for security vulnerabilities", "code-review"),
    ("my PostgreSQL query is slow, tune it", "database"),
    ("design a relational schema for orders", "database"),
    ("check this employment contract for legal risks", "legal"),
    ("is our privacy policy GDPR compliant", "legal"),
    ("draw an illustration for a children's book", "image"),
    ("design a logo for my startup", "image"),
    ("prepare my tax return", "finance"),
    ("process invoices and receipts for bookkeeping", "finance"),
    ("check interactions between two prescription drugs", "medical"),
    ("compose background music for a video", "music"),
    ("optimize delivery routes for our trucks", "logistics"),
    ("tutor my son in high school physics", "education"),
    ("screen resumes for an engineering role", "recruiting"),
    ("plan vegetarian meals for the week", "cooking"),
]


@dataclass(frozen=True)
class SyntheticAgent:
    id: str
    name: str
    description: str
    skills: list[dict[str, object]]
    category: str


def make_agents(count: int, seed: int = 185) -> list[SyntheticAgent]:
    rng = random.Random(seed)  # noqa: S311 (synthetic data, not secrets)
    names = list(CATEGORIES)
    agents = []
    for i in range(count):
        category = names[i % len(names)]
        words, skill_names, phrases, tags = CATEGORIES[category]
        other = CATEGORIES[rng.choice(names)]
        sentences = [
            f"This agent {rng.choice(phrases)}.",
            *rng.sample(GENERIC, k=rng.randint(1, 3)),
        ]
        if rng.random() < 0.3:  # a passing mention of another field: noise for every ranker
            sentences.append(f"It does not {rng.choice(other[2])}.")
        rng.shuffle(sentences)
        skill_name = rng.choice(skill_names)
        skills: list[dict[str, object]] = [
            {
                "id": f"{category}-{rng.randint(1, 99)}",
                "name": skill_name,
                "description": f"{skill_name}: {rng.choice(phrases)}",
                "tags": rng.sample(tags, k=2),
            }
        ]
        agents.append(
            SyntheticAgent(
                id=f"1.2.156.3088.1.AGH.BENCH{i:07d}",
                name=f"{rng.choice(ADJECTIVES)}-{rng.choice(words)}-{i}",
                description=" ".join(sentences),
                skills=skills,
                category=category,
            )
        )
    return agents
