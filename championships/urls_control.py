"""The control room's page of a round of a championship (admin) and the advance's undo, mounted
under /control/ in the namespace `control` beside judging's and scoring's (config/urls.py)."""

from django.urls import path

from championships import views_control

urlpatterns = [
    path("<slug:slug>/advance/", views_control.advance, name="advance"),
    path("<slug:slug>/advance/undo", views_control.advance_undo, name="advance_undo"),
]
