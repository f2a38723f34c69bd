"""The audit log moves to the ground floor (docs/architecture.md "Floors"): the table and its rows
stay."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from competition.audit import audit_record
from competition.models import AuditEntry, Competition

BEFORE = [("competition", "0007_second_count"), ("judging", "0006_count_confirmation")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_audit_rows_written_before_the_move_are_read_after_it_with_their_objection():
    old = migrate(BEFORE)
    try:
        competition = old.get_model("competition", "Competition").objects.create(
            slug="gammel", name="Gammel", starts_at=timezone.now() - timedelta(hours=1)
        )
        team = old.get_model("competition", "Team").objects.create(
            competition=competition, name="Hold", table=1
        )
        admin = old.get_model("auth", "User").objects.create(username="overdommer")
        objection = old.get_model("judging", "Objection").objects.create(
            team=team, text="Forkert tid"
        )
        entry = old.get_model("judging", "AuditEntry").objects.create(
            competition=competition,
            team=team,
            user=admin,
            action="objection_file",
            objection=objection,
            after={"text": "Forkert tid"},
            reason="Skranken",
        )
    finally:
        latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
        migrate(latest)
    moved = AuditEntry.objects.get(pk=entry.pk)
    assert (moved.action, moved.reason, moved.after) == (
        "objection_file",
        "Skranken",
        {"text": "Forkert tid"},
    )
    assert (moved.team_id, moved.user_id, moved.objection_id) == (team.pk, admin.pk, objection.pk)
    assert moved.at == entry.at
    # New entries go on in the same table, after the old ones.
    later = audit_record(
        competition=Competition.objects.get(pk=competition.pk),
        user=None,
        action="clock_start",
    )
    assert later.pk > entry.pk
    assert list(AuditEntry.objects.filter(competition_id=competition.pk)) == [later, moved]
