"""The desk (desk and admin roles) and the setup pages (admin). Access is checked per view.
The namespace `desk` holds judging's and scoring's desk pages too (config/urls.py)."""

from django.urls import path

from competition import views_desk as v

urlpatterns = [
    path("new/", v.competition_new, name="competition_new"),
    path("new/championship/", v.championship_new, name="championship_new"),
    path("<slug:slug>/", v.teams, name="teams"),
    path("<slug:slug>/setup/", v.setup, name="setup"),
    path("<slug:slug>/delete", v.delete, name="delete"),
    path("<slug:slug>/teams/new/", v.team_new, name="team_new"),
    path("<slug:slug>/teams/<id:pk>/", v.team_edit, name="team_edit"),
    path("<slug:slug>/teams/<id:pk>/check-in", v.check_in, name="check_in"),
    path("<slug:slug>/teams/<id:pk>/check-in/undo", v.check_in_undo, name="check_in_undo"),
    path("<slug:slug>/teams/<id:pk>/fee", v.fee, name="fee"),
    path("<slug:slug>/teams/<id:pk>/withdraw", v.withdraw, name="withdraw"),
    path("<slug:slug>/teams/<id:pk>/withdraw/undo", v.withdraw_undo, name="withdraw_undo"),
    path("<slug:slug>/refunds/", v.refunds, name="refunds"),
    path("<slug:slug>/missing/", v.missing, name="missing"),
    path("<slug:slug>/teams.csv", v.export, name="export"),
    path("<slug:slug>/import/", v.import_teams, name="import"),
    path("<slug:slug>/import/example.csv", v.import_example, name="import_example"),
    path("<slug:slug>/cards/", v.cards, name="cards"),
]
