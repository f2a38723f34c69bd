"""restore FILE: bring back a snapshot from `backup` (or one taken while the day ran)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from judging import backups


class Command(BaseCommand):
    help = (
        "Replace the database with a snapshot from var/backups/. The database as it is now "
        "is saved first (a pre_restore snapshot). Stop `make hall` first, start it after."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="A snapshot: var/backups/<time>-<reason>.sqlite3|.pgdump")
        parser.add_argument(
            "--noinput", "--no-input", action="store_false", dest="interactive", default=True
        )

    def handle(self, *args, file, interactive, **options):
        path = Path(file)
        if not path.is_file() and (backups.backup_dir() / file).is_file():
            path = backups.backup_dir() / file
        if interactive:
            answer = input(f"Replace the whole database with {path.name}? Type 'yes': ")
            if answer.strip().lower() != "yes":
                raise CommandError("Nothing was restored.")
        try:
            before = backups.restore(path)
        except backups.BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"restored {path.name}; the database as it was: {before.file}")
