"""/api/v1/: objections and finalise (R20)."""

from django.urls import path

from judging import api_objections

app_name = "objections_api"
urlpatterns = [
    path(
        "competitions/<slug:slug>/objections/",
        api_objections.ObjectionListCreate.as_view(),
        name="list",
    ),
    path(
        "competitions/<slug:slug>/objections/<id:pk>/resolve",
        api_objections.ObjectionResolve.as_view(),
        name="resolve",
    ),
    path(
        "competitions/<slug:slug>/finalise",
        api_objections.Finalise.as_view(),
        name="finalise",
    ),
]
