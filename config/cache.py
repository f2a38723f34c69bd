"""The shared cache (Redis) as an optimisation only (docs/contracts.md "Running").

`FallbackRedisCache` is Django's Redis backend with short socket timeouts (settings) and
one change: when Redis fails (refused, reset, timed out), the call is logged and answered
from this process's own memory instead, and for `RETRY_SECONDS` the process does not try
Redis again, so a dead or hung Redis costs one short timeout per process, not one per
call. Nothing is lost by it: every key on the public path carries the standings version
read from the database, so a process's memory can only hold answers for a version, never
decide which version a reader sees.
"""

import logging
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
METHODS = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
)


class FallbackRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self.local = LocMemCache(f"fallback:{server}", {"OPTIONS": {"MAX_ENTRIES": 5000}})
        self.down_until = 0.0

    def is_down(self) -> bool:
        return time.monotonic() < self.down_until

    def ping(self) -> bool:
        """True when Redis answers now (for /readyz); a failure counts like any other."""
        try:
            return bool(self._cache.get_client(None).ping())
        except RedisError as exc:
            self._fallback("ping", exc)
            return False

    def _fallback(self, name, exc):
        self.down_until = time.monotonic() + RETRY_SECONDS
        log.error(
            "Shared cache unavailable (%s: %s): %s answered from this process's memory; "
            "Redis is tried again in %.0f s",
            type(exc).__name__,
            exc,
            name,
            RETRY_SECONDS,
        )


def _guarded(name):
    redis_method = getattr(RedisCache, name)

    def method(self, *args, **kwargs):
        if not self.is_down():
            try:
                return redis_method(self, *args, **kwargs)
            except RedisError as exc:
                self._fallback(name, exc)
        return getattr(self.local, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = redis_method.__doc__
    return method


for _name in METHODS:
    setattr(FallbackRedisCache, _name, _guarded(_name))
