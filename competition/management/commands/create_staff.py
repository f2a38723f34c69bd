"""create_staff USERNAME --role judge|desk|admin [--password PW]: prints `token: KEY` last.

On a hall laptop (`make hall`): `python -m config.hall manage create_staff …`, which runs it
with the hall's settings (its secret key and database)."""

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from competition.roles import ROLES
from competition.services.staff import password_generate, staff_upsert


class Command(BaseCommand):
    help = (
        "Create or update a staff user (judge, desk or admin) and print a new API token "
        "(shown once: only its hash is stored)."
    )

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
            password = password_generate()
        try:
            user, created, key = staff_upsert(
                username=username, role=role, password=password, issue_token=True
            )
        except ValidationError as exc:
            raise CommandError("The password is refused: " + " ".join(exc.messages)) from exc
        self.stdout.write(f"{'created' if created else 'updated'} {user.username} as {role}")
        if random_password:
            self.stdout.write(f"password: {password}")
        self.stdout.write(f"token: {key}")
