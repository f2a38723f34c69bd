"""When a snapshot is taken by itself: every BACKUP_MINUTES while a competition is on and when
its clock ends by itself (checked after a response has been sent, at most once every
BACKUP_CHECK_SECONDS per process, one worker taking it), and after every clock stop and
finalise has committed."""

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from competition.models import Competition
from judging.backups.snapshots import _locked, _snapshot_locked, enabled, snapshot
from judging.models import Backup

logger = logging.getLogger("judging.backups")  # one name for the backups' log


# A competition is "on" from 12 hours before its planned start until 12 hours after its
# clock ended: the desk's morning, the day, the counts and the prize-giving.
DAY_WINDOW = timedelta(hours=12)


def due(now) -> str | None:
    """ "clock_end" when a clock ended by itself since the last attempt; "auto" when a
    competition is on and the last attempt is BACKUP_MINUTES old; else None."""
    last = Backup.objects.exclude(reason="pre_restore").order_by("-at").first()
    last_at = last.at if last else None
    on = False
    for c in Competition.objects.filter(finalised_at=None):
        end = c.clock_end
        if end is not None and end <= now and (last_at is None or end > last_at):
            return "clock_end"
        if end is None:
            on = on or abs(c.starts_at - now) <= DAY_WINDOW
        else:
            on = on or end >= now - DAY_WINDOW
    if on and (last_at is None or now - last_at >= timedelta(minutes=settings.BACKUP_MINUTES)):
        return "auto"
    return None


_last_check = float("-inf")


def after_request(**kwargs) -> None:
    """request_finished: the answer has been sent; take a periodic snapshot if one is due.

    A connection opened here is closed by the next request's `close_old_connections`."""
    global _last_check
    if not enabled() or time.monotonic() - _last_check < settings.BACKUP_CHECK_SECONDS:
        return
    _last_check = time.monotonic()
    try:
        if due(timezone.now()) is None:
            return
        with _locked(blocking=False) as mine:
            reason = due(timezone.now()) if mine else None  # another worker may have taken it
            if reason is not None:
                _snapshot_locked(reason)
    except Exception:
        logger.exception("periodic backup check failed")


def after_commit(reason: str) -> None:
    """A clock stop or finalise has committed (its audit action's `snapshot`,
    competition/audit_actions.py): a snapshot follows."""
    if enabled():
        snapshot(reason)
