"""Import from a sign-up spreadsheet: preview lists every problem, confirm is all or nothing."""

import io

import pytest
import tablib
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from competition import imports
from competition.imports import apply as import_apply
from competition.models import Member, Team
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db
URL = reverse("desk:import", args=["dm-2026"])

BROKEN = (
    "\ufeffHold;Bord;Medlem 1;Medlem 1 under 15;Medlem 1 ledsagende voksen;Medlem 2\n"
    "Kantsøgerne;1;Anne;;;Søren\n"
    "Puslingerne;2;Ida;x;;Line\n"  # under 15 without an adult
    "KANTSØGERNE;3;Mads;;;\n"  # duplicate name in the file (other case)
    "Brikkebanden;;Karen;;;\n"  # no table: the next free
)
FIXED = (
    "\ufeffHold;Bord;Medlem 1;Medlem 1 under 15;Medlem 1 ledsagende voksen;Medlem 2\n"
    "Kantsøgerne;1;Anne;;;Søren\n"
    "Puslingerne;2;Ida;x;Mette Hansen;Line\n"
    "Kantklipperne;3;Mads;;;\n"
    "Brikkebanden;4;Karen;;;\n"
)


def upload(client, text: str | bytes, name: str = "tilmeldinger.csv"):
    content = text.encode("utf-8") if isinstance(text, str) else text
    return client.post(URL, {"file": SimpleUploadedFile(name, content)})


def confirm(client, response):
    return client.post(URL, {"token": response.context["token"]})


def test_preview_lists_every_problem_and_writes_nothing(client, desk, competition):
    client.force_login(desk)
    response = upload(client, BROKEN)
    assert response.status_code == 200
    preview = response.context["preview"]
    problems = {t.line: " ".join(t.problems) for t in preview.teams}
    assert problems[2] == ""
    assert "ledsagende voksen" in problems[3]
    assert "række 2" in problems[4]
    # An empty table gets the next free one, not a problem.
    assert problems[5] == "" and preview.teams[3].table == 4
    html = response.content.decode()
    assert (
        "2 problemer skal rettes før importen – i regnearket eller i kolonnevalget ovenfor." in html
    )
    assert not preview.ok
    assert not Team.objects.exists()
    # Confirming a broken file is refused: still nothing written.
    response = confirm(client, response)
    assert response.status_code == 200
    assert "intet blev importeret" in response.content.decode().lower()
    assert not Team.objects.exists()


def test_fixed_file_creates_every_team_after_confirm(client, desk, competition):
    client.force_login(desk)
    response = upload(client, FIXED)
    assert response.context["preview"].ok
    assert not Team.objects.exists()  # the preview writes nothing
    response = confirm(client, response)
    assert response.status_code == 302
    assert list(Team.objects.order_by("table").values_list("name", "table")) == [
        ("Kantsøgerne", 1),
        ("Puslingerne", 2),
        ("Kantklipperne", 3),
        ("Brikkebanden", 4),
    ]
    ida = Member.objects.get(name="Ida")
    assert ida.under_15 and ida.guardian == "Mette Hansen"
    # The same token cannot be used twice.
    response = client.post(URL, {"token": "nope"})
    assert response.status_code == 302


def test_duplicate_with_the_database_and_taken_table(client, desk, competition):
    TeamFactory(competition=competition, name="Kantsøgerne", table=1)
    client.force_login(desk)
    preview = upload(client, FIXED).context["preview"]
    first = preview.teams[0]
    assert "Der findes allerede et hold med dette navn." in first.problems
    assert any("Bord 1 er allerede taget" in p for p in first.problems)


def test_all_or_nothing_when_a_row_fails_at_confirm(client, desk, competition):
    client.force_login(desk)
    response = upload(client, FIXED)
    assert response.context["preview"].ok
    # Meanwhile another desk registers table 4: the whole import is refused.
    TeamFactory(competition=competition, name="Andet hold", table=4)
    response = confirm(client, response)
    assert response.status_code == 200
    assert Team.objects.count() == 1


def test_confirm_in_service_rolls_back_on_a_late_failure(competition, desk, monkeypatch):
    calls = []
    real = import_apply.team_create

    def flaky(**kwargs):
        calls.append(kwargs["name"])
        if len(calls) == 3:
            from django.core.exceptions import ValidationError

            raise ValidationError({"name": "boom"})
        return real(**kwargs)

    monkeypatch.setattr(import_apply, "team_create", flaky)
    with pytest.raises(imports.ImportRefused):
        imports.confirm(competition, FIXED.encode(), "x.csv", by=desk)
    assert not Team.objects.exists()


def test_comma_csv_without_bom_members_column_and_no_table_column(competition, desk):
    text = 'team,members\nAlpha,"Anne, Bo, Carl"\nBeta,Dorte\n'
    preview = imports.preview(competition, text.encode(), "signup.csv")
    assert preview.ok
    assert [t.table for t in preview.teams] == [1, 2]  # the next free tables
    assert [m["name"] for m in preview.teams[0].members] == ["Anne", "Bo", "Carl"]


def test_one_row_per_member_with_danish_headers(competition, desk):
    text = (
        "hold;bord;medlem;under 15;ledsagende voksen\n"
        "Kantsøgerne;5;Anne;;\n"
        "Kantsøgerne;5;Ida;ja;Anne\n"
        "Brikkebanden;6;Karen;;\n"
    )
    preview = imports.preview(competition, text.encode(), "x.csv")
    assert preview.ok, [t.problems for t in preview.teams]
    assert len(preview.teams) == 2
    assert preview.teams[0].members[1] == {"name": "Ida", "under_15": True, "guardian": "Anne"}


def test_xlsx(competition, desk, client):
    data = tablib.Dataset(headers=["Hold", "Bord", "Medlem 1", "Medlem 2"])
    data.append(["Kantsøgerne", 1, "Anne", "Bo"])
    data.append(["Brikkebanden", 2.0, "Karen", None])
    content = data.export("xlsx")
    preview = imports.preview(competition, content, "tilmelding.xlsx")
    assert preview.ok
    assert [t.table for t in preview.teams] == [1, 2]
    client.force_login(desk)
    response = upload(client, content, "tilmelding.xlsx")
    assert confirm(client, response).status_code == 302
    assert Team.objects.count() == 2


def test_unreadable_files_get_a_clear_message(client, desk, competition):
    client.force_login(desk)
    html = upload(client, "just text", "notes.pdf").content.decode()
    assert "Upload en CSV-fil" in html
    html = upload(client, b"PK\x03\x04 broken", "broken.xlsx").content.decode()
    assert "kunne ikke læses" in html
    html = upload(client, "navn;alder\nAnne;40\n").content.decode()
    assert "ingen kolonne med holdets navn" in html


def test_invalid_table_and_mark(competition):
    text = "hold;bord;medlem 1;medlem 1 under 15\nA;abc;Anne;måske\n"
    preview = imports.preview(competition, text.encode(), "x.csv")
    problems = " ".join(preview.teams[0].problems)
    assert "ikke et bordnummer" in problems and "1" in problems
    assert "måske" in problems


def test_export_reimports(competition, desk, client):
    client.force_login(desk)
    assert confirm(client, upload(client, FIXED)).status_code == 302
    exported = imports.export_csv(competition)
    other = type(competition).objects.create(
        slug="other", name="Other", starts_at=competition.starts_at
    )
    preview = imports.preview(other, io.BytesIO(exported.encode()).getvalue(), "x.csv")
    assert preview.ok
    assert [t.name for t in preview.teams][:2] == ["Kantsøgerne", "Puslingerne"]
    assert preview.teams[1].members[0]["guardian"] == "Mette Hansen"
