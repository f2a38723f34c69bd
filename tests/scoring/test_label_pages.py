"""Rankings by label on the pages (docs/contracts.md "A championship of several competitions"):
the leaderboard, the big screen, results.csv and the official results show one label's own
ranking (`?label=ung`: its own ranks by the same rules) under "Særskilt placering: ung"; the
leaderboard offers a chip for each label in use. Its cache keys and ETags are the label's,
and its queries do not grow with the entrants."""

import csv
import io
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from competition.models import Team
from scoring.selectors import competition_state, memo_clear
from scoring.views_public.live import _live_key
from tests.factories import TeamFactory
from tests.scoring.standings_data import count, finish, many_teams, running_competition

pytestmark = pytest.mark.django_db


@pytest.fixture
def live(db):
    """Alfa 1500 pieces (no label); Bravo and Charlie 500 at 1900 s (a shared place); Delta
    500 at 2000 s, counted; Echo disqualified. Bravo, Charlie, Delta and Echo are young,
    Charlie also a guest."""
    c, (p1, p2, _p3) = running_competition(pieces=(500, 1000, 1000))
    young = ["ung"]
    alfa = TeamFactory(competition=c, name="Alfa", table=1, labels=["senior"])
    bravo = TeamFactory(competition=c, name="Bravo", table=2, labels=young)
    charlie = TeamFactory(competition=c, name="Charlie", table=3, labels=["ung", "gæst"])
    delta = TeamFactory(competition=c, name="Delta", table=4, labels=young)
    echo = TeamFactory(
        competition=c,
        name="Echo",
        table=5,
        labels=young,
        disqualified=True,
        disqualified_reason="x",
    )
    finish(alfa, p1, 1000)
    finish(alfa, p2, 1500)
    for team, seconds in ((bravo, 1900), (charlie, 1900), (delta, 2050), (echo, 100)):
        finish(team, p1, seconds)
    count(delta, p2, 0)
    return c


def board(html: str) -> list[tuple[str, str]]:
    """(rank, name) of each row of the leaderboard's table."""
    return re.findall(
        r'<td class="num rank">([^<]*)</td><td>.*?class="team-name">([^<]*)</a>', html
    )


def test_the_leaderboard_shows_a_labels_own_ranking_under_its_heading(client, live):
    whole = client.get(f"/{live.slug}/").content.decode()
    assert board(whole)[0] == ("1", "Alfa")
    assert "Særskilt placering" not in whole.split('id="live"')[1].split("</nav>")[-1]

    young = client.get(f"/{live.slug}/", {"label": "Ung"}).content.decode()
    assert "Særskilt placering: ung" in young
    # Its own ranks: the shared place is 1, 1; then 3; the disqualified last without one.
    assert board(young) == [("1", "Bravo"), ("1", "Charlie"), ("3", "Delta"), ("–", "Echo")]
    assert "Alfa" not in young.split('id="live"')[1]
    # The tie-break sentence names the entrant above in this ranking, not in the whole one.
    assert "Samme antal brikker som Charlie" in young


def test_the_chips_name_the_labels_in_use_and_mark_the_chosen_one(client, live):
    page = client.get(f"/{live.slug}/", {"label": "gæst"}).content.decode()
    chips = re.findall(r'<a href="([^"]*)" class="pill label-chip( active)?"', page)
    assert [(href, bool(active)) for href, active in chips] == [
        (f"/{live.slug}/", False),
        (f"/{live.slug}/?label=g%C3%A6st", True),
        (f"/{live.slug}/?label=senior", False),
        (f"/{live.slug}/?label=ung", False),
    ]
    assert 'aria-current="page" data-label="gæst"' in page
    # The poll keeps to the label; the CSV and the big screen links too.
    assert f'hx-get="/{live.slug}/?label=g%C3%A6st"' in page
    assert f'href="/{live.slug}/results.csv?label=g%C3%A6st"' in page
    assert f'href="/{live.slug}/screen/?label=g%C3%A6st"' in page


def test_a_competition_without_labels_has_no_chips(client, db):
    c, (p1, *_rest) = running_competition()
    finish(TeamFactory(competition=c, name="Alfa", table=1), p1, 1000)
    page = client.get(f"/{c.slug}/").content.decode()
    assert "label-chip" not in page and "Særskilt" not in page


def test_a_label_nobody_carries_says_so_and_is_not_kept(client, live):
    page = client.get(f"/{live.slug}/", {"label": "veteran"}).content.decode()
    assert "Særskilt placering: veteran" in page
    assert "Intet hold har denne kategori." in page
    assert board(page) == []
    # Not a cache entry for every text someone types after ?label=; a label in use has one.
    client.get(f"/{live.slug}/", {"label": "ung"})
    state = competition_state(live.slug)
    status = str(state.status_at(timezone.now()))
    assert cache.get(_live_key("leaderboard", state, status, "da", "ung")) is not None
    assert cache.get(_live_key("leaderboard", state, status, "da", "veteran")) is None


def test_a_label_has_its_own_etag_and_a_matching_poll_is_304(client, live):
    whole = client.get(f"/{live.slug}/", HTTP_HX_REQUEST="true")
    young = client.get(f"/{live.slug}/", {"label": "ung"}, HTTP_HX_REQUEST="true")
    guests = client.get(f"/{live.slug}/", {"label": "gæst"}, HTTP_HX_REQUEST="true")
    assert len({whole["ETag"], young["ETag"], guests["ETag"]}) == 3
    again = client.get(
        f"/{live.slug}/", {"label": "ung"}, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=young["ETag"]
    )
    assert again.status_code == 304
    # The whole board's ETag does not answer a label's poll (nor the other way round).
    other = client.get(
        f"/{live.slug}/", {"label": "ung"}, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=whole["ETag"]
    )
    assert other.status_code == 200 and "Særskilt placering: ung" in other.content.decode()


def test_the_ranking_follows_a_label_given_at_the_desk_at_once(client, live, desk):
    from competition.services import team_labels_set

    assert ("1", "Alfa") not in board(
        client.get(f"/{live.slug}/", {"label": "ung"}).content.decode()
    )
    team_labels_set(team=Team.objects.get(name="Alfa"), by=desk, labels=["ung"])
    memo_clear()
    page = client.get(f"/{live.slug}/", {"label": "ung"}).content.decode()
    assert board(page)[0] == ("1", "Alfa")


def test_while_the_reveal_holds_the_places_a_label_shows_none(client, live):
    live.stopped_at = live.finalised_at = timezone.now()
    live.hold_results = True
    live.save()
    memo_clear()
    page = client.get(f"/{live.slug}/", {"label": "ung"}).content.decode()
    assert board(page) == []
    assert 'class="held-note" data-held="4"' in page
    assert "Intet hold har denne kategori." not in page  # it has: they wait for the reveal


@pytest.mark.parametrize("n", [5, 200])
def test_a_labels_queries_do_not_grow_with_the_entrants(
    client, db, n, django_assert_max_num_queries
):
    c, puzzles = running_competition(pieces=(500,) * 4)
    teams = many_teams(c, puzzles, n)
    Team.objects.filter(pk__in=[t.pk for t in teams[::2]]).update(labels=["ung"])
    # state, puzzles, teams, finishes (each row holds its entrant's labels)
    with django_assert_max_num_queries(4):
        page = client.get(f"/{c.slug}/", {"label": "ung"})
    assert page.content.decode().count('class="team-name"') == len(teams[::2])
    memo_clear()
    with django_assert_max_num_queries(1):  # the state: the label's part is kept
        assert (
            client.get(f"/{c.slug}/", {"label": "ung"}, HTTP_HX_REQUEST="true").status_code == 200
        )
    with django_assert_max_num_queries(1):
        assert client.get(f"/{c.slug}/screen/", {"label": "ung"}).status_code == 200
    with django_assert_max_num_queries(1):
        assert client.get(f"/{c.slug}/results.csv", {"label": "ung"}).status_code == 200


def test_the_big_screen_shows_the_labels_ranking_under_its_heading(client, live):
    page = client.get(f"/{live.slug}/screen/", {"label": "ung"}).content.decode()
    assert "Særskilt placering: ung" in page
    names = re.findall(r'<span class="team-name">([^<]*)</span>', page)
    assert names == ["Bravo", "Charlie", "Delta", "Echo"]
    assert f'hx-get="/{live.slug}/screen/?label=ung"' in page
    # The reveal steps through the whole ranking's places: a label's screen keeps its list.
    live.screen_mode = "reveal"
    live.reveal_from, live.reveal_at = 3, 3
    live.save()
    memo_clear()
    page = client.get(f"/{live.slug}/screen/", {"label": "ung"}).content.decode()
    assert 'data-mode="standings"' in page
    assert re.findall(r'<span class="team-name">([^<]*)</span>', page)[0] == "Bravo"


def test_results_csv_of_a_label(client, live):
    response = client.get(f"/{live.slug}/results.csv", {"label": "ung"})
    assert "dm-live-resultater-ung-forel" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:2] == ["Nr.", "Hold"]
    assert [(r[0], r[1]) for r in rows[1:]] == [
        ("1", "Bravo"),
        ("1", "Charlie"),
        ("3", "Delta"),
        ("", "Echo"),
    ]


def test_an_odd_label_in_the_csv_name_answers_a_file(client, live):
    response = client.get(f"/{live.slug}/results.csv", {"label": 'a"b\r\nc/æ'})
    assert response.status_code == 200
    assert "\n" not in response["Content-Disposition"]


def test_the_official_results_of_a_label(client, live, desk):
    client.force_login(desk)
    url = reverse("desk:official", args=[live.slug])
    page = client.get(url, {"label": "ung"}).content.decode()
    assert "Særskilt placering: ung" in page
    ranks = re.findall(r'<td class="num rank">(.*?)</td>', page)
    names = re.findall(r'<td class="team">([^<]*)', page)
    assert names == ["Bravo", "Charlie", "Delta", "Echo"]
    assert ranks[:3] == ["1.", "1.", "3."] and "DSQ" in ranks[3]
    assert f'href="{url}?label=ung" class="pill label-chip active"' in page
    whole = client.get(url).content.decode()
    assert "Særskilt placering" not in whole and "Alfa" in whole


def test_a_typed_label_is_text_never_markup_and_a_blank_one_is_the_whole_board(client, live):
    page = client.get(f"/{live.slug}/", {"label": '<b onmouseover="x">Ung'}).content.decode()
    assert "&lt;b onmouseover=&quot;x&quot;&gt;ung" in page
    assert "<b onmouseover" not in page
    blank = client.get(f"/{live.slug}/", {"label": "  "}).content.decode()
    assert "Særskilt placering" not in blank.split('id="live"')[1]
    assert board(blank)[0] == ("1", "Alfa")
