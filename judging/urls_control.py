"""The control room (admin role, checked per view), mounted under /control/ in the namespace
`control` with scoring's big-screen panel (config/urls.py)."""

from django.urls import path

from judging.views_control import audit, clock, judges, logins, objections, room, tablets, teams

urlpatterns = [
    path("<slug:slug>/", room.room, name="room"),
    path("<slug:slug>/clock/start", clock.clock_start, name="clock_start"),
    path("<slug:slug>/clock/correct", clock.clock_correct, name="clock_correct"),
    path("<slug:slug>/clock/stop", clock.clock_stop, name="clock_stop"),
    path("<slug:slug>/clock/stop/undo", clock.clock_stop_undo, name="clock_stop_undo"),
    path("<slug:slug>/clock/withdraw/<id:pk>", clock.start_withdraw, name="start_withdraw"),
    path("<slug:slug>/audit/", audit.audit, name="audit"),
    path("<slug:slug>/audit.csv", audit.audit_csv, name="audit_csv"),
    path("<slug:slug>/logins/", logins.logins, name="logins"),
    path("<slug:slug>/logins/unlock", logins.unlock, name="unlock"),
    path("<slug:slug>/judges/", judges.judges, name="judges"),
    path("<slug:slug>/judges/slips/", judges.slips, name="judge_slips"),
    path("<slug:slug>/judges/<id:pk>/password", judges.password_new, name="judge_password"),
    path("<slug:slug>/judges/<id:pk>/revoke", judges.revoke, name="judge_revoke"),
    path("<slug:slug>/hall/", tablets.tablets_panel, name="tablets"),
    path("<slug:slug>/join/", tablets.join_sheet, name="join"),
    path(
        "<slug:slug>/objections/<id:pk>/resolve/",
        objections.objection_resolve_page,
        name="objection_resolve",
    ),
    path("<slug:slug>/finalise/", objections.finalise, name="finalise"),
    path("<slug:slug>/teams/<id:pk>/paper/finish", tablets.paper_finish, name="paper_finish"),
    path("<slug:slug>/teams/<id:pk>/paper/count", tablets.paper_count, name="paper_count"),
    path("<slug:slug>/teams/<id:pk>/", teams.team, name="team"),
    path("<slug:slug>/teams/<id:pk>/warning", teams.warning, name="warning"),
    path("<slug:slug>/teams/<id:pk>/disqualify", teams.disqualify, name="disqualify"),
    path("<slug:slug>/teams/<id:pk>/reinstate", teams.reinstate, name="reinstate"),
    path("<slug:slug>/teams/<id:pk>/withdraw", teams.withdraw, name="withdraw"),
    path("<slug:slug>/teams/<id:pk>/withdraw/undo", teams.withdraw_undo, name="withdraw_undo"),
    path("<slug:slug>/teams/<id:pk>/count", teams.count_correct, name="count_correct"),
    path(
        "<slug:slug>/teams/<id:pk>/finishes/<id:finish_id>/correct",
        teams.finish_correct,
        name="finish_correct",
    ),
    path(
        "<slug:slug>/teams/<id:pk>/finishes/<id:finish_id>/delete",
        teams.finish_delete,
        name="finish_delete",
    ),
]
