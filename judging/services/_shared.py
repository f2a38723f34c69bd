"""Small helpers every judging service uses: names and times in sentences, reasons."""

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.errors import Refusal
from competition.models import Team
from competition.roles import ADMIN, has_role
from judging.models import Objection


def who(user) -> str:
    """A user as a sentence names them."""
    if user is None:
        return "?"
    return user.get_full_name() or user.get_username()


def when(moment) -> str:
    """A moment as a sentence says it: local h:m:s."""
    return timezone.localtime(moment).strftime("%H:%M:%S")


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


def deciding_objection(*, finish=None, count=None) -> Objection | None:
    """The resolved objection (upheld or rejected) that decided this finish or count, the
    latest if several; None when no objection about it was resolved."""
    about = {"finish": finish} if finish is not None else {"count": count}
    return (
        Objection.objects.filter(**about)
        .exclude(decision=Objection.Decision.OPEN)
        .select_related("team", "resolved_by")
        .order_by("-resolved_at", "-pk")
        .first()
    )


def decided_refusal(objection: Objection) -> Refusal:
    """docs/contracts.md "A decided record": what a resolved objection decided binds; who
    decided it, when."""
    what = _("finish") if objection.finish_id is not None else _("count")
    return Refusal(
        "decided",
        _(
            "The objection from table %(table)d decided this %(what)s: %(decision)s by "
            "%(user)s at %(time)s. Only the head judge changes it now, with a reason."
        )
        % {
            "table": objection.team.table,
            "what": what,
            "decision": objection.get_decision_display().lower(),
            "user": who(objection.resolved_by),
            "time": when(objection.resolved_at),
        },
        objection=objection.pk,
        decided_by=who(objection.resolved_by),
        decided_at=timezone.localtime(objection.resolved_at).isoformat(),
    )


def ensure_may_change(*, by, reason: str = "", finish=None, count=None) -> Objection | None:
    """A resolved objection binds (docs/contracts.md "A decided record"): only the head judge
    changes the finish or count it decided, and with a reason (the audit entry names the
    objection: the one returned). Anyone else: 409 `decided`. None when nothing decided it."""
    objection = deciding_objection(finish=finish, count=count)
    if objection is None:
        return None
    if not has_role(by, ADMIN):
        raise decided_refusal(objection)
    require_reason(reason)
    return objection
