"""The desk's judging pages (desk and admin roles, checked per view), mounted under /desk/
beside competition.urls_desk."""

from django.urls import path

from judging import views_desk as v

app_name = "objections_desk"
urlpatterns = [
    path("<slug:slug>/objections/", v.objection_new, name="new"),
]
