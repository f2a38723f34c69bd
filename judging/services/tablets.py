"""The judges' tablets report their health (docs/contracts.md `tablets/heartbeat`, docs/offline.md).

Cheap and frequent (every 15 s or so per tablet): the latest report per device, no audit
entry, no standings version. A report is accepted also after the results are final: it is
the tablet's state, not competition data, and the control room keeps showing it.
"""

from django.db import IntegrityError, transaction
from django.utils import timezone

from competition.models import Competition
from judging.models import Tablet

__all__ = ["tablet_report"]


def tablet_report(
    *,
    competition: Competition,
    by,
    device_id: str,
    tables: list[int],
    waiting: int,
    oldest_waiting_seconds: int | None = None,
    clock_offset_ms: int | None = None,
    clock_rtt_ms: int | None = None,
    version: str = "",
) -> Tablet:
    """Keep the tablet's latest report; `waiting_since` marks when its taps began to wait."""
    now = timezone.now()
    fields = {
        "user": by if getattr(by, "is_authenticated", False) else None,
        "tables": sorted(set(tables)),
        "waiting": waiting,
        "oldest_waiting_seconds": oldest_waiting_seconds if waiting else None,
        "clock_offset_ms": clock_offset_ms,
        "clock_rtt_ms": clock_rtt_ms,
        "version": version,
        "last_seen_at": now,
    }
    for _attempt in range(2):  # a second report racing the first insert of this device
        try:
            with transaction.atomic():
                tablet = (
                    Tablet.objects.select_for_update()
                    .filter(competition=competition, device_id=device_id)
                    .first()
                )
                if tablet is None:
                    return Tablet.objects.create(
                        competition=competition,
                        device_id=device_id,
                        waiting_since=now if waiting else None,
                        **fields,
                    )
                if not waiting:
                    tablet.waiting_since = None
                elif tablet.waiting_since is None:
                    tablet.waiting_since = now
                for name, value in fields.items():
                    setattr(tablet, name, value)
                tablet.save()
                return tablet
        except IntegrityError:
            continue
    raise RuntimeError("tablet report lost twice")  # pragma: no cover
