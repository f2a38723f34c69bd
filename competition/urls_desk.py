from django.urls import path

from competition import views_desk

app_name = "desk"
urlpatterns = [
    path("<slug:slug>/", views_desk.teams, name="teams"),
]
