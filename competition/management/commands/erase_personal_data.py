"""erase_personal_data SLUG --yes: delete members, guardians and contacts; keep the results."""

from django.core.management.base import BaseCommand, CommandError

from competition.errors import Refusal
from competition.models import Competition
from competition.services.privacy import competition_erase_personal_data


class Command(BaseCommand):
    help = "Erase the personal data of a past (final) competition and keep its results."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--yes", action="store_true", help="Really erase (no prompt).")

    def handle(self, *args, slug, yes, **options):
        try:
            competition = Competition.objects.get(slug=slug)
        except Competition.DoesNotExist as exc:
            raise CommandError(f"No competition with the short name {slug!r}.") from exc
        if not yes:
            raise CommandError(
                f"This erases all members, accompanying adults and contacts of "
                f"“{competition.name}” for good. Run again with --yes to do it."
            )
        try:
            erased = competition_erase_personal_data(competition=competition, by=None)
        except Refusal as refusal:
            raise CommandError(str(refusal.message)) from refusal
        self.stdout.write(
            f"Erased {erased['members']} members and the contacts of {erased['teams']} teams "
            f"of “{competition.name}”; the results are kept."
        )
