from django.urls import path

from scoring import api

app_name = "scoring_api"
urlpatterns = [
    path(
        "competitions/<slug:slug>/standings",
        api.standings,
        name="standings",
    ),
]
