"""Reads of championships: each with its competitions, in a number of queries that does not
grow with the number of championships or competitions; and what advancing reads (the source
rounds, their final standings, who would go on), shared by the service that advances and the
control room's page that previews it, so both refuse with the same code and sentence."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from competition.errors import Refusal
from competition.models import Championship, Competition, Team
from competition.selectors import source_rounds
from judging.models import Count, Finish
from puzzle_rules import championship, rules
from scoring.selectors import standings_for

__all__ = [
    "AdvancePreview",
    "advance_preview",
    "advance_sources",
    "advanced_into",
    "advancing",
    "championship_get",
    "championship_list",
    "ensure_not_started",
    "ensure_sources_final",
    "earlier_rounds",
]

# What a championship's answer shows of each competition, and what its status reads.
COMPETITION_FIELDS = (
    "id",
    "championship_id",
    "slug",
    "name",
    "discipline",
    "round",
    "starts_at",
    "duration_minutes",
    "started_at",
    "stopped_at",
    "finalised_at",
)


def _with_competitions() -> QuerySet[Championship]:
    competitions = Competition.objects.only(*COMPETITION_FIELDS).order_by("starts_at", "id")
    return Championship.objects.prefetch_related(Prefetch("competitions", queryset=competitions))


def championship_list() -> QuerySet[Championship]:
    """Every championship with its competitions (two queries)."""
    return _with_competitions()


def championship_get(*, slug: str) -> Championship:
    """The championship of the URL with its competitions (404 if none; two queries)."""
    return get_object_or_404(_with_competitions(), slug=slug)


# --- advancing ------------------------------------------------------------------------------


def advance_sources(target: Competition, slugs: Sequence[str]) -> list[Competition]:
    """The source rounds by slug: each once, of the target's championship and discipline,
    planned to start before the target (`competition.selectors.source_rounds`: an individual
    final never takes the pairs) (400 `from` with a sentence for each that is not)."""
    if not slugs:
        raise ValidationError({"from": [_("Name at least one earlier round.")]})
    if len(set(slugs)) != len(slugs):
        raise ValidationError({"from": [_("A round is named more than once.")]})
    found = {c.slug: c for c in Competition.objects.filter(slug__in=slugs)}
    errors = []
    for slug in slugs:
        source = found.get(slug)
        if source is None:
            errors.append(
                _("There is no competition with the short name “%(slug)s”.") % {"slug": slug}
            )
        elif source.pk == target.pk:
            errors.append(_("A round cannot take its entrants from itself."))
        elif source.championship_id != target.championship_id:
            errors.append(_("“%(name)s” is not of this championship.") % {"name": source.name})
        elif source.discipline != target.discipline:
            errors.append(
                _(
                    "“%(name)s” is of another discipline: entrants go on only from rounds of "
                    "the same discipline."
                )
                % {"name": source.name}
            )
        elif source.starts_at >= target.starts_at:
            errors.append(
                _(
                    "“%(name)s” does not start before “%(round)s”: entrants go on only from "
                    "earlier rounds."
                )
                % {"name": source.name, "round": target.name}
            )
    if errors:
        raise ValidationError({"from": errors})
    return [found[slug] for slug in slugs]


def ensure_not_started(target: Competition) -> None:
    """Entrants join a round before its clock starts and before it has any results
    (409 `already_started`)."""
    results = (
        Finish.objects.filter(team__competition=target).exists()
        or Count.objects.filter(team__competition=target).exists()
    )
    if target.started_at is not None or results:
        raise Refusal(
            "already_started",
            _("The clock of “%(name)s” has started; its entrants can no longer change.")
            % {"name": target.name},
        )


def ensure_sources_final(rounds: Sequence[Competition]) -> None:
    """Entrants go on by the sources' final standings (R11): 409 `sources_not_final` naming
    the rounds whose results are not final yet."""
    waiting = [s for s in rounds if not s.is_final]
    if waiting:
        raise Refusal(
            "sources_not_final",
            _("The results of %(names)s are not final yet.")
            % {"names": ", ".join(f"“{s.name}”" for s in waiting)},
            sources=[s.slug for s in waiting],
        )


def advancing(
    rounds: Sequence[Competition], *, best: int, per_source: bool
) -> tuple[championship.Advancing, dict[int, dict]]:
    """Who goes on from the final `rounds` (`puzzle_rules/championship.py`), and each candidate's
    row of its round's standings by team id (name, rank, pieces, last whole puzzle)."""
    rows: dict[int, dict] = {}
    standings: dict[str, list[rules.Standing]] = {}
    keys: dict[int, tuple[int, ...]] = {}  # each entrant's order under its round's ranking
    for source in rounds:
        # a final round's standings (staff: every count is confirmed once final)
        body = standings_for(source, staff=True, status="final")
        mine = body["standings"]
        rows.update((row["team"]["id"], row) for row in mine)
        standings[source.slug] = [
            rules.Standing(
                rank=row["rank"],
                team=row["team"]["id"],
                pieces=row["pieces"],
                finished=row["finished"],
                last_finish_seconds=row["last_finish_seconds"],
                disqualified=row["disqualified"],
                penalty_seconds=row["penalty_seconds"],
                ranking_seconds=row["ranking_seconds"],
            )
            for row in mine
        ]
        for s in standings[source.slug]:
            keys[s.team] = championship.rank_key(s, source.ranking)
    result = championship.advancing(standings, best=best, per_source=per_source, keys=keys)
    return result, rows


@dataclass(frozen=True)
class AdvancePreview:
    """Who would go on, before anything is written: `result.sure` above every cut, and each
    tie at a cut (`result.ties`) with its seats; `rows` the candidates' standings rows by
    team id; `rounds` the sources by slug."""

    result: championship.Advancing
    rows: dict[int, dict]
    rounds: dict[str, Competition]


def advance_preview(
    *, competition: Competition, sources: Sequence[str], best: int, per_source: bool
) -> AdvancePreview:
    """The advance `advance` would make, read without a lock and without writing: refused
    with the same codes and sentences (`already_started`, the sources' 400, then
    `sources_not_final`); a tie at the cut is part of the answer, not a refusal."""
    if best < 1:
        raise ValidationError({"best": [_("At least one entrant goes on.")]})
    ensure_not_started(competition)
    rounds = advance_sources(competition, sources)
    ensure_sources_final(rounds)
    result, rows = advancing(rounds, best=best, per_source=per_source)
    return AdvancePreview(result, rows, {s.slug: s for s in rounds})


def earlier_rounds(target: Competition) -> list[Competition]:
    """The rounds the target may take its entrants from (`source_rounds`: of its championship
    and discipline, planned to start before it), by planned start, each with `has_advanced`:
    entrants of it already went on to the target, and `went_elsewhere`: to another round
    (one query)."""
    went_on = Team.objects.filter(advanced_from__competition=OuterRef("pk"))
    return list(
        source_rounds(competition=target).annotate(
            has_advanced=Exists(went_on.filter(competition=target)),
            went_elsewhere=Exists(went_on.exclude(competition=target)),
        )
    )


def advanced_into(target: Competition) -> list[Team]:
    """The round's entrants that went on from an earlier round, by table, each with the team
    and round it came from (one query)."""
    return list(
        Team.objects.filter(competition=target, advanced_from__isnull=False)
        .select_related("advanced_from__competition")
        .order_by("table")
    )
