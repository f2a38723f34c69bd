"""One hall, one table plan (docs/contracts.md "A championship of several competitions"): the
competitions of a championship that run at the same time have distinct tables.

"At the same time" is a question of spans. A competition's span is its clock's once the clock
has started (the start to its end: start + duration, or the early stop), and its planned
one before that (`starts_at` to `starts_at` + duration): the organiser makes the table plan
before the day, from the programme. Two spans overlap when each starts before the other
ends; one that ends as the next starts does not (heat A 10:00-11:00, heat B 11:00-12:00 may
use the same tables).

Pure: plain data in, plain data out; no Django (import-linter keeps it so). The checks that
read the database and say it in sentences are `competition/services/table_plan.py`.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

__all__ = ["Clash", "Seat", "Span", "clashes", "span_of"]


@dataclass(frozen=True)
class Span:
    """From `start` up to (not including) `end`."""

    start: datetime
    end: datetime

    def overlaps(self, other: "Span") -> bool:
        return self.start < other.end and other.start < self.end


def span_of(
    *,
    starts_at: datetime,
    duration: timedelta,
    started_at: datetime | None = None,
    stopped_at: datetime | None = None,
) -> Span:
    """The clock's span once it has started (to start + duration, or the early stop); the
    planned one before."""
    if started_at is None:
        return Span(starts_at, starts_at + duration)
    end = started_at + duration
    if stopped_at is not None:
        end = min(end, stopped_at)
    return Span(started_at, end)


@dataclass(frozen=True)
class Seat:
    """An entrant at a table in another competition, during that competition's span."""

    table: int
    entrant: str
    competition: str  # the other competition's name
    span: Span
    entrant_id: object = None
    competition_id: object = None


@dataclass(frozen=True)
class Clash:
    """`table` is wanted during a span in which `seat` holds it."""

    table: int
    seat: Seat


def clashes(span: Span, tables: Iterable[int], seats: Iterable[Seat]) -> list[Clash]:
    """The wanted `tables` that a seat of another competition holds at the same time as
    `span`, by table, then by the other competition's start."""
    wanted = set(tables)
    found = [
        Clash(seat.table, seat)
        for seat in seats
        if seat.table in wanted and seat.span.overlaps(span)
    ]
    return sorted(found, key=lambda c: (c.table, c.seat.span.start, str(c.seat.competition)))
