"""Every surface follows the competition's ranking (issue 34 item 3). One competition whose
order differs by profile: two puzzles (500, 1000), the clock over:

- Cirklen finished both at 5100 s, nothing missing: 1500 pieces
- Dørken finished both at 4990 s, 1 lone missing piece: 1499 pieces, +10 s
- Aksen finished both at 5000 s, 3 lone missing pieces: 1497 pieces, +30 s
- Brikken finished puzzle 1 and counted 998 on puzzle 2: 1498 pieces, not finished

Danish rules (R11, most pieces): Cirklen, Dørken, Brikken, Aksen. World rules (a finisher by
its time plus 10 s per lone missing piece, before every non-finisher): Dørken (5000), Aksen
(5030), Cirklen (5100), Brikken.
"""

import csv
import io
import re

import pytest
from django.core.cache import cache

from competition.models import Competition
from scoring.selectors import memo_clear
from tests.factories import TeamFactory
from tests.scoring.standings_data import count, finish, running_competition

pytestmark = pytest.mark.django_db

DM = ["Cirklen", "Dørken", "Brikken", "Aksen"]
WJPC = ["Dørken", "Aksen", "Cirklen", "Brikken"]


@pytest.fixture
def world(db):
    c, (p1, p2) = running_competition(
        slug="wc-round", name="WJPC-runde", pieces=(500, 1000), minutes_ago=200
    )
    teams = {}
    for table, name in enumerate(("Aksen", "Brikken", "Cirklen", "Dørken"), start=1):
        teams[name] = TeamFactory(competition=c, name=name, table=table)
    finish(teams["Cirklen"], p1, 1500)
    finish(teams["Cirklen"], p2, 5100)
    finish(teams["Dørken"], p1, 1600, missing=[1])
    finish(teams["Dørken"], p2, 4990, missing=[2])
    finish(teams["Aksen"], p1, 1800, missing=[1])
    finish(teams["Aksen"], p2, 5000, missing=[1, 1, 3])
    finish(teams["Brikken"], p1, 1700)
    count(teams["Brikken"], p2, 998)
    Competition.objects.filter(pk=c.pk).update(ranking="wjpc")
    c.bump_standings()
    c.refresh_from_db()
    return c, teams


def rank_as(c: Competition, ranking: str) -> None:
    Competition.objects.filter(pk=c.pk).update(ranking=ranking)
    c.bump_standings()
    cache.clear()
    memo_clear()


def names_in(html: str) -> list[str]:
    return [n for n in re.findall(r'data-team="([^"]+)"', html) if n in DM]


def test_the_standings_api_ranks_by_the_profile(api, world):
    c, teams = world
    body = api.get(f"/api/v1/competitions/{c.slug}/standings").json()
    assert body["ranking"] == "wjpc"
    assert [r["team"]["name"] for r in body["standings"]] == WJPC
    assert [r["rank"] for r in body["standings"]] == [1, 2, 3, 4]
    assert [r["penalty_seconds"] for r in body["standings"]] == [10, 30, 0, 0]
    rank_as(c, "dm")
    body = api.get(f"/api/v1/competitions/{c.slug}/standings").json()
    assert [r["team"]["name"] for r in body["standings"]] == DM
    assert "ranking" not in body and "penalty_seconds" not in body["standings"][0]


def test_a_changed_ranking_never_serves_the_cached_order(api, world):
    c, teams = world
    url = f"/api/v1/competitions/{c.slug}/standings"
    assert [r["team"]["name"] for r in api.get(url).json()["standings"]] == WJPC
    # the ranking changed with no bump of the version (a restore, a hand edit): not stale
    Competition.objects.filter(pk=c.pk).update(ranking="dm")
    memo_clear()
    assert [r["team"]["name"] for r in api.get(url).json()["standings"]] == DM


def test_the_leaderboard_and_its_fragment_follow_the_profile(client, world):
    c, teams = world
    page = client.get(f"/{c.slug}/").content.decode()
    assert names_in(page) == WJPC
    assert "Rangeret efter verdensmesterskabets regler" in page
    assert "+10 sek. for 1 manglende brik" in page
    assert "+30 sek. for 3 manglende brikker" in page
    assert "/rules/?ranking=wjpc#wjpc" in page
    fragment = client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true").content.decode()
    assert names_in(fragment) == WJPC
    rank_as(c, "dm")
    page = client.get(f"/{c.slug}/").content.decode()
    assert names_in(page) == DM
    assert "verdensmesterskabets" not in page and "manglende brik" not in page


def test_the_team_page_says_the_penalty(client, world):
    c, teams = world
    html = client.get(f"/{c.slug}/teams/{teams['Dørken'].pk}/").content.decode()
    assert "+10 sek. for 1 manglende brik" in html
    assert "Tid: 1:23:20" in html  # 4990 s + 10 s
    assert "Tidstillæg" in html and "1 enkelt manglende brik" in html
    assert "trukket fra" not in html  # the World rules deduct no piece: they add time
    html = client.get(f"/{c.slug}/teams/{teams['Brikken'].pk}/").content.decode()
    assert "Ikke færdigt: placeres efter lagte brikker" in html
    english = client.get(
        f"/{c.slug}/teams/{teams['Aksen'].pk}/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "+30 sec. for 3 missing pieces" in english
    rank_as(c, "dm")
    html = client.get(f"/{c.slug}/teams/{teams['Dørken'].pk}/").content.decode()
    assert "manglende brik trukket fra" in html and "Tidstillæg" not in html


def test_results_csv_has_a_penalty_column_under_wjpc(client, world):
    c, teams = world
    text = client.get(f"/{c.slug}/results.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    header = rows[0]
    assert "Tidstillæg (sekunder)" in header and "Tid med tillæg" in header
    at = header.index("Tidstillæg (sekunder)")
    assert [r[1] for r in rows[1:]] == WJPC
    assert [(r[at], r[at + 1]) for r in rows[1:]] == [
        ("10", "1:23:20"),
        ("30", "1:23:50"),
        ("0", "1:25:00"),
        ("0", ""),
    ]
    rank_as(c, "dm")
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/{c.slug}/results.csv").content.decode("utf-8-sig")),
            delimiter=";",
        )
    )
    assert [r[1] for r in rows[1:]] == DM and "Tidstillæg (sekunder)" not in rows[0]


def test_the_official_results_rank_and_show_the_penalty(client, world, desk):
    c, teams = world
    client.force_login(desk)
    html = client.get(f"/desk/{c.slug}/official/").content.decode()
    order = [m for m in re.findall(r'<td class="team">([^<]+)', html)]
    assert [n.strip() for n in order] == WJPC
    assert "Tid med tillæg" in html and "1:23:50" in html and "+30 sek." in html


def test_the_big_screen_the_overlay_and_the_feed_follow_the_profile(client, world):
    c, teams = world
    screen = client.get(f"/{c.slug}/screen/", HTTP_HX_REQUEST="true").content.decode()
    shown = [n for n in re.findall(r">(Aksen|Brikken|Cirklen|Dørken)<", screen)]
    assert shown[:4] == WJPC
    assert "+30 sek." in screen
    overlay = client.get(f"/{c.slug}/overlay/?top=4").content.decode()
    assert re.findall(r'class="o-name">([^<]+)<', overlay) == WJPC
    feed = client.get(f"/{c.slug}/feed/").content.decode()
    # Cirklen's last finish (5100 s): the most pieces (dm: no. 1), the slowest time (no. 3)
    assert "Cirklen er færdig med puslespil 2 efter 1:25:00 – nu nr. 3" in feed
    rank_as(c, "dm")
    feed = client.get(f"/{c.slug}/feed/").content.decode()
    assert "Cirklen er færdig med puslespil 2 efter 1:25:00 – nu nr. 1" in feed


def test_a_labels_ranking_follows_the_profile(api, world):
    c, teams = world
    for name in ("Aksen", "Brikken"):
        teams[name].labels = ["ung"]
        teams[name].save(update_fields=["labels"])
    c.bump_standings()
    body = api.get(f"/api/v1/competitions/{c.slug}/standings?label=ung").json()
    assert [(r["rank"], r["team"]["name"]) for r in body["standings"]] == [
        (1, "Aksen"),
        (2, "Brikken"),
    ]


def test_a_tie_under_the_world_rules_is_told_as_such(client, world):
    c, teams = world
    p1, p2 = c.puzzles.order_by("position")
    ekko = TeamFactory(competition=c, name="Ekko", table=5)
    finish(ekko, p1, 1650, missing=[1])
    finish(ekko, p2, 4980, missing=[1])  # 4980 + 20 s = Dørken's 4990 + 10 s
    c.bump_standings()
    page = client.get(f"/{c.slug}/").content.decode()
    assert "Samme tid som Dørken med tillæg for manglende brikker: delt placering." in page
    assert re.findall(r'<td class="num rank">(\d)</td>', page)[:3] == ["1", "1", "3"]


def test_the_championships_programme_shows_the_leaders_by_the_profile(client, world):
    from competition.services import championship_create

    c, teams = world
    championship = championship_create(by=None, slug="wjpc-2026", name="WJPC 2026")
    Competition.objects.filter(pk=c.pk).update(championship=championship)
    c.bump_standings()
    html = client.get("/wjpc-2026/").content.decode()
    assert re.findall(r'class="leader-name">([^<]+)<', html) == WJPC[:3]
    assert "+30 sek." in html


def test_the_reveal_steps_through_the_world_rules_places(client, world, admin_user):
    from django.utils import timezone

    from competition.services import reveal_next, reveal_start
    from scoring.selectors import reveal_places

    c, teams = world
    Competition.objects.filter(pk=c.pk).update(finalised_at=timezone.now())
    c.refresh_from_db()
    reveal_start(competition=c, by=admin_user, from_place=3)
    reveal_next(competition=c, by=admin_user, places=reveal_places(c))
    screen = client.get(f"/{c.slug}/screen/", HTTP_HX_REQUEST="true").content.decode()
    # place 3 under the World rules is Cirklen (under the Danish rules it would be Brikken)
    assert f'data-reveal-team="{teams["Cirklen"].pk}"' in screen
    assert "Brikken" not in screen.split("reveal-card")[1]
    reveal_next(competition=c, by=admin_user, places=reveal_places(c))
    memo_clear()  # a public reader may reuse the state it read within the second
    screen = client.get(f"/{c.slug}/screen/", HTTP_HX_REQUEST="true").content.decode()
    assert f'data-reveal-team="{teams["Aksen"].pk}"' in screen
    assert "+30 sek. for 3 manglende brikker" in screen
