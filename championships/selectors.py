"""Reads of championships: each with its competitions, in a number of queries that does not
grow with the number of championships or competitions."""

from django.db.models import Prefetch, QuerySet
from django.shortcuts import get_object_or_404

from competition.models import Championship, Competition

__all__ = ["championship_get", "championship_list"]

# What a championship's answer shows of each competition, and what its status reads.
COMPETITION_FIELDS = (
    "id",
    "championship_id",
    "slug",
    "name",
    "discipline",
    "round",
    "starts_at",
    "duration_minutes",
    "started_at",
    "stopped_at",
    "finalised_at",
)


def _with_competitions() -> QuerySet[Championship]:
    competitions = Competition.objects.only(*COMPETITION_FIELDS).order_by("starts_at", "id")
    return Championship.objects.prefetch_related(Prefetch("competitions", queryset=competitions))


def championship_list() -> QuerySet[Championship]:
    """Every championship with its competitions (two queries)."""
    return _with_competitions()


def championship_get(*, slug: str) -> Championship:
    """The championship of the URL with its competitions (404 if none; two queries)."""
    return get_object_or_404(_with_competitions(), slug=slug)
