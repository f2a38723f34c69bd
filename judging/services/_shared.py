"""Small helpers every judging service uses: names and times in sentences, reasons."""

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.errors import Refusal
from competition.models import Team


def who(user) -> str:
    """A user as a sentence names them."""
    if user is None:
        return "?"
    return user.get_full_name() or user.get_username()


def when(moment) -> str:
    """A moment as a sentence says it: local h:m:s."""
    return timezone.localtime(moment).strftime("%H:%M:%S")


def user_or_none(by):
    """The acting user to store, or None for an anonymous one."""
    return by if getattr(by, "is_authenticated", False) else None


def require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ValidationError({"reason": _("Give a reason for the change.")})
    return reason


def ensure_competing(team: Team) -> None:
    """A withdrawn or disqualified team gets no finish and no count."""
    if not team.competing:
        why = _("withdrawn") if team.withdrawn else _("disqualified")
        raise Refusal(
            "not_competing",
            _("%(team)s does not compete any more (%(why)s).") % {"team": team.name, "why": why},
        )
