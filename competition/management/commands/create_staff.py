"""create_staff USERNAME --role judge|desk|admin [--password PW]: prints `token: KEY` last."""

import secrets

from django.core.management.base import BaseCommand, CommandError

from competition.roles import ROLES
from competition.services.staff import staff_upsert


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
