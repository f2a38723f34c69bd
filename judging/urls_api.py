"""/api/v1/ for the judges and the head judge: `urlpatterns`, and `objections_urlpatterns`
(objections and finalise, R20) after scoring's; all in the namespace `api` (config/api_urls.py).
Every route is below one competition: `competitions/<slug>/`."""

from django.urls import include, path

from judging.api import clock, counts, discipline, finishes, objections, requests, tablets


def _below_competition(*routes):
    return [path("competitions/<slug:slug>/", include(list(routes)))]


urlpatterns = _below_competition(
    path("clock/start", clock.ClockStartView.as_view(), name="clock-start"),
    path("clock/correct", clock.ClockCorrectView.as_view(), name="clock-correct"),
    path("clock/stop", clock.ClockStopView.as_view(), name="clock-stop"),
    path("clock/stop/undo", clock.ClockStopUndoView.as_view(), name="clock-stop-undo"),
    path("finishes/", finishes.FinishListView.as_view(), name="finishes"),
    path("finishes/<id:pk>/", finishes.FinishDetailView.as_view(), name="finish"),
    path("counts/", counts.CountCreateView.as_view(), name="counts"),
    path("counts/<id:pk>/", counts.CountDetailView.as_view(), name="count"),
    path("tablets/heartbeat", tablets.HeartbeatView.as_view(), name="tablet-heartbeat"),
    path("counts/<id:pk>/confirm", counts.CountConfirmView.as_view(), name="count-confirm"),
    path("teams/<id:pk>/warnings/", discipline.WarningCreateView.as_view(), name="warnings"),
    path(
        "requests/<uuid:request_id>/cancel",
        requests.RequestCancelView.as_view(),
        name="request-cancel",
    ),
    path("teams/<id:pk>/disqualify", discipline.DisqualifyView.as_view(), name="disqualify"),
    path("teams/<id:pk>/reinstate", discipline.ReinstateView.as_view(), name="reinstate"),
)

objections_urlpatterns = _below_competition(
    path("objections/", objections.ObjectionListCreate.as_view(), name="objections"),
    path(
        "objections/<id:pk>/resolve",
        objections.ObjectionResolve.as_view(),
        name="objection-resolve",
    ),
    path("finalise", objections.Finalise.as_view(), name="finalise"),
)
