"""One way to write (docs/architecture.md "A write"): `with write(team=...) as w:`.

It opens the transaction, takes the locks in the one lock order (the team's row, then its
competition's: `competition/locking.py`), refuses with `final` before anything else, and
on a successful exit bumps the standings version once if the write recorded an audit
entry (`w.audit(...)`; not for one marked `standings=False`), so a change never leaves the
board stale. A refusal (or any error)
inside rolls everything back and bumps nothing; a `return` of a replayed answer inside
writes nothing and bumps nothing.

An idempotent write looks its request id up between the locks and the `final` check (a
resend after the results became final still answers its first answer): `recall`, a
function of the locked competition, returns the stored record or None (`w.stored`).
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from competition.audit import audit_record
from competition.audit_actions import Action
from competition.errors import ensure_not_final
from competition.locking import lock_competition, lock_team
from competition.models import AuditEntry, Competition, Team

__all__ = ["Write", "write"]


@dataclass
class Write:
    """The rows a write holds locked, and what it recorded."""

    competition: Competition
    team: Team | None = None
    by: Any = None
    stored: Any = None  # the record a request id created before (`recall`), or None
    entries: list[AuditEntry] = field(default_factory=list)
    changed_standings: bool = False

    def audit(
        self, action: Action, *, team: Team | None = None, standings: bool = True, **entry
    ) -> AuditEntry:
        """Record an audit entry (the team's by default): the standings version is bumped
        when the write ends, unless no entry changed what the standings show
        (`standings=False`: a fee paid, a check-in, a login)."""
        recorded = audit_record(
            competition=self.competition,
            user=entry.pop("user", self.by),
            action=action,
            team=team if team is not None else self.team,
            **entry,
        )
        self.entries.append(recorded)
        self.changed_standings = self.changed_standings or standings
        return recorded


@contextmanager
def write(
    *,
    team: Team | None = None,
    competition: Competition | int | None = None,
    by=None,
    recall: Callable[[Competition], Any] | None = None,
    check_final: bool = True,
) -> Iterator[Write]:
    """Lock the team then its competition (or the competition alone), check `final`, and
    bump the standings version on a successful exit if anything was audited."""
    with transaction.atomic():
        if team is not None:
            team, locked = lock_team(team)
        elif competition is not None:
            locked = lock_competition(competition)
        else:
            raise TypeError("write() needs a team or a competition")
        w = Write(competition=locked, team=team, by=by)
        if recall is not None:
            w.stored = recall(locked)
        if w.stored is None and check_final:
            ensure_not_final(locked)
        yield w
        if w.changed_standings:
            locked.bump_standings()
