"""The data migration: request ids on the records so far get rows of their own."""

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from competition.errors import Refusal
from competition.models import Team
from judging.models import Finish
from judging.services import finish_delete, finish_register
from judging.services.requests import fingerprint as _fingerprint

BEFORE = [("judging", "0002_warning_request_fingerprint_warning_request_id")]


def migrate(target):
    """Migrate judging to `target`; the models as they are then (other apps: the latest)."""
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    executor.loader.build_graph()
    others = [node for node in executor.loader.graph.leaf_nodes() if node[0] != "judging"]
    return executor.loader.project_state(others + target).apps


@pytest.mark.django_db(transaction=True)
def test_existing_request_ids_are_copied_and_then_undone_when_their_record_goes():
    old = migrate(BEFORE)
    try:
        Competition = old.get_model("competition", "Competition")
        # competition is at its latest here: a competition belongs to a championship.
        own = old.get_model("competition", "Championship").objects.create(slug="gammel", name="G")
        competition = Competition.objects.create(
            championship=own,
            slug="gammel",
            name="Gammel",
            starts_at=timezone.now(),
            started_at=timezone.now() - timedelta(hours=1),
        )
        puzzle = old.get_model("competition", "Puzzle").objects.create(
            competition=competition, position=1, pieces=500
        )
        team = old.get_model("competition", "Team").objects.create(
            competition=competition, name="Hold", table=1
        )
        judge = old.get_model("auth", "User").objects.create(username="dommer")
        ids = [uuid.uuid4(), uuid.uuid4()]
        # As the services fingerprinted a finish's body then.
        fingerprint = _fingerprint(team=team.pk, position=1, missing=[], elapsed_seconds=900)
        finish = old.get_model("judging", "Finish").objects.create(
            team=team,
            puzzle=puzzle,
            elapsed_seconds=900,
            registered_by=judge,
            request_id=ids[0],
            request_fingerprint=fingerprint,
        )
        old.get_model("judging", "Warning").objects.create(
            team=team,
            reason="Larm",
            given_by=judge,
            request_id=ids[1],
            request_fingerprint="w" * 64,
        )
        old.get_model("judging", "Warning").objects.create(team=team, reason="Uden id")
    finally:
        # the latest judging migration: the services below run against today's models
        new = migrate(MigrationExecutor(connection).loader.graph.leaf_nodes("judging"))
    rows = {r.request_id: r for r in new.get_model("judging", "RequestId").objects.all()}
    assert set(rows) == set(ids)
    kept = rows[ids[0]]
    assert (kept.kind, kept.fingerprint, kept.outcome) == ("finish", fingerprint, "created")
    assert (kept.record_id, kept.team_id, kept.user_id) == (finish.pk, team.pk, judge.pk)
    assert (kept.competition_id, kept.answer) == (competition.pk, None)
    assert kept.created_at == finish.registered_at
    assert (rows[ids[1]].kind, rows[ids[1]].fingerprint) == ("warning", "w" * 64)

    # With the current code: the old finish is replayed, and once deleted it stays undone.
    team = Team.objects.get(pk=team.pk)
    replay = finish_register(team=team, position=1, by=None, elapsed_seconds=900, request_id=ids[0])
    assert (replay.pk, replay.replayed) == (finish.pk, True)
    assert replay.answer["elapsed_seconds"] == 900
    finish_delete(finish=Finish.objects.get(pk=finish.pk), by=None)
    with pytest.raises(Refusal) as resent:
        finish_register(team=team, position=1, by=None, elapsed_seconds=900, request_id=ids[0])
    assert resent.value.code == "undone"
