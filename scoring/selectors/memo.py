"""The process's 1 s memo of the public reads (`MEMO_SECONDS`): a competition's state
(state.py) and a championship's programme (programmes.py), kept per slug; and the state
fields read on every request."""

from __future__ import annotations

import threading

from django.conf import settings

from competition.models import Championship, Competition

__all__ = ["MEMO_SECONDS", "STATE_FIELDS", "memo_clear", "version_of"]

MEMO_SECONDS = 1.0


# The state fields read on every request: small, one row.
STATE_FIELDS = (
    "id",
    "slug",
    "name",
    "venue",
    "starts_at",
    "duration_minutes",
    "started_at",
    "stopped_at",
    "finalised_at",
    "standings_version",
    "hide_motifs",
    "screen_mode",
    "screen_message",
    "reveal_from",
    "reveal_at",
    "hold_results",
    "second_count",
    "discipline",  # the pages' words for an entrant (competition/words/)
    "round",  # which heat, on the stream overlay
    "ranking",  # the profile the standings rank by (dm, wjpc)
)


def version_of(state: Competition) -> str:
    """The standings version as cache keys and ETags name it: with the ranking when it is not
    the Danish rules', so a ranking changed without a bump (a restore, a mirror) is never
    served the order cached for the other one."""
    ranking = getattr(state, "ranking", "dm")
    return str(state.standings_version) + ("" if ranking == "dm" else ranking)


# slug -> (competition state, monotonic time read, bytes sent for that state). Public
# readers only, for 1 s at most: then the version is read again and the bytes forgotten.
_memo: dict[str, tuple[Competition, float, dict]] = {}
_memo_lock = threading.Lock()


# slug -> ((championship, its competitions' states), monotonic time read, bytes sent for
# them): a championship's programme, for public readers, as `_memo` for a competition.
_programmes: dict[str, tuple[tuple[Championship, list[Competition]], float, dict]] = {}


def _on_mirror() -> bool:
    """A public mirror (docs/contracts.md "The public mirror": MIRROR_TOKEN set, MIRROR_URL unset):
    one worker's memo must not show a reader an older snapshot after another worker showed
    the newer one (scoring/mirror_stamp.py)."""
    return bool(settings.MIRROR_TOKEN) and not settings.MIRROR_URL


def memo_clear() -> None:
    """Forget the versions this process read (tests use it to act as another process)."""
    with _memo_lock:
        _memo.clear()
        _programmes.clear()
