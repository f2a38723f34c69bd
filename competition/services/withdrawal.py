"""A team withdrawn (a no-show, a cancellation; after the start the head judge's, with a
reason) or competing again (R15)."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from competition.audit_actions import TEAM_WITHDRAW, TEAM_WITHDRAW_UNDO
from competition.errors import Refusal
from competition.models import Team
from competition.roles import ADMIN, has_role
from competition.writes import write

__all__ = ["team_withdraw", "team_withdraw_undo"]


def _withdrawal(team: Team, by, reason: str, *, withdrawn: bool) -> Team:
    """Withdraw a team (it leaves the leaderboard) or undo it.

    Before the clock starts it is the desk's (a no-show, a cancellation). Once it has started
    it takes a competing team off the board (or puts it back) mid-competition: the head
    judge's (admin), with a reason; the desk is refused `already_started`.
    """
    with write(team=team, by=by) as w:
        team, competition = w.team, w.competition
        if team.withdrawn == withdrawn:
            return team  # already so: nothing to write (a second tap)
        reason = (reason or "").strip()
        if competition.started_at is not None:
            if not has_role(by, ADMIN):
                raise Refusal(
                    "already_started",
                    _(
                        "The clock has started: now only the head judge can withdraw a team, "
                        "with a reason, in the control room."
                    )
                    if withdrawn
                    else _(
                        "The clock has started: now only the head judge can undo a withdrawal, "
                        "with a reason, in the control room."
                    ),
                )
            if not reason:
                raise ValidationError(
                    {"reason": _("Give the reason: once the clock has started, it is required.")}
                )
        before = {"withdrawn": team.withdrawn}
        team.withdrawn = withdrawn
        team.save(update_fields=["withdrawn"])
        action = TEAM_WITHDRAW if withdrawn else TEAM_WITHDRAW_UNDO
        w.audit(action, before=before, after={"withdrawn": withdrawn}, reason=reason)
        return team


def team_withdraw(*, team: Team, by, reason: str = "") -> Team:
    """A no-show or a cancellation: the team leaves the leaderboard. After the start: the
    head judge's, with a reason (see `_withdrawal`)."""
    return _withdrawal(team, by, reason, withdrawn=True)


def team_withdraw_undo(*, team: Team, by, reason: str = "") -> Team:
    """The team competes again. After the start: the head judge's, with a reason."""
    return _withdrawal(team, by, reason, withdrawn=False)
