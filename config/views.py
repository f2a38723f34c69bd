import time

from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView


@never_cache
def healthz(request):
    """For load balancers and the benchmark's floor: no database, no cache."""
    return JsonResponse({"ok": True})


class ServerTime(APIView):
    """The devices' clock sync (OFFLINE.md): the server's time in milliseconds."""

    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(
        responses=inline_serializer("ServerTime", {"server_ms": serializers.IntegerField()})
    )
    def get(self, request):
        response = Response({"server_ms": int(time.time() * 1000)})
        response["Cache-Control"] = "no-store"
        return response
