"""A competition's ranking profile (issue 34): how its standings rank, as the pure rules'
`standings(puzzles, sheets, profile=...)` takes it (puzzle_rules `PROFILES`)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Ranking"]


class Ranking(models.TextChoices):
    """The Danish rules (R8, R11: most pieces) or the World Championship's (a finisher by its
    time plus 10 s per lone missing piece, before every non-finisher)."""

    DM = "dm", _("Danish rules (DM)")
    WJPC = "wjpc", _("World Championship rules (WJPC)")
