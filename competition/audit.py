"""The one place that writes the audit trail. Call it inside the service's transaction.

The action is one of the registry's named actions (`competition/audit_actions.py`,
e.g. `CLOCK_STOP`), or its name: a name not registered there is a programming error. An
action with a `snapshot` (a clock stop, finalise) has a backup taken once the write has
committed (`transaction.on_commit`), through the hook judging's backups set
(`judging/apps.py`): the ground floor does not import them.
"""

import json
from collections.abc import Callable
from functools import partial
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

from competition import audit_actions
from competition.models import AuditEntry

# What stands where erase_personal_data removed a personal value (audit_text: in words).
ERASED = "[erased]"


def _plain(value: Any) -> Any:
    # JSONField needs plain JSON: dates and UUIDs become strings.
    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


_snapshot: Callable[[str], None] | None = None


def snapshot_after_commit(take: Callable[[str], None] | None) -> None:
    """What takes a backup (with its reason) after a `snapshot` action has committed."""
    global _snapshot
    _snapshot = take


def user_or_none(user):
    """The acting user to store, or None for an anonymous one (or none at all)."""
    return user if getattr(user, "is_authenticated", False) else None


def audit_record(
    *,
    competition,
    user,
    action: audit_actions.Action | str,
    team=None,
    before: dict | None = None,
    after: dict | None = None,
    reason: str = "",
    objection=None,
) -> AuditEntry:
    registered = action if isinstance(action, audit_actions.Action) else audit_actions.get(action)
    if registered is None:
        raise ValueError(f"audit action {action!r} is not in competition/audit_actions.py")
    if registered.snapshot and _snapshot is not None:
        transaction.on_commit(partial(_snapshot, registered.snapshot))
    return AuditEntry.objects.create(
        competition=competition,
        team=team,
        user=user_or_none(user),
        action=registered.name,
        before=_plain(before),
        after=_plain(after),
        reason=reason,
        objection_id=getattr(objection, "pk", None),
    )
