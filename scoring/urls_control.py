"""The control room's big-screen panel (admin), mounted under /control/ in the namespace
`control` beside judging's (config/urls.py)."""

from django.urls import path

from scoring import views_control as v

urlpatterns = [
    path("<slug:slug>/screen/", v.screen, name="screen"),
    path("<slug:slug>/screen/mode", v.screen_mode, name="screen_mode"),
    path("<slug:slug>/screen/hold", v.screen_hold, name="screen_hold"),
    path("<slug:slug>/screen/reveal/start", v.reveal_start, name="reveal_start"),
    path("<slug:slug>/screen/reveal/next", v.reveal_next, name="reveal_next"),
    path("<slug:slug>/speaker/", v.speaker, name="speaker"),
]
