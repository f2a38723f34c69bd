"""`/<slug>/` of a championship: its programme (docs/contracts.md "A championship of several
competitions"). Each competition with its discipline, round, status, clock and first three,
linking to its own leaderboard; no personal data; a competition's slug still shows its
leaderboard; queries per page do not grow with the competitions or their entrants."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import Competition, Member, Puzzle, Team
from competition.services import championship_create, competition_create
from judging.models import Finish

pytestmark = pytest.mark.django_db


def running(championship, slug, name, discipline, entrants, *, round_=""):
    """A competition of one 1000-piece puzzle whose clock started 20 minutes ago; `entrants`:
    (name, finish seconds or None)."""
    started = timezone.now() - timedelta(minutes=20)
    competition = competition_create(
        by=None,
        slug=slug,
        name=name,
        starts_at=started,
        championship=championship,
        discipline=discipline,
        round=round_,
        second_count=False,
    )
    puzzle = Puzzle.objects.create(competition=competition, position=1, pieces=1000)
    for table, (entrant, seconds) in enumerate(entrants, start=1):
        team = Team.objects.create(
            competition=competition,
            name=entrant,
            table=table,
            contact_name="Kontaktia Privatsen",
            contact_phone="+45 9911 2233",
        )
        Member.objects.create(team=team, name=f"Medlemia {table} Skjultsen")
        if seconds is not None:
            Finish.objects.create(team=team, puzzle=puzzle, elapsed_seconds=seconds)
    Competition.objects.filter(pk=competition.pk).update(started_at=started)
    return Competition.objects.get(pk=competition.pk)


@pytest.fixture
def programme(dm, heats, final):
    """DM 2027: two final heats of individuals (their counts confirmed: second count off),
    the final not started, a pairs and a team competition running."""
    Competition.objects.filter(pk__in=[h.pk for h in heats]).update(second_count=False)
    pairs = running(
        dm,
        "par",
        "DM Par",
        "pair",
        [("Brik & Bræt", 900), ("Kant og Hjørne", None)],
        round_="Finale",
    )
    teams = running(dm, "hold", "DM Hold", "team", [("Puslerne", 1100), ("Hjørnerne", 1000)])
    return dm, heats, final, pairs, teams


def page(client, slug):
    response = client.get(reverse("public:leaderboard", args=[slug]))
    return response, response.content.decode()


def card(html, slug):
    """The programme's card of the competition `slug`."""
    start = html.index(f'data-competition="{slug}"')
    end = html.find("data-competition=", start + 1)
    return html[start : end if end > 0 else len(html)]


def test_the_programme_lists_each_competition_with_discipline_round_status_and_leaders(
    client, programme
):
    dm, (a, b), final, pairs, teams = programme
    response, html = page(client, dm.slug)
    assert response.status_code == 200
    assert "DM i puslespil 2027" in html and "Odense" in html and "Program" in html
    # By planned start: the heats (5 hours ago), the running ones (20 minutes ago), the final.
    order = [html.index(f'data-competition="{c.slug}"') for c in (a, b, pairs, teams, final)]
    assert order == sorted(order)
    heat_a = card(html, a.slug)
    assert "Individuel" in heat_a and "Indledende runde A" in heat_a
    assert "Endelige resultater" in heat_a
    # The first three by the rules (R11): Anna and Bo share place 1 on 500 pieces, Cille 300.
    assert heat_a.index("Anna") < heat_a.index("Bo") < heat_a.index("Cille")
    assert "Dan" not in heat_a
    assert "300 brikker" in heat_a
    heat_b = card(html, b.slug)
    assert "Indledende runde B" in heat_b and "Eva" in heat_b
    assert "Anna" not in heat_b  # disqualified: not a leader
    pairs_card = card(html, pairs.slug)
    assert "Par" in pairs_card and "Finale" in pairs_card and "Uret kører" in pairs_card
    assert "Brik &amp; Bræt" in pairs_card and "Kant og Hjørne" not in pairs_card  # no pieces
    teams_card = card(html, teams.slug)
    assert "Hold" in teams_card and "Uret kører" in teams_card
    assert teams_card.index("Hjørnerne") < teams_card.index("Puslerne")  # the earlier finish
    final_card = card(html, final.slug)
    assert "Finale" in final_card and "Ikke startet" in final_card
    assert "brik" not in final_card  # no leaders before the start


def test_each_competition_links_to_its_own_leaderboard(client, programme):
    dm, *_rest = programme
    _response, html = page(client, dm.slug)
    for competition in dm.competitions.all():
        link = f'href="{reverse("public:leaderboard", args=[competition.slug])}"'
        assert link in card(html, competition.slug)
        assert client.get(reverse("public:leaderboard", args=[competition.slug])).status_code == 200


def test_the_programme_keeps_its_poll_while_a_competition_is_not_final(client, programme):
    dm, *_rest = programme
    _response, html = page(client, dm.slug)
    assert f'hx-get="/{dm.slug}/"' in html
    fragment = client.get(f"/{dm.slug}/", HTTP_HX_REQUEST="true")
    assert fragment.status_code == 200
    body = fragment.content.decode()
    assert body.lstrip().startswith('<section id="programme-live"') and "<html" not in body


def test_a_slug_of_nothing_is_404(client, programme):
    assert client.get("/ingen-saadan/").status_code == 404


def test_a_competitions_own_championship_slug_still_shows_its_leaderboard(client, db):
    alone = competition_create(
        by=None, slug="alene", name="Alene", starts_at=timezone.now() + timedelta(days=1)
    )
    assert alone.championship.slug == "alene"  # its own championship has its slug
    response, html = page(client, "alene")
    assert response.status_code == 200
    assert 'id="live"' in html and "programme-live" not in html
    assert "scoring/leaderboard.html" in [t.name for t in response.templates]


def test_no_member_name_contact_or_label_on_the_programme(client, programme):
    dm, (a, _b), *_rest = programme
    Team.objects.filter(competition=a).update(labels=["hemmeligmaerke"], notes="Nøddeallergi")
    a.bump_standings()
    _response, html = page(client, dm.slug)
    for private in ("Hansen", "@heat-a.dk", "Skjultsen", "Privatsen", "9911", "hemmeligmaerke"):
        assert private not in html, private
    assert "Nøddeallergi" not in html


def championship_of(n_competitions, n_teams):
    dm = championship_create(by=None, slug=f"mange-{n_competitions}", name="Mange")
    for i in range(n_competitions):
        running(
            dm,
            f"m{n_competitions}-{i}",
            f"Runde {i}",
            "individual",
            [(f"Deltager {k}", 600 + k if k % 2 else None) for k in range(n_teams)],
        )
    return dm


@pytest.mark.parametrize(("n_competitions", "n_teams"), [(1, 3), (4, 40)])
def test_queries_per_page_do_not_grow_with_competitions_or_entrants(
    client, django_assert_max_num_queries, n_competitions, n_teams, memo_clock
):
    dm = championship_of(n_competitions, n_teams)
    # The first reader computes each competition's standings (three queries each, whatever
    # the number of entrants), as its leaderboard would; every reader after reads the cache.
    with django_assert_max_num_queries(3 + 3 * n_competitions):
        assert client.get(f"/{dm.slug}/").status_code == 200
    with django_assert_max_num_queries(3):
        response = client.get(f"/{dm.slug}/")
    assert response.status_code == 200
    assert response.content.decode().count("data-competition=") == n_competitions
    with django_assert_max_num_queries(3):
        assert client.get(f"/{dm.slug}/", HTTP_HX_REQUEST="true").status_code == 200


@pytest.mark.parametrize(("n_competitions", "n_teams"), [(1, 3), (4, 40)])
def test_a_heats_standings_read_in_queries_that_do_not_grow_with_its_championship(
    client, django_assert_max_num_queries, n_competitions, n_teams, memo_clock
):
    """A heat's standings JSON costs what a competition's alone does, whatever the number of
    competitions in its championship and of entrants (as `make bench` measures)."""
    dm = championship_of(n_competitions, n_teams)
    heat = dm.competitions.order_by("slug").first()
    url = reverse("api:standings", args=[heat.slug])
    assert client.get(f"/{dm.slug}/").status_code == 200  # the others' standings cached too
    memo_clock.advance(2)
    with django_assert_max_num_queries(4):
        response = client.get(url)
    assert response.status_code == 200
    assert len(response.json()["standings"]) == n_teams
    with django_assert_max_num_queries(0):  # cached, and the version read this second
        assert client.get(url).status_code == 200


def test_every_reader_gets_the_same_bytes_until_a_competition_changes(
    client, programme, memo_clock, django_assert_max_num_queries
):
    """The programme is rendered once per state of its competitions (make bench: at least
    0.8 x /healthz): within the memo's second a reader costs no query; after a change the
    next second's readers get the new leader, and a poll with the old ETag gets the new
    fragment."""
    dm, (a, _b), final, pairs, teams = programme
    first = client.get(f"/{dm.slug}/")
    poll = client.get(f"/{dm.slug}/", HTTP_HX_REQUEST="true")
    etag = poll["ETag"]
    with django_assert_max_num_queries(0):
        again = client.get(f"/{dm.slug}/")
        assert (
            client.get(f"/{dm.slug}/", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code
            == 304
        )
    assert again.content == first.content
    # Kant og Hjørne (pairs) finishes first: the pairs' leader changes.
    kant = Team.objects.get(competition=pairs, name="Kant og Hjørne")
    Finish.objects.create(team=kant, puzzle=pairs.puzzles.get(), elapsed_seconds=600)
    pairs.bump_standings()
    memo_clock.advance(2)
    changed = client.get(f"/{dm.slug}/", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    board = card(changed.content.decode(), pairs.slug)
    assert board.index("Kant og Hjørne") < board.index("Brik &amp; Bræt")
    assert "Kant og Hjørne" in card(client.get(f"/{dm.slug}/").content.decode(), pairs.slug)


def test_a_held_reveal_hides_the_leaders_at_once_though_no_result_changed(
    client, programme, memo_clock
):
    """Holding the results back for the prize-giving bumps no standings version: the
    programme's bytes still change with it."""
    dm, (a, _b), *_rest = programme
    assert "Anna" in card(client.get(f"/{dm.slug}/").content.decode(), a.slug)
    Competition.objects.filter(pk=a.pk).update(hold_results=True)
    memo_clock.advance(2)
    held = card(client.get(f"/{dm.slug}/").content.decode(), a.slug)
    assert "Anna" not in held and "Placeringerne afsløres ved præmieoverrækkelsen" in held
