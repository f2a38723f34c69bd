"""After the championship: erase the personal data of a past competition, keep its results."""

from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils.translation import gettext as _

from competition.audit import ERASED, audit_record
from competition.audit_actions import PERSONAL_DATA_ERASE, TEAM_ADVANCE
from competition.errors import Refusal
from competition.models import AuditEntry, Competition, ImportPreview, Member, Team

__all__ = [
    "competition_erase_personal_data",
    "erase_values",
    "personal_data_erased",
    "scrub_audit",
    "scrub_text",
]


# Sent inside the erase's transaction with `competition` and `values` (every personal
# value erased, old spellings from the audit trail too): judging scrubs its texts
# (warnings, objections) and, once committed, the database file and every snapshot.
personal_data_erased = Signal()

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


def _scrub(value, values: frozenset[str] = frozenset()):
    """The audit trail's before/after without personal data; the results stay."""
    if isinstance(value, dict):
        return {k: (ERASED if k in PERSONAL_KEYS else _scrub(v, values)) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, values) for v in value]
    if isinstance(value, str):
        return scrub_text(value, values)
    return value


def _personal_values(value, found: set[str]) -> None:
    """Every string under a personal key of an audit before/after (old spellings too)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in PERSONAL_KEYS:
                _strings(v, found)
            else:
                _personal_values(v, found)
    elif isinstance(value, list):
        for v in value:
            _personal_values(v, found)


def _strings(value, found: set[str]) -> None:
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _strings(v, found)
    elif isinstance(value, list):
        for v in value:
            _strings(v, found)


def scrub_text(text: str, values) -> str:
    """`text` (a reason, an objection) with every personal value in it replaced by "[…]",
    longest first ("Emma Bar" before "Emma")."""
    for value in sorted(values, key=len, reverse=True):
        if text and value in text:
            text = text.replace(value, "[…]")
    return text


def scrub_audit(before, after, reason: str, values) -> tuple:
    """One audit entry's before, after and reason without personal data."""
    return _scrub(before, values), _scrub(after, values), scrub_text(reason, values)


def erase_values(rows, audits) -> frozenset[str]:
    """The personal values to scrub from free text: members, adults, contacts, notes, and
    what the audit trail remembers of them; blanks and values shorter than 3 characters
    (a "-" in a phone field) are left alone."""
    found: set[str] = set()
    for row in rows:
        found.update(str(v).strip() for v in row if v)
    for before, after in audits:
        _personal_values(before, found)
        _personal_values(after, found)
    return frozenset(v.strip() for v in found if len(v.strip()) >= 3 and v.strip() != ERASED)


@transaction.atomic
def competition_erase_personal_data(*, competition: Competition, by) -> dict:
    """Members, accompanying adults, contacts and uploaded sign-up files waiting for their
    confirm are deleted; teams, finishes and counts stay.

    Only for a past competition: its results must be final (R20), so nothing is lost that
    an objection could still need. The rounds its entrants went on to hold copies of their
    members and contacts (`Team.advanced_from`): they are erased with it (the whole of each
    such round, and the rounds after it), and each must be final too. A round whose advance
    was taken back keeps the copies in its audit log (`team_advance`): it is such a round too.
    """
    competition = Competition.objects.select_for_update().get(pk=competition.pk)
    if not competition.is_final:
        raise Refusal(
            "not_final",
            _("Personal data can only be erased once the results are final."),
        )
    went_on = Q(teams__advanced_from__competition=competition) | Q(
        audit__action=TEAM_ADVANCE.name, audit__after__from=competition.slug
    )
    later = list(
        Competition.objects.filter(went_on).exclude(pk=competition.pk).distinct().order_by("pk")
    )
    waiting = [c for c in later if not c.is_final]
    if waiting:
        raise Refusal(
            "not_final",
            _(
                "Entrants went on from here to %(rounds)s, which hold copies of their personal "
                "data and are not final yet: erase once they are."
            )
            % {"rounds": ", ".join(f"“{c.name}”" for c in waiting)},
        )
    for round_ in later:
        competition_erase_personal_data(competition=round_, by=by)
    teams = Team.objects.filter(competition=competition)
    members = Member.objects.filter(team__competition=competition)
    entries = AuditEntry.objects.filter(competition=competition).exclude(
        action=PERSONAL_DATA_ERASE.name
    )
    entries = entries.only("before", "after", "reason")
    values = erase_values(
        [
            *members.values_list("name", "guardian"),
            *teams.values_list("contact_name", "contact_email", "contact_phone", "notes"),
        ],
        [(e.before, e.after) for e in entries],
    )
    erased = {"members": members.count(), "teams": teams.count()}
    members.delete()
    ImportPreview.objects.filter(competition=competition).delete()  # uploads never confirmed
    teams.update(contact_name="", contact_email="", contact_phone="", notes="")
    scrubbed = 0
    for entry in entries:
        before, after, reason = scrub_audit(entry.before, entry.after, entry.reason, values)
        if (before, after, reason) != (entry.before, entry.after, entry.reason):
            AuditEntry.objects.filter(pk=entry.pk).update(before=before, after=after, reason=reason)
            scrubbed += 1
    erased["audit_entries_scrubbed"] = scrubbed
    personal_data_erased.send(sender=Competition, competition=competition, values=values)
    audit_record(competition=competition, user=by, action=PERSONAL_DATA_ERASE, after=erased)
    return erased
