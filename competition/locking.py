"""The one lock order of every write: the team's row, then its competition's row.

Every service that changes a team or the standings locks through here, so two services
can never wait on each other in opposite orders (a deadlock on PostgreSQL).
"""

from django.utils.translation import gettext as _

from competition.errors import Vanished
from competition.models import Competition, Team


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
