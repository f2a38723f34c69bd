"""The big screen's ticker mode shows the speaker's feed (newest first), offered
by the control room's screen control like every other mode."""

import pytest
from django.test import Client

from competition.models import Competition
from competition.services import screen_hold, screen_set
from scoring.selectors import memo_clear
from tests.factories import TeamFactory
from tests.scoring.standings_data import finish, running_competition

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def screen(slug):
    memo_clear()
    answer = Client().get(f"/{slug}/screen/", **HX)
    assert answer.status_code == 200
    return answer.content.decode()


@pytest.fixture
def day():
    c, puzzles = running_competition(slug="dm-ticker")
    teams = [
        TeamFactory(competition=c, name=n, table=i)
        for i, n in enumerate(["Kantsøgerne", "Brikkebanden"], 1)
    ]
    finish(teams[0], puzzles[0], 1800)
    finish(teams[1], puzzles[0], 1700)
    finish(teams[1], puzzles[1], 4323)
    c.bump_standings()
    return c


def test_the_ticker_shows_the_speakers_lines_newest_first(day, admin_user):
    assert "Bord 2 · Brikkebanden er færdig" not in screen(day.slug)  # the standings
    screen_set(competition=day, by=admin_user, mode="ticker")
    html = screen(day.slug)
    assert 'data-mode="ticker"' in html
    lines = html.split('class="feed-item')[1:]
    assert len(lines) == 3
    assert "Bord 2 · Brikkebanden er færdig med puslespil 2 efter 1:12:03 – nu nr. 1" in lines[0]
    assert "Kantsøgerne er færdig med puslespil 1 efter 0:30:00 – nu nr. 2" in lines[1]
    assert "<table" not in html  # the ticker instead of the board


def test_the_ticker_holds_back_what_the_reveal_has_not_shown(day, admin_user):
    Competition.objects.filter(pk=day.pk).update(duration_minutes=60)  # time is up
    day.refresh_from_db()
    screen_hold(competition=day, by=admin_user, hold=True)
    screen_set(competition=day, by=admin_user, mode="ticker")
    html = screen(day.slug)
    assert "Brikkebanden" not in html
    assert "Placeringerne afsløres ved præmieoverrækkelsen." in html


def test_the_control_room_offers_the_ticker(day, admin_user, client):
    client.force_login(admin_user)
    page = client.get(f"/control/{day.slug}/screen/").content.decode()
    assert 'name="mode" value="ticker"' in page
    assert "Speakerens feed som rulletekst" in page
    answer = client.post(f"/control/{day.slug}/screen/mode", {"mode": "ticker"})
    assert answer.status_code in (200, 302, 303)
    assert Competition.objects.get(pk=day.pk).screen_mode == "ticker"
