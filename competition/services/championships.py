"""Championships (docs/contracts.md "A championship of several competitions"): create one, and
the one namespace of slugs that championships and competitions share (`/<slug>/`)."""

from datetime import date

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from competition.models import Championship, Competition
from competition.slugs import slug_valid

__all__ = [
    "championship_create",
    "ensure_joinable",
    "is_own",
    "own_championship",
    "slug_check",
    "validate_slug",
]

# Paths under /desk/ and /control/ that are not competitions.
_EXTRA_RESERVED = frozenset({"new"})


def validate_slug(slug: str) -> None:
    """Small letters a-z, digits and hyphens, and no path of the app's own."""
    if not slug_valid(slug):
        raise ValidationError(
            {
                "slug": _(
                    "The short name may only hold the small letters a–z, digits and hyphens, "
                    "e.g. dm-2027 (æ, ø and å are written ae, oe and aa)."
                )
            }
        )
    if slug.lower() in _EXTRA_RESERVED:
        raise ValidationError(
            {"slug": _("“%(slug)s” is used by the app itself; choose another short name.")},
            params={"slug": slug},
        )


def slug_check(slug: str, *, competition: Competition | None = None) -> None:
    """Championships and competitions share one namespace of slugs (`/<slug>/`): refuse
    `slug` when a competition other than `competition`, or a championship other than
    `competition`'s own, has it."""
    others = Competition.objects.filter(slug=slug)
    if competition is not None:
        others = others.exclude(pk=competition.pk)
    holder = others.only("name").first()
    if holder is not None:
        raise ValidationError(
            {
                "slug": _("The short name “%(slug)s” is taken by the competition “%(name)s”.")
                % {"slug": slug, "name": holder.name}
            }
        )
    championship = Championship.objects.filter(slug=slug).only("name").first()
    if championship is None:
        return
    if competition is not None and championship.pk == competition.championship_id:
        return
    raise ValidationError(
        {
            "slug": _("The short name “%(slug)s” is taken by the championship “%(name)s”.")
            % {"slug": slug, "name": championship.name}
        }
    )


def is_own(competition: Competition) -> bool:
    """Is `competition`'s championship its own (made with it: its slug)?"""
    return competition.championship.slug == competition.slug


def ensure_joinable(championship: Championship) -> None:
    """A competition's own championship stays its alone (`/<slug>/` is the competition's):
    no other competition is made in it or moved into it (400 on `championship`)."""
    if Competition.objects.filter(championship=championship, slug=championship.slug).exists():
        raise ValidationError(
            {
                "championship": _(
                    "“%(name)s” is the championship of one competition alone; make a "
                    "championship for several competitions and put them in it."
                )
                % {"name": championship.name}
            }
        )


def own_championship(*, slug: str, name: str, venue: str = "") -> Championship:
    """The championship of a competition of its own: its slug, name and venue."""
    championship = Championship(slug=slug, name=name, venue=venue)
    championship.full_clean()
    championship.save()
    return championship


@transaction.atomic
def championship_create(
    *,
    by,
    slug: str,
    name: str,
    venue: str = "",
    starts_on: date | None = None,
    ends_on: date | None = None,
) -> Championship:
    """A championship with no competitions yet (`competition_create(championship=...)` adds
    them); refused when a championship or competition has its slug. The audit log is a
    competition's, so the making of a championship is not in it (its competitions are)."""
    validate_slug(slug)
    slug_check(slug)
    championship = Championship(
        slug=slug, name=name, venue=venue, starts_on=starts_on, ends_on=ends_on
    )
    championship.full_clean()
    championship.save()
    return championship
