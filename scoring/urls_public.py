"""Public pages (R1): no login. Fixed paths first; `<slug>/...` last."""

from django.urls import path

from scoring import views_public as v
from scoring import views_stage, views_stream

app_name = "public"
urlpatterns = [
    path("", v.home, name="home"),
    path("rules/", v.rules, name="rules"),
    path("<slug:slug>/", v.leaderboard, name="leaderboard"),
    # Championships and competitions share `/<slug>/`: the same view answers a championship's
    # slug with its programme (`v.programme`); this name is for reverse() and the walks.
    path("<slug:slug>/", v.leaderboard, name="programme"),
    path("<slug:slug>/screen/", views_stage.screen, name="screen"),
    path("<slug:slug>/qr.svg", v.qr, name="qr"),
    path("<slug:slug>/teams/<id:team_id>/", v.team, name="team"),
    path("<slug:slug>/results.csv", v.results_csv, name="results_csv"),
    path("<slug:slug>/feed/", views_stream.speaker_feed, name="feed"),
    path("<slug:slug>/overlay/", views_stream.overlay, name="overlay"),
]
