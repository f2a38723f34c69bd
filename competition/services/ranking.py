"""A competition's ranking profile (issue 34): the Danish rules (`dm`, R8/R11) or the World
Championship's (`wjpc`), chosen before the clock starts and locked once it runs."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from competition.audit_actions import COMPETITION_RANKING
from competition.errors import Refusal
from competition.models import Competition, Ranking
from competition.writes import write
from puzzle_rules import rules

__all__ = ["competition_ranking_set", "started_message"]


def started_message() -> str:
    return _("The clock has started; the ranking can no longer be changed.")


def competition_ranking_set(*, competition: Competition, by, ranking: str) -> Competition:
    """Rank the competition by `ranking` (dm, wjpc); refused (409 `started`) once the clock
    has started. Audited; the standings version is bumped, so no page keeps the old order."""
    if ranking not in Ranking.values:
        raise ValidationError({"ranking": _("Choose the Danish rules or the World rules.")})
    with write(competition=competition, by=by) as w:
        competition = w.competition
        try:
            rules.check_ranking_change(started=competition.started_at is not None)
        except rules.RuleViolation as violation:
            raise Refusal(violation.code, started_message()) from None
        if competition.ranking == ranking:
            return competition
        before = {"ranking": competition.ranking}
        competition.ranking = ranking
        competition.save(update_fields=["ranking"])
        w.audit(COMPETITION_RANKING, before=before, after={"ranking": ranking})
        return competition
