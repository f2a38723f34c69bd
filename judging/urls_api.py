"""/api/v1/ for the judges and the head judge (DESIGN.md): `urlpatterns` is the namespace
`judging_api`; `objections_urls` (objections and finalise, R20) is `objections_api`."""

from django.urls import path

from judging.api import clock, counts, discipline, finishes, objections, requests, tablets

app_name = "judging_api"
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

# Kept as a namespace of its own: its URL names (`objections_api:list`, ...) are in use.
objections_urls = (
    [
        path(
            "competitions/<slug:slug>/objections/",
            objections.ObjectionListCreate.as_view(),
            name="list",
        ),
        path(
            "competitions/<slug:slug>/objections/<id:pk>/resolve",
            objections.ObjectionResolve.as_view(),
            name="resolve",
        ),
        path(
            "competitions/<slug:slug>/finalise",
            objections.Finalise.as_view(),
            name="finalise",
        ),
    ],
    "objections_api",
)
