from django.urls import path

from scoring import api, views_mirror

urlpatterns = [
    path(
        "competitions/<slug:slug>/standings",
        api.standings,
        name="standings",
    ),
    # The public mirror (docs/contracts.md): answered on a mirror only, 404 in the hall.
    path("competitions/<slug:slug>/mirror", views_mirror.age, name="mirror-age"),
    path("mirror/push", views_mirror.push, name="mirror-push"),
    path("mirror/held", views_mirror.held, name="mirror-held"),
]
