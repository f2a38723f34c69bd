"""Public pages (R1): no login. Fixed paths first; `<slug>/...` last."""

from django.urls import path

from scoring import views

app_name = "public"
urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("<slug:slug>/", views.leaderboard, name="leaderboard"),
    path("<slug:slug>/screen/", views.screen, name="screen"),
    path("<slug:slug>/qr.svg", views.qr, name="qr"),
    path("<slug:slug>/teams/<id:team_id>/", views.team, name="team"),
    path("<slug:slug>/results.csv", views.results_csv, name="results_csv"),
]
