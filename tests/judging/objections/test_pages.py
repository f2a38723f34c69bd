"""R20 pages: the desk's objection form, the resolve form, finalise, official results, CSV."""

import csv
import io

import pytest
from django.urls import reverse

from competition.models import AuditEntry, Competition
from judging.models import Objection
from judging.services import (
    competition_finalise,
    count_record,
    objection_file,
    objection_resolve,
    team_disqualify,
)
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db

SLUG = "dm-2026"


# The pages of the old /objections/ by their new names: the desk files and
# prints, the control room resolves, finalises and exports the audit log.
NAMES = {
    "new": "desk:objection_new",
    "official": "desk:official",
    "resolve": "control:objection_resolve",
    "finalise": "control:finalise",
    "audit_csv": "control:audit_csv",
}


def url(name, **kwargs):
    return reverse(NAMES[name], kwargs={"slug": SLUG, **kwargs})


@pytest.fixture
def objection(ended, teams, desk):
    finish = teams[0].finishes.get(puzzle__position=2)
    return objection_file(team=teams[0], by=desk, text="Et minut for sent", finish=finish)


# --- roles ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "allowed", "refused"),
    [
        ("new", ("desk", "admin"), ("judge",)),
        ("finalise", ("admin",), ("desk", "judge")),
        ("official", ("desk", "admin"), ("judge",)),
        ("audit_csv", ("admin",), ("desk", "judge")),
    ],
)
def test_each_page_by_role(client, make_user, ended, name, allowed, refused):
    response = client.get(url(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    for role in allowed:
        client.force_login(make_user(role, f"u-{role}"))
        assert client.get(url(name)).status_code == 200, role
    for role in refused:
        client.force_login(make_user(role, f"u-{role}"))
        assert client.get(url(name)).status_code == 403, role


def test_resolve_page_by_role(client, desk, judge, admin_user, objection):
    page = url("resolve", pk=objection.pk)
    for user, code in ((desk, 403), (judge, 403), (admin_user, 200)):
        client.force_login(user)
        assert client.get(page).status_code == code


# --- the desk files ---------------------------------------------------------------------


def test_desk_files_an_objection_about_a_finish(client, desk, ended, teams):
    finish = teams[0].finishes.get(puzzle__position=2)
    client.force_login(desk)
    page = client.get(url("new"))
    assert "Indgiv en indsigelse" in page.text
    assert "Puslespil 2 færdigt efter 1:35:00" in page.text
    response = client.post(
        url("new"),
        {"team": teams[0].pk, "about": f"finish:{finish.pk}", "text": "Et minut for sent"},
        follow=True,
    )
    objection = Objection.objects.get()
    assert (objection.team, objection.finish, objection.filed_by) == (teams[0], finish, desk)
    assert f"Indsigelse nr. {objection.pk} fra bord 1 (Hold 1) er modtaget." in response.text
    assert "Under behandling" in response.text


def test_desk_form_errors_in_danish(client, desk, ended, teams):
    other = teams[1].finishes.get()
    client.force_login(desk)
    response = client.post(url("new"), {"team": teams[0].pk, "text": " "})
    assert response.status_code == 200
    assert "Dette felt er påkrævet" in response.text or "Skriv, hvad holdet" in response.text
    response = client.post(
        url("new"), {"team": teams[0].pk, "about": f"finish:{other.pk}", "text": "x"}
    )
    assert response.status_code == 200
    assert not Objection.objects.exists()


def test_choosing_the_team_narrows_the_choices(client, desk, ended, teams):
    client.force_login(desk)
    response = client.get(url("new"), {"team": teams[1].pk}, HTTP_HX_REQUEST="true")
    assert response.text.strip().startswith(f'<div id="about-field" data-team="{teams[1].pk}">')
    assert "Puslespil 1 færdigt efter 0:50:00" in response.text
    assert "1:35:00" not in response.text  # table 1's finish


def test_choosing_the_team_keeps_a_record_of_that_team_already_chosen(client, desk, ended, teams):
    """The desk picks the team, then at once the finish in the full list: the narrowed field
    that the team's choice brings back keeps that finish chosen, and drops another team's."""
    client.force_login(desk)
    own, other = teams[1].finishes.get(), teams[0].finishes.first()
    answer = client.get(
        url("new"), {"team": teams[1].pk, "about": f"finish:{own.pk}"}, HTTP_HX_REQUEST="true"
    )
    assert f'<option value="finish:{own.pk}" selected>' in answer.text
    answer = client.get(
        url("new"), {"team": teams[1].pk, "about": f"finish:{other.pk}"}, HTTP_HX_REQUEST="true"
    )
    assert f'value="finish:{other.pk}"' not in answer.text
    assert " selected" not in answer.text.replace('value="" selected', "")


def test_desk_page_queries_do_not_grow_with_teams(
    client, desk, ended, teams, django_assert_max_num_queries
):
    client.force_login(desk)
    for i in range(4, 40):
        team = TeamFactory(competition=ended, name=f"Hold {i}", table=i)
        objection_file(team=team, by=desk, text="x")
    with django_assert_max_num_queries(14):
        assert client.get(url("new")).status_code == 200


# --- the admin resolves -----------------------------------------------------------------


def test_admin_upholds_with_a_time_correction(client, admin_user, objection):
    client.force_login(admin_user)
    page = client.get(url("resolve", pk=objection.pk))
    assert "Nu efter 1:35:00 på konkurrenceuret. Tomt: uændret." in page.text
    response = client.post(
        url("resolve", pk=objection.pk) + "?next=/desk/dm-2026/objections/",
        {"decision": "upheld", "note": "Dommeren bekræfter", "elapsed": "1:34:00", "next": ""},
    )
    assert response.status_code == 302
    objection.refresh_from_db()
    assert objection.decision == "upheld"
    assert objection.finish.elapsed_seconds == 94 * 60
    entry = AuditEntry.objects.get(action="finish_correct")
    assert entry.objection_id == objection.pk
    assert entry.reason == "Dommeren bekræfter"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"decision": "upheld", "note": "x", "elapsed": "1:99:00"}, "t:mm:ss eller m:ss"),
        ({"decision": "upheld", "note": "x", "elapsed": "kl. 13"}, "t:mm:ss eller m:ss"),
        ({"decision": "upheld", "note": "x", "elapsed": "95"}, "t:mm:ss eller m:ss"),
        ({"decision": "upheld", "note": "x", "missing": "1, a"}, "som et helt tal på mindst 1"),
        ({"decision": "upheld", "note": "x", "missing": "0, 1"}, "som et helt tal på mindst 1"),
        ({"decision": "upheld", "note": "x", "missing": "-1"}, "som et helt tal på mindst 1"),
        ({"decision": "upheld", "note": "x", "elapsed": "0:20:00"}, "ligger ikke mellem"),
        ({"decision": "rejected", "note": "x", "elapsed": "1:34:00"}, "udelad rettelsen"),
    ],
)
def test_resolve_form_refuses_bad_input_with_a_message(
    client, admin_user, objection, data, message
):
    client.force_login(admin_user)
    response = client.post(url("resolve", pk=objection.pk), data, follow=True)
    assert message in response.text, response.text[-3000:]
    objection.refresh_from_db()
    assert objection.is_open
    assert objection.finish.elapsed_seconds == 95 * 60


# --- finalise ---------------------------------------------------------------------------


def test_finalise_refusals_are_shown_and_then_it_is_accepted(
    client, admin_user, judge, objection, teams
):
    client.force_login(admin_user)
    panel = client.get(url("finalise")).text
    assert "Indsigelser under behandling:" in panel
    assert "Optælling mangler for:" in panel
    assert "Hold 2 (bord 2)" in panel

    response = client.post(url("finalise"), {"confirm": "yes"}, follow=True)
    assert "Indsigelser er stadig under behandling (bord 1)" in response.text
    objection_resolve(objection=objection, by=admin_user, decision="rejected", note="Nej")

    response = client.post(url("finalise"), {"confirm": "yes"}, follow=True)
    assert "Der mangler optælling for: Hold 1 (bord 1), Hold 2 (bord 2), Hold 3 (bord 3)." in (
        response.text
    )
    for team, pieces in zip(teams, (300, 420, 0), strict=True):
        count_record(team=team, by=judge, pieces=pieces)

    response = client.post(url("finalise"), {}, follow=True)
    assert "Sæt flueben" in response.text
    assert not Competition.objects.get(slug=SLUG).is_final

    response = client.post(url("finalise"), {"confirm": "yes"}, follow=True)
    assert "Resultaterne er endelige" in response.text
    assert Competition.objects.get(slug=SLUG).is_final
    panel = client.get(url("finalise")).text
    assert "Resultaterne blev endelige" in panel
    assert "Gør resultaterne endelige</button>" not in panel


def test_desk_cannot_file_once_final(client, desk, admin_user, counted, teams):
    competition_finalise(competition=counted, by=admin_user)
    client.force_login(desk)
    page = client.get(url("new"))
    assert "inden præmieoverrækkelsen" in page.text
    response = client.post(url("new"), {"team": teams[0].pk, "text": "For sent"}, follow=True)
    assert "inden præmieoverrækkelsen" in response.text
    assert not Objection.objects.exists()


# --- official results -------------------------------------------------------------------


def test_official_results_show_ranks_times_counts_and_disqualification(
    client, desk, admin_user, counted, teams
):
    team_disqualify(team=teams[1], by=admin_user, reason="Hjælp udefra (R18)")
    client.force_login(desk)
    page = client.get(url("official")).text
    assert "Foreløbige resultater" in page
    assert "1:35:00" in page and "−1" in page  # puzzle 2 with a lone missing piece
    assert "talt 300" in page
    assert "1.799" in page  # 500 + 999 + 300, Danish thousands
    assert "Diskvalificeret: Hjælp udefra (R18)" in page
    assert "DSQ" in page
    assert page.index("Hold 1") < page.index("Hold 3") < page.index("Hold 2")

    competition_finalise(competition=counted, by=admin_user)
    page = client.get(url("official")).text
    assert "Endelige resultater" in page
    assert "Endelige siden" in page
    assert "overdommer" in page


def test_official_results_queries_do_not_grow_with_teams(
    client, desk, counted, django_assert_max_num_queries
):
    for i in range(4, 60):
        TeamFactory(competition=counted, name=f"Hold {i}", table=i)
    client.force_login(desk)
    with django_assert_max_num_queries(12):
        page = client.get(url("official"))
    assert "Hold 59" in page.text


# --- audit log --------------------------------------------------------------------------


def test_audit_csv_has_bom_semicolons_and_before_after(client, admin_user, objection):
    objection_resolve(
        objection=objection,
        by=admin_user,
        decision="upheld",
        note="Dommeren bekræfter",
        elapsed_seconds=94 * 60,
    )
    client.force_login(admin_user)
    response = client.get(url("audit_csv"))
    assert response["Content-Type"].startswith("text/csv")
    raw = response.content.decode("utf-8")
    assert raw.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(raw[1:]), delimiter=";"))
    assert rows[0][:3] == ["Tid", "Bruger", "Handling"]
    assert rows[0][7:] == ["Hvad skete", "Ændringer"]
    correction = next(r for r in rows if r[2] == "Registrering rettet")
    assert correction[1] == "overdommer"
    assert correction[3:5] == ["1", "Hold 1"]
    assert correction[5] == str(objection.pk)
    assert correction[6] == "Dommeren bekræfter"
    assert correction[7] == "Overdommer overdommer rettede registreringen af puslespil 2"
    assert correction[8] == "Tid: 1:35:00 → 1:34:00"
    assert [r[2] for r in rows[1:]][:2] == ["Uret startet", "Registrering"]


def test_control_room_shows_the_panel(client, admin_user, objection, teams):
    client.force_login(admin_user)
    page = client.get(reverse("control:room", kwargs={"slug": SLUG})).text
    assert "Indsigelser og endelige resultater" in page
    assert "Et minut for sent" in page
    assert url("resolve", pk=objection.pk) in page
    assert "Optælling mangler for:" in page


def test_a_double_tap_on_file_files_one_objection(client, desk, ended, teams):
    client.force_login(desk)
    url = reverse("desk:objection_new", args=[ended.slug])
    for _ in range(2):
        response = client.post(url, {"team": teams[0].pk, "about": "", "text": "Forkert tid"})
        assert response.status_code == 302
    assert Objection.objects.count() == 1
