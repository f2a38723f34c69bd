"""`/control/<championship-slug>/`: a championship's control room (docs/contracts.md "A
championship of several competitions"). Its competitions with their discipline, round,
status and live clock (the one clock's JSON, `Clock.page()`), each linking to its control
room, desk and big screen, and the championship's own big screen and desk. Admin only;
queries do not grow with the competitions or entrants. A competition's own control room
answers as before."""

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import Championship, Competition
from competition.services import championship_create, competition_create
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def dm(db):
    """A heat running for 20 minutes (3 entrants, 2 checked in, 1 withdrawn), a pairs final
    stopped, the final not started."""
    dm = championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027")
    now = timezone.now()

    def make(slug, name, discipline, round_, **state):
        competition = competition_create(
            by=None,
            slug=slug,
            name=name,
            discipline=discipline,
            round=round_,
            championship=dm,
            starts_at=now - timedelta(minutes=30),
        )
        Competition.objects.filter(pk=competition.pk).update(**state)
        return Competition.objects.get(pk=competition.pk)

    heat = make(
        "heat-a",
        "DM Individuel",
        "individual",
        "Indledende runde A",
        started_at=now - timedelta(minutes=20),
        duration_minutes=60,
    )
    pairs = make(
        "par",
        "DM Par",
        "pair",
        "Finale",
        started_at=now - timedelta(minutes=50),
        stopped_at=now - timedelta(minutes=5),
    )
    final = make("finale", "DM Finale", "individual", "Finale")
    Competition.objects.filter(pk=final.pk).update(starts_at=now + timedelta(days=1))
    TeamFactory(competition=heat, table=1, checked_in_at=now)
    TeamFactory(competition=heat, table=2, checked_in_at=now)
    TeamFactory(competition=heat, table=3)
    TeamFactory(competition=heat, table=4, withdrawn=True, checked_in_at=now)
    return dm, heat, pairs, Competition.objects.get(pk=final.pk)


def card(html, slug):
    start = html.index(f'data-competition="{slug}"')
    end = html.find("data-competition=", start + 1)
    return html[start : end if end > 0 else len(html)]


def test_the_competitions_with_discipline_round_status_clock_and_links(client, admin_user, dm):
    championship, heat, pairs, final = dm
    client.force_login(admin_user)
    response = client.get(reverse("control:room", args=[championship.slug]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "judging/control_championship.html" in [t.name for t in response.templates]
    assert "DM i puslespil 2027" in html and "1 konkurrence er i gang." in html
    order = [html.index(f'data-competition="{c.slug}"') for c in (heat, pairs, final)]
    assert order == sorted(order)
    running = card(html, heat.slug)
    assert "Individuel" in running and "Indledende runde A" in running
    assert "Uret kører" in running and 'data-status="running"' in running
    # The one clock: the JSON every page's script reads, and its numbers as the server sees them.
    clock = json.loads(running.split('data-clock="', 1)[1].split('"', 1)[0].replace("&quot;", '"'))
    assert clock == heat.clock().page()
    assert "0:20:0" in running and "0:39:" in running  # elapsed, remaining
    assert "2 af 3 deltagere i konkurrencen er tjekket ind" in running
    for name in ("control:room", "desk:teams", "public:screen"):
        assert f'href="{reverse(name, args=[heat.slug])}"' in running, name
    assert "Tiden er gået" in card(html, pairs.slug)
    assert "Ikke startet" in card(html, final.slug) and "Finale" in card(html, final.slug)
    # The championship's own big screen, desk and programme.
    for name in ("public:screen", "desk:teams", "public:programme"):
        assert f'href="{reverse(name, args=[championship.slug])}"' in html, name


def test_the_list_polls_itself_as_a_fragment(client, admin_user, dm):
    championship, heat, *_rest = dm
    client.force_login(admin_user)
    url = reverse("control:room", args=[championship.slug])
    html = client.get(url).content.decode()
    assert f'hx-get="{url}" hx-trigger="every 5s"' in html
    Competition.objects.filter(pk=heat.pk).update(stopped_at=timezone.now())
    fragment = client.get(url, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="championship-live")
    body = fragment.content.decode()
    assert body.lstrip().startswith('<section id="championship-live"') and "<html" not in body
    assert "0 konkurrencer er i gang." in body and "Tiden er gået" in card(body, heat.slug)


def test_admin_only(client, make_user, dm):
    championship, *_rest = dm
    url = reverse("control:room", args=[championship.slug])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    for role in ("judge", "desk", None):
        client.force_login(make_user(role, f"u-{role}"))
        assert client.get(url).status_code == 403, role
    client.force_login(make_user("admin", "chef"))
    assert client.get(url).status_code == 200
    assert client.get(reverse("control:room", args=["findes-ikke"])).status_code == 404
    # The competition's other control pages know no championship.
    assert client.get(reverse("control:audit", args=[championship.slug])).status_code == 404


def test_a_competitions_own_control_room_answers_as_before(client, admin_user, dm):
    _championship, heat, *_rest = dm
    client.force_login(admin_user)
    response = client.get(reverse("control:room", args=[heat.slug]))
    assert response.status_code == 200
    assert "judging/control_room.html" in [t.name for t in response.templates]
    alone = competition_create(
        by=None, slug="alene", name="Alene", starts_at=timezone.now() + timedelta(days=1)
    )
    response = client.get(reverse("control:room", args=[alone.slug]))
    assert "judging/control_room.html" in [t.name for t in response.templates]


@pytest.mark.parametrize(("n_competitions", "n_teams"), [(1, 2), (5, 30)])
def test_queries_do_not_grow_with_competitions_or_entrants(
    client, admin_user, django_assert_max_num_queries, n_competitions, n_teams
):
    dm = Championship.objects.create(slug="mange", name="Mange")
    for i in range(n_competitions):
        competition = competition_create(
            by=None, slug=f"m-{i}", name=f"Runde {i}", championship=dm, starts_at=timezone.now()
        )
        for table in range(1, n_teams + 1):
            TeamFactory(competition=competition, table=table)
    client.force_login(admin_user)
    # Session, user, roles; the competition that has not the slug, the championship that
    # has; its competitions; their entrants counted.
    with django_assert_max_num_queries(7):
        response = client.get(reverse("control:room", args=["mange"]))
    assert response.content.decode().count("data-clock-row") == n_competitions
