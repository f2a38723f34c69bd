"""The desk's judging pages (desk and admin roles, checked per view), mounted under /desk/
in the namespace `desk` beside competition.urls_desk (config/urls.py)."""

from django.urls import path

from judging import views_desk as v

urlpatterns = [
    path("<slug:slug>/objections/", v.objection_new, name="objection_new"),
]
