"""Staff users: a judge, a desk volunteer or the head judge (admin), each with one role.

Every way of making a login (create_staff, `make hall`'s first start, the control room's
judges page) comes here, and every password is checked by Django's validators
(AUTH_PASSWORD_VALIDATORS). API tokens are django-rest-knox's: only a hash is stored, so
the key is shown once, when it is made, and a stolen database or backup holds no key.
"""

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils import timezone
from knox.models import AuthToken

from competition.roles import ROLES

__all__ = ["password_generate", "staff_revoke", "staff_token_issue", "staff_upsert"]

# Letters and digits that cannot be mistaken for one another on a printed slip.
_SLIP_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def password_generate() -> str:
    """A strong password a judge can type from a slip: 'hkx7-9mqa-3tpe' (about 71 bits)."""
    groups = ("".join(secrets.choice(_SLIP_ALPHABET) for _ in range(4)) for _ in range(3))
    return "-".join(groups)


def staff_upsert(
    *, username: str, role: str, password: str | None = None, issue_token: bool = False
):
    """Create or update a staff user with exactly one role; returns (user, created, key):
    `key` is a new API token's key (shown once) when `issue_token`, else None.

    A password Django's validators refuse raises ValidationError and writes nothing."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    User = get_user_model()
    with transaction.atomic():
        user, created = User.objects.get_or_create(username=username)
        if password:
            validate_password(password, user)  # rolls the new user back when refused
            user.set_password(password)
        elif created:
            user.set_unusable_password()
        user.is_staff = role == "admin"  # the Django admin is for the head judge
        user.save()
        user.groups.remove(*Group.objects.filter(name__in=ROLES).exclude(name=role))
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        key = staff_token_issue(user=user) if issue_token else None
    return user, created, key


def staff_token_issue(*, user) -> str:
    """A new API token for `user` (`Authorization: Token KEY`); only its hash is kept."""
    _instance, key = AuthToken.objects.create(user=user, expiry=None)
    return key


def _sessions_of(user) -> list[str]:
    """The keys of the sessions `user` is logged in with (Django keeps no index of them)."""
    keys = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            keys.append(session.session_key)
    return keys


@transaction.atomic
def staff_revoke(*, user, new_password: str | None = None) -> dict:
    """A lost tablet: every API token and every logged-in session of `user` stop working,
    and the password is replaced (with `new_password`, validated, or made unusable), so the
    tablet and whoever holds the old slip are logged out for good."""
    if new_password:
        validate_password(new_password, user)
        user.set_password(new_password)
    else:
        user.set_unusable_password()
    user.save(update_fields=["password"])
    tokens, _ = AuthToken.objects.filter(user=user).delete()
    sessions = _sessions_of(user)
    Session.objects.filter(session_key__in=sessions).delete()
    return {"tokens": tokens, "sessions": len(sessions)}
