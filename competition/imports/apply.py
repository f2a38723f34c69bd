"""Confirm an import: every team of the file in one transaction, or none."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from competition.imports.plan import Preview, preview
from competition.models import Competition, Team
from competition.services import team_create, team_labels_set


class ImportRefused(Exception):
    def __init__(self, preview: Preview, message: str = ""):
        super().__init__(message)
        self.preview = preview
        self.message = message


@transaction.atomic
def confirm(
    competition: Competition,
    content: bytes,
    filename: str,
    *,
    by,
    mapping: dict[int, str] | None = None,
    skip_problems: bool = False,
) -> list[Team]:
    """Create every team of the file, or none: any problem refuses the whole import, unless
    `skip_problems` (the desk chose to leave out the rows with problems)."""
    plan = preview(competition, content, filename, mapping)
    if skip_problems and plan.good:
        teams = plan.good
    elif not plan.ok:
        raise ImportRefused(plan, _("The file has problems; nothing was imported."))
    else:
        teams = plan.teams
    created = []
    for team in teams:
        try:
            made = team_create(competition=competition, by=by, **team.service_kwargs())
            if team.labels:
                made = team_labels_set(team=made, by=by, labels=team.labels)
            created.append(made)
        except ValidationError as exc:  # e.g. another desk registered the same name meanwhile
            transaction.set_rollback(True)
            message = "; ".join(exc.messages)
            raise ImportRefused(
                plan,
                _("Row %(row)s (%(team)s): %(error)s. Nothing was imported.")
                % {"row": team.line, "team": team.name, "error": message},
            ) from exc
    return created
