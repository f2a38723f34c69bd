"""The import for individuals and pairs (issue 33, point 4): a sheet with the names under
"Deltagere" and no team name imports as it is; the preview runs the checks confirm runs and
lists every bad row; tables are given compactly and never one another competition of the
championship holds at the same time."""

import re
from datetime import timedelta

import pytest
import tablib
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from competition import imports
from competition.models import Member, Team
from competition.services import championship_create, competition_create

pytestmark = pytest.mark.django_db


def _round(dm, slug, name, discipline="individual", hour=10):
    day = timezone.localtime() + timedelta(days=1)
    return competition_create(
        by=None,
        slug=slug,
        name=name,
        starts_at=day.replace(hour=hour, minute=0, second=0, microsecond=0),
        duration_minutes=60,
        championship=dm,
        discipline=discipline,
        round=name,
    )


@pytest.fixture
def dm(db):
    return championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027")


@pytest.fixture
def heat_a(dm):
    return _round(dm, "heat-a", "Indledende runde A")


@pytest.fixture
def heat_b(dm):
    return _round(dm, "heat-b", "Indledende runde B")


@pytest.fixture
def pairs(dm):
    return _round(dm, "par", "Par", discipline="pair", hour=13)


def upload(client, slug, text, name="tilmeldinger.csv"):
    content = text.encode() if isinstance(text, str) else text
    return client.post(
        reverse("desk:import", args=[slug]), {"file": SimpleUploadedFile(name, content)}
    )


@pytest.mark.parametrize("header", ["Deltagere", "Deltager", "Navn", "Deltagernes navne"])
def test_individuals_under_deltagere_without_a_team_name_import_as_they_are(
    client, desk, heat_a, header
):
    sheet = f"{header};E-mail;Betalt\nAnne Jensen;anne@example.dk;ja\nBo Hansen;;\n"
    client.force_login(desk)
    response = upload(client, "heat-a", sheet)
    plan = response.context["preview"]
    assert plan.ok, (plan.problems, [t.problems for t in plan.teams])
    assert [(t.name, t.table) for t in plan.teams] == [("Anne Jensen", 1), ("Bo Hansen", 2)]
    response = client.post(
        reverse("desk:import", args=["heat-a"]), {"token": response.context["token"]}
    )
    assert response.status_code == 302
    anne = Team.objects.get(competition=heat_a, name="Anne Jensen")
    assert [m.name for m in anne.members.all()] == ["Anne Jensen"]
    assert anne.fee_paid and anne.contact_email == "anne@example.dk"


def test_individuals_from_an_xlsx(heat_a, desk):
    data = tablib.Dataset(headers=["Tidsstempel", "Deltagere", "Alder"])
    data.append(["2026/11/02", "Ida Jensen", 44])
    data.append(["2026/11/03", "Søren Nielsen", 50])
    plan = imports.preview(heat_a, data.export("xlsx"), "svar.xlsx")
    assert plan.ok, (plan.problems, [t.problems for t in plan.teams])
    imports.confirm(heat_a, data.export("xlsx"), "svar.xlsx", by=desk)
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Ida Jensen", "Søren Nielsen"]
    assert Member.objects.filter(team__competition=heat_a).count() == 2


def test_pairs_under_deltagere_are_named_by_their_two_puzzlers(pairs, desk):
    sheet = 'Deltagere;Betalt\n"Anne Jensen, Bo Hansen";ja\n"Ida\nSøren";\n'
    plan = imports.preview(pairs, sheet.encode(), "par.csv")
    assert plan.ok, (plan.problems, [t.problems for t in plan.teams])
    assert [t.name for t in plan.teams] == ["Anne Jensen & Bo Hansen", "Ida & Søren"]
    imports.confirm(pairs, sheet.encode(), "par.csv", by=desk)
    first = Team.objects.get(name="Anne Jensen & Bo Hansen")
    assert [m.name for m in first.members.order_by("pk")] == ["Anne Jensen", "Bo Hansen"]


def test_pairs_in_numbered_columns_from_an_xlsx(pairs, desk):
    data = tablib.Dataset(headers=["Deltager 1", "Deltager 2", "E-mail"])
    data.append(["Anne Jensen", "Bo Hansen", "anne@example.dk"])
    plan = imports.preview(pairs, data.export("xlsx"), "par.xlsx")
    assert plan.ok, (plan.problems, [t.problems for t in plan.teams])
    assert plan.teams[0].name == "Anne Jensen & Bo Hansen"
    assert [m["name"] for m in plan.teams[0].members] == ["Anne Jensen", "Bo Hansen"]


def test_a_pair_of_three_is_a_problem_of_its_row(pairs):
    plan = imports.preview(pairs, b'Deltagere\n"A, B, C"\n', "par.csv")
    assert "højst to navne" in " ".join(plan.teams[0].problems)


def test_a_team_competition_still_needs_its_team_name(competition):
    plan = imports.preview(competition, b"Deltagere\nAnne\n", "x.csv")
    assert "ingen kolonne med holdets navn" in " ".join(plan.problems)


BAD_MAILS = (
    "Deltagere;E-mail\n"
    "Anne Jensen;anne@example.dk\n"
    "Søren Nielsen;søren@example.dk\n"
    "Bo Hansen;bo@example.dk\n"
    "Ørjan Dal;ørjan@example\n"
)


def test_the_preview_names_every_bad_e_mail_as_confirm_would(client, desk, heat_a):
    """Today the preview said nothing and confirm refused naming only the first bad row."""
    client.force_login(desk)
    response = upload(client, "heat-a", BAD_MAILS)
    plan = response.context["preview"]
    problems = {t.line: " ".join(t.problems) for t in plan.teams}
    assert "søren@example.dk" in problems[3] and "gyldig e-mailadresse" in problems[3]
    assert "ørjan@example" in problems[5]
    assert problems[2] == "" and problems[4] == ""
    assert not plan.ok and plan.bad_count == 2
    html = response.content.decode()
    assert "søren@example.dk" in html and "ørjan@example" in html
    # The good rows import; the bad ones are left out, not a refusal at the first.
    url = reverse("desk:import", args=["heat-a"])
    response = client.post(url, {"token": response.context["token"], "skip_problems": "1"})
    assert response.status_code == 302
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Anne Jensen", "Bo Hansen"]


def test_every_check_of_confirm_is_in_the_preview(heat_a, desk):
    """What confirm (team_create) refuses, the preview names: the preview's ok means the
    confirm goes through."""
    sheet = "Deltagere;Telefon;Kontaktperson\nAnne;" + "1" * 41 + ";" + "x" * 121 + "\n"
    plan = imports.preview(heat_a, sheet.encode(), "x.csv")
    text = " ".join(plan.teams[0].problems)
    assert "Kontakttelefon" in text and "Kontaktperson" in text
    with pytest.raises(imports.ImportRefused):
        imports.confirm(heat_a, sheet.encode(), "x.csv", by=desk)


def _sheet(names):
    return ("Deltagere\n" + "".join(f"{n}\n" for n in names)).encode()


def test_a_corrected_row_takes_the_free_table_not_one_after_all(heat_a, desk):
    names = [f"Pusler {n}" for n in range(1, 19)]
    sheet = "Deltagere;Bord;E-mail\n" + "".join(
        f"{n};{i};{'ø@x.dk' if i == 9 else ''}\n" for i, n in enumerate(names, start=1)
    )
    imports.confirm(heat_a, sheet.encode(), "v1.csv", by=desk, skip_problems=True)
    assert 9 not in set(Team.objects.values_list("table", flat=True))
    # The whole sheet again without its tables, row 9 corrected: the seventeen other rows
    # are registered already and take no table from it.
    fixed = _sheet(names)
    plan = imports.preview(heat_a, fixed, "v2.csv")
    nine = next(t for t in plan.teams if t.name == "Pusler 9")
    assert not nine.problems and nine.table == 9
    imports.confirm(heat_a, fixed, "v2.csv", by=desk, skip_problems=True)
    assert Team.objects.get(name="Pusler 9").table == 9
    assert Team.objects.filter(competition=heat_a).count() == 18


def test_the_free_tables_skip_the_heat_at_the_same_time(heat_a, heat_b, pairs, desk):
    for table, name in ((1, "Anna"), (2, "Bo"), (4, "Dan")):
        Team.objects.create(competition=heat_a, name=name, table=table)
    Team.objects.create(competition=pairs, name="Par", table=3)  # later: the table is free
    plan = imports.preview(heat_b, _sheet(["Eva", "Finn", "Gry"]), "b.csv")
    assert [t.table for t in plan.teams] == [3, 5, 6]
    imports.confirm(heat_b, _sheet(["Eva", "Finn", "Gry"]), "b.csv", by=desk)
    assert sorted(Team.objects.filter(competition=heat_b).values_list("table", flat=True)) == [
        3,
        5,
        6,
    ]


# --- the championship's import page and the column choice kept across its competitions -----
CHAMP_URL = reverse("desk:import", args=["dm-2027"])
ODD = "Navnet;Mail\nAnne Jensen;anne@example.dk\nBo Hansen;\n"  # "Navnet" is not a known word


def test_the_column_choice_of_the_first_heat_is_proposed_for_the_second(
    client, desk, heat_a, heat_b, pairs
):
    client.force_login(desk)
    response = upload(client, "heat-a", ODD)
    assert response.context["preview"].problems  # no name column: the desk chooses it
    url = reverse("desk:import", args=["heat-a"])
    token = response.context["token"]
    response = client.post(
        url, {"token": token, "col-0": "name:0", "col-1": "contact_email:0", "remap": "1"}
    )
    assert response.context["preview"].ok
    client.post(url, {"token": token, "col-0": "name:0", "col-1": "contact_email:0"})
    # The second heat's sheet, same headers, another desk laptop: read the same way.
    client.logout()
    client.force_login(desk)
    sheet = ODD.replace("Anne Jensen", "Eva Holm").replace("Bo Hansen", "Finn Dal")
    plan = upload(client, "heat-b", sheet).context["preview"]
    assert plan.ok and plan.remembered
    assert [c["key"] for c in plan.columns] == ["name:0", "contact_email:0"]
    # Pairs read their own words: the individuals' choice is not theirs.
    assert not upload(client, "par", "Navnet\nA\n").context["preview"].remembered


def test_the_championship_import_asks_which_competition_then_previews_and_confirms(
    client, desk, heat_a, heat_b
):
    client.force_login(desk)
    page = client.get(CHAMP_URL)
    assert page.status_code == 200
    html = page.content.decode()
    assert "Hvilken konkurrence er regnearket til?" in html
    assert "Indledende runde A" in html and "Indledende runde B" in html
    file = SimpleUploadedFile("b.csv", BAD_MAILS.encode())
    response = client.post(CHAMP_URL, {"file": file})
    assert "Vælg den konkurrence, regnearket er til." in response.content.decode()
    file = SimpleUploadedFile("b.csv", BAD_MAILS.encode())
    response = client.post(CHAMP_URL, {"competition": heat_b.pk, "file": file})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Til Indledende runde B" in html and "søren@example.dk" in html
    assert response.context["preview"].bad_count == 2
    response = client.post(CHAMP_URL, {"token": response.context["token"], "skip_problems": "1"})
    assert response.status_code == 302 and response.url == reverse("desk:teams", args=["dm-2027"])
    assert sorted(Team.objects.filter(competition=heat_b).values_list("name", flat=True)) == [
        "Anne Jensen",
        "Bo Hansen",
    ]
    assert not Team.objects.filter(competition=heat_a).exists()


def test_the_championship_desk_links_to_its_import(client, desk, heat_a):
    client.force_login(desk)
    html = client.get(reverse("desk:teams", args=["dm-2027"])).content.decode()
    assert f'href="{CHAMP_URL}"' in html


def test_a_token_of_another_championship_is_an_expired_file(client, desk, heat_a, competition):
    client.force_login(desk)
    response = upload(client, competition.slug, "hold;medlem 1\nA;Anne\n")
    answer = client.post(CHAMP_URL, {"token": response.context["token"]})
    assert answer.status_code == 302 and answer.url == CHAMP_URL
    assert not Team.objects.exists()


@pytest.mark.parametrize(("role", "status"), [("desk", 200), ("admin", 200), ("judge", 403)])
def test_the_championship_import_is_for_the_desk_and_admin(client, make_user, heat_a, role, status):
    client.force_login(make_user(role))
    assert client.get(CHAMP_URL).status_code == status


def test_the_championship_import_needs_a_login(client, heat_a):
    assert client.get(CHAMP_URL).status_code == 302


def test_a_pairs_sheet_of_one_name_a_row_still_asks_for_the_pairs_name(pairs):
    plan = imports.preview(pairs, b"Navn;Bord\nAnne;1\n", "par.csv")
    assert "ingen kolonne med parrets navn" in " ".join(plan.problems)


def _column_choices(html: str) -> list[str]:
    """The words of every option of the preview's column selects, once each."""
    return list(dict.fromkeys(re.findall(r"<option value=\"[a-z_0-9]*:\d+\"[^>]*>([^<]+)<", html)))


@pytest.mark.parametrize(
    ("discipline", "says", "numbered"),
    [
        ("individual", ["Puslerens navn", "Pusler", "Puslerens alder"], []),
        ("pair", ["Begge puslere i én celle", "Pusler 1", "Pusler 2 under 15 år"], ["Pusler 3"]),
        ("team", ["Holdmedlemmer i én celle", "Holdmedlem 1", "Holdmedlem 6"], ["Holdmedlem 7"]),
    ],
)
def test_the_column_choices_speak_of_the_disciplines_puzzlers(
    client, desk, dm, discipline, says, numbered
):
    """An individuals' import offered "Holdmedlem 1…6": an individual is one puzzler, a pair
    two; the choices say so, in the discipline's words."""
    _round(dm, "runde", "Runde", discipline=discipline)
    client.force_login(desk)
    sheet = "Deltagere;E-mail\nAnne Jensen;anne@example.dk\n"
    if discipline == "team":
        sheet = "Holdnavn;Deltagere\nHold A;Anne Jensen, Bo Hansen\n"
    html = upload(client, "runde", sheet).content.decode()
    choices = _column_choices(html)
    assert all(word in choices for word in says), choices
    first_select = html[html.index("<select") : html.index("</select>")]
    labels = re.findall(r">([^<]+)</option>", first_select)
    assert len(labels) == len(set(labels)), labels  # no choice twice ("Pusler" six times)
    assert not any(word in choices for word in numbered)
    if discipline != "team":
        assert not any("Holdmedlem" in choice for choice in choices), choices
