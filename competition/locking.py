"""The one lock order of every write: the team's row, then its competition's row.

Every service that changes a team or the standings locks through here, so two services
can never wait on each other in opposite orders (a deadlock on PostgreSQL).
"""

from competition.models import Competition, Team


def lock_competition(competition: Competition | int) -> Competition:
    pk = competition if isinstance(competition, int) else competition.pk
    return Competition.objects.select_for_update().get(pk=pk)


def lock_team(team: Team) -> tuple[Team, Competition]:
    """Lock the team row, then its competition's row; both fresh from the database."""
    team = Team.objects.select_for_update().get(pk=team.pk)
    team.competition = lock_competition(team.competition_id)
    return team, team.competition
