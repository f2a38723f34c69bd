"""`manage.py demo --live`: the demo competition played in a few real seconds."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from competition.models import AuditEntry, Competition
from judging.demo_live import play
from judging.management.commands.demo import DEMO_SLUG
from judging.models import Count, Finish
from tests.judging.test_concurrency import assert_standings_consistent

pytestmark = pytest.mark.django_db


def test_demo_live_plays_a_whole_competition_in_two_seconds():
    out = StringIO()
    before = timezone.now()
    call_command("demo", "--live", "--seconds", "2", stdout=out, stderr=StringIO())
    after = timezone.now()
    competition = Competition.objects.get(slug=DEMO_SLUG)
    # Back-dated so that the clock ends 2 seconds after the play began: between the start
    # of the command and 2 seconds after its end, however long a busy machine took.
    assert competition.has_ended()
    assert before <= competition.clock_end <= after + timedelta(seconds=2)
    end = competition.duration_minutes * 60
    finishes = list(Finish.objects.select_related("registered_by"))
    assert len(finishes) >= 24  # every team finishes the 500-piece puzzle in time
    assert all(0 < f.elapsed_seconds <= end for f in finishes)
    assert {f.registered_by.username for f in finishes} == {"judge"}
    assert any(f.missing == [1] for f in finishes)  # some lone missing pieces (R8)
    assert any(f.missing and min(f.missing) >= 2 for f in finishes)  # production faults
    # Every team with an unfinished puzzle is counted; the standings are consistent.
    unfinished = [t for t in competition.teams.all() if t.finishes.count() < 3]
    assert Count.objects.count() == len(unfinished) > 0
    table = assert_standings_consistent(competition)
    assert table[0].rank == 1
    assert AuditEntry.objects.filter(action="clock_start").count() == 1
    text = out.getvalue()
    assert "puzzle 1 finished" in text
    assert "Time is up" in text
    assert "counted:" in text


def test_demo_live_stops_when_the_clock_already_runs(competition, teams, admin_user):
    from competition.services import clock_start

    clock_start(competition=competition, by=admin_user)
    out = StringIO()
    play(slug=competition.slug, seconds=2, out=out)
    assert "already started" in out.getvalue()
    assert not Finish.objects.exists()
