"""`/<slug>/screen/` of a championship: its big screen, the stage (docs/contracts.md "A
championship of several competitions"). It shows one running competition at a time as that
competition's own big screen shows it, under a bar naming the championship, the discipline,
the round and which of the running ones it is; it rotates on the page's one timer by asking
for the next (`?show=`); with none running it shows the programme and what comes next. A
competition's own slug still answers its own screen. Queries per read do not grow with the
competitions or their entrants; no personal data; the public, blind standings for everyone."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Competition, Team
from competition.services import championship_create, competition_create
from judging.models import Count
from judging.services import finish_register
from tests.championships.test_programme_page import championship_of, running

pytestmark = pytest.mark.django_db


@pytest.fixture
def stage(dm, heats, final):
    """DM 2027: two final heats (their counts confirmed: second count off), the final not
    started, a pairs and a team competition running (the pairs planned first)."""
    Competition.objects.filter(pk__in=[h.pk for h in heats]).update(second_count=False)
    pairs = running(
        dm,
        "par",
        "DM Par",
        "pair",
        [("Brik & Bræt", 900), ("Kant og Hjørne", None)],
        round_="Finale",
    )
    Competition.objects.filter(pk=pairs.pk).update(starts_at=pairs.starts_at - timedelta(minutes=1))
    teams = running(dm, "hold", "DM Hold", "team", [("Puslerne", 1100), ("Hjørnerne", 1000)])
    return dm, heats, final, pairs, teams


def get(client, slug, show=None, **headers):
    query = {"show": show} if show is not None else {}
    response = client.get(f"/{slug}/screen/", query, **headers)
    return response, response.content.decode()


def poll(client, slug, show=None, **headers):
    return get(client, slug, show, HTTP_HX_REQUEST="true", **headers)


def bar(html):
    start = html.index('class="stage-bar"')
    return html[start : html.index("</header>", start)]


def test_the_stage_shows_the_first_running_competition_as_its_own_screen_shows_it(client, stage):
    dm, _heats, _final, pairs, teams = stage
    response, html = get(client, dm.slug)
    assert response.status_code == 200
    assert "scoring/stage.html" in [t.name for t in response.templates]
    assert 'data-showing="par"' in html and 'data-next="hold"' in html
    # The bar: the championship, the pairs' discipline and round, one of two running.
    head = bar(html)
    assert "DM i puslespil 2027" in head and "Par" in head and "Finale" in head
    assert "1 af 2 i gang" in head
    # The competition's own big screen below it: its name, its board, its QR code, its clock
    # (the one clock's JSON) and no poll of its own (the stage polls).
    screen = html[html.index('id="screen-live"') :]
    assert "DM Par" in screen and "Brik &amp; Bræt" in screen and "screen-board" in screen
    assert f'src="/{pairs.slug}/qr.svg"' in screen
    assert 'data-clock="{&quot;status&quot;:&quot;running&quot;' in screen
    assert "hx-trigger" not in html and "hx-get" not in html
    assert "Puslerne" not in html  # the other competition waits for its turn


def test_a_poll_asks_for_the_next_and_gets_it_then_back_to_the_first(client, stage):
    dm, _heats, final, pairs, teams = stage
    response, html = poll(client, dm.slug, show="hold")
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="stage-live"') and "<html" not in html
    assert 'data-showing="hold"' in html and 'data-next="par"' in html
    assert "2 af 2 i gang" in bar(html) and "Hold" in bar(html)
    assert "Hjørnerne" in html and "Brik &amp; Bræt" not in html
    # One not running (the final, the heats), of another championship (running there) or of
    # nothing: the first that runs here.
    elsewhere = championship_create(by=None, slug="andet-dm", name="Et andet DM")
    running(elsewhere, "fremmed", "Fremmed", "team", [("Udefra", 700)])
    for asked in (final.slug, "heat-a", "fremmed", "findes-ikke", "", "<script>", "x" * 5000):
        _response, html = poll(client, dm.slug, show=asked)
        assert 'data-showing="par"' in html and "Udefra" not in html, asked[:20]


def test_one_running_competition_has_no_next_and_no_count(client, stage):
    dm, _heats, _final, pairs, _teams = stage
    Competition.objects.filter(slug="hold").update(stopped_at=timezone.now())
    _response, html = get(client, dm.slug)
    assert 'data-showing="par"' in html and 'data-next=""' in html
    assert "i gang" not in bar(html) and "Finale" in bar(html)


def test_with_none_running_the_stage_shows_the_programme_and_what_comes_next(client, stage):
    dm, (a, _b), final, pairs, teams = stage
    Competition.objects.filter(pk__in=[pairs.pk, teams.pk]).update(stopped_at=timezone.now())
    response, html = get(client, dm.slug)
    assert response.status_code == 200
    assert 'data-showing=""' in html and "data-stage-programme" in html
    assert "screen-board" not in html and "stage-bar" not in html
    # What comes next: the final, with a countdown to its planned start.
    assert f'data-next-up="{final.slug}"' in html
    start_ms = int(final.starts_at.timestamp()) * 1000
    assert f'data-countdown data-start-ms="{start_ms}"' in html
    # Every competition with its status, and the heats' leaders (R11: Anna and Bo share 1).
    for c in (a, pairs, teams, final):
        assert f'data-competition="{c.slug}"' in html
    heat = html[html.index(f'data-competition="{a.slug}"') :]
    assert heat.index("Anna") < heat.index("Bo") < heat.index("Cille")
    assert "Endelige resultater" in heat
    # A QR code and the address of the programme, for a phone.
    assert f'src="/{dm.slug}/qr.svg"' in html and f"{dm.slug}/</span>" in html
    assert client.get(f"/{dm.slug}/qr.svg").status_code == 200


def test_a_competitions_own_slug_still_answers_its_own_screen(client, stage):
    _dm, _heats, _final, pairs, _teams = stage
    response, html = get(client, pairs.slug)
    assert response.status_code == 200
    assert "scoring/screen.html" in [t.name for t in response.templates]
    assert "stage-live" not in html and f'hx-get="/{pairs.slug}/screen/"' in html
    alone = competition_create(
        by=None, slug="alene", name="Alene", starts_at=timezone.now() + timedelta(days=1)
    )
    assert alone.championship.slug == "alene"
    response, html = get(client, "alene")
    assert response.status_code == 200 and "stage-live" not in html
    assert client.get("/findes-ikke/screen/").status_code == 404
    assert client.get("/findes-ikke/qr.svg").status_code == 404


def test_the_rotation_interval_is_the_setting_and_the_poll_the_screens(client, stage, settings):
    dm, *_rest = stage
    _response, html = get(client, dm.slug)
    assert 'data-rotate-ms="15000"' in html and 'data-poll-ms="1000"' in html
    settings.STAGE_ROTATE_SECONDS = 2
    _response, html = get(client, dm.slug)
    assert 'data-rotate-ms="2000"' in html


def test_a_poll_with_the_etag_shown_is_answered_304_until_something_changes(
    client, stage, admin_user
):
    dm, _heats, _final, pairs, _teams = stage
    first, _html = poll(client, dm.slug, show="par")
    etag = first["ETag"]
    assert etag and first["Cache-Control"] == "no-cache"
    same, _html = poll(client, dm.slug, show="par", HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 304
    # Another competition shown: another ETag.
    other, _html = poll(client, dm.slug, show="hold", HTTP_IF_NONE_MATCH=etag)
    assert other.status_code == 200 and other["ETag"] != etag
    # A finish in the pairs: the stage's bytes change (its version is in the ETag).
    team = Team.objects.get(competition=pairs, name="Kant og Hjørne")
    finish_register(team=team, position=1, by=admin_user, elapsed_seconds=1000)
    changed, html = poll(client, dm.slug, show="par", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert html.index("Brik &amp; Bræt") < html.index("Kant og Hjørne")
    # A competition that is not on show changes too (the programme's order, its status).
    later, _html = poll(client, dm.slug, show="par", HTTP_IF_NONE_MATCH=changed["ETag"])
    assert later.status_code == 304
    Competition.objects.filter(slug="hold").update(stopped_at=timezone.now())
    stopped, html = poll(client, dm.slug, show="par", HTTP_IF_NONE_MATCH=changed["ETag"])
    assert stopped.status_code == 200 and "i gang" not in bar(html)


def test_no_personal_data_on_the_stage_in_either_mode(client, stage, admin_user):
    dm, (a, _b), _final, pairs, teams = stage
    Team.objects.filter(competition__championship=dm).update(notes="Nøddeallergi")
    Team.objects.filter(competition=teams).update(labels=["hemmeligmaerke"])
    private = ("Hansen", "@heat-a.dk", "Skjultsen", "Privatsen", "9911", "hemmeligmaerke")
    for show in ("par", "hold"):
        _response, html = poll(client, dm.slug, show=show)
        assert 'data-showing="' + show in html
        for value in (*private, "Nøddeallergi"):
            assert value not in html, (show, value)
    Competition.objects.filter(pk__in=[pairs.pk, teams.pk]).update(stopped_at=timezone.now())
    _response, html = get(client, dm.slug)
    assert "data-stage-programme" in html and "Anna" in html
    for value in (*private, "Nøddeallergi"):
        assert value not in html, value


def test_everyone_sees_the_public_blind_standings_an_unconfirmed_count_waits(
    client, stage, admin_user
):
    """The second count (docs/contracts.md): a count waiting for its second, blind count is
    not shown on the café's screen, to the head judge's browser either."""
    dm, _heats, _final, pairs, _teams = stage
    Competition.objects.filter(pk=pairs.pk).update(second_count=True)
    team = Team.objects.get(competition=pairs, name="Kant og Hjørne")
    Count.objects.create(team=team, puzzle=pairs.puzzles.get(), pieces=777)
    Competition.objects.get(pk=pairs.pk).bump_standings()
    client.force_login(admin_user)
    for response, html in (get(client, dm.slug), poll(client, dm.slug, show="par")):
        assert response.status_code == 200
        assert "data-counting" in html and ">777<" not in html


@pytest.mark.parametrize(("n_competitions", "n_teams"), [(1, 3), (4, 40)])
def test_queries_per_read_do_not_grow_with_competitions_or_entrants(
    client, django_assert_max_num_queries, n_competitions, n_teams
):
    """One query for the competition that has not the slug, two for the championship and its
    competitions; the standings of the one on show are cached per version."""
    dm = championship_of(n_competitions, n_teams)
    with django_assert_max_num_queries(3 + 3):
        assert client.get(f"/{dm.slug}/screen/").status_code == 200
    for show in [f"m{n_competitions}-{i}" for i in range(n_competitions)]:
        client.get(f"/{dm.slug}/screen/", {"show": show}, HTTP_HX_REQUEST="true")
    with django_assert_max_num_queries(3):
        response = client.get(f"/{dm.slug}/screen/")
    assert response.status_code == 200
    for i in range(n_competitions):
        with django_assert_max_num_queries(3):
            answer = client.get(
                f"/{dm.slug}/screen/", {"show": f"m{n_competitions}-{i}"}, HTTP_HX_REQUEST="true"
            )
        assert f'data-showing="m{n_competitions}-{i}"' in answer.content.decode()
    # None running: the programme, whose standings are cached per version as well.
    Competition.objects.filter(championship=dm).update(stopped_at=timezone.now())
    client.get(f"/{dm.slug}/screen/")
    with django_assert_max_num_queries(3):
        response = client.get(f"/{dm.slug}/screen/", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "data-stage-programme" in html and html.count("data-competition=") == n_competitions
