"""The desk's services: R3, unique names and tables, check-in, withdraw, setup after start."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from competition.errors import Refusal
from competition.models import AuditEntry, Competition, Member, Team
from competition.services import (
    competition_create,
    competition_update,
    next_free_table,
    puzzle_add,
    puzzle_delete,
    puzzle_sequence_set,
    puzzle_update,
    team_check_in,
    team_check_in_undo,
    team_create,
    team_fee_set,
    team_update,
    team_withdraw,
    team_withdraw_undo,
)

pytestmark = pytest.mark.django_db


def _version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).standings_version


def test_team_create_with_members_and_audit(competition, desk):
    team = team_create(
        competition=competition,
        by=desk,
        name="Kantsøgerne",
        table=4,
        members=[
            {"name": "Anne"},
            {"name": "Ida", "under_15": True, "guardian": "Anne"},
            {"name": ""},  # a blank row is dropped
        ],
    )
    assert [m.name for m in team.members.all()] == ["Anne", "Ida"]
    entry = AuditEntry.objects.get(action="team_create")
    assert entry.user == desk
    assert entry.after["members"][1] == {"name": "Ida", "under_15": True, "guardian": "Anne"}


def test_under_15_without_adult_refused_r3(competition, desk):
    with pytest.raises(ValidationError) as exc:
        team_create(
            competition=competition,
            by=desk,
            name="Puslingerne",
            table=1,
            members=[{"name": "Alma", "under_15": True, "guardian": " "}],
        )
    assert "Alma" in str(exc.value.message_dict["members"])
    assert "ledsagende voksen" in str(exc.value.message_dict["members"])
    assert not Team.objects.exists()


def test_more_members_than_the_table_allows_r17(competition, desk):
    members = [{"name": f"Pusler {i}"} for i in range(6)]
    team = team_create(
        competition=competition, by=desk, name="Store Hold", table=1, members=members
    )
    assert team.members.count() == 6 > competition.max_at_table


@pytest.mark.parametrize("name", ["Hold 1", "HOLD 1", " hold 1 "])
def test_duplicate_name_refused_whatever_the_case(teams, desk, name):
    with pytest.raises(ValidationError) as exc:
        team_create(competition=teams[0].competition, by=desk, name=name, table=9)
    assert "name" in exc.value.message_dict


def test_duplicate_name_with_danish_letters(competition, desk):
    # SQLite's lower() is ASCII-only: the service compares casefolded names itself.
    team_create(competition=competition, by=desk, name="Ørnene på Ærø", table=1)
    with pytest.raises(ValidationError):
        team_create(competition=competition, by=desk, name="ØRNENE PÅ ÆRØ", table=2)


def test_duplicate_table_refused_with_next_free(teams, desk):
    with pytest.raises(ValidationError) as exc:
        team_create(competition=teams[0].competition, by=desk, name="Ny", table=2)
    assert "4" in exc.value.message_dict["table"][0]  # the next free table


def test_next_free_table_fills_gaps(competition, desk):
    assert next_free_table(competition) == 1
    team_create(competition=competition, by=desk, name="A", table=1)
    team_create(competition=competition, by=desk, name="B", table=3)
    assert next_free_table(competition) == 2


def test_team_update_keeps_own_name_and_replaces_members(teams, desk):
    team = teams[0]
    team_update(team=team, by=desk, name="hold 1", members=[{"name": "Søren"}])
    team.refresh_from_db()
    assert team.name == "hold 1"
    assert list(team.members.values_list("name", flat=True)) == ["Søren"]
    with pytest.raises(ValidationError):
        team_update(team=team, by=desk, table=2)


def test_check_in_and_undo_r2(teams, desk):
    team = team_check_in(team=teams[0], by=desk)
    assert team.checked_in_at is not None
    first = team.checked_in_at
    assert team_check_in(team=teams[0], by=desk).checked_in_at == first  # a second tap
    assert AuditEntry.objects.filter(action="team_check_in").count() == 1
    assert team_check_in_undo(team=teams[0], by=desk).checked_in_at is None


def test_fee_paid_p2(teams, desk):
    team_fee_set(team=teams[0], by=desk, paid=True)
    teams[0].refresh_from_db()
    assert teams[0].fee_paid
    assert AuditEntry.objects.filter(action="team_fee_paid", team=teams[0]).exists()


def test_withdraw_bumps_the_standings_version(teams, desk):
    competition = teams[0].competition
    before = _version(competition)
    team_withdraw(team=teams[0], by=desk)
    assert _version(competition) == before + 1
    teams[0].refresh_from_db()
    assert teams[0].withdrawn and not teams[0].competing
    team_withdraw_undo(team=teams[0], by=desk)
    assert _version(competition) == before + 2


def test_final_refuses_every_desk_write(teams, desk):
    competition = teams[0].competition
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(hours=4), finalised_at=timezone.now()
    )
    competition.refresh_from_db()
    for call in (
        lambda: team_check_in(team=teams[0], by=desk),
        lambda: team_withdraw(team=teams[0], by=desk),
        lambda: team_create(competition=competition, by=desk, name="Ny", table=9),
    ):
        with pytest.raises(Refusal) as exc:
            call()
        assert exc.value.code == "final"


def test_setup_refused_after_the_start(competition, admin_user):
    puzzle = competition.puzzles.get(position=3)
    Competition.objects.filter(pk=competition.pk).update(started_at=timezone.now())
    competition.refresh_from_db()
    for call in (
        lambda: puzzle_add(competition=competition, by=admin_user, position=4, pieces=500),
        lambda: puzzle_update(puzzle=puzzle, by=admin_user, pieces=2000),
        lambda: puzzle_delete(puzzle=puzzle, by=admin_user),
        lambda: puzzle_sequence_set(competition=competition, by=admin_user, puzzles=[]),
        lambda: competition_update(competition=competition, by=admin_user, duration_minutes=60),
    ):
        with pytest.raises(Refusal) as exc:
            call()
        assert exc.value.code == "already_started"
    assert competition.puzzles.count() == 3
    # The name may still be corrected.
    competition_update(competition=competition, by=admin_user, name="DM 2026")


def test_puzzle_sequence_reorders_and_removes(competition, admin_user):
    p1, p2, p3 = competition.puzzles.order_by("position")
    puzzle_sequence_set(
        competition=competition,
        by=admin_user,
        puzzles=[
            {"id": p3.pk, "title": p3.title, "pieces": 1000},
            {"id": p1.pk, "title": "Ny titel", "brand": "Ravensburger", "pieces": 500},
            {"title": "Nyt", "pieces": 750},
        ],
    )
    rows = list(competition.puzzles.order_by("position").values_list("pk", "position", "pieces"))
    assert rows[0][:2] == (p3.pk, 1)
    assert rows[1][:2] == (p1.pk, 2)
    assert rows[2][1:] == (3, 750)
    assert not competition.puzzles.filter(pk=p2.pk).exists()
    assert AuditEntry.objects.filter(action="puzzle_sequence_set").count() == 1


def _sequence(competition) -> list[tuple]:
    return list(
        competition.puzzles.order_by("position").values_list("position", "title", "brand", "pieces")
    )


def test_puzzle_update_changes_the_puzzle_audited(competition, admin_user):
    """In setup the head judge corrects a puzzle: the fields given change, nothing else;
    one audit entry with the sequence before and after; the standings version moves."""
    puzzle = competition.puzzles.get(position=2)
    first, _, third = _sequence(competition)
    version = _version(competition)
    updated = puzzle_update(
        puzzle=puzzle, by=admin_user, title="Havnen", brand="Ravensburger", pieces=1500
    )
    assert (updated.pk, updated.position) == (puzzle.pk, 2)
    assert _sequence(competition) == [first, (2, "Havnen", "Ravensburger", 1500), third]
    assert _version(competition) == version + 1
    entry = AuditEntry.objects.get(action="puzzle_update")
    assert (entry.user, entry.competition_id) == (admin_user, competition.pk)
    assert entry.before["puzzles"][1]["pieces"] == 1000
    assert entry.after["puzzles"][1] == {
        "position": 2,
        "title": "Havnen",
        "brand": "Ravensburger",
        "pieces": 1500,
    }


def test_puzzle_update_moves_to_a_free_position_only(competition, admin_user):
    puzzle = competition.puzzles.get(position=3)
    puzzle_update(puzzle=puzzle, by=admin_user, position=4)
    assert [p for p, *_ in _sequence(competition)] == [1, 2, 4]
    before = _sequence(competition)
    audit = AuditEntry.objects.count()
    with pytest.raises(ValidationError) as exc:
        puzzle_update(puzzle=puzzle, by=admin_user, position=1)
    assert "position" in exc.value.message_dict
    with pytest.raises(ValidationError) as exc:  # the model's own checks: pieces >= 1
        puzzle_update(puzzle=puzzle, by=admin_user, pieces=0)
    assert "pieces" in exc.value.message_dict
    with pytest.raises(TypeError):
        puzzle_update(puzzle=puzzle, by=admin_user, competition=None)
    # Its own position again is no conflict.
    puzzle_update(puzzle=puzzle, by=admin_user, position=4, title="Samme plads")
    assert _sequence(competition)[:2] == before[:2]
    assert AuditEntry.objects.count() == audit + 1


def test_puzzle_delete_removes_it_audited(competition, admin_user):
    puzzle = competition.puzzles.get(position=2)
    version = _version(competition)
    puzzle_delete(puzzle=puzzle, by=admin_user)
    assert [p for p, *_ in _sequence(competition)] == [1, 3]
    assert _version(competition) == version + 1
    entry = AuditEntry.objects.get(action="puzzle_delete")
    assert [p["position"] for p in entry.before["puzzles"]] == [1, 2, 3]
    assert [p["position"] for p in entry.after["puzzles"]] == [1, 3]
    other = Competition.objects.create(slug="andet", name="Andet", starts_at=competition.starts_at)
    assert other.puzzles.count() == 0 and competition.puzzles.count() == 2


def test_competition_create_and_reserved_slug(admin_user):
    starts = timezone.now() + timedelta(days=30)
    c = competition_create(by=admin_user, slug="dm-2027", name="DM 2027", starts_at=starts)
    assert c.status == "setup" and c.max_at_table == 4
    for slug in ("desk", "new"):
        with pytest.raises(ValidationError):
            competition_create(by=admin_user, slug=slug, name="X", starts_at=starts)


def test_member_rows_stored_as_given(competition, desk):
    team_create(
        competition=competition,
        by=desk,
        name="A",
        table=1,
        members=[{"name": "Ida", "under_15": True, "guardian": "Mor"}],
    )
    assert Member.objects.get().guardian == "Mor"
