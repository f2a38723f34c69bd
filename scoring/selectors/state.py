"""A competition's state (its clock and standings version): one small query, or the one this
process read less than `MEMO_SECONDS` ago, for a public reader."""

from __future__ import annotations

import time

from competition.models import Competition
from scoring import mirror_stamp
from scoring.selectors.memo import MEMO_SECONDS, STATE_FIELDS, _memo, _memo_lock, _on_mirror

__all__ = ["competition_state", "memo_blobs"]


def competition_state(slug: str, *, fresh: bool = False) -> Competition | None:
    """The competition's clock and standings version: one small query, or none when this
    process read it less than `MEMO_SECONDS` ago and the caller is a public reader
    (`fresh=False`); on a mirror only while no worker served a newer version. None when
    there is no such competition."""
    now = time.monotonic()
    mirror = _on_mirror()
    newest = mirror_stamp.seen(slug) if mirror else 0
    if not fresh:
        hit = _memo.get(slug)
        fresh_enough = hit is not None and now - hit[1] < MEMO_SECONDS
        if fresh_enough and hit is not None and hit[0].standings_version >= newest:
            return hit[0]
    state = Competition.objects.only(*STATE_FIELDS).filter(slug=slug).first()
    if mirror and state is not None and state.standings_version > newest:
        mirror_stamp.raise_to(slug, state.standings_version)  # before it is served
    with _memo_lock:
        if state is None:
            _memo.pop(slug, None)
        else:
            if len(_memo) > 1000:
                _memo.clear()
            _memo[slug] = (state, now, {})
    return state


def memo_blobs(state: Competition) -> dict:
    """A dict that lives exactly as long as this process's 1 s memo of `state`: answers
    already fetched from the shared cache for this version may be kept in it. Outside the
    memo (a fresh read replaced it, or the second is over) a throwaway dict."""
    hit = _memo.get(state.slug)
    if hit is not None and hit[0] is state and time.monotonic() - hit[1] < MEMO_SECONDS:
        return hit[2]
    return {}
