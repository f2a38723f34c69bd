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
from django.utils.translation import gettext as _
from knox.models import AuthToken

from competition.audit import audit_record
from competition.audit_actions import STAFF_CREATE, STAFF_PASSWORD, STAFF_REVOKE
from competition.roles import JUDGE, ROLES

__all__ = [
    "judge_login_create",
    "judge_password_new",
    "password_generate",
    "staff_revoke",
    "staff_token_issue",
    "staff_upsert",
]

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


def _log_out_everywhere(user) -> dict:
    tokens, _ = AuthToken.objects.filter(user=user).delete()
    sessions = _sessions_of(user)
    Session.objects.filter(session_key__in=sessions).delete()
    return {"tokens": tokens, "sessions": len(sessions)}


def _audit(*, competition, championship, by, action, after: dict) -> None:
    """A staff write audited in `competition`, or in every competition of `championship`
    (the judges page of a championship: its judges judge them all), or nowhere (the command
    line)."""
    competitions = [competition] if competition is not None else []
    if championship is not None:
        competitions = list(championship.competitions.order_by("starts_at", "id"))
    for where in competitions:
        audit_record(competition=where, user=by, action=action, after=after)


def _password_changed(user, *, competition, by, action, championship=None) -> dict:
    """The new password (or none) saved: every token and session of `user` ends, audited in
    `competition` (or `championship`'s) when there is one."""
    user.save(update_fields=["password"])
    done = _log_out_everywhere(user)
    after = {"username": user.get_username(), **done}
    _audit(competition=competition, championship=championship, by=by, action=action, after=after)
    return done


@transaction.atomic
def staff_revoke(*, user, competition=None, by=None, championship=None) -> dict:
    """A lost tablet: every API token and every logged-in session of `user` stop working,
    and the password can no longer log in, so neither the tablet nor whoever holds the
    slip gets in again (the head judge makes a new password for a new slip)."""
    user.set_unusable_password()
    return _password_changed(
        user, competition=competition, championship=championship, by=by, action=STAFF_REVOKE
    )


@transaction.atomic
def judge_login_create(
    *, competition=None, username: str, by, password: str = "", championship=None
) -> tuple:
    """A judge's login from the control room: (user, password); a given password is
    validated (ValidationError), else a strong one is made. The password is returned once,
    for the slip; only its hash is kept."""
    from django.core.exceptions import ValidationError

    username = username.strip()
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError(
            _("There is already a login called “%(name)s”.") % {"name": username},
            code="username_taken",
        )
    password = password or password_generate()
    user, _created, _key = staff_upsert(username=username, role=JUDGE, password=password)
    after = {"username": username}
    _audit(
        competition=competition, championship=championship, by=by, action=STAFF_CREATE, after=after
    )
    return user, password


@transaction.atomic
def judge_password_new(*, competition=None, user, by, championship=None) -> str:
    """A new strong password for a judge's login, for a new slip: the old one (and every
    tablet logged in with it) stops working."""
    password = password_generate()
    validate_password(password, user)
    user.set_password(password)
    _password_changed(
        user, competition=competition, championship=championship, by=by, action=STAFF_PASSWORD
    )
    return password
