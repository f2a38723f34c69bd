import logging
import time

from django.core.cache import caches
from django.db import Error as DatabaseError
from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from config.cache import FallbackRedisCache

log = logging.getLogger(__name__)


@never_cache
def healthz(request):
    """For load balancers and the benchmark's floor: no database, no cache."""
    return JsonResponse({"ok": True})


@never_cache
def readyz(request):
    """For load balancers: 200 when the database answers, else 503; the body names what
    is down. The shared cache is reported but never makes the process unready (it is an
    optimisation: docs/contracts.md "Running"); "local" means no shared cache is configured."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        database = "ok"
    except DatabaseError as exc:
        log.error("Not ready: the database does not answer: %s", exc)
        database = "down"
    backend = caches["default"]
    state = "local"
    if isinstance(backend, FallbackRedisCache):
        state = "ok" if backend.ping() else "down"
    ok = database == "ok"
    return JsonResponse({"ok": ok, "database": database, "cache": state}, status=200 if ok else 503)


class ServerTime(APIView):
    """The devices' clock sync (docs/offline.md "A tap"): the server's time in milliseconds."""

    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(
        responses=inline_serializer("ServerTime", {"server_ms": serializers.IntegerField()})
    )
    def get(self, request):
        response = Response({"server_ms": int(time.time() * 1000)})
        response["Cache-Control"] = "no-store"
        return response
