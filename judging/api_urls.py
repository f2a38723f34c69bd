from django.urls import path  # noqa: F401

app_name = "judging_api"
urlpatterns: list = []
