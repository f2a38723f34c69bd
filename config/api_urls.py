"""One API router: /api/v1/ from each app's urls_api in one namespace `api`, the schema and
its docs."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

import championships.urls_api
import competition.urls_api
import judging.urls_api
import scoring.urls_api
from config import views

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves Swagger UI's start-up script as a file (no inline script: CSP).
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api_docs.html"),
        name="api-docs",
    ),
    path("v1/time", views.ServerTime.as_view(), name="api-time"),
    path(
        "v1/",
        include(
            (
                competition.urls_api.urlpatterns
                + judging.urls_api.urlpatterns
                + scoring.urls_api.urlpatterns
                + championships.urls_api.urlpatterns
                + judging.urls_api.objections_urlpatterns,
                "api",
            )
        ),
    ),
]
