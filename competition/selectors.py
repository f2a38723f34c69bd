"""Reads that several pages share: a competition or team from the URL, the desk's team list
and its counts. Writes are in competition.services; templates and tags do not query."""

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404

from competition.models import Championship, Competition, Team

__all__ = [
    "championship_choices",
    "championship_competitions",
    "championships_empty",
    "championship_get",
    "championship_team_get",
    "championship_teams",
    "competition_get",
    "later_rounds",
    "source_rounds",
    "team_counts",
    "team_counts_get",
    "team_get",
    "team_list",
    "team_list_missing",
    "team_list_paid",
    "team_with_members",
]


def competition_get(
    *, slug: str, puzzles: bool = False, related: tuple[str, ...] = ()
) -> Competition:
    """The competition of the URL (404 if none); `puzzles`: with its sequence prefetched;
    `related`: these foreign keys joined (`select_related`)."""
    queryset = Competition.objects.prefetch_related("puzzles") if puzzles else Competition.objects
    return get_object_or_404(queryset.select_related(*related) if related else queryset, slug=slug)


def championship_get(*, slug: str) -> Championship | None:
    """The championship of the URL's slug, or None. Ask for a competition first: a
    competition's own championship has the competition's slug (`/<slug>/` is the
    competition's)."""
    return Championship.objects.filter(slug=slug).first()


def source_rounds(*, competition: Competition) -> QuerySet[Competition]:
    """The rounds `competition` may take its entrants from (advancing, docs/contracts.md "A
    championship of several competitions"): the other competitions of its championship of
    the same discipline planned to start before it, by planned start. A round with none (a
    first round: the heats side by side, or a competition alone) takes no entrants from
    earlier rounds: its control room offers no advance, and its advance page says so."""
    return (
        Competition.objects.filter(
            championship_id=competition.championship_id,
            discipline=competition.discipline,
            starts_at__lt=competition.starts_at,
        )
        .exclude(pk=competition.pk)
        .order_by("starts_at", "id")
    )


def later_rounds(*, competition: Competition) -> QuerySet[Competition]:
    """The other competitions of its championship of the same discipline planned to start
    after it: the rounds its entrants may go on to."""
    return Competition.objects.filter(
        championship_id=competition.championship_id,
        discipline=competition.discipline,
        starts_at__gt=competition.starts_at,
    ).exclude(pk=competition.pk)


def championship_choices() -> list[tuple[str, str]]:
    """(slug, name) of the championships a competition may be made in or moved into: every
    championship but a competition's own (its slug is a competition's), newest first."""
    own = Competition.objects.values("slug")
    return list(Championship.objects.exclude(slug__in=own).values_list("slug", "name"))


def championships_empty() -> list[Championship]:
    """The championships that hold no competition yet (made, not yet filled), newest first:
    the head judge finds them on the home page to add competitions, or to delete them."""
    return list(Championship.objects.filter(competitions=None))


def championship_competitions(*, championship: Championship) -> list[Competition]:
    """The championship's competitions in the programme's order: planned start, then name."""
    return list(
        Competition.objects.filter(championship=championship).order_by("starts_at", "name", "id")
    )


def championship_teams(
    *, championship: Championship, competitions: list[Competition], members: bool = True
) -> list[Team]:
    """Every entrant of every competition of `championship` (the desk across it), in the
    order of `competitions` (`championship_competitions`), then by table; each with its
    competition (one of `competitions`: no query per row) and, with `members`, its members.
    Two queries whatever the number of competitions and entrants (one without `members`)."""
    queryset = Team.objects.filter(competition__championship=championship)
    if members:
        queryset = queryset.prefetch_related("members")
    else:
        queryset = queryset.only(
            "competition_id", "table", "checked_in_at", "fee_paid", "withdrawn"
        )
    place = {c.pk: i for i, c in enumerate(competitions)}
    by_pk = {c.pk: c for c in competitions}
    teams = [t for t in queryset if t.competition_id in by_pk]
    for team in teams:
        team.competition = by_pk[team.competition_id]
    teams.sort(key=lambda t: (place[t.competition_id], t.table, t.pk))
    return teams


def championship_team_get(*, championship: Championship, pk: int) -> Team:
    """An entrant of any competition of `championship` (404 for one of another), with its
    competition."""
    return get_object_or_404(
        Team.objects.select_related("competition"), competition__championship=championship, pk=pk
    )


def team_get(*, competition: Competition, pk: int) -> Team:
    """A team of `competition` (404 for another competition's team)."""
    team = get_object_or_404(Team, competition=competition, pk=pk)
    team.competition = competition
    return team


def team_with_members(*, team: Team) -> Team:
    """The team read again with its members (after a write)."""
    return Team.objects.prefetch_related("members").get(pk=team.pk)


def team_list(
    *, competition: Competition, pks: list[int] | None = None, withdrawn: bool | None = None
) -> list[Team]:
    """The teams with their members, by table; only `pks` or only (not) withdrawn ones."""
    queryset = Team.objects.filter(competition=competition)
    if pks is not None:
        queryset = queryset.filter(pk__in=pks)
    if withdrawn is not None:
        queryset = queryset.filter(withdrawn=withdrawn)
    return list(queryset.prefetch_related("members").order_by("table"))


def team_list_missing(*, competition: Competition) -> list[Team]:
    """R2: the teams not checked in (and not withdrawn), by table, with their members."""
    return list(
        Team.objects.filter(competition=competition, checked_in_at=None, withdrawn=False)
        .prefetch_related("members")
        .order_by("table")
    )


def team_list_paid(*, competition: Competition) -> list[Team]:
    """P2: the teams that paid their entry fee, by table, each with the entrant of an
    earlier round it went on from (whose paid fee it carries: the same fee)."""
    return list(
        Team.objects.filter(competition=competition, fee_paid=True)
        .select_related("advanced_from__competition")
        .order_by("table")
    )


def team_counts(teams: list[Team]) -> dict:
    """The desk's counts: all (not withdrawn), checked in, missing, unpaid, withdrawn."""
    active = [t for t in teams if not t.withdrawn]
    return {
        "all": len(active),
        "in": sum(1 for t in active if t.checked_in_at),
        "missing": sum(1 for t in active if not t.checked_in_at),
        "unpaid": sum(1 for t in active if not t.fee_paid),
        "withdrawn": len(teams) - len(active),
    }


def team_counts_get(*, competition: Competition) -> dict:
    """`team_counts` of the competition, reading only the three fields they need."""
    teams = Team.objects.filter(competition=competition).only(
        "checked_in_at", "fee_paid", "withdrawn"
    )
    return team_counts(list(teams))
