"""The competition clock (R4, R10) as one value: where it stands at a moment.

`Clock.of(competition, now)` is the only place that works out the clock's end, its status
and the seconds gone and left; the model's clock properties read it, the API's `clock`
object is `Clock.api()` (docs/contracts.md "The HTTP API": started_at, ends_at, stopped_at,
elapsed_seconds, remaining_seconds), and every page's script reads `Clock.page()`, one JSON
shape in epoch milliseconds (static/js/clock.mjs reads it):

    {"status", "started_at_ms", "end_ms", "duration_s"}

`end_ms` is the clock's end (the earlier of start + duration and an early stop). No server
time in it: public pages are cached, so every page's script asks /api/v1/time instead.
"""

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

__all__ = ["Clock", "Status", "ms"]


class Status(models.TextChoices):
    SETUP = "setup", _("Not started")
    RUNNING = "running", _("The clock is running")
    STOPPED = "stopped", _("Time is up")
    FINAL = "final", _("Final results")


class _Timed(Protocol):
    """What the clock reads of a competition (a Competition, or its cached state)."""

    started_at: datetime | None
    stopped_at: datetime | None
    finalised_at: datetime | None
    duration_minutes: int


def ms(moment: datetime | None) -> int | None:
    """A moment as epoch milliseconds, as the pages' scripts count (None stays None)."""
    return int(moment.timestamp() * 1000) if moment else None


@dataclass(frozen=True)
class Clock:
    started_at: datetime | None
    stopped_at: datetime | None
    finalised: bool
    duration: timedelta
    now: datetime

    @classmethod
    def of(cls, competition: _Timed, now: datetime | None = None) -> "Clock":
        return cls(
            started_at=competition.started_at,
            stopped_at=competition.stopped_at,
            finalised=competition.finalised_at is not None,
            duration=timedelta(minutes=competition.duration_minutes),
            now=now or timezone.now(),
        )

    @property
    def ends_at(self) -> datetime | None:
        """start + duration (R10), whether or not it was stopped earlier."""
        return self.started_at + self.duration if self.started_at else None

    @property
    def end(self) -> datetime | None:
        """When the clock stops or stopped: the earlier of ends_at and stopped_at."""
        if self.ends_at is None:
            return None
        return min(self.stopped_at, self.ends_at) if self.stopped_at else self.ends_at

    @property
    def status(self) -> Status:
        if self.finalised:
            return Status.FINAL
        if self.end is None:
            return Status.SETUP
        return Status.RUNNING if self.now < self.end else Status.STOPPED

    @property
    def has_ended(self) -> bool:
        """Started and ended (by itself or stopped early), final or not."""
        return self.end is not None and self.now >= self.end

    @property
    def duration_seconds(self) -> int:
        return int(self.duration.total_seconds())

    @property
    def elapsed_seconds(self) -> int:
        """Whole seconds on the competition clock, capped at its end; 0 before the start."""
        if self.started_at is None or self.end is None:
            return 0
        return max(0, int((min(self.now, self.end) - self.started_at).total_seconds()))

    @property
    def remaining_seconds(self) -> int:
        if self.end is None:
            return self.duration_seconds
        return max(0, int((self.end - self.now).total_seconds()))

    def api(self) -> dict:
        """The API's `clock` object (docs/contracts.md): its fields are a contract."""
        return {
            "started_at": self.started_at,
            "ends_at": self.ends_at,
            "stopped_at": self.stopped_at,
            "elapsed_seconds": self.elapsed_seconds,
            "remaining_seconds": self.remaining_seconds,
        }

    def moments(self) -> dict:
        """What an audit entry keeps of a clock change: its three moments."""
        return {
            "started_at": self.started_at,
            "ends_at": self.ends_at,
            "stopped_at": self.stopped_at,
        }

    def page(self) -> dict:
        """The one shape every page's script reads (static/js/clock.mjs)."""
        return {
            "status": str(self.status),
            "started_at_ms": ms(self.started_at),
            "end_ms": ms(self.end),
            "duration_s": self.duration_seconds,
        }

    @property
    def json(self) -> str:
        """`page()` as JSON, for a `data-clock` attribute (the template escapes it)."""
        return json.dumps(self.page(), separators=(",", ":"))
