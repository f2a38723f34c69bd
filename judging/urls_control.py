"""The control room (admin role, checked per view)."""

from django.urls import path

from judging import views_control as v

app_name = "control"
urlpatterns = [
    path("<slug:slug>/", v.room, name="room"),
    path("<slug:slug>/clock/start", v.clock_start, name="clock_start"),
    path("<slug:slug>/clock/stop", v.clock_stop, name="clock_stop"),
    path("<slug:slug>/audit/", v.audit, name="audit"),
    path("<slug:slug>/teams/<id:pk>/", v.team, name="team"),
    path("<slug:slug>/teams/<id:pk>/warning", v.warning, name="warning"),
    path("<slug:slug>/teams/<id:pk>/disqualify", v.disqualify, name="disqualify"),
    path("<slug:slug>/teams/<id:pk>/reinstate", v.reinstate, name="reinstate"),
    path("<slug:slug>/teams/<id:pk>/count", v.count_correct, name="count_correct"),
    path(
        "<slug:slug>/teams/<id:pk>/finishes/<id:finish_id>/correct",
        v.finish_correct,
        name="finish_correct",
    ),
    path(
        "<slug:slug>/teams/<id:pk>/finishes/<id:finish_id>/delete",
        v.finish_delete,
        name="finish_delete",
    ),
]
