"""Warnings and disqualification (R14, R18): audited, the standings version bumped."""

from collections.abc import Callable
from uuid import UUID

from django.utils.translation import gettext as _

from competition.audit import user_or_none
from competition.audit_actions import TEAM_DISQUALIFY, TEAM_REINSTATE, WARNING_LOG
from competition.errors import Refusal
from competition.models import Team
from competition.writes import write
from judging.models import Warning
from judging.services import requests as request_ids
from judging.services._shared import require_reason

__all__ = ["team_disqualify", "team_reinstate", "warning_log"]


def _warning_dict(warning: Warning) -> dict:
    return {"id": warning.pk, "team": warning.team_id, "reason": warning.reason}


def _team_dict(team: Team) -> dict:
    return {
        "id": team.pk,
        "withdrawn": team.withdrawn,
        "disqualified": team.disqualified,
        "disqualified_reason": team.disqualified_reason,
    }


def warning_log(
    *,
    team: Team,
    by,
    reason: str,
    request_id: UUID | None = None,
    answer: Callable[[Warning], dict] | None = None,
) -> Warning:
    """R14: a judge's warning to a team, with the reason.

    Idempotent like a finish: the same `request_id` again returns the stored warning
    (`.replayed`), with another team or reason it raises `IdempotencyConflict`.
    """
    reason = require_reason(reason)
    fingerprint = request_ids.fingerprint(team=team.pk, reason=reason)
    answer = answer or _warning_dict
    once = request_ids.recaller(
        Warning, request_id=request_id, fingerprint=fingerprint, answer=answer
    )
    with write(team=team, by=by, recall=once) as w:
        if w.stored is not None:
            return w.stored
        warning = once.create(
            team=w.team,
            by=by,
            reason=reason,
            given_by=user_or_none(by),
        )
        if warning.replayed:
            return warning
        w.audit(WARNING_LOG, after={"id": warning.pk, "reason": reason}, reason=reason)
        return warning


def team_disqualify(*, team: Team, by, reason: str) -> Team:
    """R14, R18: disqualify a team (unranked), with the reason."""
    reason = require_reason(reason)
    with write(team=team, by=by) as w:
        team = w.team
        if team.disqualified:
            raise Refusal(
                "already_disqualified", _("%(team)s is already disqualified.") % {"team": team.name}
            )
        before = _team_dict(team)
        team.disqualified, team.disqualified_reason = True, reason
        team.save(update_fields=["disqualified", "disqualified_reason"])
        w.audit(TEAM_DISQUALIFY, before=before, after=_team_dict(team), reason=reason)
        return team


def team_reinstate(*, team: Team, by, reason: str = "") -> Team:
    """Undo a disqualification."""
    with write(team=team, by=by) as w:
        team = w.team
        if not team.disqualified:
            raise Refusal(
                "not_disqualified", _("%(team)s is not disqualified.") % {"team": team.name}
            )
        before = _team_dict(team)
        team.disqualified, team.disqualified_reason = False, ""
        team.save(update_fields=["disqualified", "disqualified_reason"])
        after = _team_dict(team)
        w.audit(TEAM_REINSTATE, before=before, after=after, reason=(reason or "").strip())
        return team
