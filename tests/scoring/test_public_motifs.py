"""docs/day.md: the motifs may stay off the public pages until the clock starts."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Competition
from competition.services import competition_update
from scoring.selectors import memo_clear
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db

MOTIF = "Tivoli i sne"


@pytest.fixture
def secret(competition, admin_user):
    competition.puzzles.filter(position=1).update(title=MOTIF, brand="Clementoni")
    TeamFactory(competition=competition, table=1)
    return competition_update(competition=competition, by=admin_user, hide_motifs=True)


def public_texts(client, competition) -> str:
    memo_clear()
    pages = [
        f"/{competition.slug}/",
        f"/{competition.slug}/screen/",
        f"/{competition.slug}/results.csv",
    ]
    texts = [client.get(p).content.decode("utf-8-sig") for p in pages]
    texts.append(client.get(f"/api/v1/competitions/{competition.slug}/").content.decode())
    texts.append(client.get(f"/api/v1/competitions/{competition.slug}/standings").content.decode())
    return "\n".join(texts)


def test_hidden_before_the_start_everywhere_public(client, secret):
    text = public_texts(client, secret)
    assert MOTIF not in text
    assert "Clementoni" not in text


def test_staff_still_see_the_motifs_before_the_start(client, secret, desk):
    client.force_login(desk)
    body = client.get(f"/api/v1/competitions/{secret.slug}/").json()
    assert body["puzzles"][0]["title"] == MOTIF


def test_shown_once_the_clock_has_started(client, secret):
    Competition.objects.filter(pk=secret.pk).update(
        started_at=timezone.now() - timedelta(minutes=1)
    )
    secret.bump_standings()
    assert MOTIF in public_texts(client, secret)


def test_shown_before_the_start_when_the_organiser_does_not_hide_them(client, competition):
    competition.puzzles.filter(position=1).update(title=MOTIF)
    competition.bump_standings()
    assert MOTIF in public_texts(client, competition)
