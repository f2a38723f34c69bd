"""The hall's pusher (docs/contracts.md "The public mirror"): a loop of its own, off every request.

About once a second it reads each competition's standings version and clock status (one small
query) and pushes the public snapshot (scoring/mirror.py) of those that changed, and the
unchanged ones again every MIRROR_KEEPALIVE seconds (so the mirror can say how recently it
heard from the hall). It also says which competitions the hall holds (when that changes, and
with the keepalive), so one deleted before its start leaves the mirror. Several changes within
a second are one push: it reads what is committed, never a request's state. While the mirror
cannot be reached it waits 1, 2, 4 ... up to MIRROR_MAX_BACKOFF seconds between tries, then
pushes the newest snapshot. A judge's request never waits for it: it runs in another process
(`manage.py mirror_push`, started by `make hall` when MIRROR_URL is set).
"""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Callable

from django.db import close_old_connections
from django.urls import reverse
from django.utils import timezone

from competition.models import Competition
from scoring import mirror
from scoring.selectors import STATE_FIELDS

log = logging.getLogger("scoring.mirror")

# (url, body bytes, headers, timeout) -> HTTP status; raises OSError when the line is down.
Transport = Callable[[str, bytes, dict, float], int]


def urllib_post(url: str, body: bytes, headers: dict, timeout: float) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return response.status
    except urllib.error.HTTPError as err:
        return err.code


class Pusher:
    def __init__(
        self,
        url: str,
        token: str,
        *,
        post: Transport = urllib_post,
        clock: Callable[[], float] = time.monotonic,
        timeout: float = 3.0,
        keepalive: float = 10.0,
        max_backoff: float = 30.0,
    ):
        # The mirror is this app deployed: its routes are ours.
        self.url = url.rstrip("/") + reverse("api:mirror-push")
        self.held_url = url.rstrip("/") + reverse("api:mirror-held")
        self.token = token
        self.post = post
        self.clock = clock
        self.timeout = timeout
        self.keepalive = keepalive
        self.max_backoff = max_backoff
        self.pushed: dict[str, tuple[tuple, float]] = {}  # slug -> ((version, status), when)
        self.held: tuple[list[int], float] | None = None  # the ids last said held, when
        self.failures = 0
        self.next_try = 0.0
        self.pushes = 0

    def backoff(self) -> float:
        """The wait after `failures` failed tries in a row: 1, 2, 4 ... max_backoff s."""
        return float(min(self.max_backoff, 2 ** max(0, self.failures - 1)))

    def due(self, states: list[Competition]) -> list[Competition]:
        now, wall = self.clock(), timezone.now()
        out = []
        for state in states:
            key = (state.standings_version, str(state.status_at(wall)))
            last = self.pushed.get(state.slug)
            if last is None or last[0] != key or now - last[1] >= self.keepalive:
                out.append(state)
        return out

    def tick(self) -> None:
        """One round: push what changed; on a failure stop the round and back off."""
        if self.clock() < self.next_try:
            return
        states = list(Competition.objects.only(*STATE_FIELDS).order_by("pk"))
        if not self.tell_held([state.pk for state in states]):
            return
        for state in self.due(states):
            key = (state.standings_version, str(state.status_at(timezone.now())))
            status, reason = self._post(self.url, mirror.build(state))
            if status == 200 or status == 409:
                if status == 409:  # the mirror holds a newer one: nothing to repeat
                    log.warning("Mirror holds a newer %s than v%s", state.slug, key[0])
                else:
                    log.info("Pushed %s v%s to the mirror", state.slug, key[0])
                self.pushed[state.slug] = (key, self.clock())
                self.failures = 0
                self.pushes += 1
                continue
            self._failed(state.slug, reason)
            return

    def tell_held(self, ids: list[int]) -> bool:
        """Say which competitions the hall holds when that changed (a competition deleted
        before its start leaves the mirror too) and with every keepalive; False when the
        line is down (backing off). A mirror of an older app answers 404: it keeps what it
        has; any other answer is said again with the keepalive, and the pushes go on."""
        held = self.held
        if held is not None and held[0] == ids and self.clock() - held[1] < self.keepalive:
            return True
        status, reason = self._post(self.held_url, {"competitions": ids})
        if status == 0:  # the line is down: back off, as a push does
            self._failed("the competitions held", reason)
            return False
        if status not in (200, 404):  # the mirror's trouble with it never stops the results
            log.warning("The mirror did not take the competitions held (%s)", reason)
        self.held = (ids, self.clock())
        return True

    def _post(self, url: str, payload: dict) -> tuple[int, str]:
        body = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
        headers = {"Content-Type": "application/json", "Authorization": f"Mirror {self.token}"}
        try:
            status = self.post(url, body, headers, self.timeout)
        except (OSError, ValueError) as exc:  # refused, timed out, no route, a bad URL
            return 0, str(exc) or type(exc).__name__
        return status, f"HTTP {status}"

    def _failed(self, what: str, reason: str) -> None:
        self.failures += 1
        wait = self.backoff()
        self.next_try = self.clock() + wait
        log.warning("Mirror push of %s failed (%s); next try in %.0f s", what, reason, wait)

    def run(self, *, interval: float = 1.0, keep_going: Callable[[], bool] = lambda: True) -> None:
        while keep_going():
            started = time.monotonic()
            try:
                self.tick()
            except Exception:  # a database hiccup: log it, try again next second
                log.exception("Mirror pusher round failed")
            finally:
                close_old_connections()
            time.sleep(max(0.05, interval - (time.monotonic() - started)))
