from django.urls import path

from scoring import api

urlpatterns = [
    path(
        "competitions/<slug:slug>/standings",
        api.standings,
        name="standings",
    ),
]
