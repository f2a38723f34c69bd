"""The desk's scoring pages (desk and admin roles, checked per view), mounted under /desk/
beside competition.urls_desk."""

from django.urls import path

from scoring import views_desk as v

app_name = "results_desk"
urlpatterns = [
    path("<slug:slug>/official/", v.official_results, name="official"),
]
