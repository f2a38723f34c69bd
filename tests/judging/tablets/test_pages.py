"""The tablets panel's pages: QR codes where people are, the judges' join sheet, the paper
judge sheets ("dommerseddel") and entering them in the control room in h:mm:ss."""

import io
from datetime import timedelta

import pytest
import segno

from judging.models import Count, Finish

pytestmark = pytest.mark.django_db


def _svg(url: str, scale: int) -> str:
    return segno.make(url, error="m").svg_inline(scale=scale, border=2, omitsize=True)


def test_the_big_screen_shows_a_qr_code_of_the_leaderboard_on_the_halls_address(
    client, settings, competition
):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    page = client.get(f"/{competition.slug}/screen/").content.decode()
    assert f'<img src="/{competition.slug}/qr.svg"' in page
    assert 'data-origin="192.168.1.20:8000"' in page

    svg = client.get(f"/{competition.slug}/qr.svg")
    assert svg["Content-Type"] == "image/svg+xml"
    expected = segno.make(f"http://192.168.1.20:8000/{competition.slug}/", error="m")
    buffer = io.BytesIO()
    expected.save(buffer, kind="svg", scale=10, border=2, light="#fff")
    assert svg.content == buffer.getvalue()
    assert client.get("/no-such-competition/qr.svg").status_code == 404


def test_without_public_url_the_qr_code_uses_the_address_the_screen_came_to(
    client, settings, competition
):
    settings.ALLOWED_HOSTS = ["10.0.0.5"]
    svg = client.get(f"/{competition.slug}/qr.svg", HTTP_HOST="10.0.0.5:8000")
    buffer = io.BytesIO()
    segno.make(f"http://10.0.0.5:8000/{competition.slug}/", error="m").save(
        buffer, kind="svg", scale=10, border=2, light="#fff"
    )
    assert svg.content == buffer.getvalue()


def test_the_control_room_and_the_join_sheet_show_the_judges_qr_code(
    client, settings, admin_user, competition
):
    settings.PUBLIC_URL = "http://192.168.1.20:8000"
    client.force_login(admin_user)
    judges = f"http://192.168.1.20:8000/judge/{competition.slug}/"
    room = client.get(f"/control/{competition.slug}/").content.decode()
    assert _svg(judges, 3) in room
    assert "virker kun på denne bærbare" not in room

    sheet = client.get(f"/control/{competition.slug}/join/").content.decode()
    assert _svg(judges, 8) in sheet
    assert judges in sheet
    assert "Log ind med det brugernavn og den adgangskode" in sheet
    assert _svg(f"http://192.168.1.20:8000/{competition.slug}/", 4) in sheet


def test_an_address_for_this_laptop_only_is_flagged(client, admin_user, competition):
    client.force_login(admin_user)
    sheet = client.get(f"/control/{competition.slug}/join/", HTTP_HOST="127.0.0.1:8000")
    assert "virker kun på denne bærbare" in sheet.content.decode()


def test_the_paper_judge_sheets_one_per_table_with_the_puzzle_sequence(
    client, judge, competition, teams
):
    client.force_login(judge)
    html = client.get(f"/judge/{competition.slug}/sheets/").content.decode()
    assert html.count('<article class="a4 paper">') == 3
    for team in teams:
        assert team.name in html
    assert "1.000 brikker" in html  # the sequence: 500, 1000, 1000 pieces
    assert html.count('<td class="box">') >= 3 * 3 * 2

    only = client.get(f"/judge/{competition.slug}/sheets/?t=2").content.decode()
    assert only.count('<article class="a4 paper">') == 1
    assert "Hold 2" in only and "Hold 1" not in only


def test_the_control_room_enters_a_paper_sheet_in_h_mm_ss(
    client, admin_user, competition, teams, start_clock
):
    start_clock(competition, ago=timedelta(hours=2))
    client.force_login(admin_user)
    team = teams[0]
    url = f"/control/{competition.slug}/teams/{team.pk}/paper/finish"
    page = client.get(f"/control/{competition.slug}/teams/{team.pk}/").content.decode()
    assert 'name="paper-time"' in page

    client.post(url, {"paper-puzzle": 1, "paper-time": "0:41:07", "paper-missing": "1, 2"})
    finish = Finish.objects.get(team=team)
    assert (finish.elapsed_seconds, finish.missing) == (41 * 60 + 7, [1, 2])

    # 1000 pieces in a minute: implausible, saved only when the head judge confirms it.
    client.post(url, {"paper-puzzle": 2, "paper-time": "0:42:07"})
    assert Finish.objects.filter(team=team).count() == 1
    client.post(url, {"paper-puzzle": 2, "paper-time": "0:42:07", "paper-confirm": "on"})
    assert Finish.objects.filter(team=team).count() == 2

    # The same shapes as the tablet (competition.fields): no minute 61, no bare seconds, and
    # "0" alone is no missing spots while a 0 among spots is refused.
    for time in ("1:61:00", "95"):
        answer = client.post(url, {"paper-puzzle": 3, "paper-time": time}, follow=True)
        assert "Skriv tiden som t:mm:ss eller m:ss" in answer.content.decode()
    answer = client.post(
        url, {"paper-puzzle": 3, "paper-time": "0:50:00", "paper-missing": "0, 1"}, follow=True
    )
    assert "som et helt tal på mindst 1" in answer.content.decode()
    assert Finish.objects.filter(team=team).count() == 2
    client.post(
        url,
        {"paper-puzzle": 3, "paper-time": "50:00", "paper-missing": "0", "paper-confirm": "on"},
    )
    assert Finish.objects.get(team=team, puzzle__position=3).missing == []


def test_the_correction_form_takes_the_paper_sheets_time(
    client, admin_user, competition, teams, start_clock, judge
):
    from judging.services import finish_register

    start_clock(competition, ago=timedelta(hours=2))
    finish = finish_register(team=teams[1], position=1, by=judge, elapsed_seconds=1800)
    client.force_login(admin_user)
    client.post(
        f"/control/{competition.slug}/teams/{teams[1].pk}/finishes/{finish.pk}/correct",
        {f"f{finish.pk}-time": "0:31:09", f"f{finish.pk}-reason": "dommerseddel"},
    )
    finish.refresh_from_db()
    assert finish.elapsed_seconds == 31 * 60 + 9


def test_the_paper_count_once_time_is_up(client, admin_user, competition, teams, start_clock):
    start_clock(competition, ago=timedelta(hours=4))
    client.force_login(admin_user)
    url = f"/control/{competition.slug}/teams/{teams[2].pk}/paper/count"
    client.post(url, {"papercount-pieces": 2})  # R9: 1 or 2 pieces do not count
    assert not Count.objects.exists()
    client.post(url, {"papercount-pieces": 120})
    assert Count.objects.get(team=teams[2]).pieces == 120
