"""Standings from the database (R7, R8, R9, R11), ranked by the pure rules and cached.

One computation per change: the computed standings are cached in Django's cache per
(competition, standings version, clock status). The version is bumped in the same
transaction as every write that can change the standings; the status is in the key
because the clock ends by itself without a write. What a reader sees is decided by the
version in the database, never by process-local state, except that a public reader may
reuse the version this process read less than a second ago (`MEMO_SECONDS`).

When the recorded data breaks a rule, the public keeps the last good standings and staff
see the error (`"error"`); nothing raises.

Every name is imported from here (`from scoring.selectors import standings_for`); each lives
in the module that holds its kind of read:

- `memo.py`: the process's 1 s memo of the public reads, the state fields;
- `state.py`: a competition's state (`competition_state`, `memo_blobs`);
- `programmes.py`: a championship's reads (`programme`, `programme_read`, `programme_blobs`);
- `standings.py`: a competition's standings body, cached (`standings_for`,
  `competition_standings`, `reveal_places`, `api_body`);
- `tie_break.py`: R11 told in words for a row (`tie_break_sentence`, `short_duration`);
- `labels.py`: a label's own ranking (`label_body`).

A test that replaces what a read calls patches the module that holds the read.
"""

from scoring.selectors.labels import label_body
from scoring.selectors.memo import MEMO_SECONDS, memo_clear
from scoring.selectors.memo import STATE_FIELDS as STATE_FIELDS
from scoring.selectors.memo import version_of as version_of
from scoring.selectors.programmes import programme, programme_blobs, programme_read
from scoring.selectors.standings import (
    CACHE_SECONDS,
    api_body,
    competition_standings,
    reveal_places,
    standings_for,
    standings_key,
)
from scoring.selectors.state import competition_state, memo_blobs
from scoring.selectors.tie_break import LANGUAGES as LANGUAGES
from scoring.selectors.tie_break import short_duration as short_duration
from scoring.selectors.tie_break import tie_break_sentence as tie_break_sentence

__all__ = [
    "CACHE_SECONDS",
    "MEMO_SECONDS",
    "api_body",
    "label_body",
    "competition_standings",
    "competition_state",
    "memo_blobs",
    "memo_clear",
    "programme",
    "programme_blobs",
    "programme_read",
    "reveal_places",
    "standings_for",
    "standings_key",
]
