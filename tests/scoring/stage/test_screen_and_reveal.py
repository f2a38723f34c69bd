"""The head judge drives the big screen (modes, announcement, countdown) and the
prize-giving reveal; with the hold on, the public sees no place before the hall does."""

import csv
import io
from datetime import timedelta

import pytest
from django.test import Client

from competition.errors import Refusal
from competition.models import AuditEntry, Competition
from competition.services import reveal_next, reveal_start, screen_hold, screen_set
from scoring.selectors import memo_clear, reveal_places

HX = {"HTTP_HX_REQUEST": "true"}


def public(path, **headers):
    memo_clear()  # as another process, a second later
    return Client().get(path, **headers)


def screen_html(slug="dm-2026"):
    response = public(f"/{slug}/screen/", **HX)
    assert response.status_code == 200
    return response.content.decode()


def board_names(slug="dm-2026"):
    html = public(f"/{slug}/", **HX).content.decode()
    return [n for n in ("Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot") if n in html], html


def api_names(client, slug="dm-2026"):
    memo_clear()
    body = client.get(f"/api/v1/competitions/{slug}/standings").json()
    return [r["team"]["name"] for r in body["standings"]]


def csv_names(client, slug="dm-2026"):
    memo_clear()
    text = client.get(f"/{slug}/results.csv").content.decode("utf-8-sig")
    return [row[1] for row in list(csv.reader(io.StringIO(text), delimiter=";"))[1:]]


@pytest.mark.django_db
def test_a_switch_reaches_a_polling_screen_at_its_next_poll(competition, teams, admin_user):
    first = public("/dm-2026/screen/", **HX)
    etag = first["ETag"]
    assert 'hx-trigger="every 1s"' in first.content.decode()  # a switch shows within a second
    assert public("/dm-2026/screen/", HTTP_IF_NONE_MATCH=etag, **HX).status_code == 304

    before = competition.standings_version
    screen_set(competition=competition, by=admin_user, mode="message", message="10 min. tilbage")
    competition.refresh_from_db()
    assert competition.standings_version == before + 1
    entry = AuditEntry.objects.filter(competition=competition, action="screen").get()
    assert entry.after["screen_mode"] == "message" and entry.user == admin_user

    again = public("/dm-2026/screen/", HTTP_IF_NONE_MATCH=etag, **HX)
    assert again.status_code == 200
    assert "10 min. tilbage" in again.content.decode()
    assert "screen-board" not in again.content.decode()


@pytest.mark.django_db
def test_each_mode_shows_its_own_screen(competition, teams, admin_user):
    assert "screen-board" in screen_html()  # the standings, as before

    screen_set(competition=competition, by=admin_user, mode="countdown")
    html = screen_html()
    assert "data-countdown" in html and "Starter om" in html
    assert "3 puslespil · 2.500 brikker" in html

    text = "Puslespil 2 må nu åbnes"
    screen_set(competition=competition, by=admin_user, mode="message", message=text)
    assert "Puslespil 2 må nu åbnes" in screen_html()

    screen_set(competition=competition, by=admin_user, mode="standings")
    assert "screen-board" in screen_html()


@pytest.mark.django_db
def test_refused_screen_writes_change_nothing(competition, teams, admin_user, refused, invalid):
    invalid("message", screen_set, competition=competition, by=admin_user, mode="message")
    invalid("mode", screen_set, competition=competition, by=admin_user, mode="disco")
    refused("reveal_not_started", screen_set, competition=competition, by=admin_user, mode="reveal")
    refused("not_final", reveal_start, competition=competition, by=admin_user, from_place=3)
    refused("reveal_not_started", reveal_next, competition=competition, by=admin_user, places=[1])


@pytest.mark.django_db
def test_reveal_from_place_too_far_is_refused(final, admin_user, invalid):
    invalid("from_place", reveal_start, competition=final, by=admin_user, from_place=7)
    invalid("from_place", reveal_start, competition=final, by=admin_user, from_place=0)


@pytest.mark.django_db
def test_a_reveal_of_five_places_step_by_step(final, admin_user):
    """What a spectator's phone (the leaderboard), the screen, the API and results.csv show
    at each step; the staff see the whole order throughout."""
    staff = Client()
    staff.force_login(admin_user)
    anonymous = Client()
    everyone = ["Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]

    screen_hold(competition=final, by=admin_user, hold=True)
    # Final, held, the reveal not started: every ranked place waits.
    names, html = board_names()
    assert names == [] and 'data-held="6"' in html
    assert api_names(anonymous) == [] and csv_names(anonymous) == []
    assert api_names(staff) == everyone

    reveal_start(competition=final, by=admin_user, from_place=5)
    names, html = board_names()
    assert names == ["Foxtrot"] and 'data-held="5"' in html
    assert "hx-get" in html  # the phone keeps polling while places are held
    assert "Præmieoverrækkelsen" in screen_html() and "data-reveal-team" not in screen_html()

    order = ["Echo", "Delta", "Charlie", "Bravo", "Alfa"]
    for step, name in enumerate(order, start=1):
        place = 6 - step
        reveal_next(competition=final, by=admin_user, places=reveal_places(final))
        html = screen_html()
        team = final.teams_by_name[name]
        assert f'data-reveal-team="{team.pk}"' in html, (place, name)
        assert f"{place}. plads" in html
        # The places not yet revealed appear nowhere on the screen or the phone.
        for hidden in order[step:]:
            assert hidden not in html, (place, hidden)
        names, board = board_names()
        assert names == everyone[place - 1 :], place
        assert api_names(anonymous) == everyone[place - 1 :]
        assert csv_names(anonymous) == everyone[place - 1 :]
        assert api_names(staff) == everyone
        if name == "Bravo":
            # Bravo's own tie-break sentence names Alfa, still held: shown nowhere yet.
            assert "Alfa" not in board and "data-reveal-sentence" not in html
        if name == "Alfa":
            # The tie against Bravo is explained with the winner, in Danish.
            assert "data-reveal-sentence" in html and "Alfa" in html and "Bravo" in html

    names, board = board_names()
    assert names == everyone and "data-held" not in board
    assert "hx-get" not in board  # final and nothing held: the phone stops polling
    with pytest.raises(Refusal) as caught:
        reveal_next(competition=final, by=admin_user, places=reveal_places(final))
    assert caught.value.code == "reveal_over"
    actions = list(
        AuditEntry.objects.filter(competition=final, action__startswith="reveal").values_list(
            "action", flat=True
        )
    )
    assert actions.count("reveal_next") == 5 and "reveal_start" in actions


@pytest.mark.django_db
def test_without_the_hold_the_final_order_is_public_at_once(final, admin_user):
    reveal_start(competition=final, by=admin_user, from_place=3)
    names, _html = board_names()
    assert names == ["Alfa", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"]
    # The screen still reveals place by place.
    html = screen_html()
    assert "Alfa" not in html and "Charlie" not in html


@pytest.mark.django_db
def test_control_room_panel_drives_the_screen(final, admin_user, client):
    client.force_login(admin_user)
    page = client.get("/control/dm-2026/screen/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'src="/dm-2026/screen/"' in html  # the preview
    client.post("/control/dm-2026/screen/hold", {"hold": "1"})
    client.post("/control/dm-2026/screen/reveal/start", {"from_place": "3"})
    page = client.get("/control/dm-2026/screen/").content.decode()
    assert "Vis næste placering" in page and "Charlie" in page  # staff see who is next
    client.post("/control/dm-2026/screen/reveal/next")
    final.refresh_from_db()
    assert (final.screen_mode, final.reveal_from, final.reveal_at) == ("reveal", 3, 3)
    # Odd input answers with a message, never a 500, and writes nothing.
    for value in ("", "abc", "-1", "99999999999", "²", "٣"):
        response = client.post("/control/dm-2026/screen/reveal/start", {"from_place": value})
        assert response.status_code == 302
    client.post("/control/dm-2026/screen/mode", {"mode": "message", "message": "Pause"})
    final.refresh_from_db()
    assert (final.screen_mode, final.screen_message, final.reveal_at) == ("message", "Pause", 3)


@pytest.mark.django_db
def test_the_screen_may_be_framed_by_our_own_pages_only(competition):
    response = public("/dm-2026/screen/")
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in response["Content-Security-Policy"]
    board = public("/dm-2026/")
    assert board["X-Frame-Options"] == "DENY"


@pytest.mark.django_db
def test_team_page_offers_a_share_link_and_qr(competition, teams):
    import segno

    response = public(f"/dm-2026/teams/{teams[0].pk}/")
    html = response.content.decode()
    url = f"http://testserver/dm-2026/teams/{teams[0].pk}/"
    assert f'value="{url}"' in html
    assert segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True) in html
    assert Competition.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        ("GET", "/control/dm-2026/screen/", 200),
        ("POST", "/control/dm-2026/screen/mode", 302),
        ("POST", "/control/dm-2026/screen/hold", 302),
        ("POST", "/control/dm-2026/screen/reveal/start", 302),
        ("POST", "/control/dm-2026/screen/reveal/next", 302),
        ("GET", "/control/nope/screen/", 404),
        ("POST", "/control/nope/screen/reveal/next", 404),
    ],
)
def test_screen_panel_answers_the_head_judge(
    competition, admin_user, client, method, path, expected
):
    """The exact statuses for the admin (the permission matrix checks the other roles)."""
    client.force_login(admin_user)
    response = client.get(path) if method == "GET" else client.post(path, {})
    assert response.status_code == expected
    if expected == 302:
        assert response["Location"] == "/control/dm-2026/screen/"


@pytest.mark.django_db
def test_a_held_team_page_says_it_waits_for_the_reveal(final, admin_user):
    screen_hold(competition=final, by=admin_user, hold=True)
    reveal_start(competition=final, by=admin_user, from_place=3)
    alfa = final.teams_by_name["Alfa"]
    html = public(f"/dm-2026/teams/{alfa.pk}/").content.decode()
    assert "Alfa" in html and "afsløres ved præmieoverrækkelsen" in html
    assert "2.500" not in html  # neither its pieces nor its place
    echo = final.teams_by_name["Echo"]
    assert "1.000" in public(f"/dm-2026/teams/{echo.pk}/").content.decode()  # not held
    assert public("/dm-2026/teams/999999/").status_code == 404


@pytest.mark.django_db
def test_the_reveal_steps_through_the_places_that_exist(competition, admin_user, start_clock):
    """Ranks 1, 1, 3: the reveal shows place 3, then both teams of place 1, never an empty
    "2. plads" (docs/contracts.md: the reveal steps through the places that exist)."""
    from competition.services import clock_stop
    from judging.services import competition_finalise, count_record, finish_register
    from tests.factories import TeamFactory

    start_clock(competition, ago=timedelta(hours=2))
    teams = {}
    for table, (name, times) in enumerate(
        (("Alfa", (3000, 6000, 7000)), ("Bravo", (3000, 6000, 7000)), ("Charlie", (3000,))),
        start=1,
    ):
        teams[name] = TeamFactory(competition=competition, name=name, table=table)
        for position, elapsed in enumerate(times, start=1):
            finish_register(
                team=teams[name], position=position, by=admin_user, elapsed_seconds=elapsed
            )
    clock_stop(competition=competition, by=admin_user)
    count_record(team=teams["Charlie"], by=admin_user, pieces=900)
    final = competition_finalise(competition=competition, by=admin_user)
    assert reveal_places(final) == [1, 3]

    client = Client()
    client.force_login(admin_user)
    client.post("/control/dm-2026/screen/reveal/start", {"from_place": "3"})
    # The control room names who comes next: Charlie, then both of place 1.
    page = client.get("/control/dm-2026/screen/").content.decode()
    assert "Charlie" in page and "Alfa" not in page
    seen = []
    while True:
        client.post("/control/dm-2026/screen/reveal/next")
        final.refresh_from_db()
        html = screen_html()
        shown = [n for n in teams if f'data-reveal-team="{teams[n].pk}"' in html]
        seen.append((final.reveal_at, shown))
        assert "2. plads" not in html
        if final.reveal_at == 1:
            break
        page = client.get("/control/dm-2026/screen/").content.decode()
        assert "Alfa" in page and "Bravo" in page
        assert len(seen) < 5
    assert seen == [(3, ["Charlie"]), (1, ["Alfa", "Bravo"])]
    assert "1. plads" in html
    with pytest.raises(Refusal) as caught:
        reveal_next(competition=final, by=admin_user, places=reveal_places(final))
    assert caught.value.code == "reveal_over"
