"""The words of a discipline (docs/contracts.md "A championship of several competitions",
GLOSSARY.md): the pages of a competition of individuals speak of a "deltager", of pairs of a
"par", of teams of a "hold" (competition/words/), as a Dane writes each sentence; a team
competition's pages say what they always said. An individual is one puzzler, a pair two."""

import csv
import io
import re

import pytest
from django.urls import reverse
from django.utils import translation

from competition import imports
from competition.errors import Refusal
from competition.models import AuditEntry, Discipline, Team
from competition.words import TEXTS, entrant_text
from tests.factories import CompetitionFactory, MemberFactory, PuzzleFactory, TeamFactory

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


class _Values(dict):
    """The count `n`, and any other value a sentence names (a name) as itself."""

    def __missing__(self, key):
        return f"%({key})s"


def _say(entry, lang: str, n: int = 2) -> str:
    """An entry (or a plain text) in `lang`; a sentence of a count, for `n`."""
    with translation.override(lang):
        try:
            return str(entry % _Values(n=n, total=n))  # "%(n)s of %(total)s" counts by total
        except (KeyError, TypeError):
            return str(entry)


@pytest.mark.parametrize("key", list(TEXTS))
def test_each_sentence_is_the_team_one_and_differs_in_danish_by_the_discipline(key):
    individual, pair, team = TEXTS[key]
    # The key is the team's own text: its pages say what they always said.
    assert _say(team, "en", 1) == _say(key, "en", 1)
    danish = [_say(entry, "da") for entry in (individual, pair, team)]
    # (An individual's one puzzler and a pair's are both a "pusler".)
    assert danish[0] != danish[2] and danish[1] != danish[2], danish
    assert all(text != _say(entry, "en") for text, entry in zip(danish, TEXTS[key], strict=True))
    # The other disciplines' sentences take no value the team's does not give.
    for entry in (individual, pair):
        assert set(PLACEHOLDER.findall(_say(entry, "da"))) <= set(PLACEHOLDER.findall(key))


@pytest.mark.django_db
def test_a_count_chooses_the_form_by_its_number():
    c = CompetitionFactory(discipline=Discipline.INDIVIDUAL)
    key = "Missing at check-in: %(n)s team"
    assert entrant_text(c, key, n=1) == "Mangler ved tjek-ind: 1 deltager"
    assert entrant_text(c, key, n=3) == "Mangler ved tjek-ind: 3 deltagere"
    c.discipline = Discipline.TEAM
    assert entrant_text(c, key, n=3) == "Mangler ved tjek-ind: 3 hold"


WORDS = {
    # discipline: (register, nav, find, column, empty list, name field)
    Discipline.INDIVIDUAL: (
        "Tilmeld deltager",
        ">Deltagere</a>",
        "Find en deltager",
        "<th>Deltager</th>",
        "Ingen deltagere endnu: tilmeld en deltager eller importér tilmeldingsarket.",
        ">Navn</label>",
    ),
    Discipline.PAIR: (
        "Tilmeld par",
        ">Par</a>",
        "Find et par",
        "<th>Par</th>",
        "Ingen par endnu: tilmeld et par eller importér tilmeldingsarket.",
        ">Parrets navn</label>",
    ),
    Discipline.TEAM: (
        "Tilmeld hold",
        ">Hold</a>",
        "Find et hold",
        "<th>Hold</th>",
        "Ingen hold endnu: tilmeld et hold eller importér tilmeldingsarket.",
        ">Holdnavn</label>",
    ),
}


@pytest.fixture
def of_discipline(db):
    def make(discipline):
        c = CompetitionFactory(slug=f"dm-{discipline}", discipline=discipline)
        PuzzleFactory(competition=c, position=1, pieces=500)
        return c

    return make


@pytest.mark.parametrize("discipline", list(WORDS))
def test_the_pages_speak_the_disciplines_words(client, desk, admin_user, of_discipline, discipline):
    c = of_discipline(discipline)
    register, nav, find, column, empty, name = WORDS[discipline]
    client.force_login(desk)
    desk_list = client.get(reverse("desk:teams", args=[c.slug])).content.decode()
    assert register in desk_list and nav in desk_list and empty in desk_list
    form = client.get(reverse("desk:team_new", args=[c.slug])).content.decode()
    assert name in form
    TeamFactory(competition=c, name="Kantsøgerne", table=1)
    board = client.get(f"/{c.slug}/").content.decode()
    assert find in board and column in board
    csv_head = client.get(f"/{c.slug}/results.csv").content.decode("utf-8-sig").split("\r\n")[0]
    assert csv_head.split(";")[1] == column[4:-5]
    client.force_login(admin_user)
    room = client.get(reverse("control:room", args=[c.slug])).content.decode()
    assert find in room
    others = {w[2] for d, w in WORDS.items() if d != discipline}
    assert not any(word in board or word in room for word in others)


@pytest.mark.parametrize(
    ("discipline", "english"),
    [
        (Discipline.INDIVIDUAL, "Register entrant"),
        (Discipline.PAIR, "Register pair"),
        (Discipline.TEAM, "Register team"),
    ],
)
def test_english_is_second(client, desk, of_discipline, discipline, english):
    c = of_discipline(discipline)
    client.force_login(desk)
    page = client.get(reverse("desk:teams", args=[c.slug]), HTTP_ACCEPT_LANGUAGE="en")
    assert english in page.content.decode()


# --- the desk's form: an individual is one puzzler, a pair two ---------------------------------
def _rows(html: str) -> int:
    return len(re.findall(r'class="member-row[^"]*" data-row', html.split("<template")[0]))


def _post(name, table, rows, **extra) -> dict:
    data = {
        "name": name,
        "table": str(table),
        "members-TOTAL_FORMS": str(len(rows)),
        "members-INITIAL_FORMS": "0",
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "1000",
    }
    for i, row in enumerate(rows):
        data.update({f"members-{i}-{k}": v for k, v in row.items()})
    data.update(extra)
    return data


def test_an_individuals_form_has_one_row_whose_name_is_the_entrants(client, desk, of_discipline):
    c = of_discipline(Discipline.INDIVIDUAL)
    client.force_login(desk)
    url = reverse("desk:team_new", args=[c.slug])
    page = client.get(url).content.decode()
    assert _rows(page) == 1
    assert 'name="members-0-name"' not in page and "data-add-row" not in page
    assert "data-remove-row" not in page
    response = client.post(
        url, _post("Ida Jensen", 3, [{"under_15": "on", "guardian": "Anne Jensen"}])
    )
    assert response.status_code == 302
    ida = Team.objects.get(competition=c)
    assert [(m.name, m.under_15, m.guardian) for m in ida.members.all()] == [
        ("Ida Jensen", True, "Anne Jensen")
    ]
    # Renamed at the desk: its puzzler is renamed with it; the form shows the one row again.
    edit = reverse("desk:team_edit", args=[c.slug, ida.pk])
    assert _rows(client.get(edit).content.decode()) == 1
    client.post(edit, _post("Ida M. Jensen", 3, [{"under_15": "on", "guardian": "Anne Jensen"}]))
    assert list(ida.members.values_list("name", flat=True)) == ["Ida M. Jensen"]


def test_an_individual_under_15_without_an_adult_is_refused(client, desk, of_discipline):
    c = of_discipline(Discipline.INDIVIDUAL)
    client.force_login(desk)
    response = client.post(
        reverse("desk:team_new", args=[c.slug]), _post("Ida Jensen", 3, [{"under_15": "on"}])
    )
    assert response.status_code == 200
    assert "ledsagende voksne (regel 3)" in response.content.decode()
    assert not Team.objects.filter(competition=c).exists()


def test_a_pairs_form_has_two_rows_and_takes_no_third(client, desk, of_discipline):
    c = of_discipline(Discipline.PAIR)
    client.force_login(desk)
    url = reverse("desk:team_new", args=[c.slug])
    page = client.get(url).content.decode()
    assert _rows(page) == 2 and "data-add-row" not in page
    three = [{"name": "Anne"}, {"name": "Ida"}, {"name": "Ole"}]
    refused = client.post(url, _post("Anne og Ida", 1, three))
    assert refused.status_code == 200
    assert not Team.objects.filter(competition=c).exists()
    client.post(url, _post("Anne og Ida", 1, three[:2]))
    pair = Team.objects.get(competition=c)
    assert list(pair.members.values_list("name", flat=True)) == ["Anne", "Ida"]


def test_the_service_refuses_a_pair_of_three_from_the_api_too(api_as, desk, of_discipline):
    c = of_discipline(Discipline.PAIR)
    response = api_as(desk).post(
        f"/api/v1/competitions/{c.slug}/teams/",
        {"name": "Tre", "table": 1, "members": [{"name": "A"}, {"name": "B"}, {"name": "C"}]},
        format="json",
    )
    assert response.status_code == 400
    assert "Et par er to puslere" in str(response.json())
    assert not Team.objects.filter(competition=c).exists()


def test_a_team_may_still_register_more_members_than_its_table_seats(client, desk, of_discipline):
    c = of_discipline(Discipline.TEAM)
    client.force_login(desk)
    url = reverse("desk:team_new", args=[c.slug])
    assert _rows(client.get(url).content.decode()) == c.max_at_table
    rows = [{"name": f"Pusler {i}"} for i in range(6)]
    assert client.post(url, _post("Seks", 1, rows)).status_code == 302
    assert Team.objects.get(competition=c).members.count() == 6


# --- labels at the desk ---------------------------------------------------------------------
def test_the_desk_sets_labels_in_the_form_audited_and_the_list_shows_them(
    client, desk, of_discipline
):
    c = of_discipline(Discipline.INDIVIDUAL)
    client.force_login(desk)
    client.post(
        reverse("desk:team_new", args=[c.slug]),
        _post("Ida Jensen", 3, [{}], labels=" Ung, gæst,ung "),
    )
    ida = Team.objects.get(competition=c)
    assert ida.labels == ["ung", "gæst"]
    entry = AuditEntry.objects.get(action="team_labels", team=ida)
    assert entry.after == {"labels": ["ung", "gæst"]}
    listing = client.get(reverse("desk:teams", args=[c.slug])).content.decode()
    assert re.findall(r'class="badge badge-label"[^>]*>([^<]+)<', listing) == ["ung", "gæst"]
    edit = reverse("desk:team_edit", args=[c.slug, ida.pk])
    assert 'value="ung, gæst"' in client.get(edit).content.decode()
    # Saved again unchanged: nothing more in the log; changed: one entry more.
    client.post(edit, _post("Ida Jensen", 3, [{}], labels="ung, gæst"))
    assert AuditEntry.objects.filter(action="team_labels").count() == 1
    client.post(edit, _post("Ida Jensen", 3, [{}], labels="senior"))
    ida.refresh_from_db()
    assert ida.labels == ["senior"]
    assert AuditEntry.objects.filter(action="team_labels").count() == 2


def test_too_many_labels_are_refused_and_nothing_is_written(client, desk, of_discipline):
    c = of_discipline(Discipline.TEAM)
    client.force_login(desk)
    labels = ", ".join(f"l{i}" for i in range(11))
    response = client.post(
        reverse("desk:team_new", args=[c.slug]), _post("Elleve", 1, [{"name": "A"}], labels=labels)
    )
    assert response.status_code == 200
    assert "Højst 10 kategorier" in response.content.decode()
    assert not Team.objects.filter(competition=c).exists()


# --- the spreadsheet: import, example, export ------------------------------------------------
def _csv(text: str) -> bytes:
    return ("\ufeff" + text).encode()


def test_an_individuals_sheet_names_the_entrant_who_is_its_puzzler(of_discipline):
    c = of_discipline(Discipline.INDIVIDUAL)
    sheet = (
        "Navn;Bord;Alder;Ledsagende voksen;Mærker\r\n"
        "Anne Jensen;1;44;;senior\r\n"
        "Ida Jensen;2;12;Anne Jensen;Ung, gæst\r\n"
    )
    preview = imports.preview(c, _csv(sheet), "tilmeldinger.csv")
    assert preview.ok, [t.problems for t in preview.teams]
    anne, ida = preview.teams
    assert (anne.name, anne.members, anne.labels) == (
        "Anne Jensen",
        [{"name": "Anne Jensen", "under_15": False, "guardian": ""}],
        ["senior"],
    )
    assert ida.members == [{"name": "Ida Jensen", "under_15": True, "guardian": "Anne Jensen"}]
    assert ida.labels == ["ung", "gæst"]


def test_the_team_word_is_read_in_every_discipline(of_discipline):
    for discipline in (Discipline.INDIVIDUAL, Discipline.PAIR):
        c = of_discipline(discipline)
        preview = imports.preview(c, _csv("hold;deltager 1\r\nAnne;Anne Jensen\r\n"), "x.csv")
        assert preview.ok and preview.teams[0].name == "Anne"


def test_a_pairs_sheet_with_a_third_puzzler_is_a_problem(of_discipline):
    c = of_discipline(Discipline.PAIR)
    sheet = "Par;Deltager 1;Deltager 2;Deltager 3\r\nTre;A;B;C\r\nTo;D;E;\r\n"
    preview = imports.preview(c, _csv(sheet), "par.csv")
    three, two = preview.teams
    assert three.problems == ["Et par er to puslere: skriv højst to navne."]
    assert two.problems == [] and [m["name"] for m in two.members] == ["D", "E"]
    missing = imports.preview(c, _csv("Navn;Bord\r\nAnne;1\r\n"), "par.csv")
    assert missing.problems == [
        "Filen har ingen kolonne med parrets navn: kald cellen i første række »par«."
    ]


def test_an_import_gives_labels_audited(of_discipline, desk):
    c = of_discipline(Discipline.PAIR)
    sheet = "par;deltager 1;deltager 2;kategorier\r\nAnne og Ida;Anne;Ida;ung\r\nTo;D;E;\r\n"
    imports.confirm(c, _csv(sheet), "par.csv", by=desk)
    assert dict(Team.objects.filter(competition=c).values_list("name", "labels")) == {
        "Anne og Ida": ["ung"],
        "To": [],
    }
    assert AuditEntry.objects.filter(action="team_labels").count() == 1


@pytest.mark.parametrize("discipline", [Discipline.INDIVIDUAL, Discipline.PAIR, Discipline.TEAM])
def test_the_example_is_in_the_disciplines_words_and_imports_as_it_is(
    client, desk, of_discipline, discipline
):
    c = of_discipline(discipline)
    client.force_login(desk)
    example = client.get(reverse("desk:import_example", args=[c.slug])).content
    first = example.decode("utf-8-sig").split(";")[0]
    assert first == {"individual": "navn", "pair": "par", "team": "hold"}[discipline]
    preview = imports.preview(c, example, "eksempel.csv")
    assert preview.ok, [t.problems for t in preview.teams]
    most = {"individual": 1, "pair": 2, "team": 2}[discipline]
    assert all(len(t.members) <= most for t in preview.teams)


@pytest.mark.parametrize("discipline", [Discipline.INDIVIDUAL, Discipline.PAIR])
def test_the_export_is_in_the_disciplines_words_and_reads_back(
    client, desk, of_discipline, discipline
):
    c = of_discipline(discipline)
    t = TeamFactory(competition=c, name="Ida Jensen", table=2, labels=["ung", "gæst"])
    MemberFactory(team=t, name="Ida Jensen", under_15=True, guardian="Anne Jensen")
    if discipline == Discipline.PAIR:
        MemberFactory(team=t, name="Ole Jensen")
    client.force_login(desk)
    response = client.get(reverse("desk:export", args=[c.slug]))
    name = {"individual": "deltagere", "pair": "par"}[discipline]
    assert response["Content-Disposition"] == f'attachment; filename="{c.slug}-{name}.csv"'
    text = response.content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(text), delimiter=";"))
    assert header[1] == {"individual": "navn", "pair": "par"}[discipline]
    assert header[-1] == "kategorier"
    other = CompetitionFactory(slug="andet", discipline=discipline)
    again = imports.preview(other, text.encode(), "x.csv")
    assert again.ok, [p.problems for p in again.teams]
    (read,) = again.teams
    assert read.labels == ["ung", "gæst"]
    assert read.members == [
        {"name": m.name, "under_15": m.under_15, "guardian": m.guardian} for m in t.members.all()
    ]


def test_a_team_export_without_labels_has_its_old_columns(client, desk, of_discipline):
    c = of_discipline(Discipline.TEAM)
    TeamFactory(competition=c, name="Kantsøgerne", table=1)
    client.force_login(desk)
    text = client.get(reverse("desk:export", args=[c.slug])).content.decode("utf-8-sig")
    assert (
        text.split("\r\n")[0]
        == "bord;hold;betalt;tjekket ind;trukket;kontaktperson;e-mail;telefon;noter"
    )


@pytest.mark.parametrize(
    ("discipline", "whose"),
    [("individual", "deltagerens"), ("pair", "parrets"), ("team", "holdets")],
)
def test_the_tablets_refusals_speak_of_the_entrant_by_discipline(db, judge, discipline, whose):
    """A tap out of time order, as the judge's tablet shows it: "deltagerens forrige
    registrering" for an individual, "parrets" for a pair, "holdets" for a team."""
    from judging.services import finish_register
    from tests.scoring.standings_data import running_competition

    competition, puzzles = running_competition(discipline=discipline)
    entrant = TeamFactory(competition=competition, name="Anna", table=1)
    finish_register(team=entrant, position=1, by=judge, elapsed_seconds=1800)
    with pytest.raises(Refusal) as refused:
        finish_register(team=entrant, position=2, by=judge, elapsed_seconds=1200)
    assert refused.value.code == "time_order"
    assert f"er tidligere end {whose} forrige registrering" in str(refused.value.message)
