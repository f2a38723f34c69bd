"""Objections (desk files, admin resolves), finalise and the official results pages."""

from django.urls import path

from judging import views_objections as views

app_name = "objections"
urlpatterns = [
    path("<slug:slug>/new/", views.objection_new, name="new"),
    path("<slug:slug>/<id:pk>/resolve/", views.objection_resolve_page, name="resolve"),
    path("<slug:slug>/finalise/", views.finalise, name="finalise"),
    path("<slug:slug>/official/", views.official_results, name="official"),
    path("<slug:slug>/audit.csv", views.audit_csv, name="audit_csv"),
]
