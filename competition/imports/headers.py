"""Which column is which: the header words, Danish or English, and the preview's choices."""

import functools
import re

from django.utils.translation import gettext as _

from competition.inputs import whole_number
from competition.models import Discipline
from competition.words import entrant_text

_WORDS = {
    "name": {
        "hold",
        "team",
        "holdnavn",
        "hold navn",
        "holdets navn",
        "team name",
        "teamnavn",
        "navn på hold",
        "navn på holdet",
    },
    "table": {"bord", "table", "bordnummer", "bord nr", "table number", "bordnr"},
    "members": {
        "medlemmer",
        "members",
        "holdmedlemmer",
        "team members",
        "deltagere",
        "holdets deltagere",
        "deltagernes navne",
        "navne",
        "names",
        "participants",
        "spillere",
        "players",
        "puslere",
        "puzzlers",
    },
    "member": {
        "medlem",
        "member",
        "holdmedlem",
        "pusler",
        "navn",
        "name",
        "deltager",
        "spiller",
        "player",
        "participant",
        "puzzler",
    },
    "u15": {"under 15", "under 15 år", "u15", "under15", "under 15 years"},
    "age": {"alder", "age", "ages", "aldre", "deltagernes alder", "alder på deltagerne"},
    "adult": {
        "ledsagende voksen",
        "voksen",
        "adult",
        "guardian",
        "accompanying adult",
        "navn på ledsagende voksen",
        "ledsagende voksens navn",
        "ledsager",
        "name of the accompanying adult",
        "name of accompanying adult",
    },
    "paid": {
        "betalt",
        "paid",
        "fee paid",
        "gebyr betalt",
        "tilmeldingsgebyr betalt",
        "har i betalt",
        "har betalt",
        "have you paid",
        "has paid",
    },
    "contact_name": {"kontaktperson", "kontakt", "contact", "contact name"},
    "contact_email": {
        "email",
        "e-mail",
        "mail",
        "contact email",
        "e-mailadresse",
        "emailadresse",
        "mailadresse",
        "email address",
        "e-mail address",
    },
    "contact_phone": {
        "telefon",
        "tlf",
        "phone",
        "mobil",
        "contact phone",
        "telefonnummer",
        "tlf nr",
        "mobilnummer",
        "phone number",
    },
    "notes": {"noter", "notes", "bemærkninger", "note"},
    "labels": {
        "kategorier",
        "kategori",
        "mærker",
        "mærke",
        "labels",
        "label",
        "særskilt placering",
        "særskilte placeringer",
    },
}

# The entrant's name in the discipline's own word (GLOSSARY.md: deltager, par), read before
# the words above: an individual's "navn" or "deltager" is the entrant (and its one
# puzzler), not a member's column. The team's words ("hold") are read in every discipline.
_NAME_OF = {
    Discipline.INDIVIDUAL: {
        "navn",
        "name",
        "deltager",
        "deltagernavn",
        "deltagerens navn",
        "fulde navn",
        "full name",
        "entrant",
        "participant",
        "puzzler",
        "pusler",
    },
    Discipline.PAIR: {
        "par",
        "pair",
        "parnavn",
        "pair name",
        "parrets navn",
        "navn på par",
        "navn på parret",
    },
}

# The columns a discipline's export writes and its example shows (the name, each member),
# and the export's file name ("dm-2026-hold.csv").
COLUMNS = {
    Discipline.INDIVIDUAL: {"name": "navn", "member": "deltager", "file": "deltagere"},
    Discipline.PAIR: {"name": "par", "member": "deltager", "file": "par"},
    Discipline.TEAM: {"name": "hold", "member": "medlem", "file": "hold"},
}


def _norm(header) -> str:
    text = str(header or "").replace("\ufeff", "").strip().lower()
    text = re.sub(r"[._:#?()]", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    # Google Forms asks questions: "Er deltager 4 under 15 år?", "Is member 4 under 15?"
    return re.sub(r"^(er|is) ", "", text)


def classify(header, discipline: str = Discipline.TEAM) -> tuple[str, int] | None:
    """('name', 0), ('member', 2), ('u15', 2), ('adult', 0)... or None for an unknown column;
    the entrant's name also in the `discipline`'s word ("navn", "par")."""
    text = _norm(header)
    if text in _NAME_OF.get(discipline, ()):
        return "name", 0
    for kind, words in _WORDS.items():
        if text in words:
            return kind, 0
    # Numbered member columns: "medlem 2", "medlem 2 under 15", "under 15 2", "voksen 2" ...
    match = re.fullmatch(r"(.*?)\s*(\d+)\s*(.*)", text)
    if match and match.group(1) != "under":
        before, number, after = match.group(1), int(match.group(2)), match.group(3)
        if before in _WORDS["member"] and not after:
            return "member", number
        if before in _WORDS["member"] and after in _WORDS["u15"]:
            return "u15", number
        if before in _WORDS["member"] and after in _WORDS["adult"]:
            return "adult", number
        if before in _WORDS["member"] and after in _WORDS["age"]:
            return "age", number
        if not after and before in _WORDS["age"]:
            return "age", number
        first, _sep, rest = before.partition(" ")
        if not after and first in _WORDS["age"] and rest in _WORDS["member"]:
            return "age", number  # "alder deltager 2"
        if not after and before in _WORDS["u15"]:
            return "u15", number
        if not after and before in _WORDS["adult"]:
            return "adult", number
    # "under 15 2" has two numbers: "under 15" then the member's number.
    match = re.fullmatch(r"(under 15( år)?|u15)\s+(\d+)", text)
    if match:
        return "u15", int(match.group(3))
    return None


def column_key(kind: tuple[str, int] | None) -> str:
    return "" if kind is None else f"{kind[0]}:{kind[1]}"


def parse_key(key: str) -> tuple[str, int] | None:
    """ "member:2" -> ("member", 2); "" or anything unknown -> None (the column is ignored)."""
    kind, _sep, text = str(key or "").partition(":")
    number = whole_number(text, high=50)
    if kind not in _WORDS or number is None:
        return None
    return kind, number


def mapping_choices(width: int = 6, discipline: str = Discipline.TEAM) -> list[tuple[str, str]]:
    """What a column can be read as, for the preview's selects, in the words of the
    discipline (an individual's puzzler, a pair's two puzzlers, a team's members)."""
    said = functools.partial(entrant_text, discipline)  # in the discipline's words
    choices = [
        ("", _("Not imported")),
        ("name:0", said("Team name")),
        ("table:0", _("Table")),
        ("members:0", said("Members, all in one cell")),
        ("member:0", said("Member (one row per member)")),
    ]
    for n in range(1, width + 1):
        choices += [
            (f"member:{n}", said("Member %(n)d", n=n)),
            (f"u15:{n}", said("Member %(n)d under 15", n=n)),
            (f"age:{n}", said("Member %(n)d age", n=n)),
            (f"adult:{n}", said("Member %(n)d accompanying adult", n=n)),
        ]
    choices += [
        ("age:0", said("Ages, one per member")),
        ("u15:0", _("Under 15")),
        ("adult:0", _("Accompanying adult (of the under-15s)")),
        ("paid:0", _("Paid")),
        ("contact_name:0", _("Contact")),
        ("contact_email:0", _("E-mail")),
        ("contact_phone:0", _("Phone")),
        ("notes:0", _("Notes")),
        ("labels:0", _("Labels")),
    ]
    return choices
