"""A real sign-up export (Google Forms), header variants, the mapping shown
and adjustable in the preview, a team without members refused, empty tables given the next
free one, and "import the good rows, leave out the ones with problems"."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from competition import imports
from competition.models import Member, Team

pytestmark = pytest.mark.django_db
URL = reverse("desk:import", args=["dm-2026"])

GOOGLE_FORMS = (
    "Tidsstempel,Holdnavn,E-mailadresse,Telefonnummer,Deltager 1,Deltager 2,Deltager 3,"
    "Deltager 4,Er deltager 4 under 15 år?,Navn på ledsagende voksen,Har I betalt?\n"
    "2026/11/02 9:14:03 PM CET,Kantsøgerne,anne@example.dk,20304050,Anne Jensen,Bo Jensen,"
    "Carl Jensen,Ida Jensen,Ja,Anne Jensen,Ja\n"
    "2026/11/03 8:01:44 AM CET,Brikkebanden,soren@example.dk,,Søren Nielsen,Line Nielsen,,,"
    "Nej,,Nej\n"
)


def upload(client, text: str, name: str = "tilmeldinger.csv"):
    return client.post(URL, {"file": SimpleUploadedFile(name, text.encode("utf-8"))})


def test_google_forms_export_reads_members_fee_adult_and_contacts(competition):
    plan = imports.preview(competition, GOOGLE_FORMS.encode(), "svar.csv")
    assert plan.ok, [t.problems for t in plan.teams]
    first, second = plan.teams
    assert [m["name"] for m in first.members] == [
        "Anne Jensen",
        "Bo Jensen",
        "Carl Jensen",
        "Ida Jensen",
    ]
    assert first.members[3] == {"name": "Ida Jensen", "under_15": True, "guardian": "Anne Jensen"}
    assert not any(m["under_15"] for m in first.members[:3])
    assert first.fee_paid and not second.fee_paid
    assert (first.contact_email, first.contact_phone) == ("anne@example.dk", "20304050")
    assert (first.table, second.table) == (1, 2)
    assert plan.ignored_columns == ["Tidsstempel"]


@pytest.mark.parametrize(
    ("headers", "kinds"),
    [
        ("team;player 1;player 2;paid", ["name:0", "member:1", "member:2", "paid:0"]),
        ("Hold;Spiller 1;Medlem 2;Betalt", ["name:0", "member:1", "member:2", "paid:0"]),
        ("Team name;Member 1;Member 1 age;Email;Phone", None),
        ("holdnavn;deltager 1;alder 1;e-mail;telefon", None),
    ],
)
def test_header_variants(competition, headers, kinds):
    plan = imports.preview(competition, (headers + "\nA;Anne;x;12\n").encode(), "x.csv")
    keys = [c["key"] for c in plan.columns]
    if kinds:
        assert keys == kinds
    else:
        assert keys == ["name:0", "member:1", "age:1", "contact_email:0", "contact_phone:0"]


def test_an_age_under_15_needs_the_adult(competition):
    text = "hold;deltager 1;alder deltager 1;ledsagende voksen\nA;Ida;12;\nB;Bo;40;\n"
    plan = imports.preview(competition, text.encode(), "x.csv")
    assert plan.teams[0].members[0]["under_15"]
    assert "ledsagende voksen" in " ".join(plan.teams[0].problems)
    assert not plan.teams[1].members[0]["under_15"] and not plan.teams[1].problems


def test_a_team_without_members_is_refused(client, desk, competition):
    client.force_login(desk)
    response = upload(client, "hold;bord\nTomme;1\n")
    plan = response.context["preview"]
    assert "Holdet har ingen holdmedlemmer" in " ".join(plan.teams[0].problems)
    html = response.content.decode()
    assert "Importér holdene" not in html


def test_an_empty_table_cell_gets_the_next_free_table(competition):
    text = "Hold;Bordnr.;Medlem 1\nA;2;Anne\nB;;Bo\nC;;Carl\n"
    plan = imports.preview(competition, text.encode(), "x.csv")
    assert plan.ok
    assert [t.table for t in plan.teams] == [2, 1, 3]


def test_the_mapping_is_shown_and_adjustable(client, desk, competition):
    client.force_login(desk)
    # "Navn" alone would be read as the member: the desk sets it to the team name.
    response = upload(client, "Navn;Person\nKantsøgerne;Anne\n")
    html = response.content.decode()
    assert "Sådan læses kolonnerne" in html
    assert "Filen har ingen kolonne med holdets navn" in html
    token = response.context["token"]
    response = client.post(
        URL, {"token": token, "col-0": "name:0", "col-1": "member:1", "remap": "1"}
    )
    plan = response.context["preview"]
    assert plan.ok and plan.teams[0].members[0]["name"] == "Anne"
    assert '<option value="member:1" selected>Holdmedlem 1</option>' in response.content.decode()
    assert not Team.objects.exists()
    # Importing keeps the adjusted mapping.
    response = client.post(URL, {"token": token, "col-0": "name:0", "col-1": "member:1"})
    assert response.status_code == 302
    assert Member.objects.get().name == "Anne"


def test_import_the_good_rows_and_leave_out_the_rest(client, desk, competition):
    client.force_login(desk)
    text = "hold;bord;medlem 1\nA;1;Anne\nB;2;\nC;3;Carl\n"
    response = upload(client, text)
    html = response.content.decode()
    assert "Importér kun holdene uden problemer (2 af 3)" in html
    token = response.context["token"]
    response = client.post(URL, {"token": token, "skip_problems": "1"})
    assert response.status_code == 302
    assert sorted(Team.objects.values_list("name", flat=True)) == ["A", "C"]


def test_without_the_choice_a_problem_still_blocks_all(client, desk, competition):
    client.force_login(desk)
    response = upload(client, "hold;bord;medlem 1\nA;1;Anne\nB;2;\n")
    response = client.post(URL, {"token": response.context["token"]})
    assert response.status_code == 200
    assert not Team.objects.exists()


def test_an_odd_mapping_value_is_ignored_not_a_500(client, desk, competition):
    client.force_login(desk)
    response = upload(client, "hold;medlem 1\nA;Anne\n")
    token = response.context["token"]
    for odd in ({"col-²": "name:0"}, {"col-0": "nope:x"}, {"col-99999999999": "x"}):
        response = client.post(URL, {"token": token, "remap": "1", **odd})
        assert response.status_code == 200
