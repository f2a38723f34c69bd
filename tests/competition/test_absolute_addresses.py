"""Every QR code and shared link is on the address phones open
(PUBLIC_URL; `make hall` sets it to the hall's address), from one place
(`competition.qr.absolute_url`); a print page warns when its address is a loopback one."""

import pytest
import segno
from django.urls import reverse

from competition.models import Member
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db
SLUG = "dm-2026"
HALL = "http://192.168.1.20:8000"
WARNING = "QR-koderne peger på den bærbares egen adresse"


@pytest.fixture
def team(competition):
    team = TeamFactory(competition=competition, name="Kantsøgerne", table=7)
    Member.objects.create(team=team, name="Anne Jensen")
    return team


def test_table_cards_printed_on_the_laptop_point_at_the_halls_address(client, desk, team, settings):
    settings.PUBLIC_URL = HALL
    client.force_login(desk)
    html = client.get(reverse("desk:cards", args=[SLUG]), HTTP_HOST="127.0.0.1:8731").content
    html = html.decode()
    url = f"{HALL}/{SLUG}/teams/{team.pk}/"
    assert url in html
    assert segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True) in html
    assert "127.0.0.1" not in html
    assert WARNING not in html


@pytest.mark.parametrize("host", ["127.0.0.1:8731", "localhost:8000", "[::1]:8000"])
def test_table_cards_warn_when_their_address_is_the_laptops_own(client, desk, team, settings, host):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    client.force_login(desk)
    html = client.get(reverse("desk:cards", args=[SLUG]), HTTP_HOST=host).content.decode()
    assert WARNING in html


def test_table_cards_on_a_real_address_do_not_warn(client, desk, team, settings):
    settings.PUBLIC_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    client.force_login(desk)
    html = client.get(reverse("desk:cards", args=[SLUG]), HTTP_HOST="dm.example.dk").content
    assert f"http://dm.example.dk/{SLUG}/teams/{team.pk}/" in html.decode()
    assert WARNING not in html.decode()


def test_the_team_pages_share_link_is_on_the_halls_address(client, team, settings):
    settings.PUBLIC_URL = HALL
    url = reverse("public:team", args=[SLUG, team.pk])
    response = client.get(url, HTTP_HOST="127.0.0.1:8731")
    assert response.context["share_url"] == HALL + url
    html = response.content.decode()
    assert f'value="{HALL}{url}"' in html
    assert segno.make(HALL + url, error="m").svg_inline(scale=4, border=2, omitsize=True) in html
