"""The desk's scoring pages (desk and admin roles, checked per view), mounted under /desk/
in the namespace `desk` beside competition.urls_desk (config/urls.py)."""

from django.urls import path

from scoring import views_desk as v

urlpatterns = [
    path("<slug:slug>/official/", v.official_results, name="official"),
]
