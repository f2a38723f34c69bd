"""factory-boy factories for the models; tests build data with these."""

from datetime import timedelta

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from competition.models import Competition, Member, Puzzle, Team


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")


class CompetitionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Competition

    slug = factory.Sequence(lambda n: f"dm-{n}")
    name = factory.Sequence(lambda n: f"DM i puslespil {n}")
    venue = "Hallen"
    starts_at = factory.LazyFunction(lambda: timezone.now() + timedelta(days=1))
    duration_minutes = 180
    # The model's default is on (docs/contracts.md); the tests written before the second count run
    # with it off ("everything works as today"); tests/judging/test_second_count.py turns it on.
    second_count = False


class PuzzleFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Puzzle

    competition = factory.SubFactory(CompetitionFactory)
    position = factory.Sequence(lambda n: n + 1)
    title = factory.Sequence(lambda n: f"Motiv {n}")
    pieces = 1000


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    competition = factory.SubFactory(CompetitionFactory)
    name = factory.Sequence(lambda n: f"Hold {n}")
    table = factory.Sequence(lambda n: n + 1)


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Member

    team = factory.SubFactory(TeamFactory)
    name = factory.Sequence(lambda n: f"Pusler {n}")


# The staff fixtures' password: one Django's validators accept (every login is validated).
STAFF_PASSWORD = "kaffe-og-kanter-26"
