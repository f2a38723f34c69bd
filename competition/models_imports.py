"""The import's records: a sign-up sheet between its preview and the desk's confirm, and how the
desk chose to read a sheet's column (imported at the end of competition/models.py, so they are the
app's models as before)."""

import uuid
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from competition.disciplines import Discipline


class ImportPreview(models.Model):
    """An uploaded sign-up file between its preview and the desk's confirm.

    In the database, so any app process can confirm it, but not in the session: it holds
    personal data (members, adults, contacts). Removed on confirm, on cancel, once EXPIRY has
    passed (lazily, by the next import) and by erase_personal_data.
    """

    EXPIRY = timedelta(hours=1)

    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    competition = models.ForeignKey(
        "competition.Competition", on_delete=models.CASCADE, related_name="+"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    filename = models.CharField(max_length=200)
    content = models.BinaryField()

    def __str__(self) -> str:
        return self.filename


class ImportColumnChoice(models.Model):
    """How the desk chose to read a sign-up sheet's column (by its name, casefolded), where
    that differs from what the header's words say: kept for every competition of the
    championship of the same discipline, so the second heat's sheet is read as the first's
    was. Only the sheet's column names: no personal data."""

    championship = models.ForeignKey(
        "competition.Championship", on_delete=models.CASCADE, related_name="+"
    )
    discipline = models.CharField(max_length=20, choices=Discipline.choices)
    header = models.CharField(max_length=200)
    key = models.CharField(max_length=40, blank=True)  # "name:0", "member:2"; "": ignored
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["championship", "discipline", "header"], name="import_column_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.header}: {self.key}"
