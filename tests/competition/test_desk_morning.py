"""The desk's list and its morning.

The lit filter pill follows the filter; a fee marked paid says so, and unmarking it is a
visible button (no hover tooltip: none on touch); a walk-in registered on the day is checked
in as it registers and lands first; after the deadline the missing teams come first with the
contact's phone, and "Mangler" lists them to print; a late check-in shows "sent" and leaves an
audit trace; a member change suggests reprinting the card; the objections page has the desk's
menu."""

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Competition, Team
from tests.factories import MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db
SLUG = "dm-2026"
COPENHAGEN = ZoneInfo("Europe/Copenhagen")
HX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "team-list"}


def desk_url(**params):
    url = reverse("desk:teams", args=[SLUG])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def deadline_passed(competition, minutes=5):
    """The check-in deadline (start − 15 min) passed `minutes` ago."""
    Competition.objects.filter(pk=competition.pk).update(
        starts_at=timezone.now() + timedelta(minutes=15 - minutes)
    )


@pytest.fixture
def day(competition, desk, client):
    teams = [
        TeamFactory(competition=competition, name="Kantsøgerne", table=1, contact_phone=""),
        TeamFactory(
            competition=competition,
            name="Brikkebanden",
            table=2,
            contact_name="Søren Nielsen",
            contact_phone="20 30 40 50",
        ),
        TeamFactory(competition=competition, name="Puslingerne", table=3),
    ]
    for team in teams:
        MemberFactory(team=team, name=f"Medlem af {team.name}")
    Team.objects.filter(pk=teams[0].pk).update(checked_in_at=timezone.now() - timedelta(hours=1))
    client.force_login(desk)
    return teams


def test_the_filter_answer_lights_the_chosen_pill_and_keeps_it_for_the_search(client, day):
    html = client.get(desk_url(f="unpaid"), **HX).content.decode()
    nav = html[html.index('id="desk-filters"') :]
    assert 'hx-swap-oob="true"' in nav[:200]
    active = nav[nav.index("active") - 200 : nav.index("active") + 300]
    assert "Ikke betalt" in active and 'aria-current="true"' in active
    assert '<input type="hidden" id="desk-f" name="f" value="unpaid" hx-swap-oob="true">' in html


def test_marking_a_fee_paid_says_so_and_unmarking_is_a_visible_button(client, day):
    team = day[1]
    url = reverse("desk:fee", args=[SLUG, team.pk])
    html = client.post(url, {"paid": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Bord 2 »Brikkebanden«: gebyret er markeret betalt." in html
    assert 'id="desk-status"' in html and "just-changed" in html
    assert ">Markér ikke betalt</button>" in html
    html = client.post(url, {"paid": "0"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Bord 2 »Brikkebanden«: gebyret er markeret ikke betalt." in html
    assert not Team.objects.get(pk=team.pk).fee_paid


def test_a_walk_in_on_the_day_is_checked_in_as_it_registers_and_lands_first(
    client, day, competition
):
    Competition.objects.filter(pk=competition.pk).update(starts_at=timezone.now())
    form = client.get(reverse("desk:team_new", args=[SLUG])).content.decode()
    assert 'name="check_in" id="id_check_in" value="1" checked' in form
    response = client.post(
        reverse("desk:team_new", args=[SLUG]),
        {
            "name": "Sidste Brik",
            "table": "41",
            "check_in": "1",
            "members-TOTAL_FORMS": "1",
            "members-INITIAL_FORMS": "0",
            "members-0-name": "Ole Walk-in",
        },
    )
    team = Team.objects.get(name="Sidste Brik")
    assert team.checked_in_at is not None
    assert response["Location"] == desk_url(added=team.pk)
    html = client.get(response["Location"]).content.decode()
    rows = [html.index(f'id="team-{t.pk}"') for t in [team, *day]]
    assert rows[0] == min(rows)  # first, not off-screen at table 41
    assert "lige tilmeldt" in html
    assert "»Sidste Brik« står øverst på listen. Holdets bordkort:" in html
    assert f"/desk/{SLUG}/cards/?team={team.pk}" in html
    assert AuditEntry.objects.get(action="team_create", team=team).after["checked_in_at"]


def test_not_on_the_day_the_registration_does_not_check_in(client, day, competition):
    Competition.objects.filter(pk=competition.pk).update(
        starts_at=timezone.now() + timedelta(days=9)
    )
    form = client.get(reverse("desk:team_new", args=[SLUG])).content.decode()
    assert 'name="check_in" id="id_check_in" value="1">' in form  # offered, not ticked


def test_after_the_deadline_the_missing_teams_come_first_with_the_phone(
    client, day, competition, django_assert_max_num_queries
):
    deadline_passed(competition)
    with django_assert_max_num_queries(8):
        html = client.get(desk_url()).content.decode()
    order = [html.index(f'id="team-{t.pk}"') for t in day]
    assert order[1] < order[2] < order[0]  # the missing two by table, then the one here
    assert '☎ <a href="tel:20304050" class="num">20 30 40 50</a> (Søren Nielsen)' in html
    assert "Fristen for tjek-ind er overskredet: 2 hold mangler" in html
    assert reverse("desk:missing", args=[SLUG]) in html


def test_before_the_deadline_the_list_is_by_table_without_phones(client, day):
    html = client.get(desk_url()).content.decode()
    order = [html.index(f'id="team-{t.pk}"') for t in day]
    assert order == sorted(order)
    assert "tel:" not in html


def test_the_missing_page_lists_the_missing_teams_with_phones_to_print(
    client, day, competition, django_assert_max_num_queries
):
    deadline_passed(competition)
    with django_assert_max_num_queries(6):
        html = client.get(reverse("desk:missing", args=[SLUG])).content.decode()
    assert "Mangler ved tjek-ind: 2 hold" in html
    assert 'href="tel:20304050"' in html and "Søren Nielsen" in html
    assert "Brikkebanden" in html and "Puslingerne" in html and "Kantsøgerne" not in html
    assert "data-print" in html


def test_a_late_check_in_shows_late_and_leaves_a_trace(client, day, competition):
    deadline_passed(competition)
    team = day[1]
    html = client.post(
        reverse("desk:check_in", args=[SLUG, team.pk]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert ">sent</span>" in html
    assert "– efter fristen." in html
    entry = AuditEntry.objects.get(action="team_check_in", team=team)
    assert entry.reason.startswith("Tjekket ind efter fristen (")


def test_an_in_time_check_in_is_not_late(client, day):
    team = day[1]
    html = client.post(
        reverse("desk:check_in", args=[SLUG, team.pk]), HTTP_HX_REQUEST="true"
    ).content.decode()
    assert ">sent</span>" not in html
    assert AuditEntry.objects.get(action="team_check_in", team=team).reason == ""


def _edit(client, team, members):
    data = {
        "name": team.name,
        "table": str(team.table),
        "members-TOTAL_FORMS": str(len(members)),
        "members-INITIAL_FORMS": "0",
    }
    for i, name in enumerate(members):
        data[f"members-{i}-name"] = name
    return client.post(reverse("desk:team_edit", args=[SLUG, team.pk]), data)


def test_a_member_change_suggests_reprinting_the_card(client, day):
    team = day[1]
    response = _edit(client, team, ["Medlem af Brikkebanden", "Karen Nielsen"])
    assert response["Location"] == desk_url(reprint=team.pk)
    html = client.get(response["Location"]).content.decode()
    assert "bordkortet på bord 2 viser stadig de gamle oplysninger" in html
    assert f"/desk/{SLUG}/cards/?team={team.pk}" in html


def test_an_edit_that_leaves_the_card_as_it_was_does_not_suggest_a_reprint(client, day):
    team = day[1]
    response = _edit(client, team, ["Medlem af Brikkebanden"])
    assert response["Location"] == desk_url()


@pytest.mark.parametrize("name", ["desk:objection_new", "desk:official"])
def test_the_objections_and_official_results_pages_have_the_desks_menu(client, day, name):
    html = client.get(reverse(name, args=[SLUG])).content.decode()
    menu = html[: html.index("<main")]
    for label in ("Tilmeld hold", "Importér", "Bordkort", "Mangler", "Indsigelser"):
        assert f">{label}</a>" in menu, label


def test_a_walk_in_at_five_to_midnight_for_a_start_just_after_is_checked_in(
    client, day, competition, monkeypatch
):
    """The desk's morning is measured from now, not by the local date: at 23:55 a start at
    00:05 is ten minutes away (the browser test ran into this at 23:50 Danish time)."""
    tomorrow = timezone.localdate() + timedelta(days=1)
    midnight = datetime.combine(tomorrow, datetime.min.time(), tzinfo=COPENHAGEN)
    Competition.objects.filter(pk=competition.pk).update(starts_at=midnight + timedelta(minutes=5))
    five_to = midnight - timedelta(minutes=5)  # tonight: the login's session is still valid
    monkeypatch.setattr(timezone, "now", lambda: five_to)
    form = client.get(reverse("desk:team_new", args=[SLUG])).content.decode()
    assert 'name="check_in" id="id_check_in" value="1" checked' in form
