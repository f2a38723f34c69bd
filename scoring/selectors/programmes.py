"""A championship's reads: its programme (`/<slug>/` of a championship), the championship and
its competitions' states, memoised for public readers as a competition's state is."""

from __future__ import annotations

import time

from competition.models import Championship, Competition
from scoring import mirror_stamp
from scoring.selectors.memo import (
    MEMO_SECONDS,
    STATE_FIELDS,
    _memo_lock,
    _on_mirror,
    _programmes,
)

__all__ = ["programme", "programme_blobs", "programme_read"]


def programme(slug: str, *, fresh: bool = True) -> tuple[Championship, list[Competition]] | None:
    """A championship's programme (`/<slug>/` of a championship): the championship and its
    competitions' states, by planned start then name, in two queries whatever their number
    (each competition's standings then come from `standings_for`, cached per version), or
    none when this process read them less than `MEMO_SECONDS` ago and the caller is a public
    reader of the programme page (`fresh=False`; on a mirror only while no worker of the host
    served a newer version of one of its competitions, scoring/mirror_stamp.py). None when no
    championship has `slug`."""
    now = time.monotonic()
    mirror = _on_mirror()
    if not fresh:
        hit = _programmes.get(slug)
        fresh_enough = hit is not None and now - hit[1] < MEMO_SECONDS
        if fresh_enough and hit is not None and (not mirror or _not_behind(hit[0][1])):
            return hit[0]
    championship = Championship.objects.filter(slug=slug).first()
    if championship is None:
        return None
    competitions = list(
        Competition.objects.only(*STATE_FIELDS, "championship_id")
        .filter(championship_id=championship.pk)
        .order_by("starts_at", "name", "id")
    )
    if mirror:
        for c in competitions:  # before they are served, as competition_state does
            mirror_stamp.raise_to(c.slug, c.standings_version)
    found = (championship, competitions)
    with _memo_lock:
        if len(_programmes) > 1000:
            _programmes.clear()
        _programmes[slug] = (found, now, {})
    return found


def _not_behind(competitions: list[Competition]) -> bool:
    """No worker of this mirror host served a newer version of any of `competitions`."""
    return all(c.standings_version >= mirror_stamp.seen(c.slug) for c in competitions)


def programme_read(slug: str) -> bool:
    """True when this process read the programme of a championship `slug` less than
    `MEMO_SECONDS` ago: `/<slug>/` is that championship's, not a competition's (a slug of a
    championship never becomes a competition's: one namespace)."""
    hit = _programmes.get(slug)
    return hit is not None and time.monotonic() - hit[1] < MEMO_SECONDS


def programme_blobs(slug: str, found: tuple) -> dict:
    """As `memo_blobs`, for the programme `found` of the championship `slug`."""
    hit = _programmes.get(slug)
    if hit is not None and hit[0] is found and time.monotonic() - hit[1] < MEMO_SECONDS:
        return hit[2]
    return {}
