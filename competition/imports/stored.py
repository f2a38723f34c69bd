"""The uploaded file between preview and confirm: an ImportPreview row of the desk user's."""

import uuid

from django.utils import timezone

from competition.models import Competition, ImportColumnChoice, ImportPreview


def _expired_before():
    return timezone.now() - ImportPreview.EXPIRY


def preview_cleanup() -> None:
    """Remove the files whose time ran out (nobody confirmed or cancelled them)."""
    ImportPreview.objects.filter(created_at__lt=_expired_before()).delete()


def preview_store(competition: Competition, content: bytes, filename: str, *, by) -> str:
    """Keep an uploaded file for its confirm by the same desk user; its token."""
    stored = ImportPreview.objects.create(
        competition=competition,
        user=by,
        filename=filename.replace("\x00", "")[-200:],
        content=content,
    )
    return str(stored.token)


def preview_find(competition: Competition, token, *, by) -> ImportPreview | None:
    """The file `by` uploaded under `token`; None once it expired (or for anyone else)."""
    try:
        token = uuid.UUID(str(token))
    except ValueError:
        return None
    return ImportPreview.objects.filter(
        competition=competition, user=by, token=token, created_at__gte=_expired_before()
    ).first()


def preview_held(competitions, token, *, by) -> ImportPreview | None:
    """The file `by` uploaded under `token` for one of `competitions` (a championship's)."""
    for competition in competitions:
        found = preview_find(competition, token, by=by)
        if found is not None:
            return found
    return None


def columns_remember(competition: Competition, columns: list[dict]) -> None:
    """Keep the desk's column choices that differ from what the header words say, by the
    column's name, for the competition's championship and discipline: a corrected sheet, or
    the next heat's with the same headers, is read the same way. A reading preference, not
    the competition's data: no audit entry (as when it was kept in the session)."""
    of = {"championship_id": competition.championship_id, "discipline": competition.discipline}
    for column in columns[:200]:
        header = column["header"].casefold()[:200]
        if not header:
            continue
        if column["key"] == column["auto"]:
            ImportColumnChoice.objects.filter(header=header, **of).delete()
        else:
            ImportColumnChoice.objects.update_or_create(
                header=header, **of, defaults={"key": column["key"][:40]}
            )


def columns_recall(competition: Competition) -> dict[str, str]:
    return dict(
        ImportColumnChoice.objects.filter(
            championship_id=competition.championship_id, discipline=competition.discipline
        ).values_list("header", "key")
    )


def preview_discard(stored: ImportPreview) -> None:
    ImportPreview.objects.filter(pk=stored.pk).delete()
