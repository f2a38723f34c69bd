"""The control room's big-screen panel (admin), mounted under /control/ beside judging's."""

from django.urls import path

from scoring import views_control as v

app_name = "screen_control"
urlpatterns = [
    path("<slug:slug>/screen/", v.screen, name="screen"),
    path("<slug:slug>/screen/mode", v.screen_mode, name="mode"),
    path("<slug:slug>/screen/hold", v.screen_hold, name="hold"),
    path("<slug:slug>/screen/reveal/start", v.reveal_start, name="reveal_start"),
    path("<slug:slug>/screen/reveal/next", v.reveal_next, name="reveal_next"),
    path("<slug:slug>/speaker/", v.speaker, name="speaker"),
]
