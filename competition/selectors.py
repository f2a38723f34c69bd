"""Reads that several pages share: a competition or team from the URL, the desk's team list
and its counts. Writes are in competition.services; templates and tags do not query."""

from django.shortcuts import get_object_or_404

from competition.models import Competition, Team

__all__ = [
    "competition_get",
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
    """P2: the teams that paid their entry fee, by table."""
    return list(Team.objects.filter(competition=competition, fee_paid=True).order_by("table"))


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
