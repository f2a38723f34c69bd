"""The uploaded file between preview and confirm: an ImportPreview row of the desk user's."""

import uuid

from django.utils import timezone

from competition.models import Competition, ImportPreview


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


_COLUMNS = "import_columns"


def columns_remember(session, competition: Competition, columns: list[dict]) -> None:
    """Keep the desk's column choices that differ from what the header words say, by the
    column's name, per competition, in the session: a corrected sheet uploaded again is read
    the same way. Only the spreadsheet's column names: no personal data."""
    chosen = dict(session.get(_COLUMNS, {}).get(str(competition.pk), {}))
    for column in columns:
        header = column["header"].casefold()
        if not header:
            continue
        if column["key"] == column["auto"]:
            chosen.pop(header, None)
        else:
            chosen[header] = column["key"]
    every = dict(session.get(_COLUMNS, {}))
    every[str(competition.pk)] = dict(list(chosen.items())[-100:])
    session[_COLUMNS] = every


def columns_recall(session, competition: Competition) -> dict[str, str]:
    return dict(session.get(_COLUMNS, {}).get(str(competition.pk), {}))


def preview_discard(stored: ImportPreview) -> None:
    ImportPreview.objects.filter(pk=stored.pk).delete()
