"""The one place that writes the audit trail. Call it inside the service's transaction."""

import json
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from competition.models import AuditEntry

# What stands where erase_personal_data removed a personal value (audit_text: in words).
ERASED = "[erased]"


def _plain(value: Any) -> Any:
    # JSONField needs plain JSON: dates and UUIDs become strings.
    return None if value is None else json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def user_or_none(user):
    """The acting user to store, or None for an anonymous one (or none at all)."""
    return user if getattr(user, "is_authenticated", False) else None


def audit_record(
    *,
    competition,
    user,
    action: str,
    team=None,
    before: dict | None = None,
    after: dict | None = None,
    reason: str = "",
    objection=None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        competition=competition,
        team=team,
        user=user_or_none(user),
        action=action,
        before=_plain(before),
        after=_plain(after),
        reason=reason,
        objection_id=getattr(objection, "pk", None),
    )
