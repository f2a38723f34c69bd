"""The tablet's undo of a tap whose answer never came (docs/offline.md)."""

from drf_spectacular.utils import (
    extend_schema,
    inline_serializer,
)
from rest_framework import serializers
from rest_framework.response import Response

from competition.roles import IsJudge
from judging.api.common import (
    CONFLICT,
    REFUSED,
    CompetitionAPIView,
)
from judging.services import (
    request_cancel,
)


class RequestCancelView(CompetitionAPIView):
    permission_classes = [IsJudge]

    @extend_schema(
        request=None,
        responses={
            200: inline_serializer(
                "RequestCancelled",
                {"cancelled": serializers.ChoiceField(["deleted", "never_arrived"])},
            ),
            409: REFUSED,
            422: CONFLICT,
        },
        description=(
            "Undo a tap whose answer never came (judge, docs/offline.md, Undo). If the request "
            "created a finish that is still the team's latest, or a count or warning, it is "
            'deleted (audited): `{"cancelled": "deleted"}`; a finish that is not the latest is '
            "refused (409 `not_latest`). If the request never arrived, it never will: a later "
            'arrival answers 409 `undone`, and this answers `{"cancelled": "never_arrived"}`. '
            "The same cancel again answers the same. Refused (409): `final`, `not_latest`, "
            "`decided` (a resolved objection decided what it created, or the count its undo "
            "would void); "
            "422 for a request id of another competition."
        ),
    )
    def post(self, request, slug, request_id):
        cancelled = request_cancel(
            competition=self.get_competition(), request_id=request_id, by=request.user
        )
        return Response({"cancelled": cancelled})
