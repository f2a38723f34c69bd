"""Advancing (docs/contracts.md "A championship of several competitions"): a round takes its
entrants from the final standings of earlier rounds, the best N of each or the best N of all
(R11; `puzzle_rules/championship.py` decides who). The head judge advances once the sources are
final; a tie at the cut is shown (409 `tie_at_cut`) and decided by taking the whole tie or
choosing, audited. The advanced entrants are new teams of the round with what is the
person's in their source team (`Team.advanced_from`): the name, members (an under-15 with the
accompanying adult), contacts, labels and the desk's notes, the paid entry fee, and the
check-in when the round is planned on the day of it (`_checked_in`): the desk does not check
a finalist in again. The sources never change.

The same advance again answers the entrants it made (nothing is made twice); another advance
from a source that already advanced into the round is refused (`already_advanced`). Before
the round starts the advance can be taken back (`advance_undo`): the entrants it made are
removed, and the same or another advance can be made again.
"""

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from championships import selectors
from competition.audit_actions import ADVANCE, ADVANCE_UNDO, TEAM_ADVANCE
from competition.errors import Refusal
from competition.models import Competition, Member, Team
from competition.services.table_plan import lock_championship, tables_beside
from competition.writes import write
from puzzle_rules import championship, rules

__all__ = ["Advanced", "advance", "advance_undo"]


@dataclass(frozen=True)
class Advanced:
    """An entrant of the round and the source round it went on from."""

    team: Team
    source: Competition


def _entrant(e: championship.Entrant, names: dict[int, str]) -> dict:
    return {"id": e.team, "name": names[e.team], "from": e.source}


def _free_name(name: str, source: Competition, taken: set[str]) -> str:
    """The entrant's name, or with its round's name after it when the round has one like it
    ("Anna (Indledende runde B)"): names are unique within a competition."""
    candidate, n = name, 1
    while candidate.casefold() in taken:
        n += 1
        label = source.round or source.name
        candidate = f"{name} ({label})" if n == 2 else f"{name} ({label} {n})"
    taken.add(candidate.casefold())
    return candidate[:120]


def _checked_in(source_team: Team, target: Competition):
    """The source's check-in, carried to the round planned on the same day (R2: present
    before the start; a round on another day checks its entrants in anew), else None."""
    at = source_team.checked_in_at
    if at is None or timezone.localdate(at) != timezone.localdate(target.starts_at):
        return None
    return at


def advance(
    *,
    competition: Competition,
    sources: Sequence[str],
    best: int,
    per_source: bool = True,
    include_tied: bool = False,
    choose: Sequence[int] | None = None,
    by,
) -> list[Advanced]:
    """Advance the best `best` entrants of the rounds `sources` (slugs) into `competition`:
    of each (`per_source`) or of all together. Refused (409): `final`, `already_started`,
    `sources_not_final`, `tie_at_cut` (naming the tied entrants; `include_tied` or `choose`
    decides), `already_advanced`. Returns the advanced entrants in R11 order."""
    if best < 1:
        raise ValidationError({"best": [_("At least one entrant goes on.")]})
    with write(competition=competition, by=by) as w:
        target = w.competition
        # The same checks, in the same order, as the control room's preview (selectors).
        selectors.ensure_not_started(target)
        rounds = selectors.advance_sources(target, sources)
        selectors.ensure_sources_final(rounds)
        by_slug = {s.slug: s for s in rounds}
        result, _rows = selectors.advancing(rounds, best=best, per_source=per_source)
        everyone = [*result.sure, *result.tied]
        source_of = {e.team: e.source for e in everyone}
        teams = {
            t.pk: t
            for t in Team.objects.filter(pk__in=[e.team for e in everyone]).prefetch_related(
                "members"
            )
        }
        names = {pk: t.name for pk, t in teams.items()}
        pairs = None
        if choose is not None:
            tied = {e.team for e in result.tied}
            strays = [pk for pk in choose if pk not in tied]
            if strays:
                raise ValidationError(
                    {"choose": [_("Choose only among the entrants tied at the cut.")]}
                )
            pairs = [(source_of[pk], pk) for pk in choose]
        existing = list(
            Team.objects.filter(competition=target, advanced_from__competition__in=rounds)
            .select_related("advanced_from")
            .order_by("pk")
        )
        try:
            chosen = championship.decide(result, include_tied=include_tied, choose=pairs)
        except rules.RuleViolation as exc:
            if existing:
                chosen = None
            elif exc.code == "tie_at_cut":
                raise Refusal(
                    "tie_at_cut",
                    ngettext(
                        "%(n)s entrants are tied at the cut for %(seats)s place: take them "
                        "all (include_tied) or choose who goes on (choose).",
                        "%(n)s entrants are tied at the cut for %(seats)s places: take them "
                        "all (include_tied) or choose who goes on (choose).",
                        seats := sum(t.seats for t in result.ties),
                    )
                    % {"n": len(result.tied), "seats": seats},
                    tied=[_entrant(e, names) for e in result.tied],
                    ties=[
                        {
                            "from": tie.source,
                            "seats": tie.seats,
                            "tied": [_entrant(e, names) for e in tie.tied],
                        }
                        for tie in result.ties
                    ],
                ) from None
            else:  # choose_count: `choose` is among the tied (above)
                raise ValidationError(
                    {"choose": [_("Choose exactly as many of each tie as there are places left.")]}
                ) from None
        if existing:
            # The same advance again answers what it made; another one is refused.
            made = {t.advanced_from_id for t in existing}
            if chosen is not None and made == {e.team for e in chosen}:
                order = {e.team: i for i, e in enumerate(chosen)}
                existing.sort(key=lambda t: order[t.advanced_from_id])
                return [Advanced(t, by_slug[source_of[t.advanced_from_id]]) for t in existing]
            raise Refusal(
                "already_advanced",
                _("Entrants from these rounds have already gone on to “%(name)s”.")
                % {"name": target.name},
            )
        assert chosen is not None
        taken_names = {
            n.casefold()
            for n in Team.objects.filter(competition=target).values_list("name", flat=True)
        }
        # the next free tables: of the round, and of the table plan (the championship's other
        # competitions at the same time), under the championship's lock
        lock_championship(target)
        tables = set(Team.objects.filter(competition=target).values_list("table", flat=True))
        tables |= tables_beside(target)
        advanced = []
        table = 0
        for e in chosen:
            source_team, source = teams[e.team], by_slug[e.source]
            table += 1
            while table in tables:
                table += 1
            team = Team.objects.create(
                competition=target,
                name=_free_name(source_team.name, source, taken_names),
                table=table,
                contact_name=source_team.contact_name,
                contact_email=source_team.contact_email,
                contact_phone=source_team.contact_phone,
                notes=source_team.notes,
                # An entrant's own: a youth of the heats is one in the final's label ranking.
                labels=list(source_team.labels),
                # The person paid and came once: the desk does not ask again.
                fee_paid=source_team.fee_paid,
                checked_in_at=_checked_in(source_team, target),
                advanced_from=source_team,
            )
            Member.objects.bulk_create(
                Member(team=team, name=m.name, under_15=m.under_15, guardian=m.guardian)
                for m in source_team.members.all()
            )
            w.audit(
                TEAM_ADVANCE,
                team=team,
                after={
                    "name": team.name,
                    "table": team.table,
                    "from": source.slug,
                    "advanced_from": source_team.pk,
                    "labels": list(source_team.labels),
                    "fee_paid": team.fee_paid,
                    "checked_in_at": team.checked_in_at,
                    "members": [
                        {"name": m.name, "under_15": m.under_15, "guardian": m.guardian}
                        for m in source_team.members.all()
                    ],
                },
            )
            advanced.append(Advanced(team, source))
        w.audit(
            ADVANCE,
            team=None,
            after={
                "from": [s.slug for s in rounds],
                "best": best,
                "per_source": per_source,
                "tied": [_entrant(e, names) for e in result.tied],
                "include_tied": include_tied,
                "choose": list(choose) if choose is not None else None,
                "entrants": [{"id": a.team.pk, "from": a.source.slug} for a in advanced],
            },
        )
        return advanced


def advance_undo(*, competition: Competition, by) -> list[Advanced]:
    """Take back the advance into `competition` before it starts: the entrants that went on
    into it from earlier rounds are removed (only those: an entrant the desk registered in
    the round stays), audited once (`advance_undo`); the sources never change, and the same
    or another advance can be made again. Refused (409): `final`, `already_started` (its
    clock started or it has results), `nothing_advanced` (nobody went on into it: nothing to
    take back, also for an undo sent twice). Returns the removed entrants by table."""
    with write(competition=competition, by=by) as w:
        target = w.competition
        selectors.ensure_not_started(target)
        made = selectors.advanced_into(target)
        if not made:
            raise Refusal(
                "nothing_advanced",
                _("Nobody has gone on to “%(name)s” from an earlier round: nothing to take back.")
                % {"name": target.name},
            )
        removed = [Advanced(t, t.advanced_from.competition) for t in made]
        w.audit(
            ADVANCE_UNDO,
            team=None,
            before={
                "entrants": [
                    {
                        "id": a.team.pk,
                        "name": a.team.name,
                        "table": a.team.table,
                        "from": a.source.slug,
                        "advanced_from": a.team.advanced_from_id,
                        # what the round's desk may have set since: kept in the log
                        "fee_paid": a.team.fee_paid,
                        "checked_in_at": a.team.checked_in_at,
                    }
                    for a in removed
                ]
            },
        )
        Team.objects.filter(pk__in=[a.team.pk for a in removed]).delete()
        return removed
