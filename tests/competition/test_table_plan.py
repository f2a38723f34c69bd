"""One hall, one table plan (docs/contracts.md "A championship of several competitions"): the
competitions of a championship that run at the same time have distinct tables. A clash is
refused, naming the table, the entrant and the other competition, on every path that gives
an entrant a table or moves a competition in time; nothing is written."""

from datetime import UTC, datetime, timedelta

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from competition.errors import Refusal
from competition.models import Competition, Team
from competition.services import (
    championship_create,
    clock_start,
    clock_stop,
    competition_create,
    competition_update,
    next_free_table,
    team_create,
    team_update,
)
from puzzle_rules.table_plan import Seat, Span, clashes, span_of
from tests.factories import PuzzleFactory

# --- the pure comparison ---------------------------------------------------------------------
T0 = datetime(2027, 5, 1, 10, 0, tzinfo=UTC)
H = timedelta(hours=1)


def test_spans_that_only_touch_do_not_overlap():
    heat_a, heat_b = Span(T0, T0 + H), Span(T0 + H, T0 + 2 * H)
    assert not heat_a.overlaps(heat_b) and not heat_b.overlaps(heat_a)
    assert Span(T0, T0 + 2 * H).overlaps(Span(T0 + H, T0 + 3 * H))
    assert Span(T0, T0 + 3 * H).overlaps(Span(T0 + H, T0 + 2 * H))  # one inside the other


def test_the_span_is_the_clocks_once_started_else_the_plan():
    planned = span_of(starts_at=T0, duration=H)
    assert planned == Span(T0, T0 + H)
    late = span_of(starts_at=T0, duration=H, started_at=T0 + H / 2)
    assert late == Span(T0 + H / 2, T0 + H + H / 2)
    stopped = span_of(starts_at=T0, duration=H, started_at=T0, stopped_at=T0 + H / 4)
    assert stopped == Span(T0, T0 + H / 4)


def test_clashes_name_the_seats_at_wanted_tables_at_the_same_time():
    heat_b = Span(T0, T0 + H)
    later = Span(T0 + H, T0 + 2 * H)
    seats = [
        Seat(5, "Anna", "Heat B", heat_b),
        Seat(6, "Bo", "Heat B", heat_b),
        Seat(5, "Eva", "Finale", later),
        Seat(2, "Dan", "Heat B", heat_b),
    ]
    found = clashes(Span(T0 + H / 2, T0 + H + H / 2), [2, 5, 9], seats)
    assert [(c.table, c.seat.entrant) for c in found] == [(2, "Dan"), (5, "Anna"), (5, "Eva")]
    assert clashes(Span(T0 + 2 * H, T0 + 3 * H), [2, 5], seats) == []


moments = st.integers(min_value=0, max_value=10_000).map(lambda m: T0 + timedelta(minutes=m))
lengths = st.integers(min_value=1, max_value=600).map(lambda m: timedelta(minutes=m))


@given(moments, lengths, moments, lengths)
def test_overlap_is_symmetric_and_means_a_shared_minute(a, la, b, lb):
    first, second = Span(a, a + la), Span(b, b + lb)
    assert first.overlaps(second) == second.overlaps(first)
    shared = max(a, b) < min(a + la, b + lb)
    assert first.overlaps(second) == shared


# --- the database: a championship with two heats at once and a final after -------------------
def tomorrow_at(hour: int) -> datetime:
    day = timezone.localtime() + timedelta(days=1)
    return day.replace(hour=hour, minute=0, second=0, microsecond=0)


@pytest.fixture
def dm(db):
    return championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027")


def _round(dm, slug, name, hour, minutes=60, discipline="individual"):
    return competition_create(
        by=None,
        slug=slug,
        name=name,
        starts_at=tomorrow_at(hour),
        duration_minutes=minutes,
        championship=dm,
        discipline=discipline,
        round=name,
    )


@pytest.fixture
def heat_a(dm):
    heat = _round(dm, "heat-a", "Indledende runde A", 10)
    for table, name in ((1, "Anna"), (2, "Bo")):
        Team.objects.create(competition=heat, name=name, table=table)
    return heat


@pytest.fixture
def heat_b(dm):
    return _round(dm, "heat-b", "Indledende runde B", 10)


@pytest.fixture
def final(dm):
    return _round(dm, "finale", "Finale", 11)


def _table_error(excinfo) -> str:
    return " ".join(excinfo.value.message_dict["table"])


def test_a_team_at_a_table_of_a_heat_at_the_same_time_is_refused_naming_it(heat_a, heat_b, desk):
    with pytest.raises(ValidationError) as excinfo:
        team_create(competition=heat_b, by=desk, name="Eva", table=2)
    text = _table_error(excinfo)
    assert "Bord 2" in text and "»Bo«" in text and "»Indledende runde A«" in text
    assert "10:00–11:00" in text and "det næste ledige er 3" in text
    assert not Team.objects.filter(competition=heat_b).exists()
    # a table nobody has at that time is fine
    assert team_create(competition=heat_b, by=desk, name="Eva", table=3).table == 3


def test_a_competition_after_the_heat_may_use_its_tables(heat_a, final, desk):
    assert team_create(competition=final, by=desk, name="Eva", table=1).table == 1


def test_a_changed_table_is_checked_and_other_changes_are_not(heat_a, heat_b, desk):
    eva = team_create(competition=heat_b, by=desk, name="Eva", table=3)
    with pytest.raises(ValidationError) as excinfo:
        team_update(team=eva, by=desk, table=1)
    assert "»Anna«" in _table_error(excinfo)
    eva.refresh_from_db()
    assert eva.table == 3
    # the same table again and the name alone: no table-plan check refuses them
    assert team_update(team=eva, by=desk, name="Eva Holm", table=3).name == "Eva Holm"


def test_the_next_free_table_skips_the_tables_of_the_heat_at_the_same_time(heat_a, heat_b, final):
    assert next_free_table(heat_b) == 3
    assert next_free_table(final) == 1


def test_the_api_answers_400_on_table_with_a_sentence(heat_a, heat_b, api_as, desk):
    url = reverse("api:teams", args=["heat-b"])
    response = api_as(desk).post(url, {"name": "Eva", "table": 1}, format="json")
    assert response.status_code == 400, response.content
    assert "»Anna«" in response.json()["table"][0]
    assert "»Indledende runde A«" in response.json()["table"][0]
    created = api_as(desk).post(url, {"name": "Eva", "table": 3}, format="json")
    assert created.status_code == 201
    patch = api_as(desk).patch(
        reverse("api:team", args=["heat-b", created.json()["id"]]), {"table": 2}, format="json"
    )
    assert patch.status_code == 400 and "»Bo«" in patch.json()["table"][0]
    assert Team.objects.get(pk=created.json()["id"]).table == 3


def test_the_desk_form_shows_the_clash_on_the_table_field(client, heat_a, heat_b, desk):
    client.force_login(desk)
    url = reverse("desk:team_new", args=["heat-b"])
    page = client.get(url)
    assert page.context["form"].initial["table"] == 3  # the next free, past heat A's
    response = client.post(
        url,
        {
            "name": "Eva",
            "table": "1",
            "members-TOTAL_FORMS": "1",
            "members-INITIAL_FORMS": "0",
            "members-0-name": "Eva Holm",
        },
    )
    assert response.status_code == 200
    assert "»Anna«" in " ".join(response.context["form"].errors["table"])
    assert "Indledende runde A" in response.content.decode()
    assert not Team.objects.filter(competition=heat_b).exists()


def test_the_import_preview_names_the_row_and_confirm_writes_nothing(client, heat_a, heat_b, desk):
    client.force_login(desk)
    url = reverse("desk:import", args=["heat-b"])
    sheet = "Hold;Bord;Medlem 1\nEva;1;Eva Holm\nFinn;4;Finn Dal\nGry;;Gry Lund\n"
    response = client.post(url, {"file": SimpleUploadedFile("t.csv", sheet.encode())})
    preview = response.context["preview"]
    problems = {t.line: " ".join(t.problems) for t in preview.teams}
    assert "Bord 1" in problems[2] and "»Anna«" in problems[2]
    assert "Indledende runde A" in problems[2]
    assert problems[3] == "" and problems[4] == ""
    # an empty table cell gets the next free one: not heat A's 1 and 2, not the sheet's 4
    assert preview.teams[2].table == 3
    assert "Indledende runde A" in response.content.decode()
    confirm = client.post(url, {"token": response.context["token"]})
    assert confirm.status_code == 200
    assert not Team.objects.filter(competition=heat_b).exists()


def test_moving_a_start_into_a_clash_is_refused_naming_it(heat_a, final, admin_user):
    Team.objects.create(competition=final, name="Eva", table=2)
    with pytest.raises(ValidationError) as excinfo:
        competition_update(competition=final, by=admin_user, starts_at=tomorrow_at(10))
    text = " ".join(excinfo.value.message_dict["starts_at"])
    assert "»Indledende runde A«" in text and "bord 2" in text
    assert "»Eva«" in text and "»Bo«" in text
    final.refresh_from_db()
    assert final.starts_at == tomorrow_at(11)
    # a longer heat A would run into the final too: the duration is a move in time
    with pytest.raises(ValidationError) as excinfo:
        competition_update(competition=heat_a, by=admin_user, duration_minutes=90)
    assert "»Finale«" in " ".join(excinfo.value.message_dict["duration_minutes"])
    # a later start that keeps clear is fine
    competition_update(competition=final, by=admin_user, starts_at=tomorrow_at(12))


def test_the_setup_page_refuses_a_start_moved_into_a_clash(client, heat_a, final, admin_user):
    Team.objects.create(competition=final, name="Eva", table=1)
    client.force_login(admin_user)
    page = client.post(
        reverse("desk:setup", args=["finale"]),
        {
            "name": "Finale",
            "slug": "finale",
            "starts_at": timezone.localtime(tomorrow_at(10)).strftime("%Y-%m-%dT%H:%M"),
            "duration_minutes": "60",
            "max_at_table": "1",
            "puzzles-TOTAL_FORMS": "0",
            "puzzles-INITIAL_FORMS": "0",
        },
    )
    assert page.status_code == 200
    assert "»Anna«" in " ".join(page.context["form"].errors["starts_at"])
    assert Competition.objects.get(slug="finale").starts_at == tomorrow_at(11)


@pytest.fixture
def running_heat_a(heat_a, admin_user):
    PuzzleFactory(competition=heat_a, position=1, pieces=500)
    # heat A started late, at the planned start of the final: it still runs
    Competition.objects.filter(pk=heat_a.pk).update(
        started_at=timezone.now() - timedelta(minutes=10)
    )
    return Competition.objects.get(pk=heat_a.pk)


def test_a_clock_start_is_refused_while_a_running_heat_holds_a_table(
    running_heat_a, final, admin_user, api_as
):
    PuzzleFactory(competition=final, position=1, pieces=500)
    Team.objects.create(competition=final, name="Eva", table=2)
    with pytest.raises(Refusal) as excinfo:
        clock_start(competition=final, by=admin_user)
    refusal = excinfo.value
    assert refusal.code == "table_clash"
    assert "»Indledende runde A«" in str(refusal.message) and "bord 2" in str(refusal.message)
    assert refusal.extra["clashes"] == [
        {
            "table": 2,
            "entrant": "Eva",
            "other": {
                "id": Team.objects.get(name="Bo").pk,
                "name": "Bo",
                "competition": "Indledende runde A",
            },
        }
    ]
    response = api_as(admin_user).post(reverse("api:clock-start", args=["finale"]), format="json")
    assert response.status_code == 409 and response.json()["code"] == "table_clash"
    final.refresh_from_db()
    assert final.started_at is None
    # once heat A's clock has stopped, the final starts
    clock_stop(competition=running_heat_a, by=admin_user)
    assert clock_start(competition=final, by=admin_user).started_at is not None


def test_a_start_written_back_in_time_over_a_heat_that_has_ended_is_free(
    running_heat_a, final, admin_user
):
    """The past holds nobody at a table now: a final's start written as it really was, back
    over heat A's span, is refused only while heat A still runs (then heat A's tables are
    taken from now on), and free once heat A's clock has stopped."""
    PuzzleFactory(competition=final, position=1, pieces=500)
    Team.objects.create(competition=final, name="Eva", table=2)
    back = timezone.now() - timedelta(minutes=20)
    with pytest.raises(Refusal) as excinfo:
        clock_start(competition=final, by=admin_user, started_at=back)
    assert excinfo.value.code == "table_clash"
    clock_stop(competition=running_heat_a, by=admin_user)
    assert clock_start(competition=final, by=admin_user, started_at=back).started_at == back


def test_a_running_heat_with_other_tables_does_not_stop_a_start(running_heat_a, final, admin_user):
    PuzzleFactory(competition=final, position=1, pieces=500)
    Team.objects.create(competition=final, name="Eva", table=3)
    assert clock_start(competition=final, by=admin_user).started_at is not None


def test_a_heat_running_late_into_the_finals_plan_keeps_its_tables_from_the_desk(
    running_heat_a, final, desk
):
    """Heat A's clock started 10 minutes ago, not at its planned 10:00 tomorrow: once started,
    the clock's span counts. A round planned for now clashes with it; the final tomorrow at
    11:00 no longer does."""
    now_round = _round(running_heat_a.championship, "nu", "Omkamp", 0)
    Competition.objects.filter(pk=now_round.pk).update(starts_at=timezone.now())
    now_round.refresh_from_db()
    with pytest.raises(ValidationError) as excinfo:
        team_create(competition=now_round, by=desk, name="Eva", table=1)
    assert "»Anna«" in _table_error(excinfo)
    assert team_create(competition=final, by=desk, name="Eva", table=1).table == 1


def test_advancing_gives_the_next_free_tables_of_the_table_plan(dm, heat_a, admin_user):
    from championships.services import advance

    heat_b = _round(dm, "heat-b", "Indledende runde B", 8)
    for table, name in ((1, "Eva"), (2, "Finn")):
        Team.objects.create(competition=heat_b, name=name, table=table)
    Competition.objects.filter(pk=heat_b.pk).update(
        started_at=tomorrow_at(8), finalised_at=timezone.now()
    )
    PuzzleFactory(competition=heat_b, position=1, pieces=500)
    # a semifinal at the time of heat A (whose entrants sit at tables 1 and 2)
    semi = _round(dm, "semi", "Semifinale", 10)
    advanced = advance(competition=semi, sources=["heat-b"], best=2, per_source=True, by=admin_user)
    assert sorted(a.team.table for a in advanced) == [3, 4]
