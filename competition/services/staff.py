"""Staff users: a judge, a desk volunteer or the head judge (admin), each with one role."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from rest_framework.authtoken.models import Token

from competition.roles import ROLES

__all__ = ["staff_upsert"]


def staff_upsert(*, username: str, role: str, password: str | None = None):
    """Create or update a staff user with exactly one role; returns (user, created, token)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}")
    User = get_user_model()
    with transaction.atomic():
        user, created = User.objects.get_or_create(username=username)
        if password:
            user.set_password(password)
        elif created:
            user.set_unusable_password()
        user.is_staff = role == "admin"  # the Django admin is for the head judge
        user.save()
        user.groups.remove(*Group.objects.filter(name__in=ROLES).exclude(name=role))
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        token, _ = Token.objects.get_or_create(user=user)
    return user, created, token
