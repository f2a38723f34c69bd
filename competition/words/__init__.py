"""The words a page uses for an entrant, by its competition's discipline (docs/contracts.md
"A championship of several competitions", GLOSSARY.md): an individual entrant is a
"deltager" (entrant), a pair a "par" (pair), a team a "hold" (team).

One place for them: `TEXTS` holds each sentence that speaks of a team, keyed by the team's
own text (the msgid a team competition's page has always used, so its pages stay as they
were), with the sentence an individual's and a pair's pages say instead. Danish grammar
differs by the word's gender ("Intet hold", "Ingen deltager", "Intet par"), so every
sentence is whole, never a word put into a sentence; where the English is the same for
every discipline and only the Danish differs, the message has the discipline as its context
(pgettext "individual", "pair").

Templates: `{% load entrant %}{% entrant "No teams yet." %}` (competition/templatetags);
code: `entrant_text(competition, "Team")`. A sentence of a count ("%(n)s teams") is an
`ngettext_lazy` entry taking the count as `n`.

The sentences are kept by the part of the app that says them: `public.py` (the words alone and
the public pages), `desk.py` (the desk and its form), `imports.py` (the import), `control.py`
(the control room and the tablet's refusals), `audit.py` (the audit log's sentences and labels);
`TEXTS` here is all of them.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from competition.models import Discipline
from competition.words import audit, control, desk, imports, public

__all__ = ["TEXTS", "entrant_text", "member_limit", "member_limit_text"]

_INDEX = {Discipline.INDIVIDUAL: 0, Discipline.PAIR: 1, Discipline.TEAM: 2}

# How many puzzlers an entrant of each discipline registers: an individual is one puzzler,
# a pair two; a team may register more members than sit at its table (R17): no limit.
MEMBERS = {Discipline.INDIVIDUAL: 1, Discipline.PAIR: 2}


def member_limit(discipline: str) -> int | None:
    """The most puzzlers an entrant of `discipline` registers (None: a team, no limit)."""
    return MEMBERS.get(discipline)


def member_limit_text(discipline: str) -> str:
    """What an entrant of `discipline` with more puzzlers than `member_limit` is told."""
    if discipline == Discipline.INDIVIDUAL:
        return str(_("An individual entrant is one puzzler: write one name."))
    return str(_("A pair is two puzzlers: write at most two names."))


# The team's text -> (an individual's, a pair's, a team's). The team's is the key again,
# written out so that `make messages` finds it (tests/competition/test_words.py checks); each
# part of the app has its module, in this order.
TEXTS: dict[str, tuple[Promise, Promise, Promise]] = {
    **public.TEXTS,
    **desk.TEXTS,
    **imports.TEXTS,
    **desk.FORM,
    **control.TEXTS,
    **control.TABLET,
    **audit.TEXTS,
}


def _entry(of, msgid: str) -> Promise:
    discipline = getattr(of, "discipline", of)
    return TEXTS[msgid][_INDEX[discipline]]


def entrant_text(of, msgid: str, /, **values) -> str:
    """`msgid` (a team competition's text, a key of `TEXTS`) as a competition of `of`'s
    discipline (a Competition, or a discipline) says it, in the active language, filled in
    with `values` (a count's sentence takes the count as `n`)."""
    entry = _entry(of, msgid)
    return str(entry % values) if values else str(entry)
