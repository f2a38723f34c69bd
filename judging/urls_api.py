"""/api/v1/ for the judges and the head judge: `urlpatterns`, and `objections_urlpatterns`
(objections and finalise, R20) after scoring's; all in the namespace `api` (config/api_urls.py)."""

from django.urls import path

from judging.api import clock, counts, discipline, finishes, objections, requests, tablets

urlpatterns = [
    path(
        "competitions/<slug:slug>/clock/start", clock.ClockStartView.as_view(), name="clock-start"
    ),
    path(
        "competitions/<slug:slug>/clock/correct",
        clock.ClockCorrectView.as_view(),
        name="clock-correct",
    ),
    path("competitions/<slug:slug>/clock/stop", clock.ClockStopView.as_view(), name="clock-stop"),
    path(
        "competitions/<slug:slug>/clock/stop/undo",
        clock.ClockStopUndoView.as_view(),
        name="clock-stop-undo",
    ),
    path("competitions/<slug:slug>/finishes/", finishes.FinishListView.as_view(), name="finishes"),
    path(
        "competitions/<slug:slug>/finishes/<id:pk>/",
        finishes.FinishDetailView.as_view(),
        name="finish",
    ),
    path("competitions/<slug:slug>/counts/", counts.CountCreateView.as_view(), name="counts"),
    path(
        "competitions/<slug:slug>/counts/<id:pk>/", counts.CountDetailView.as_view(), name="count"
    ),
    path(
        "competitions/<slug:slug>/tablets/heartbeat",
        tablets.HeartbeatView.as_view(),
        name="tablet-heartbeat",
    ),
    path(
        "competitions/<slug:slug>/counts/<id:pk>/confirm",
        counts.CountConfirmView.as_view(),
        name="count-confirm",
    ),
    path(
        "competitions/<slug:slug>/teams/<id:pk>/warnings/",
        discipline.WarningCreateView.as_view(),
        name="warnings",
    ),
    path(
        "competitions/<slug:slug>/requests/<uuid:request_id>/cancel",
        requests.RequestCancelView.as_view(),
        name="request-cancel",
    ),
    path(
        "competitions/<slug:slug>/teams/<id:pk>/disqualify",
        discipline.DisqualifyView.as_view(),
        name="disqualify",
    ),
    path(
        "competitions/<slug:slug>/teams/<id:pk>/reinstate",
        discipline.ReinstateView.as_view(),
        name="reinstate",
    ),
]

objections_urlpatterns = [
    path(
        "competitions/<slug:slug>/objections/",
        objections.ObjectionListCreate.as_view(),
        name="objections",
    ),
    path(
        "competitions/<slug:slug>/objections/<id:pk>/resolve",
        objections.ObjectionResolve.as_view(),
        name="objection-resolve",
    ),
    path(
        "competitions/<slug:slug>/finalise",
        objections.Finalise.as_view(),
        name="finalise",
    ),
]
