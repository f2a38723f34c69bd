"""Public pages (R1): the competitions, the live leaderboard, the big screen, team pages,
results.csv and the rules. No login; no personal data (members, guardians, contacts).

The live parts are rendered once per (competition, standings version, clock status,
language) and kept in Django's cache; a poll with the fragment's ETag is answered 304.

One module per page (scoring/urls_public.py routes to the names below):

- `front.py`: the front page and the rules (`home`, `rules`);
- `live.py`: a competition's live pages, their cached live part and the big screen's
  mode (`competition_screen`, `screen_context`; the polls' `POLL_SECONDS`);
- `programmes.py`: `/<slug>/`, a competition's leaderboard or a championship's programme
  (`leaderboard`, `programme`, `programme_items`), and its QR code (`qr`);
- `teams.py`: a team's page (`team`);
- `results.py`: `results.csv` (`results_csv`).
"""

from scoring.views_public.front import home, rules
from scoring.views_public.live import competition_screen, screen_context
from scoring.views_public.programmes import leaderboard, programme, programme_items, qr
from scoring.views_public.results import results_csv
from scoring.views_public.teams import team

__all__ = [
    "competition_screen",
    "home",
    "leaderboard",
    "programme",
    "programme_items",
    "qr",
    "results_csv",
    "rules",
    "screen_context",
    "team",
]
