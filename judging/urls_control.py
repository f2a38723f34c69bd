"""The control room (admin role, checked per view)."""

from django.urls import path

from judging import views_control as v
from judging import views_control_clock as vc
from judging import views_hall as hall

app_name = "control"
urlpatterns = [
    path("<slug:slug>/", v.room, name="room"),
    path("<slug:slug>/clock/start", v.clock_start, name="clock_start"),
    path("<slug:slug>/clock/correct", v.clock_correct, name="clock_correct"),
    path("<slug:slug>/clock/stop", v.clock_stop, name="clock_stop"),
    path("<slug:slug>/clock/stop/undo", vc.clock_stop_undo, name="clock_stop_undo"),
    path("<slug:slug>/clock/withdraw/<id:pk>", vc.start_withdraw, name="start_withdraw"),
    path("<slug:slug>/audit/", v.audit, name="audit"),
    path("<slug:slug>/logins/", v.logins, name="logins"),
    path("<slug:slug>/logins/unlock", v.unlock, name="unlock"),
    path("<slug:slug>/hall/", hall.hall_fragment, name="hall"),
    path("<slug:slug>/join/", hall.join_sheet, name="join"),
    path("<slug:slug>/teams/<id:pk>/paper/finish", hall.paper_finish, name="paper_finish"),
    path("<slug:slug>/teams/<id:pk>/paper/count", hall.paper_count, name="paper_count"),
    path("<slug:slug>/teams/<id:pk>/", v.team, name="team"),
    path("<slug:slug>/teams/<id:pk>/warning", v.warning, name="warning"),
    path("<slug:slug>/teams/<id:pk>/disqualify", v.disqualify, name="disqualify"),
    path("<slug:slug>/teams/<id:pk>/reinstate", v.reinstate, name="reinstate"),
    path("<slug:slug>/teams/<id:pk>/withdraw", v.withdraw, name="withdraw"),
    path("<slug:slug>/teams/<id:pk>/withdraw/undo", v.withdraw_undo, name="withdraw_undo"),
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
