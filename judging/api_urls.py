"""/api/v1/ for the judges and the head judge (DESIGN.md)."""

from django.urls import path

from judging import api

app_name = "judging_api"
urlpatterns = [
    path("competitions/<slug:slug>/clock/start", api.ClockStartView.as_view(), name="clock-start"),
    path(
        "competitions/<slug:slug>/clock/correct",
        api.ClockCorrectView.as_view(),
        name="clock-correct",
    ),
    path("competitions/<slug:slug>/clock/stop", api.ClockStopView.as_view(), name="clock-stop"),
    path(
        "competitions/<slug:slug>/clock/stop/undo",
        api.ClockStopUndoView.as_view(),
        name="clock-stop-undo",
    ),
    path("competitions/<slug:slug>/finishes/", api.FinishListView.as_view(), name="finishes"),
    path(
        "competitions/<slug:slug>/finishes/<id:pk>/",
        api.FinishDetailView.as_view(),
        name="finish",
    ),
    path("competitions/<slug:slug>/counts/", api.CountCreateView.as_view(), name="counts"),
    path("competitions/<slug:slug>/counts/<id:pk>/", api.CountDetailView.as_view(), name="count"),
    path(
        "competitions/<slug:slug>/tablets/heartbeat",
        api.HeartbeatView.as_view(),
        name="tablet-heartbeat",
    ),
    path(
        "competitions/<slug:slug>/counts/<id:pk>/confirm",
        api.CountConfirmView.as_view(),
        name="count-confirm",
    ),
    path(
        "competitions/<slug:slug>/teams/<id:pk>/warnings/",
        api.WarningCreateView.as_view(),
        name="warnings",
    ),
    path(
        "competitions/<slug:slug>/requests/<uuid:request_id>/cancel",
        api.RequestCancelView.as_view(),
        name="request-cancel",
    ),
    path(
        "competitions/<slug:slug>/teams/<id:pk>/disqualify",
        api.DisqualifyView.as_view(),
        name="disqualify",
    ),
    path(
        "competitions/<slug:slug>/teams/<id:pk>/reinstate",
        api.ReinstateView.as_view(),
        name="reinstate",
    ),
]
