"""create_staff USERNAME --role judge|desk|admin [--password PW]: prints `token: KEY` last."""

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from rest_framework.authtoken.models import Token

from competition.roles import ROLES


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


class Command(BaseCommand):
    help = "Create or update a staff user (judge, desk or admin) and print its API token."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--role", required=True, choices=ROLES)
        parser.add_argument("--password", help="Set this password (else keep the current one).")
        parser.add_argument(
            "--random-password", action="store_true", help="Set and print a new random password."
        )

    def handle(self, *args, username, role, password, random_password, **options):
        if not username.strip():
            raise CommandError("The username may not be empty.")
        if random_password:
            password = secrets.token_urlsafe(9)
        user, created, token = staff_upsert(username=username, role=role, password=password)
        self.stdout.write(f"{'created' if created else 'updated'} {user.username} as {role}")
        if random_password:
            self.stdout.write(f"password: {password}")
        self.stdout.write(f"token: {token.key}")
