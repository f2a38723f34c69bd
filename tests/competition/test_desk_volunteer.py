"""The organiser at the desk: "Ny konkurrence" for the admin, the short name from
the name (æ, ø, å), the error summary on every form with errors, what to check at check-in,
and the import preview that does not call a fine row a problem."""

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from competition.models import Competition
from competition.services import competition_create
from competition.slugs import slug_from, slug_valid
from tests.factories import CompetitionFactory, MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db

SLUG = "dm-2026"
NEW = reverse("desk:competition_new")
SLUG_JS = Path(__file__).resolve().parents[2] / "static" / "js" / "slug.mjs"


def text(response) -> str:
    return html.unescape(response.content.decode())


def new_competition(**overrides) -> dict:
    data = {
        "name": "DM i puslespil 2027",
        "slug": "",
        "venue": "Hallen",
        "starts_at": "2027-11-28T10:00",
        "duration_minutes": "180",
        "max_at_table": "4",
    }
    data.update(overrides)
    return data


# --- 1: "Ny konkurrence" for the admin only ---------------------------------------------------


def test_home_links_new_competition_for_the_admin_only(client, admin_user, desk, judge):
    client.force_login(admin_user)
    assert f'href="{NEW}"' in client.get("/").content.decode()
    assert "Ny konkurrence" in text(client.get("/"))
    for user in (desk, judge, None):
        client.logout()
        if user:
            client.force_login(user)
        assert f'href="{NEW}"' not in client.get("/").content.decode()


def test_home_without_competitions_still_offers_the_admin_a_new_one(client, admin_user):
    client.force_login(admin_user)
    page = client.get("/").content.decode()
    assert not Competition.objects.exists()
    assert f'href="{NEW}"' in page


def test_desk_links_new_competition_for_the_admin_only(client, admin_user, desk, competition):
    desk_page = reverse("desk:teams", args=[SLUG])
    client.force_login(admin_user)
    assert f'href="{NEW}"' in client.get(desk_page).content.decode()
    client.force_login(desk)
    assert f'href="{NEW}"' not in client.get(desk_page).content.decode()
    assert client.get(NEW).status_code == 403  # and the page itself refuses the desk


# --- 2: the short name, suggested and derived the same way ----------------------------------

NAMES = {
    "DM i puslespil 2027 – Århus": "dm-i-puslespil-2027-aarhus",
    "dm-2027-æøå": "dm-2027-aeoeaa",
    "ÆBLEKAGE & Ørkensand": "aeblekage-oerkensand",
    "Café Noël, Göteborg": "cafe-noel-goteborg",
    "  --Hold__på  tværs--  ": "hold-paa-tvaers",
    "!!!": "",
    "x" * 60: "x" * 50,
    "a" * 49 + " b": "a" * 49,
}


@pytest.mark.parametrize(("name", "slug"), NAMES.items())
def test_slug_from_a_danish_name(name, slug):
    assert slug_from(name) == slug
    assert slug == "" or slug_valid(slug)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_suggests_the_same_short_name_as_the_server():
    script = (
        f"import {{ slugFrom }} from {json.dumps(SLUG_JS.as_uri())};"
        f"const names = {json.dumps(list(NAMES))};"
        "process.stdout.write(JSON.stringify(names.map(slugFrom)));"
    )
    out = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == [slug_from(name) for name in NAMES]


def test_new_competition_accepts_danish_letters_in_the_short_name(client, admin_user):
    client.force_login(admin_user)
    response = client.post(NEW, new_competition(slug="dm-2027-æøå"))
    assert response.status_code == 302
    assert Competition.objects.get().slug == "dm-2027-aeoeaa"
    assert response["Location"] == reverse("desk:setup", args=["dm-2027-aeoeaa"])


def test_new_competition_without_a_short_name_gets_one_from_the_name(client, admin_user):
    client.force_login(admin_user)
    response = client.post(NEW, new_competition(name="Jyske Mesterskaber – Århus 2027"))
    assert response.status_code == 302
    assert Competition.objects.get().slug == "jyske-mesterskaber-aarhus-2027"


def test_a_short_name_without_letters_is_refused_in_danish(client, admin_user):
    client.force_login(admin_user)
    response = client.post(NEW, new_competition(name="!!!", slug="???"))
    assert response.status_code == 200
    assert "Skriv et kort navn med bogstaverne a–z eller tal, fx dm-2027." in text(response)
    assert not Competition.objects.exists()


def test_the_new_form_suggests_the_short_name_and_setup_does_not(client, admin_user, competition):
    client.force_login(admin_user)
    page = client.get(NEW).content.decode()
    assert 'data-slug-from="id_name"' in page
    assert "js/slug.mjs" in page
    setup = client.get(reverse("desk:setup", args=[SLUG])).content.decode()
    assert 'data-slug-from="id_name"' not in setup  # renaming must not move the address


def test_setup_keeps_a_stored_short_name_it_would_write_otherwise(client, admin_user):
    # Made through the API or before this check: saving the setup must not move its address.
    competition = CompetitionFactory(slug="DM_2026", name="DM 2026")
    client.force_login(admin_user)
    data = new_competition(name="DM 2026 i Odense", slug="DM_2026")
    data.update({"puzzles-TOTAL_FORMS": "0", "puzzles-INITIAL_FORMS": "0"})
    response = client.post(reverse("desk:setup", args=["DM_2026"]), data)
    assert response.status_code == 302
    competition.refresh_from_db()
    assert (competition.slug, competition.name) == ("DM_2026", "DM 2026 i Odense")


def test_the_service_refuses_a_short_name_with_other_characters(admin_user, competition):
    with pytest.raises(ValidationError) as refused:
        competition_create(by=admin_user, slug="DM_2027", name="X", starts_at=competition.starts_at)
    assert "a–z, digits and hyphens" in str(refused.value) or "a–z, tal og bindestreger" in str(
        refused.value
    )
    assert not Competition.objects.filter(slug="DM_2027").exists()


def test_the_api_answers_400_with_the_message_for_such_a_short_name(api_as, admin_user):
    response = api_as(admin_user).post(
        "/api/v1/competitions/",
        {"slug": "DM_2027", "name": "X", "starts_at": "2027-11-28T10:00:00+01:00"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="da",
    )
    assert response.status_code == 400
    assert "a–z, tal og bindestreger" in json.dumps(response.json(), ensure_ascii=False)


# --- 3: the error summary ---------------------------------------------------------------------


def _summary(page: str) -> str:
    found = re.search(r'<div class="error-summary".*?</div>', page, re.S)
    assert found, "no error summary on the page"
    return found.group(0)


def test_team_form_error_summary_links_to_the_adult_field(client, desk, competition):
    client.force_login(desk)
    response = client.post(
        reverse("desk:team_new", args=[SLUG]),
        {
            "name": "Kantsøgerne",
            "table": "7",
            "members-TOTAL_FORMS": "2",
            "members-INITIAL_FORMS": "0",
            "members-0-name": "Anne Jensen",
            "members-1-name": "Ida Jensen",
            "members-1-under_15": "on",
            "members-1-guardian": "",
        },
    )
    assert response.status_code == 200
    page = text(response)
    summary = _summary(page)
    assert "Der er et problem" in summary
    assert 'href="#id_members-1-guardian"' in summary
    assert "Holdmedlem 2, Ledsagende voksen: Et holdmedlem under 15" in summary
    assert 'id="id_members-1-guardian"' in page  # the link leads to a field on the page
    # At the top, before the form; it takes the focus (static/js/forms.mjs, no inline script).
    assert page.index("error-summary") < page.index('<form method="post" class="form stack')
    assert 'tabindex="-1" data-error-summary' in summary
    assert "js/forms.mjs" in page


def test_competition_form_error_summary_names_each_field(client, admin_user):
    client.force_login(admin_user)
    response = client.post(NEW, new_competition(starts_at="", duration_minutes="0"))
    summary = _summary(text(response))
    assert 'href="#id_starts_at"' in summary and "Planlagt start:" in summary
    assert 'href="#id_duration_minutes"' in summary and "Varighed (minutter):" in summary


def test_service_errors_reach_the_summary_too(client, admin_user):
    client.force_login(admin_user)
    response = client.post(NEW, new_competition(slug="desk"))  # reserved: the model says no
    summary = _summary(text(response))
    assert 'href="#id_slug"' in summary and "bruges af programmet selv" in summary


def test_no_summary_without_errors(client, desk, competition):
    client.force_login(desk)
    page = client.get(reverse("desk:team_new", args=[SLUG])).content.decode()
    assert "error-summary" not in page and "forms.mjs" not in page


# --- 5: what to check at check-in -------------------------------------------------------------


def test_check_in_row_shows_the_adult_and_the_unpaid_fee(client, desk, competition):
    family = TeamFactory(competition=competition, name="Familien", table=1, fee_paid=False)
    MemberFactory(team=family, name="Kim Lund")
    MemberFactory(team=family, name="Ida Lund", under_15=True, guardian="Kim Lund")
    paid = TeamFactory(competition=competition, name="Betalerne", table=2, fee_paid=True)
    MemberFactory(team=paid, name="Bo Berg")
    client.force_login(desk)
    page = text(client.get(reverse("desk:teams", args=[SLUG])))
    rows = {chunk.split('"')[0]: chunk for chunk in page.split('<li id="team-')[1:]}
    assert "Ida Lund (under 15): ledsaget af Kim Lund" in rows[str(family.pk)]
    assert '<li class="check-unpaid">ikke betalt</li>' in rows[str(family.pk)]
    assert "check-unpaid" not in rows[str(paid.pk)]
    assert "under 15" not in rows[str(paid.pk)]


def test_the_row_after_a_check_in_tap_still_shows_the_adult(client, desk, competition):
    team = TeamFactory(competition=competition, name="Familien", table=1)
    MemberFactory(team=team, name="Ida Lund", under_15=True, guardian="Kim Lund")
    client.force_login(desk)
    response = client.post(reverse("desk:check_in", args=[SLUG, team.pk]), HTTP_HX_REQUEST="true")
    assert "Ida Lund (under 15): ledsaget af Kim Lund" in text(response)


# --- 6: small things -----------------------------------------------------------------------------


def test_import_preview_does_not_list_a_given_table_as_a_problem(client, desk, competition):
    client.force_login(desk)
    content = "\ufeffhold;medlem 1\r\nKantsøgerne;Anne Jensen\r\n".encode()
    response = client.post(
        reverse("desk:import", args=[SLUG]),
        {"file": SimpleUploadedFile("tilmeldinger.csv", content)},
    )
    page = text(response)
    row = re.search(r"<tr class=\"\">(.*?)</tr>", page, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    assert "Får bord 1 (det næste ledige)." in cells[2]  # beside the team, for information
    assert "Får bord" not in cells[4] and "Ingen problemer" in cells[4]
