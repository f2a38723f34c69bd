"""An organiser's own sign-up sheet, as it was walked.

"Deltagere" holds the members (on separate lines of one cell, or with commas), "Alder" one
age per member ("55, 55, 44, 10"), "Ledsager" the adult of the team's under-15s (R3), and
"Betalt" what people write ("Betalt", "ja (MobilePay)", ✓). A 12-year-old without an adult is
a problem, never "✓ Ingen problemer"; the corrected sheet, uploaded again, keeps the desk's
column choices."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from competition import imports
from competition.imports.marks import mark_value
from competition.models import Member, Team
from tests.organiser_sheet import ROWS, as_csv, as_xlsx, with_adult

pytestmark = pytest.mark.django_db
URL = reverse("desk:import", args=["dm-2026"])


def upload(client, content: bytes, name: str):
    return client.post(URL, {"file": SimpleUploadedFile(name, content)})


@pytest.mark.parametrize("name", ["t.csv", "t.xlsx"])
def test_the_organisers_sheet_reads_members_ages_adult_and_fees(competition, name):
    # The sheet is made inside the test: an XLSX holds its creation time, and pytest-xdist's
    # workers must collect the same parameters.
    content = as_csv() if name.endswith(".csv") else as_xlsx()
    plan = imports.preview(competition, content, name)
    keys = {c["header"]: c["key"] for c in plan.columns}
    assert keys["Deltagere"] == "members:0" and keys["Alder"] == "age:0"
    assert keys["Ledsager"] == "adult:0"
    family, brikke, kant, tusind = plan.teams
    # Names on separate lines of one cell are separate members (the card, the pace check).
    assert [m["name"] for m in family.members] == [
        "Line Kristensen",
        "Morten Kristensen",
        "Hanne Kristensen",
        "Oskar Kristensen",
    ]
    assert family.members[3] == {
        "name": "Oskar Kristensen",
        "under_15": True,
        "guardian": "Line Kristensen",
    }
    assert not any(m["under_15"] for m in family.members[:3])
    assert family.problems == [] and family.fee_paid
    # The 12-year-old without an adult: a problem (R3), not "no problems".
    assert brikke.members[1] == {"name": "Karen Nielsen", "under_15": True, "guardian": ""}
    assert brikke.problems == [
        "Karen Nielsen er under 15 år og skal have navnet på en ledsagende voksen (regel 3)."
    ]
    assert brikke.fee_paid  # "Betalt"
    assert [m["name"] for m in kant.members] == ["Anne Jensen", "Bo Jensen"]
    assert kant.fee_paid and not kant.problems  # "✓", ages "40 år, 41 år"
    assert not tusind.fee_paid and not tusind.problems  # "ikke betalt"


def test_the_preview_page_shows_the_child_without_an_adult_as_a_problem(client, desk, competition):
    client.force_login(desk)
    html = upload(client, as_csv(), "tilmeldinger.csv").content.decode()
    assert (
        "1 problem skal rettes før importen – i regnearket eller i kolonnevalget ovenfor." in html
    )
    assert "Karen Nielsen er under 15 år og skal have navnet på en ledsagende voksen" in html
    assert "(ingen voksen)" in html
    # The age column can be chosen in the column choices (it had no option before).
    assert '<option value="age:0" selected>Alder pr. holdmedlem</option>' in html


def test_the_adult_is_stored_on_the_under_15_member(client, desk, competition):
    rows = with_adult(ROWS[:2], 1, "Søren Nielsen")
    client.force_login(desk)
    response = upload(client, as_csv(rows), "t.csv")
    assert response.context["preview"].ok
    assert client.post(URL, {"token": response.context["token"]}).status_code == 302
    assert Member.objects.get(name="Karen Nielsen").guardian == "Søren Nielsen"
    assert Member.objects.get(name="Oskar Kristensen").guardian == "Line Kristensen"
    assert not Member.objects.get(name="Line Kristensen").under_15
    assert Team.objects.get(name="Familien Kristensen").members.count() == 4


def test_ages_that_do_not_match_the_members_are_a_problem(competition):
    rows = [["x", "A", "Anne, Bo, Ida", "40, 12", "", "", ""]]
    plan = imports.preview(competition, as_csv(rows), "t.csv")
    assert "Kolonnen »Alder« har 2 aldre til 3 holdmedlemmer" in " ".join(plan.teams[0].problems)


def test_an_adult_without_any_age_is_a_problem_not_silently_dropped(competition):
    headers = ["Holdnavn", "Deltagere", "Ledsager"]
    plan = imports.preview(competition, as_csv([["A", "Anne\nIda", "Anne"]], headers), "t.csv")
    assert "siger ikke, hvem der er under 15" in " ".join(plan.teams[0].problems)


@pytest.mark.parametrize(
    ("value", "paid"),
    [
        ("Betalt", True),
        ("ja (MobilePay)", True),
        ("x", True),
        ("X", True),
        ("ja", True),
        ("yes", True),
        ("✓", True),
        ("✔", True),
        ("MobilePay", True),
        ("betalt 12/10", True),
        ("", False),
        ("nej", False),
        ("Nej (betaler på dagen)", False),
        ("ikke betalt", False),
        ("0", False),
        ("måske", None),
        ("150 kr", None),
    ],
)
def test_paid_values(value, paid):
    assert mark_value(value) is paid


def test_a_paid_value_not_understood_names_the_column_and_the_value(competition):
    headers = ["Holdnavn", "Deltagere", "Har I betalt?"]
    plan = imports.preview(competition, as_csv([["A", "Anne", "måske"]], headers), "t.csv")
    assert plan.teams[0].problems == [
        "Kolonnen »Har I betalt?« forstår ikke »måske«. "
        "Skriv ja eller x, eller lad feltet stå tomt."
    ]


def test_the_corrected_sheet_keeps_the_column_choices(client, desk, competition):
    """Point 2: the organiser set "Navn" to the team name and "Person" to the members, fixed
    the sheet and uploaded it again: the choices are used again, not 80 problems anew."""
    client.force_login(desk)
    headers = ["Navn", "Person", "Note til os"]
    broken = as_csv([["Kantsøgerne", "Anne\nBo", "x"], ["Brikkebanden", "", ""]], headers)
    response = upload(client, broken, "v1.csv")
    token = response.context["token"]
    response = client.post(
        URL,
        {"token": token, "col-0": "name:0", "col-1": "members:0", "col-2": "", "remap": "1"},
    )
    plan = response.context["preview"]
    assert "Holdet har ingen holdmedlemmer" in " ".join(plan.teams[1].problems)
    client.post(URL, {"token": token, "cancel": "1"})

    fixed = as_csv([["Kantsøgerne", "Anne\nBo", "x"], ["Brikkebanden", "Søren", ""]], headers)
    response = upload(client, fixed, "v2.csv")
    plan = response.context["preview"]
    assert plan.ok, [t.problems for t in plan.teams]
    assert [c["key"] for c in plan.columns] == ["name:0", "members:0", ""]
    html = response.content.decode()
    assert "Dine kolonnevalg fra sidste upload er brugt igen" in html
    assert (
        client.post(
            URL,
            {
                "token": response.context["token"],
                "col-0": "name:0",
                "col-1": "members:0",
                "col-2": "",
            },
        ).status_code
        == 302
    )
    assert Team.objects.get(name="Kantsøgerne").members.count() == 2
    # Only the column names are kept (no personal data), for the championship's discipline.
    assert imports.columns_recall(competition) == {"navn": "name:0", "person": "members:0"}


def test_a_column_set_back_to_its_own_reading_is_forgotten(client, desk, competition):
    client.force_login(desk)
    response = upload(client, as_csv(), "t.csv")
    token = response.context["token"]
    client.post(URL, {"token": token, "col-3": "", "remap": "1"})
    assert imports.columns_recall(competition) == {"alder": ""}
    client.post(URL, {"token": token, "col-3": "age:0", "remap": "1"})
    assert imports.columns_recall(competition) == {}
