"""A competition's short name in the address, suggested from its name (static/js/slug.mjs
does the same in the browser, so the suggestion and the server agree)."""

import re
import unicodedata

SLUG_MAX = 50
# Danish letters are written out, as Danes do in e-mail addresses and domains.
DANISH = str.maketrans({"æ": "ae", "ø": "oe", "å": "aa"})
SLUG_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def slug_from(text: str) -> str:
    """ "DM i puslespil 2027 – Århus" -> "dm-i-puslespil-2027-aarhus"; "" when nothing is left."""
    text = text.lower().translate(DANISH)
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = re.sub(r"[^a-z0-9]+", "-", text).strip("-")
    return text[:SLUG_MAX].rstrip("-")


def slug_valid(slug: str) -> bool:
    """Small letters a-z, digits, single hyphens between them."""
    return len(slug) <= SLUG_MAX and bool(SLUG_RE.match(slug))
