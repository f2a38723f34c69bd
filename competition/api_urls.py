from django.urls import path  # noqa: F401

app_name = "competition_api"
urlpatterns: list = []
