"""The one lock order of every write: the team's row, then its competition's row, then (for
a write that gives out tables or moves a competition in time) its championship's row.

Every service that changes a team or the standings locks through here, so two services
can never wait on each other in opposite orders (a deadlock on PostgreSQL). The
championship's row is last: a write holds at most one competition's row when it asks for
it, and nothing that holds a championship's row asks for a competition's.
"""

from django.utils.translation import gettext as _

from competition.errors import Vanished
from competition.models import Championship, Competition, Team


def lock_competition(competition: Competition | int) -> Competition:
    pk = competition if isinstance(competition, int) else competition.pk
    locked = Competition.objects.select_for_update().filter(pk=pk).first()
    if locked is None:
        raise Vanished(_("This competition no longer exists."))
    return locked


def lock_team(team: Team) -> tuple[Team, Competition]:
    """Lock the team row, then its competition's row; both fresh from the database (a team
    removed meanwhile is `Vanished`: 404)."""
    locked = Team.objects.select_for_update().filter(pk=team.pk).first()
    if locked is None:
        raise Vanished(_("This team no longer exists."))
    locked.competition = lock_competition(locked.competition_id)
    return locked, locked.competition


def lock_championship(competition: Competition) -> None:
    """Lock the championship of `competition` (whose row the caller holds already): the
    table plan of its competitions (competition/services/table_plan.py) is checked and
    changed by one write at a time, so two desks in two competitions cannot both take a
    table at the same time."""
    list(
        Championship.objects.select_for_update()
        .filter(pk=competition.championship_id)
        .values_list("pk", flat=True)
    )
