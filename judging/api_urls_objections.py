from django.urls import path  # noqa: F401

app_name = "objections_api"
urlpatterns: list = []
