"""URLs by audience: public, desk, judge, control room, API (STYLE.md)."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    # Login and logout only: staff get their logins from the head judge (no e-mail here).
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/", include("config.api_urls")),
    path("desk/", include("competition.urls_desk")),
    path("judge/", include("judging.urls_judge")),
    path("control/", include("judging.urls_control")),
    path("objections/", include("judging.urls_objections")),
    path("", include("scoring.urls_public")),
]
