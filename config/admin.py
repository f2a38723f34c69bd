"""The Django admin: the head judge looks things up here, and changes nothing.

Competition data is written only by the services (rules, one transaction, an audit entry,
the standings version bumped: docs/architecture.md), so every competition and judging
model is registered read-only (competition/admin.py `ReadOnlyAdmin`), for superusers too, and
without actions. The `admin` role
(the head judge's login from `create_staff`) may log in and view; Django's staff flag is
not needed. Users, groups and tokens stay with the superuser as Django makes them.
"""

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.core.exceptions import ValidationError

from competition.roles import ADMIN, has_role


class LoginForm(AdminAuthenticationForm):
    def confirm_login_allowed(self, user):
        if not user.is_active or not has_role(user, ADMIN):
            raise ValidationError(
                self.error_messages["invalid_login"],
                code="invalid_login",
                params={"username": self.username_field.verbose_name},
            )


class Site(admin.AdminSite):
    login_form = LoginForm

    def has_permission(self, request):
        return request.user.is_active and has_role(request.user, ADMIN)
