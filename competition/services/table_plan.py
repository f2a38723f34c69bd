"""One hall, one table plan: the checks (docs/contracts.md "A championship of several
competitions"). The competitions of a championship that run at the same time have distinct
tables; what "at the same time" means, and the comparison, are pure
(`puzzle_rules/table_plan.py`).

Every path that gives an entrant a table asks here: the desk's team form and the API
(`teams.py`: a new team, a changed table), the spreadsheet import (`imports/plan.py`, row by
row), advancing (`championships/services/advance.py`: the next free table); and every path
that moves a competition in time: its planned start or duration (`setup.py`) and its clock's
start, corrected start or undone stop (`clock.py`: refused while an entrant of a
started competition holds a table at the same time).
A write checks under its championship's row lock (`lock_championship`, last in the one lock
order), so two desks in two competitions cannot both take one table at once.
"""

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.errors import Refusal
from competition.locking import lock_championship
from competition.models import Competition, Team
from puzzle_rules.table_plan import Clash, Seat, Span, clashes, span_of

__all__ = [
    "clash_text",
    "clashes_of_rows",
    "ensure_plan_kept",
    "ensure_clock_free",
    "lock_championship",
    "seats_beside",
    "span",
    "table_clash",
    "tables_beside",
]

_SPAN_FIELDS = ("starts_at", "duration_minutes", "started_at", "stopped_at")


def span(competition: Competition, **changes) -> Span:
    """The span of `competition` (its clock's, or its planned one), with `changes` (a new
    `starts_at`, `duration_minutes` or `started_at`) laid over it."""
    values = {f: changes.get(f, getattr(competition, f)) for f in _SPAN_FIELDS}
    return span_of(
        starts_at=values["starts_at"],
        duration=timedelta(minutes=values["duration_minutes"]),
        started_at=values["started_at"],
        stopped_at=values["stopped_at"],
    )


def seats_beside(
    competition: Competition, *, during: Span | None = None, started: bool = False
) -> list[Seat]:
    """The entrants of the other competitions of `competition`'s championship whose span
    overlaps `during` (default: `competition`'s own), at their tables; `started`: only
    competitions whose clock has started. Two queries at most (one for a competition of its
    own)."""
    during = during or span(competition)
    others = [
        other
        for other in Competition.objects.filter(championship_id=competition.championship_id)
        .exclude(pk=competition.pk)
        .only("id", "name", *_SPAN_FIELDS)
        if (other.started_at is not None or not started) and span(other).overlaps(during)
    ]
    if not others:
        return []
    by_id = {other.pk: other for other in others}
    rows = Team.objects.filter(competition_id__in=by_id).values_list(
        "id", "table", "name", "competition_id"
    )
    return [
        Seat(
            table=table,
            entrant=name,
            competition=by_id[competition_id].name,
            span=span(by_id[competition_id]),
            entrant_id=pk,
            competition_id=competition_id,
        )
        for pk, table, name, competition_id in rows
    ]


def tables_beside(competition: Competition) -> set[int]:
    """The tables that entrants of other competitions hold while `competition` runs."""
    return {seat.table for seat in seats_beside(competition)}


def _hm(moment: datetime) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


def clash_text(clash: Clash, *, free: int | None = None) -> str:
    """ "Table 5 is taken by “Anna” in “Heat B”, which runs at the same time (10:00–11:00)",
    and with `free`: "; the next free is 7." """
    seat = clash.seat
    values = {
        "table": clash.table,
        "entrant": seat.entrant,
        "competition": seat.competition,
        "start": _hm(seat.span.start),
        "end": _hm(seat.span.end),
        "free": free,
    }
    if free is None:
        return (
            _(
                "Table %(table)s is taken by “%(entrant)s” in “%(competition)s”, which runs at "
                "the same time (%(start)s–%(end)s)."
            )
            % values
        )
    return (
        _(
            "Table %(table)s is taken by “%(entrant)s” in “%(competition)s”, which runs at the "
            "same time (%(start)s–%(end)s); the next free is %(free)s."
        )
        % values
    )


def table_clash(competition: Competition, table: int) -> Clash | None:
    """The entrant of another competition that holds `table` while `competition` runs, or
    None. Call it under the championship's lock (`lock_championship`) in a write."""
    found = clashes(span(competition), [table], seats_beside(competition))
    return found[0] if found else None


def _listed(found: list[Clash], mine: dict[int, str]) -> str:
    """ "table 5 (“Bo” here, “Anna” in “Heat B”), table 7 (…)", the first three, and how many
    more."""
    parts = [
        _("table %(table)s (“%(mine)s” here, “%(entrant)s” in “%(competition)s”)")
        % {
            "table": c.table,
            "mine": mine[c.table],
            "entrant": c.seat.entrant,
            "competition": c.seat.competition,
        }
        for c in found[:3]
    ]
    if len(found) > 3:
        parts.append(_("%(n)s more") % {"n": len(found) - 3})
    return ", ".join(parts)


def _tables_of(competition: Competition) -> dict[int, str]:
    return dict(Team.objects.filter(competition=competition).values_list("table", "name"))


def ensure_plan_kept(competition: Competition, *, field: str) -> None:
    """A new planned start or duration (set on `competition`, not yet saved) must not make it
    run at the same time as another competition of its championship whose entrants sit at
    its tables: ValidationError on `field`, naming the clash. Locks the championship's row."""
    lock_championship(competition)
    mine = _tables_of(competition)
    if not mine:
        return
    during = span(competition)
    found = clashes(during, mine, seats_beside(competition, during=during))
    if not found:
        return
    first = found[0].seat
    raise ValidationError(
        {
            field: [
                _(
                    "At this time “%(competition)s” runs too (%(start)s–%(end)s), and the same "
                    "tables are given out in both: %(tables)s. Choose another time, or move "
                    "the entrants to other tables first."
                )
                % {
                    "competition": first.competition,
                    "start": _hm(first.span.start),
                    "end": _hm(first.span.end),
                    "tables": _listed(found, mine),
                }
            ]
        }
    )


def ensure_clock_free(
    competition: Competition, *, started_at: datetime, stopped_at: datetime | None = None
) -> None:
    """A clock of `competition` from `started_at` (a start, a corrected start, an undone
    stop) must not run at the same time as the clock of another competition of the
    championship that has an entrant at one of its tables: refused (409 `table_clash`,
    naming each clash in `clashes`). Locks the championship's row.

    From now on: a start written as it really was (back in time) records the past, and the
    past holds nobody at a table now; what matters is the rest of this clock (a backdated
    final played after its heats have ended, as `demo --live` does, is free)."""
    lock_championship(competition)
    mine = _tables_of(competition)
    if not mine:
        return
    clock = span(competition, started_at=started_at, stopped_at=stopped_at)
    during = Span(max(clock.start, timezone.now()), clock.end)
    if during.start >= during.end:
        return  # the clock has already ended: nothing runs from now on
    found = clashes(during, mine, seats_beside(competition, during=during, started=True))
    if not found:
        return
    first = found[0].seat
    raise Refusal(
        "table_clash",
        _(
            "The clock of “%(competition)s” runs until %(end)s, and its entrants sit at tables "
            "that are given out here too: %(tables)s. Wait until it has ended, or move the "
            "entrants to other tables first."
        )
        % {
            "competition": first.competition,
            "end": _hm(first.span.end),
            "tables": _listed(found, mine),
        },
        clashes=[_clash_body(c, mine) for c in found],
    )


def _clash_body(clash: Clash, mine: dict[int, str]) -> dict:
    return {
        "table": clash.table,
        "entrant": mine[clash.table],
        "other": {
            "id": clash.seat.entrant_id,
            "name": clash.seat.entrant,
            "competition": clash.seat.competition,
        },
    }


def clashes_of_rows(
    competition: Competition, tables: Iterable[int], seats: list[Seat] | None = None
) -> dict[int, Clash]:
    """For a list of wanted tables (an import's rows): table -> the clash it meets."""
    seats = seats_beside(competition) if seats is None else seats
    return {c.table: c for c in clashes(span(competition), tables, seats)}
