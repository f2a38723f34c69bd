"""Where a competition belongs (issue 33): its championship, discipline and round, changed
before its clock starts; and a competition made by mistake deleted before its start, or a
championship left without competitions. The rules are pure
(`puzzle_rules/championship.py`: `check_placement_change`, `check_competition_delete`,
`check_championship_delete`); a refusal is 409 with its code and a sentence.

Moving keeps the one table plan (competitions of one championship that run at the same time
have distinct tables: `ensure_plan_kept`, under the target championship's lock) and the one
namespace of slugs (a competition's own championship has its slug and stays its alone). A
competition's own championship goes with it when it is left empty (moved out of, or
deleted). The audit log is a competition's: a move is in the moved competition's log; a
deletion is in the log of each competition left in the championship (the deleted one's log
goes with it) and in the process's log (`competition.removal`), where a competition of its
own leaves its only trace."""

import logging

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count as CountOf
from django.utils.translation import gettext as _

from competition.audit import audit_record, user_or_none
from competition.audit_actions import COMPETITION_DELETE, COMPETITION_PLACEMENT
from competition.errors import Refusal
from competition.locking import lock_championship
from competition.models import DEFAULT_AT_TABLE, Championship, Competition, Discipline, Member
from competition.services.championships import ensure_joinable, is_own, own_championship
from competition.services.table_plan import ensure_plan_kept
from competition.words import member_limit, member_limit_text
from competition.writes import write
from puzzle_rules import championship as rules

__all__ = ["KEEP", "championship_delete", "competition_delete", "competition_placement_set"]

log = logging.getLogger("competition.removal")

KEEP = object()  # `championship=KEEP`: the competition stays where it is


def started_message() -> str:
    return _(
        "The clock has started; the championship, the discipline and the round can no longer "
        "be changed."
    )


def _placement(competition: Competition) -> dict:
    """For the audit log: the championship's name (None: on its own), discipline, round."""
    own = is_own(competition)
    return {
        "championship": None if own else competition.championship.name,
        "discipline": competition.discipline,
        "round": competition.round,
        "max_at_table": competition.max_at_table,
    }


def _members_fit(competition: Competition, discipline: str) -> None:
    """An entrant with more puzzlers than `discipline` allows (a team of 4 as a pair) is
    named: its members are changed first (400 on `discipline`)."""
    most = member_limit(discipline)
    if most is None:
        return
    rows = (
        Member.objects.filter(team__competition=competition)
        .values("team__name")
        .annotate(n=CountOf("pk"))
        .filter(n__gt=most)
    )
    over = sorted(row["team__name"] for row in rows)
    if over:
        raise ValidationError(
            {
                "discipline": _("%(rule)s Too many puzzlers: %(entrants)s.")
                % {"rule": member_limit_text(discipline), "entrants": ", ".join(over[:5])}
            }
        )


def competition_placement_set(
    *,
    competition: Competition,
    by,
    championship=KEEP,
    discipline: str | None = None,
    round: str | None = None,
) -> Competition:
    """Put `competition` into `championship` (None: a championship of its own), and/or give
    it `discipline` and `round` (None: unchanged). Before its clock starts only (409
    `started`); audited and the standings version bumped, so every page and the mirror show
    it where it now is. A discipline change takes the new discipline's table limit when the
    limit was the old one's default."""
    if discipline is not None and discipline not in Discipline.values:
        raise ValidationError({"discipline": _("Choose individuals, pairs or teams.")})
    with write(competition=competition, by=by) as w:
        competition = w.competition
        old = competition.championship
        own = is_own(competition)
        moving = championship is not KEEP and (
            (championship is None and not own)
            or (championship is not None and championship.pk != old.pk)
        )
        changed = {
            field: value
            for field, value in (("discipline", discipline), ("round", round))
            if value is not None and value != getattr(competition, field)
        }
        if not moving and not changed:
            return competition
        try:
            rules.check_placement_change(started=competition.started_at is not None)
        except rules.RuleViolation as violation:
            raise Refusal(violation.code, started_message()) from None
        before = _placement(competition)
        if "discipline" in changed:
            _members_fit(competition, changed["discipline"])
            if competition.max_at_table == DEFAULT_AT_TABLE[Discipline(competition.discipline)]:
                changed["max_at_table"] = DEFAULT_AT_TABLE[Discipline(changed["discipline"])]
        for field, value in changed.items():
            setattr(competition, field, value)
        if moving:
            if championship is None:
                # Its old own championship has gone when it moved in: its slug is free.
                championship = own_championship(
                    slug=competition.slug, name=competition.name, venue=competition.venue
                )
            else:
                ensure_joinable(championship)
            competition.championship = championship
            changed["championship"] = championship
            # One hall, one table plan: not onto tables the championship's others hold then.
            ensure_plan_kept(competition, field="championship")
        competition.full_clean()
        competition.save(update_fields=list(changed))
        if moving and own and not old.competitions.exists():
            old.delete()  # its own championship, left empty: its slug is free again
        w.audit(COMPETITION_PLACEMENT, before=before, after=_placement(competition))
        return competition


def competition_delete(*, competition: Competition, by) -> Championship | None:
    """Delete a competition made by mistake, with its entrants and puzzles, before its clock
    starts (409 `started`; a final one `final`). Its own championship goes with it; a
    championship of several keeps the others, each of whose audit logs records it. Answers
    the championship it was in, or None when that was its own."""
    with write(competition=competition, by=by) as w:
        competition = w.competition
        try:
            rules.check_competition_delete(started=competition.started_at is not None)
        except rules.RuleViolation as violation:
            raise Refusal(
                violation.code,
                _("The clock has started; the competition can no longer be deleted."),
            ) from None
        lock_championship(competition)
        championship = competition.championship
        own = is_own(competition)
        record = {
            "name": competition.name,
            "slug": competition.slug,
            "discipline": competition.discipline,
            "round": competition.round,
            "starts_at": competition.starts_at,
            "entrants": competition.teams.count(),
        }
        others = list(
            Competition.objects.filter(championship=championship).exclude(pk=competition.pk)
        )
        for other in others:
            audit_record(competition=other, user=by, action=COMPETITION_DELETE, before=record)
        user = user_or_none(by)
        log.warning(
            "competition deleted by %s: %s (%s), %s entrants",
            user.get_username() if user else "-",
            record["name"],
            record["slug"],
            record["entrants"],
        )
        competition.delete()  # its own championship goes too (models: post_delete)
    return None if own else championship


@transaction.atomic
def championship_delete(*, championship: Championship, by) -> None:
    """Delete a championship that holds no competitions (409 `has_competitions`)."""
    locked = Championship.objects.select_for_update().filter(pk=championship.pk).first()
    if locked is None:
        return
    held = locked.competitions.count()
    try:
        rules.check_championship_delete(competitions=held)
    except rules.RuleViolation as violation:
        raise Refusal(
            violation.code,
            _(
                "“%(name)s” still holds competitions: move each into another championship or "
                "delete it first."
            )
            % {"name": locked.name},
        ) from None
    user = user_or_none(by)
    log.warning(
        "championship deleted by %s: %s (%s)",
        user.get_username() if user else "-",
        locked.name,
        locked.slug,
    )
    locked.delete()
