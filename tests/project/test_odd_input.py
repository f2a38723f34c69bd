"""Odd input never answers 500 (docs/contracts.md "The HTTP API").

A number that is not a plain whole number in range (`?team=²`: "²".isdigit() is True but
int("²") fails; 30 digits) is a 400 on the API and is ignored on a staff page; an id in a
URL that fits no column is a 404; JSON nested deeper than a real body or holding a string
that is not valid Unicode is a 400, a JSON body over 64 KB a 413; and saving the puzzle
sequence works whatever the puzzles' ids (PostgreSQL's smallint once ids pass 22,767).
"""

import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from competition.inputs import whole_number
from competition.models import Puzzle
from competition.services import puzzle_sequence_set
from judging.models import Finish, Warning
from tests.factories import CompetitionFactory

pytestmark = pytest.mark.django_db

S = "dm-2026"
API = f"/api/v1/competitions/{S}"
BIG = "9" * 30


@pytest.fixture
def running(competition, teams):
    competition.started_at = timezone.now() - timedelta(minutes=30)
    competition.save()
    return competition


@pytest.fixture
def staff_client(client, admin_user):
    client.force_login(admin_user)
    return client


# --- the parser ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0", 0),
        ("42", 42),
        ("007", 7),
        ("9223372036854775807", 9223372036854775807),
        ("9223372036854775808", None),  # past a bigint
        (BIG, None),
        ("²", None),  # "²".isdigit() is True
        ("٣", None),  # int("٣") is 3
        ("𝟗", None),
        (" 1", None),
        ("1\n", None),
        ("+1", None),
        ("-1", None),
        ("1_000", None),
        ("1.0", None),
        ("", None),
        (None, None),
    ],
)
def test_whole_number_takes_plain_ascii_digits_in_range(text, expected):
    assert whole_number(text) == expected


def test_whole_number_bounds():
    assert whole_number("32767", high=32767) == 32767
    assert whole_number("32768", high=32767) is None
    assert whole_number("0", low=1) is None


# --- the API ------------------------------------------------------------------------------
@pytest.mark.parametrize("value", ["²", "٣", BIG, "-1", "1.5", " 1"])
def test_a_query_number_that_is_not_plain_digits_in_range_is_a_400(
    running, api_as, admin_user, value
):
    response = api_as(admin_user).get(f"{API}/finishes/", {"team": value})
    assert response.status_code == 400, response.content
    assert "team" in response.json()


def test_a_puzzle_position_past_its_column_is_a_400(running, api_as, admin_user):
    assert api_as(admin_user).get(f"{API}/finishes/", {"puzzle": "32768"}).status_code == 400
    assert api_as(admin_user).get(f"{API}/finishes/", {"puzzle": "3"}).status_code == 200


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", f"{API}/teams/{BIG}/"),
        ("patch", f"{API}/finishes/{BIG}/"),
        ("delete", f"{API}/finishes/{BIG}/"),
        ("patch", f"{API}/counts/{BIG}/"),
        ("post", f"{API}/teams/{BIG}/warnings/"),
        ("post", f"{API}/objections/{BIG}/resolve"),
        ("get", f"/desk/{S}/teams/{BIG}/"),
        ("get", f"/control/{S}/teams/{BIG}/"),
        ("get", f"/{S}/teams/{BIG}/"),
        ("get", f"/{S}/teams/9223372036854775808/"),
    ],
)
def test_an_id_in_a_url_that_fits_no_column_is_a_404(running, staff_client, method, path):
    response = getattr(staff_client, method)(path, content_type="application/json")
    assert response.status_code == 404


def _post_raw(client, path, body, content_type="application/json"):
    return client.post(path, data=body, content_type=content_type)


def test_json_nested_deeper_than_a_real_body_is_a_400(running, staff_client, teams):
    team = teams[0].pk
    deep = f'{{"team": {team}, "puzzle": 1, "missing": {"[" * 5000 + "]" * 5000}}}'
    response = _post_raw(staff_client, f"{API}/finishes/", deep)
    assert response.status_code == 400
    also_deep = f'{{"team": {team}, "puzzle": 1, "x": {"[" * 12 + "]" * 12}}}'
    assert _post_raw(staff_client, f"{API}/finishes/", also_deep).status_code == 400
    assert not Finish.objects.exists()


def test_a_lone_surrogate_anywhere_in_the_json_is_a_400(running, staff_client, teams):
    # The key is not a field, so no serializer would look at it: the finish was saved.
    body = f'{{"team": {teams[0].pk}, "puzzle": 1, "\\ud800": "x"}}'
    response = _post_raw(staff_client, f"{API}/finishes/", body)
    assert response.status_code == 400, response.content
    body = '{"reason": "Larm", "note": ["\\udfff"]}'
    assert _post_raw(staff_client, f"{API}/teams/{teams[0].pk}/warnings/", body).status_code == 400
    assert not Finish.objects.exists()
    assert not Warning.objects.exists()
    # A real pair of surrogates is one character (an emoji): fine.
    body = '{"reason": "Larm \\ud83d\\ude00"}'
    assert _post_raw(staff_client, f"{API}/teams/{teams[0].pk}/warnings/", body).status_code == 201


def test_a_body_that_is_not_utf8_or_not_strict_json_is_a_400(running, staff_client, teams):
    bad_bytes = b'{"reason": "\xff\xfe"}'
    response = _post_raw(staff_client, f"{API}/teams/{teams[0].pk}/warnings/", bad_bytes)
    assert response.status_code == 400
    nan = f'{{"team": {teams[0].pk}, "puzzle": 1, "elapsed_seconds": NaN}}'
    assert _post_raw(staff_client, f"{API}/finishes/", nan).status_code == 400


def test_a_json_body_over_64_kb_is_a_413(running, staff_client, teams):
    body = json.dumps({"team": teams[0].pk, "puzzle": 1, "note": "a" * 70_000})
    response = _post_raw(staff_client, f"{API}/finishes/", body)
    assert response.status_code == 413
    assert response.json()["detail"]
    assert not Finish.objects.exists()
    # Just under the limit is read as usual.
    body = json.dumps({"reason": "Larm", "note": "a" * 60_000})
    assert _post_raw(staff_client, f"{API}/teams/{teams[0].pk}/warnings/", body).status_code == 201


def test_a_3_mb_body_is_a_413_and_nothing_is_saved(running, staff_client, teams):
    """Past Django's own 2.5 MB limit too: a 413 from the parser, never a 400 or a 500."""
    body = json.dumps({"team": teams[0].pk, "puzzle": 1, "note": "a" * 3_000_000})
    response = _post_raw(staff_client, f"{API}/finishes/", body)
    assert response.status_code == 413
    assert not Finish.objects.exists()


def test_64_kb_of_brackets_is_a_400_without_recursion(running, staff_client, teams):
    """A body nested 30,000 deep is refused before json.loads recurses (a RecursionError there
    broke CPython 3.11's recursion counter and crashed a test worker)."""
    body = "[" * 30_000 + "]" * 30_000
    response = _post_raw(staff_client, f"{API}/finishes/", body)
    assert response.status_code == 400
    assert response.json()["detail"]
    assert not Finish.objects.exists()


# --- staff pages --------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        f"/desk/{S}/?q=²",
        f"/desk/{S}/?q={BIG}",
        f"/desk/{S}/cards/?team=²",
        f"/desk/{S}/cards/?team={BIG}",
        f"/judge/{S}/?t=²",
        f"/judge/{S}/?t=1-²",
        f"/judge/{S}/?t=1-{BIG}",
        f"/control/{S}/audit/?team=²",
        f"/control/{S}/audit/?user=²",
        f"/control/{S}/audit/?team={BIG}",
        f"/control/{S}/audit/?action=%00",
        f"/desk/{S}/objections/?team=²",
    ],
)
def test_a_staff_page_ignores_a_number_it_cannot_read(running, staff_client, path):
    assert staff_client.get(path).status_code == 200


def test_the_desk_search_still_finds_a_table_by_its_number(running, staff_client, teams):
    page = staff_client.get(f"/desk/{S}/?q=2").content.decode()
    assert "Hold 2" in page
    assert "Hold 3" not in page


def test_the_judge_page_reads_plain_table_numbers_and_ranges(running, staff_client):
    response = staff_client.get(f"/judge/{S}/?t=1-2&t=²&t=٣")
    assert response.context["chosen_tables"] == [1, 2]


@pytest.mark.parametrize("field", ["f{finish}-lone", "f{finish}-adjacent", "f{finish}-time"])
def test_a_unicode_digit_in_a_correction_is_a_form_error(
    running, staff_client, teams, judge, field
):
    from judging.services import finish_register

    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=600)
    data = {
        f"f{finish.pk}-time": "0:10:00",
        f"f{finish.pk}-lone": "",
        f"f{finish.pk}-reason": "Retter",
    }
    data[field.format(finish=finish.pk)] = "²"
    url = f"/control/{S}/teams/{teams[0].pk}/finishes/{finish.pk}/correct"
    assert staff_client.post(url, data).status_code == 400
    finish.refresh_from_db()
    assert (finish.elapsed_seconds, finish.missing) == (600, [])


def test_a_nul_in_the_reason_for_deleting_a_finish_is_refused(running, staff_client, teams, judge):
    from judging.services import finish_register

    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=600)
    url = f"/control/{S}/teams/{teams[0].pk}/finishes/{finish.pk}/delete"
    response = staff_client.post(url, {f"d{finish.pk}-reason": "a\x00b"})
    assert response.status_code == 302
    assert Finish.objects.filter(pk=finish.pk).exists()


@pytest.mark.parametrize("target", ["-1", "desk:teams", "https://evil.example/", "//evil.example/"])
def test_next_is_an_address_on_this_site_or_ignored(running, staff_client, teams, target):
    url = f"/desk/{S}/teams/{teams[0].pk}/check-in"
    response = staff_client.post(url, {"next": target})
    assert response.status_code == 302
    assert response["Location"] == f"/desk/{S}/"
    response = staff_client.post(f"/control/{S}/finalise/", {"next": target})
    assert response["Location"] == f"/control/{S}/"


def test_next_on_this_site_is_followed(running, staff_client, teams):
    url = f"/desk/{S}/teams/{teams[0].pk}/fee"
    response = staff_client.post(url, {"paid": "1", "next": f"/desk/{S}/?f=unpaid"})
    assert response["Location"] == f"/desk/{S}/?f=unpaid"


# --- puzzle sequence on PostgreSQL ---------------------------------------------------------
def test_the_puzzle_sequence_is_saved_whatever_the_puzzles_ids(admin_user):
    """`position = 10000 + pk` overflowed PostgreSQL's smallint once ids passed 22,767."""
    competition = CompetitionFactory()
    first = Puzzle.objects.create(pk=40_000, competition=competition, position=1, pieces=500)
    second = Puzzle.objects.create(pk=40_001, competition=competition, position=2, pieces=1000)
    puzzles = [
        {"id": second.pk, "title": "B", "pieces": 1000},
        {"id": first.pk, "title": "A", "pieces": 500},
        {"title": "Ny", "pieces": 750},
    ]
    puzzle_sequence_set(competition=competition, by=admin_user, puzzles=puzzles)
    assert list(
        Puzzle.objects.filter(competition=competition)
        .order_by("position")
        .values_list("position", "title", "pieces")
    ) == [(1, "B", 1000), (2, "A", 500), (3, "Ny", 750)]
    assert Puzzle.objects.get(pk=first.pk).position == 2


@pytest.mark.parametrize(
    "moment", ["0001-01-01T00:00:00", "0001-01-01T00:00:00+05:00", "9999-12-31T23:59:59-05:00"]
)
def test_a_moment_the_time_zone_cannot_hold_is_a_400(competition, api_as, admin_user, moment):
    """DRF's DateTimeField let Python's OverflowError through (a 500)."""
    api = api_as(admin_user)
    response = api.post(f"{API}/clock/start", {"started_at": moment}, format="json")
    assert response.status_code == 400, response.content
    body = {"slug": "ny", "name": "Ny", "starts_at": moment}
    assert api.post("/api/v1/competitions/", body, format="json").status_code == 400
    competition.started_at = timezone.now() - timedelta(minutes=5)
    competition.save()
    response = api.post(f"{API}/clock/stop", {"stopped_at": moment}, format="json")
    assert response.status_code == 400, response.content


def test_the_import_reads_tables_with_the_same_parser_and_drops_nul(competition, desk):
    from competition import imports

    text = f"hold;bord;medlem 1\nA\x00B;٣;Anne\nC;{BIG};Bo\nD;2;Carl\n"
    preview = imports.preview(competition, text.encode(), "x.csv")
    first, second, third = preview.teams
    assert first.name == "AB"
    assert "ikke et bordnummer" in " ".join(first.problems)
    assert "ikke et bordnummer" in " ".join(second.problems)
    assert third.table == 2 and not third.problems


def test_the_audit_filters_still_filter(running, staff_client, teams, judge):
    from judging.services import warning_log

    warning_log(team=teams[0], by=judge, reason="Larm")
    warning_log(team=teams[1], by=judge, reason="Larm")
    url = f"/control/{S}/audit/"

    def shown(query):
        return {row["entry"].team_id for row in staff_client.get(url, query).context["rows"]}

    assert shown({"team": str(teams[0].pk)}) == {teams[0].pk}
    assert {teams[0].pk, teams[1].pk} <= shown({"team": "²"})
    assert shown({"user": str(judge.pk), "action": "warning_log"}) == {teams[0].pk, teams[1].pk}


def test_a_huge_form_count_builds_no_thousand_forms(running, staff_client):
    """TOTAL_FORMS=2147483648 made Django build, check and show 1,000 member forms."""
    url = f"/desk/{S}/teams/new/"
    data = {
        "name": "Nyt hold",
        "table": "9",
        "members-TOTAL_FORMS": "2147483648",
        "members-INITIAL_FORMS": "0",
    }
    response = staff_client.post(url, data)
    assert response.status_code == 200
    assert len(response.context["formset"].forms) <= 50


# --- The moved addresses and the two shared form fields -------------------------
@pytest.mark.parametrize(
    "path",
    [
        f"/objections/{S}/²/resolve/",
        f"/objections/{S}/{BIG}/resolve/",
        f"/control/{S}/objections/²/resolve/",
        f"/control/{S}/objections/{BIG}/resolve/",
    ],
)
def test_an_odd_objection_id_old_or_new_address_is_a_404(running, staff_client, path):
    assert staff_client.get(path).status_code == 404
    assert staff_client.post(path, {"decision": "upheld"}).status_code == 404


def test_an_odd_query_survives_the_redirect_of_a_moved_page(running, client, desk):
    client.force_login(desk)
    moved = client.get(f"/objections/{S}/official/?id=²&x=%00", follow=True)
    assert moved.redirect_chain == [(f"/desk/{S}/official/?id=%C2%B2&x=%00", 301)]
    assert moved.status_code == 200


@pytest.mark.parametrize(
    ("time", "missing", "said"),
    [
        ("１:00:00", "", "Skriv tiden som"),  # a full-width digit
        ("0:10:00\x00", "", "Skriv tiden som"),
        ("9" * 5000, "", "Skriv tiden som"),
        ("95", "", "Skriv tiden som"),  # a bare number is not a time
        ("0:10:00", "²", "Skriv størrelsen"),
        ("0:10:00", "1, 0", "Skriv størrelsen"),
        ("0:10:00", "1," * 5000, "Skriv størrelsen"),
        ("0:10:00", "-1", "Skriv størrelsen"),
    ],
)
def test_odd_text_in_the_paper_entry_is_a_form_error_and_nothing_is_saved(
    running, staff_client, teams, state, time, missing, said
):
    """The paper panel says its errors on the team's page, where it stands."""
    before = state()
    response = staff_client.post(
        f"/control/{S}/teams/{teams[0].pk}/paper/finish",
        {"paper-puzzle": 1, "paper-time": time, "paper-missing": missing},
        follow=True,
    )
    assert response.redirect_chain == [(f"/control/{S}/teams/{teams[0].pk}/", 302)]
    assert said in response.content.decode()
    assert state() == before


def test_odd_text_in_an_objection_decision_is_a_form_error(
    running, staff_client, teams, judge, desk, state
):
    from judging.services import finish_register, objection_file

    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=600)
    objection = objection_file(team=teams[0], by=desk, text="Forkert", finish=finish)
    url = f"/control/{S}/objections/{objection.pk}/resolve/"
    before = state()
    for field, value, said in (
        ("elapsed", "²:00", "Skriv tiden som"),
        ("elapsed", "95", "Skriv tiden som"),
        ("missing", "0, 1", "Skriv størrelsen"),
    ):
        data = {"decision": "upheld", "note": "Rettet", field: value}
        page = staff_client.post(url, data)  # the form again, with the field's error
        assert page.status_code == 200 and said in page.content.decode(), (field, value)
    assert state() == before


def test_a_3_mb_form_to_a_moved_page_is_refused_and_nothing_is_saved(
    running, client, desk, teams, state
):
    client.force_login(desk)
    before = state()
    response = client.post(
        f"/desk/{S}/objections/", {"team": teams[0].pk, "text": "x" * (3 * 1024 * 1024)}
    )
    assert response.status_code in (400, 413)
    assert state() == before


def test_a_column_choice_with_a_unicode_digit_is_ignored():
    from competition.imports import parse_key

    assert parse_key("member:2") == ("member", 2)
    for odd in ("member:²", "member:٣", "member:51", "member:", "member:-1"):
        assert parse_key(odd) is None, odd


# Every number read from outside goes through competition.inputs.whole_number: Python's
# own str.isdigit() accepts "²" (and int() then fails: a 500) and int() accepts "٣", " 1",
# "1_000". The walk over the app's code finds a new reader the day it is written.
RAW_NUMBER = re.compile(r"\.is(?:digit|numeric|decimal)\(\)|\bint\(\s*request\.")


def test_no_app_code_reads_a_number_with_isdigit_or_int_of_the_request():
    root = Path(__file__).resolve().parents[2]
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for app in ("competition", "judging", "scoring", "config")
        for path in sorted((root / app).rglob("*.py"))
        if "migrations" not in path.parts and path.name != "inputs.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if RAW_NUMBER.search(line)
    ]
    assert found == []
