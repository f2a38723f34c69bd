"""The public pages: leaderboard and its fragment, big screen, team page,
results.csv, rules; Danish by default, English on request; no personal data anywhere."""

import csv
import io

import pytest
from django.core.cache import cache

from scoring.selectors import memo_clear
from tests.factories import MemberFactory, TeamFactory
from tests.scoring.standings_data import finish, many_teams, running_competition


@pytest.fixture
def live(db):
    c, (p1, p2, p3) = running_competition()
    a = TeamFactory(
        competition=c,
        name="Kantsøgerne",
        table=7,
        contact_name="Gudrun Kontaktsen",
        contact_email="gudrun@hemmelig.dk",
        contact_phone="+45 11223344",
        notes="Ringer sent",
    )
    b = TeamFactory(competition=c, name="Brikkebanden", table=8)
    dq = TeamFactory(
        competition=c, name="Snydepelsene", table=9, disqualified=True, disqualified_reason="R18"
    )
    TeamFactory(competition=c, name="Udeblevne", table=10, withdrawn=True)
    MemberFactory(team=a, name="Ottilie Hemmeligsen", under_15=True, guardian="Valdemar Værgesen")
    MemberFactory(team=b, name="Balder Brikmand")
    finish(a, p1, 1800, missing=[1, 2])
    finish(a, p2, 4000)
    finish(b, p1, 1700)
    finish(b, p2, 4120, missing=[1])
    finish(dq, p1, 900)
    return c, a, b, dq


SECRETS = (
    "Gudrun",
    "hemmelig",
    "11223344",
    "Ringer sent",
    "Ottilie",
    "Valdemar",
    "Balder",
    "R18",
)


def test_leaderboard_in_danish(client, live):
    c, a, b, dq = live
    response = client.get(f"/{c.slug}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="da">' in body
    for text in (
        "Nr.",
        "Hold",
        "Bord",
        "Brikker",
        "Forløb",
        "Tid tilbage",
        "Foreløbige resultater",
    ):
        assert text in body
    assert "Kantsøgerne" in body and "Brikkebanden" in body
    assert "1.499" in body  # Danish thousands, one lone piece deducted (R8)
    assert "diskvalificeret" in body
    assert "Udeblevne" not in body  # withdrawn teams are not listed
    assert "Samme antal brikker; Kantsøgerne lagde deres sidste hele puslespil færdigt" in body
    assert 'hx-trigger="every 5s"' in body


def test_leaderboard_in_english_by_accept_language_and_by_the_switch(client, live):
    c, *_ = live
    body = client.get(f"/{c.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in body and "Time remaining" in body and "Same pieces;" in body
    client.post("/i18n/setlang/", {"language": "en", "next": f"/{c.slug}/"})
    body = client.get(f"/{c.slug}/").content.decode()
    assert '<html lang="en">' in body and "Provisional results" in body


def test_the_fragment_answers_only_the_live_part_with_an_etag(client, live):
    c, a, *_ = live
    response = client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section id="live"')
    assert "<html" not in body
    assert "HX-Request" in response["Vary"]
    etag = response["ETag"]
    again = client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    finish(a, c.puzzles.get(position=3), 7000)
    c.bump_standings()
    memo_clear()
    changed = client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "2.499" in changed.content.decode()


def test_polling_stops_once_final(client, live):
    from django.utils import timezone

    c, *_ = live
    c.finalised_at = timezone.now()
    c.save()
    memo_clear()
    body = client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in body
    assert "Endelige resultater" in body


@pytest.mark.parametrize("n", [5, 300])
def test_queries_do_not_grow_with_the_teams(client, db, n, django_assert_max_num_queries):
    c, puzzles = running_competition(pieces=(500,) * 8)
    many_teams(c, puzzles, n)
    with django_assert_max_num_queries(4):
        page = client.get(f"/{c.slug}/")
    assert page.status_code == 200
    memo_clear()
    with django_assert_max_num_queries(1):
        fragment = client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true")
    assert fragment.content.decode().count('class="team-name"') == n
    with django_assert_max_num_queries(4):
        assert client.get(f"/{c.slug}/screen/").status_code == 200
    with django_assert_max_num_queries(4):
        assert client.get(f"/{c.slug}/results.csv").status_code == 200


def test_no_personal_data_on_any_public_page_csv_or_answer(client, live):
    c, a, b, dq = live
    urls = [
        "/",
        f"/{c.slug}/",
        f"/{c.slug}/screen/",
        f"/{c.slug}/teams/{a.pk}/",
        f"/{c.slug}/teams/{b.pk}/",
        f"/{c.slug}/teams/{dq.pk}/",
        f"/{c.slug}/results.csv",
        f"/api/v1/competitions/{c.slug}/standings",
    ]
    for url in urls:
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **headers)
            assert response.status_code == 200, url
            text = response.content.decode("utf-8-sig")
            for secret in SECRETS:
                assert secret not in text, (url, secret)


def test_results_csv_for_danish_excel(client, live):
    c, a, b, dq = live
    response = client.get(f"/{c.slug}/results.csv")
    raw = response.content
    assert raw.startswith(b"\xef\xbb\xbf")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:6] == ["Nr.", "Hold", "Bord", "Brikker", "Færdige puslespil", "Sidst færdig"]
    assert rows[0][6:8] == ["Puslespil 1 tid", "Puslespil 1 fradrag"]
    assert rows[0][-2:] == ["Optælling", "Status"]
    assert rows[1][:6] == ["1", "Kantsøgerne", "7", "1499", "2", "1:06:40"]
    assert rows[1][6:8] == ["0:30:00", "1"]
    assert rows[1][-1] == "foreløbig"
    assert rows[3][0] == "" and rows[3][-1] == "diskvalificeret"
    assert "resultater-forel" in response["Content-Disposition"]


def test_results_csv_marks_a_team_under_review_while_its_objection_is_open(client, live):
    """R20: a team with an open objection is "under behandling" in results.csv; once the
    objection is decided it is provisional again. Disqualified stays disqualified."""
    from django.utils import timezone

    from judging.models import Objection

    c, a, b, dq = live

    def statuses():
        c.bump_standings()
        memo_clear()
        text = client.get(f"/{c.slug}/results.csv").content.decode("utf-8-sig")
        return {row[1]: row[-1] for row in csv.reader(io.StringIO(text), delimiter=";")}

    objection = Objection.objects.create(team=b, text="Tiden er forkert")
    Objection.objects.create(team=dq, text="Vi snød ikke")
    assert statuses() == {
        "Hold": "Status",
        "Kantsøgerne": "foreløbig",
        "Brikkebanden": "under behandling",
        "Snydepelsene": "diskvalificeret",
    }
    Objection.objects.filter(pk=objection.pk).update(
        decision="rejected", resolved_at=timezone.now()
    )
    assert statuses()["Brikkebanden"] == "foreløbig"


def test_results_csv_is_marked_final(client, live):
    from django.utils import timezone

    c, *_ = live
    c.finalised_at = timezone.now()
    c.save()
    response = client.get(f"/{c.slug}/results.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[1][-1] == "endelig"
    assert "resultater-endelig.csv" in response["Content-Disposition"]


def test_team_page_timeline(client, live):
    c, a, b, dq = live
    response = client.get(f"/{c.slug}/teams/{a.pk}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert "Mellemtid" in body and "Brikker pr. minut" in body
    assert "0:36:40" in body  # split time of puzzle 2: 4000 - 1800 seconds
    assert "27,3" in body  # 1000 pieces in 36:40, Danish decimals
    assert "16,7" in body  # 500 pieces in 30:00
    assert "−1" in body  # the lone missing piece (R8)
    # in words, not "Manglende brikker pr. sted (antal): 1, 2"
    assert "1 enkelt manglende brik trukket fra" in body
    assert "2 sammenhængende manglende brikker: produktionsfejl, intet trukket fra" in body
    assert "pr. sted (antal)" not in body
    assert "Pusler nu" in body
    assert '<svg class="race-chart"' in body


def test_team_page_of_another_competition_or_withdrawn_is_404(client, live):
    c, a, *_ = live
    other, _ = running_competition(slug="andet-dm")
    stranger = TeamFactory(competition=other, name="Fremmede", table=1)
    assert client.get(f"/{c.slug}/teams/{stranger.pk}/").status_code == 404
    assert client.get(f"/{other.slug}/teams/{a.pk}/").status_code == 404
    gone = c.teams.get(withdrawn=True)
    assert client.get(f"/{c.slug}/teams/{gone.pk}/").status_code == 404
    assert client.get("/ingen-konkurrence/").status_code == 404


def test_fragment_and_json_are_sent_gzipped_to_who_accepts_it(client, live):
    import gzip
    import json

    c, *_ = live
    plain = client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true").content
    packed = client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true", HTTP_ACCEPT_ENCODING="gzip, br")
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    assert gzip.decompress(packed.content) == plain
    url = f"/api/v1/competitions/{c.slug}/standings"
    answer = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert json.loads(gzip.decompress(answer.content)) == client.get(url).json()


def test_the_big_screen_renders(client, live):
    c, *_ = live
    response = client.get(f"/{c.slug}/screen/")
    body = response.content.decode()
    assert response.status_code == 200
    assert "clock-big" in body and "data-pager" in body and "top1" in body
    assert 'class="topbar"' not in body
    fragment = client.get(f"/{c.slug}/screen/", HTTP_HX_REQUEST="true").content.decode()
    assert fragment.lstrip().startswith('<section id="screen-live"')


def test_rules_in_danish_and_in_english(client, db):
    body = client.get("/rules/").content.decode()
    assert "Vinderen er det hold, der har lagt flest brikker." in body
    for rule in ("R1", "R11", "R20", "P1", "P2"):
        assert f'id="{rule}"' in body
    assert "Foto og video" in body
    english = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "The winner is the team that has placed the most pieces." in english
    assert '<html lang="en">' in english


def test_broken_data_keeps_the_page_up_and_staff_see_the_error(client, live, admin_user):
    c, a, b, dq = live
    client.get(f"/{c.slug}/")
    finish(b, c.puzzles.get(position=3), 3000)  # earlier than its puzzle 2 (R7)
    c.bump_standings()
    memo_clear()
    public = client.get(f"/{c.slug}/")
    assert public.status_code == 200
    assert "Brikkebanden" in public.content.decode()
    assert "bryder en regel" not in public.content.decode()
    client.force_login(admin_user)
    staff = client.get(f"/{c.slug}/").content.decode()
    assert "Stillingen bryder en regel og kunne ikke beregnes." in staff
    assert "time_order" in staff


def test_anonymous_readers_get_the_same_cached_page_without_token_or_cookie(live):
    """A public page posts nothing: no CSRF token, no cookie, the same bytes for everyone."""
    import gzip

    from django.test import Client

    c, *_ = live
    pages = []
    for _ in range(2):
        response = Client().get(f"/{c.slug}/", HTTP_ACCEPT_ENCODING="gzip")
        assert response["Content-Encoding"] == "gzip"
        assert "csrftoken" not in response.cookies
        assert "sessionid" not in response.cookies
        pages.append(gzip.decompress(response.content).decode())
    assert pages[0] == pages[1]
    assert "csrfmiddlewaretoken" not in pages[0]
    assert "X-CSRFToken" not in pages[0]
    assert "DM i puslespil live" in pages[0]


def test_the_language_switch_works_from_a_cached_page_without_a_token(live):
    from django.test import Client

    c, *_ = live
    reader = Client(enforce_csrf_checks=True)
    reader.get(f"/{c.slug}/")
    switched = reader.post("/i18n/setlang/", {"language": "en", "next": f"/{c.slug}/"})
    assert switched.status_code == 302
    assert '<html lang="en">' in reader.get(f"/{c.slug}/").content.decode()


def test_staff_pages_still_carry_the_csrf_header_for_htmx(client, live, make_user):
    c, *_ = live
    client.force_login(make_user("judge", "mette"))
    body = client.get(f"/judge/{c.slug}/").content.decode()
    assert "X-CSRFToken" in body


def test_home_lists_the_competition_with_its_status(client, live):
    c, *_ = live
    body = client.get("/").content.decode()
    assert "DM i puslespil live" in body and "Uret kører" in body
    assert f"/{c.slug}/screen/" in body


def test_the_fragment_is_kept_in_the_shared_cache_per_version(client, live):
    c, *_ = live
    client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true")
    c.refresh_from_db()
    key = f"live:leaderboard:{c.pk}:{c.standings_version}:running:da"
    assert b'id="live"' in cache.get(key)
    memo_clear()  # another process: the fragment comes from the cache, after one query
    cache.set(key, b'<section id="live">from the cache</section>')
    assert client.get(f"/{c.slug}/", HTTP_HX_REQUEST="true").content == (
        b'<section id="live">from the cache</section>'
    )


def test_rules_say_each_ranking_profile_in_danish_and_english(client, db):
    body = client.get("/rules/").content.decode()
    assert 'id="dm"' in body and 'id="wjpc"' in body
    assert "Verdensmesterskabets regler (WJPC)" in body
    assert "10 sekunder lagt til for hver enkelt manglende brik" in body
    assert "Alle hold, der blev færdige, placeres foran alle hold, der ikke blev færdige." in body
    assert "Denne konkurrence rangeres efter disse regler." not in body
    chosen = client.get("/rules/?ranking=wjpc").content.decode()
    assert "Denne konkurrence rangeres efter disse regler." in chosen
    assert chosen.index('id="wjpc"') < chosen.index('id="dm"')  # its own rules first
    english = client.get("/rules/?ranking=wjpc", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "World Championship rules (WJPC)" in english
    assert "with 10 seconds added for each lone missing piece" in english
    assert "This competition ranks by these rules." in english
    assert client.get("/rules/?ranking=nope").status_code == 200
