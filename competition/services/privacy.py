"""After the championship: erase the personal data of a past competition, keep its results."""

from django.db import transaction
from django.utils.translation import gettext as _

from competition.audit import audit_record
from competition.errors import Refusal
from competition.models import AuditEntry, Competition, ImportPreview, Member, Team

__all__ = ["competition_erase_personal_data"]

PERSONAL_KEYS = frozenset(
    {
        "members",
        "member",
        "name_of_member",
        "guardian",
        "contact_name",
        "contact_email",
        "contact_phone",
        "notes",
    }
)


def _scrub(value):
    """The audit trail's before/after without personal data; the results stay."""
    if isinstance(value, dict):
        return {k: ("[erased]" if k in PERSONAL_KEYS else _scrub(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v) for v in value]
    return value


@transaction.atomic
def competition_erase_personal_data(*, competition: Competition, by) -> dict:
    """Members, accompanying adults, contacts and uploaded sign-up files waiting for their
    confirm are deleted; teams, finishes and counts stay.

    Only for a past competition: its results must be final (R20), so nothing is lost that
    an objection could still need.
    """
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if not competition.is_final:
        raise Refusal(
            "not_final",
            _("Personal data can only be erased once the results are final."),
        )
    teams = Team.objects.filter(competition=competition)
    members = Member.objects.filter(team__competition=competition)
    erased = {"members": members.count(), "teams": teams.count()}
    members.delete()
    ImportPreview.objects.filter(competition=competition).delete()  # uploads never confirmed
    teams.update(contact_name="", contact_email="", contact_phone="", notes="")
    scrubbed = 0
    for entry in AuditEntry.objects.filter(competition=competition).only("before", "after"):
        before, after = _scrub(entry.before), _scrub(entry.after)
        if (before, after) != (entry.before, entry.after):
            AuditEntry.objects.filter(pk=entry.pk).update(before=before, after=after)
            scrubbed += 1
    erased["audit_entries_scrubbed"] = scrubbed
    audit_record(competition=competition, user=by, action="personal_data_erase", after=erased)
    return erased
