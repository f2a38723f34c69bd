"""R20: filing and resolving objections, and finalising the results (the services)."""

from datetime import timedelta

import pytest

from competition.models import AuditEntry, Competition
from competition.services import clock_stop, team_withdraw
from judging.models import Objection
from judging.services import (
    competition_finalise,
    count_record,
    finish_register,
    objection_file,
    objection_resolve,
    team_disqualify,
)
from scoring.selectors import competition_standings

pytestmark = pytest.mark.django_db


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).standings_version


def under_review(competition) -> dict:
    body = competition_standings(competition, staff=True)
    return {row["team"]["table"]: row["under_review"] for row in body["standings"]}


# --- filing -----------------------------------------------------------------------------


def test_file_marks_the_team_under_review_and_is_audited(ended, teams, desk):
    finish = teams[0].finishes.get(puzzle__position=2)
    v = version(ended)
    objection = objection_file(
        team=teams[0], by=desk, text="  Vi rakte armen op et minut før.  ", finish=finish
    )
    assert objection.is_open
    assert objection.text == "Vi rakte armen op et minut før."
    assert objection.filed_by == desk
    assert objection.finish == finish
    assert version(ended) == v + 1
    assert under_review(ended) == {1: True, 2: False, 3: False}
    entry = AuditEntry.objects.get(action="objection_file")
    assert entry.objection_id == objection.pk
    assert entry.team == teams[0]
    assert entry.user == desk
    assert entry.after["text"] == objection.text


def test_file_about_a_count(counted, teams, desk):
    count = teams[1].count
    objection = objection_file(team=teams[1], by=desk, text="Talt forkert", count=count)
    assert objection.count == count


def test_file_needs_text(ended, teams, desk, invalid):
    invalid("text", objection_file, team=teams[0], by=desk, text="   ")


def test_file_refuses_another_teams_finish_or_count(counted, teams, desk, invalid):
    other_finish = teams[1].finishes.first()
    invalid("finish", objection_file, team=teams[0], by=desk, text="x", finish=other_finish)
    invalid("count", objection_file, team=teams[0], by=desk, text="x", count=teams[2].count)


def test_file_before_the_start_is_allowed(competition, teams, desk):
    # An objection about, say, the table assignment can come before the clock starts.
    assert objection_file(team=teams[0], by=desk, text="Forkert bord").is_open


# --- resolving --------------------------------------------------------------------------


def test_upheld_with_a_time_correction_goes_through_finish_correct(ended, teams, desk, admin_user):
    finish = teams[0].finishes.get(puzzle__position=2)
    objection = objection_file(team=teams[0], by=desk, text="Et minut for sent", finish=finish)
    v = version(ended)
    resolved = objection_resolve(
        objection=objection,
        by=admin_user,
        decision="upheld",
        note="Dommeren bekræfter: 1:34:00",
        elapsed_seconds=94 * 60,
    )
    assert resolved.decision == "upheld"
    assert resolved.resolved_by == admin_user
    assert resolved.resolved_at is not None
    finish.refresh_from_db()
    assert finish.elapsed_seconds == 94 * 60
    correction = AuditEntry.objects.get(action="finish_correct")
    assert correction.objection_id == objection.pk
    assert correction.reason == "Dommeren bekræfter: 1:34:00"
    assert correction.user == admin_user
    assert correction.before["elapsed_seconds"] == 95 * 60
    assert correction.after["elapsed_seconds"] == 94 * 60
    entry = AuditEntry.objects.get(action="objection_resolve")
    assert entry.objection_id == objection.pk
    assert entry.before["decision"] == "open"
    assert entry.after["decision"] == "upheld"
    assert version(ended) > v
    assert under_review(ended)[1] is False
    body = competition_standings(ended, staff=True)
    assert body["standings"][0]["finishes"][1]["elapsed_seconds"] == 94 * 60


def test_upheld_with_missing_spots_corrected(ended, teams, desk, admin_user):
    finish = teams[0].finishes.get(puzzle__position=2)
    objection = objection_file(team=teams[0], by=desk, text="To brikker sad sammen", finish=finish)
    objection_resolve(
        objection=objection, by=admin_user, decision="upheld", note="Produktionsfejl", missing=[2]
    )
    finish.refresh_from_db()
    assert finish.missing == [2]
    row = competition_standings(ended, staff=True)["standings"][0]
    assert row["pieces"] == 1500


def test_upheld_with_a_count_correction(counted, teams, desk, admin_user):
    count = teams[1].count
    objection = objection_file(team=teams[1], by=desk, text="Vi havde 430", count=count)
    objection_resolve(
        objection=objection, by=admin_user, decision="upheld", note="Talt igen", pieces=430
    )
    count.refresh_from_db()
    assert count.pieces == 430
    assert AuditEntry.objects.get(action="count_correct").objection_id == objection.pk


def test_rejected_changes_nothing_but_the_objection(ended, teams, desk, admin_user):
    objection = objection_file(team=teams[0], by=desk, text="Støj fra bord 2")
    finishes = list(teams[0].finishes.values())
    objection_resolve(objection=objection, by=admin_user, decision="rejected", note="Ikke set")
    objection.refresh_from_db()
    assert (objection.decision, objection.note) == ("rejected", "Ikke set")
    assert list(teams[0].finishes.values()) == finishes
    assert not AuditEntry.objects.filter(action__in=["finish_correct", "count_correct"]).exists()


def test_resolving_twice_is_refused(ended, teams, desk, admin_user, refused):
    objection = objection_file(team=teams[0], by=desk, text="x")
    objection_resolve(objection=objection, by=admin_user, decision="rejected", note="Nej")
    err = refused(
        "already_resolved",
        objection_resolve,
        objection=objection,
        by=admin_user,
        decision="upheld",
        note="Alligevel",
    )
    assert "overdommer" in str(err.message)


@pytest.mark.parametrize(
    ("field", "kwargs"),
    [
        ("note", {"decision": "upheld", "note": "  "}),
        ("decision", {"decision": "maybe", "note": "x"}),
        ("decision", {"decision": "rejected", "note": "x", "elapsed_seconds": 60}),
        ("pieces", {"decision": "upheld", "note": "x", "pieces": 10}),  # not about a count
    ],
)
def test_resolve_bad_input(ended, teams, desk, admin_user, invalid, field, kwargs):
    finish = teams[0].finishes.first()
    objection = objection_file(team=teams[0], by=desk, text="x", finish=finish)
    invalid(field, objection_resolve, objection=objection, by=admin_user, **kwargs)


def test_time_correction_without_a_finish_is_refused(ended, teams, desk, admin_user, invalid):
    objection = objection_file(team=teams[0], by=desk, text="x")
    invalid(
        "elapsed_seconds",
        objection_resolve,
        objection=objection,
        by=admin_user,
        decision="upheld",
        note="x",
        elapsed_seconds=60,
    )


def test_a_correction_the_rules_refuse_leaves_the_objection_open(
    ended, teams, desk, admin_user, refused
):
    finish = teams[0].finishes.get(puzzle__position=2)
    objection = objection_file(team=teams[0], by=desk, text="x", finish=finish)
    # Before the team's finish of puzzle 1 (0:40:00): R7 time order.
    refused(
        "time_order",
        objection_resolve,
        objection=objection,
        by=admin_user,
        decision="upheld",
        note="x",
        elapsed_seconds=30 * 60,
    )
    objection.refresh_from_db()
    assert objection.is_open


# --- finalising -------------------------------------------------------------------------


def test_finalise_before_the_start_is_refused(competition, teams, admin_user, refused):
    refused("clock_not_started", competition_finalise, competition=competition, by=admin_user)


def test_finalise_while_the_clock_runs_is_refused(competition, teams, admin_user, started, refused):
    started(timedelta(hours=1))
    refused("clock_running", competition_finalise, competition=competition, by=admin_user)


def test_finalise_with_an_open_objection_is_refused(counted, teams, desk, admin_user, refused):
    objection_file(team=teams[2], by=desk, text="x")
    err = refused("objections_open", competition_finalise, competition=counted, by=admin_user)
    assert err.extra["objections"][0]["team"] == {"id": teams[2].pk, "name": "Hold 3", "table": 3}
    assert "3" in str(err.message)


def test_finalise_names_the_teams_without_a_count(ended, teams, judge, admin_user, refused):
    count_record(team=teams[0], by=judge, pieces=300)
    err = refused("counts_missing", competition_finalise, competition=ended, by=admin_user)
    assert err.extra["teams"] == [
        {"id": teams[1].pk, "name": "Hold 2", "table": 2},
        {"id": teams[2].pk, "name": "Hold 3", "table": 3},
    ]
    assert "Hold 2 (bord 2)" in str(err.message)
    assert "Hold 3 (bord 3)" in str(err.message)


def test_counts_missing_asks_only_competing_teams_with_an_unfinished_puzzle(
    competition, teams, judge, desk, admin_user, started
):
    started(timedelta(hours=2, minutes=30))
    t1, t2, t3 = teams
    for position, minutes in ((1, 30), (2, 80), (3, 140)):
        finish_register(team=t1, position=position, by=judge, elapsed_seconds=minutes * 60)
    team_withdraw(team=t2, by=admin_user, reason="Udeblevet efter pausen")
    team_disqualify(team=t3, by=admin_user, reason="Hjælp udefra (R18)")
    clock_stop(competition=competition, by=admin_user)
    final = competition_finalise(competition=competition, by=admin_user)
    assert final.is_final


def test_finalise_makes_the_results_final(counted, teams, desk, admin_user, refused):
    objection = objection_file(team=teams[0], by=desk, text="x")
    objection_resolve(objection=objection, by=admin_user, decision="rejected", note="Nej")
    v = version(counted)
    final = competition_finalise(competition=counted, by=admin_user)
    assert final.finalised_by == admin_user
    assert final.finalised_at is not None
    assert final.status == "final"
    assert final.standings_version == v + 1
    entry = AuditEntry.objects.get(action="competition_finalise")
    assert entry.user == admin_user
    assert entry.before == {"finalised_at": None}
    assert entry.after["finalised_at"]
    body = competition_standings(final, staff=True)
    assert body["final"] is True
    assert [r["rank"] for r in body["standings"]] == [1, 2, 3]

    refused("final", competition_finalise, competition=final, by=admin_user)
    err = refused("final", objection_file, team=teams[0], by=desk, text="For sent")
    assert "præmieoverrækkelsen" in str(err.message)


def test_no_objection_can_be_resolved_once_final(counted, teams, desk, admin_user, refused):
    objection = objection_file(team=teams[0], by=desk, text="x")
    # An open objection blocks finalising; force the state a bug elsewhere could leave.
    Competition.objects.filter(pk=counted.pk).update(finalised_at=counted.started_at)
    refused(
        "final",
        objection_resolve,
        objection=objection,
        by=admin_user,
        decision="upheld",
        note="x",
    )
    assert Objection.objects.get(pk=objection.pk).is_open


def test_the_same_open_objection_filed_twice_is_one_objection(ended, teams, desk):
    """A double tap at the desk, a second tab or a resend after a lost answer (R20): one
    objection for the head judge, one audit entry; finalise waits for one, not two."""
    finish = teams[0].finishes.get(puzzle__position=1)
    first = objection_file(team=teams[0], by=desk, text="Forkert tid", finish=finish)
    again = objection_file(team=teams[0], by=desk, text=" Forkert tid ", finish=finish)
    assert (again.pk, first.replayed, again.replayed) == (first.pk, False, True)
    assert Objection.objects.count() == 1
    assert AuditEntry.objects.filter(action="objection_file").count() == 1
    # Another text, or the same one once the first is decided, is a new objection.
    other = objection_file(team=teams[0], by=desk, text="Manglende brik", finish=finish)
    assert other.pk != first.pk and Objection.objects.count() == 2
