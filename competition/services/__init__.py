"""Writes for competitions, puzzles, teams and the clock: the one place for their rules.

Import from here: `from competition.services import clock_start, team_create`.
"""

from competition.services.clock import *  # noqa: F403
from competition.services.privacy import *  # noqa: F403
from competition.services.screen import *  # noqa: F403
from competition.services.teams import *  # noqa: F403
