"""Passwords everyone knows: the demo's, which the README prints.

`make run` makes the demo logins with them; `make hall` refuses to start while any login
still has one (config/hall.py), and with DEBUG off no way of making a login accepts one
(KnownPasswordValidator, in AUTH_PASSWORD_VALIDATORS)."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

# (username, password, role): the demo's logins, as the README prints them.
DEMO_LOGINS = (
    ("judge", "demo-judge", "judge"),
    ("desk", "demo-desk", "desk"),
    ("admin", "demo-admin", "admin"),
)
KNOWN_PASSWORDS = frozenset(password for _user, password, _role in DEMO_LOGINS)


class KnownPasswordValidator:
    """Refuses a password the README prints, except for the demo itself (DEBUG on)."""

    def validate(self, password, user=None):
        if not settings.DEBUG and password.strip().lower() in KNOWN_PASSWORDS:
            raise ValidationError(
                _("This password is printed in the README for the demo: choose another."),
                code="password_known",
            )

    def get_help_text(self):
        return _("Your password cannot be one of the demo's.")


def known_password_logins() -> list[str]:
    """The active logins whose password is one everybody knows (the demo's logins and every
    head judge are tried: a password check is slow on purpose)."""
    demo_names = [username for username, _password, _role in DEMO_LOGINS]
    candidates = (
        get_user_model()
        .objects.filter(is_active=True)
        .filter(Q(username__in=demo_names) | Q(is_superuser=True) | Q(groups__name="admin"))
    )
    found = []
    for user in candidates.distinct().order_by("username"):
        if user.has_usable_password() and any(user.check_password(p) for p in KNOWN_PASSWORDS):
            found.append(user.username)
    return found
