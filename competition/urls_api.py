from django.urls import path

from competition import api

urlpatterns = [
    path("competitions/", api.CompetitionListView.as_view(), name="competitions"),
    path("competitions/<slug:slug>/", api.CompetitionDetailView.as_view(), name="competition"),
    path("competitions/<slug:slug>/puzzles/", api.PuzzleCreateView.as_view(), name="puzzles"),
    path("competitions/<slug:slug>/teams/", api.TeamListView.as_view(), name="teams"),
    path("competitions/<slug:slug>/teams/<id:id>/", api.TeamDetailView.as_view(), name="team"),
]
