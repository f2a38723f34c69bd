"""A team's count as the control room and finalise both read it (R9, docs/contracts.md "The
second count"): one rule, so that the room never says "✓" or "0 optællinger mangler" while
finalise still refuses `counts_missing` or `counts_unconfirmed`."""

from enum import StrEnum

from django.db.models import Count as CountOf

from competition.models import Competition, Team
from judging.models import Count


class CountState(StrEnum):
    NONE = "none"  # nothing to count: every puzzle finished, or the team does not compete
    MISSING = "missing"  # competing, an unfinished puzzle, no count (`counts_missing`)
    WAITING = "waiting"  # counted; waits for the second, blind count (`counts_unconfirmed`)
    DIFFERS = "differs"  # the second count differs from the first: the head judge settles it
    DONE = "done"  # counted, and confirmed when the second count is on


# What finalise still waits for (the room's "optællinger mangler").
OUTSTANDING = frozenset({CountState.MISSING, CountState.WAITING, CountState.DIFFERS})


def count_state(
    *, competing: bool, count: Count | None, finished: int, puzzles: int, second_count: bool
) -> CountState:
    """The state of a team's `count` (None when there is none) with `finished` of `puzzles`
    puzzles finished, before or after the end alike: MISSING only matters once time is up."""
    if not competing:
        return CountState.NONE
    if count is None:
        return CountState.MISSING if finished < puzzles else CountState.NONE
    if second_count and count.confirmed_at is None:
        return CountState.DIFFERS if count.second_pieces is not None else CountState.WAITING
    return CountState.DONE


def with_count_states(competition: Competition, teams: list[Team]) -> list[Team]:
    """`teams` of `competition` (annotated `n_finished`, their `count` selected), each given
    `.count_state`. No query when the competition's puzzles are prefetched, else one."""
    puzzles = len(competition.puzzles.all())
    for team in teams:
        team.count_state = count_state(
            competing=team.competing,
            count=getattr(team, "count", None),
            finished=team.n_finished,
            puzzles=puzzles,
            second_count=competition.second_count,
        )
    return teams


def count_states(competition: Competition) -> list[Team]:
    """Every team of `competition` in table order with `.count_state` (and `.count`, its
    first judge selected). Two queries."""
    teams = (
        Team.objects.filter(competition=competition)
        .select_related("count__registered_by")
        .annotate(n_finished=CountOf("finishes"))
        .order_by("table")
    )
    return with_count_states(competition, list(teams))


def outstanding(teams: list[Team]) -> list[Team]:
    """The teams whose count finalise waits for, in the order given."""
    return [t for t in teams if t.count_state in OUTSTANDING]
