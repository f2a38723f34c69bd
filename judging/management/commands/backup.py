"""backup: a consistent snapshot of the database into BACKUP_DIR (var/backups/) now."""

from django.core.management.base import BaseCommand, CommandError

from judging import backups


class Command(BaseCommand):
    help = "Take a consistent snapshot of the database into BACKUP_DIR (var/backups/)."

    def handle(self, *args, **options):
        result = backups.snapshot("manual")
        if not result.ok:
            raise CommandError(f"the backup failed: {result.error}")
        self.stdout.write(str(backups.backup_dir() / result.file))
