"""URLs by audience: public, desk, judge, control room, API (STYLE.md), one namespace each."""

from importlib import import_module

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, register_converter
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from competition.inputs import IdConverter
from config import views

# `<id:pk>`: an id that fits its column, else 404 (not int's any number of digits); registered
# before the apps' URL modules below are imported.
register_converter(IdConverter, "id")


def audience(namespace: str, *modules: str):
    """One URL namespace for an audience: the apps' `urls_<audience>` modules in this order,
    their paths as they are (each app keeps its own module, the names are the audience's)."""
    return include(([p for m in modules for p in import_module(m).urlpatterns], namespace))


urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    # The language switch is on every public page; all a forged request could do is change
    # someone's language, so it needs no CSRF token (and cached pages carry none).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    # Login and logout only: staff get their logins from the head judge (no e-mail here).
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    path(
        "desk/", audience("desk", "competition.urls_desk", "judging.urls_desk", "scoring.urls_desk")
    ),
    path("judge/", include("judging.urls_judge")),
    path(
        "control/",
        audience(
            "control",
            "judging.urls_control",
            "scoring.urls_control",
            "championships.urls_control",
        ),
    ),
    path("", include("config.redirects")),  # old addresses that moved
    path("", include("scoring.urls_public")),
]
