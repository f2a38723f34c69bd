from django.urls import path

from judging import views_control

app_name = "control"
urlpatterns = [
    path("<slug:slug>/", views_control.room, name="room"),
]
