from django.urls import path

from championships import api

urlpatterns = [
    path("championships/", api.ChampionshipListView.as_view(), name="championships"),
    path("championships/<slug:slug>/", api.ChampionshipDetailView.as_view(), name="championship"),
    path("competitions/<slug:slug>/advance", api.AdvanceView.as_view(), name="advance"),
]
