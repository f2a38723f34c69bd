"""Who sits at a table (its own small module, as the ranking's choices are, so the import's
records in models_imports.py can name it without importing competition.models back)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

__all__ = ["Discipline"]


class Discipline(models.TextChoices):
    """Who sits at a table: one puzzler, a pair or a team (R17's limit: 1, 2, 4 by default)."""

    INDIVIDUAL = "individual", _("Individuals")
    PAIR = "pair", _("Pairs")
    TEAM = "team", _("Teams")
