"""The desk's list of entrants, one way on a competition's desk and across a championship:
the search (a name, a member's name or a table number) and the filters (R2, P2)."""

from competition.inputs import whole_number
from competition.models import Team

FILTERS = {
    "in": lambda t: t.checked_in_at is not None and not t.withdrawn,
    "missing": lambda t: t.checked_in_at is None and not t.withdrawn,
    "unpaid": lambda t: not t.fee_paid and not t.withdrawn,
    "withdrawn": lambda t: t.withdrawn,
}


def matches(team: Team, q: str) -> bool:
    """The team is found by `q`: its table number, or a part of its name or a member's."""
    if not q:
        return True
    if whole_number(q) == team.table:
        return True
    q = q.casefold()  # Python, not SQL: SQLite's lower() knows only ASCII
    return q in team.name.casefold() or any(q in m.name.casefold() for m in team.members.all())


def is_missing(team: Team) -> bool:
    """R2: not checked in and not withdrawn."""
    return team.checked_in_at is None and not team.withdrawn


def added_first(shown: list[Team], added: int | None) -> Team | None:
    """The entrant just registered (a walk-in, `?added=<id>`) first in `shown` and marked
    `just_added`; it is returned (None when not shown)."""
    for index, team in enumerate(shown):
        if team.pk == added:
            team.just_added = True
            shown.insert(0, shown.pop(index))
            return team
    return None
