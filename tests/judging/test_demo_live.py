"""`manage.py demo --live`: the demo championship played in a few real seconds: the heats, the
pairs and the teams at once; the heats made final; after the head judge advances the best of
the heats, `demo --live` again plays the final; `demo --remove` then leaves nothing."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from championships.services import advance
from competition.models import AuditEntry, Championship, Competition, Team
from judging.demo_live import play
from judging.management.commands.demo import DEMO_SLUG, FINAL_SLUG, HEATS, PAIRS_SLUG, TEAMS_SLUG
from judging.models import Count, Finish
from tests.judging.test_concurrency import assert_standings_consistent

pytestmark = pytest.mark.django_db

PLAYED = (*HEATS, PAIRS_SLUG, TEAMS_SLUG)


def live(seconds: str = "2") -> str:
    out = StringIO()
    call_command("demo", "--live", "--seconds", seconds, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_demo_live_plays_the_heats_pairs_and_teams_at_once_in_two_seconds():
    before = timezone.now()
    text = live()
    after = timezone.now()
    for slug in PLAYED:
        competition = Competition.objects.get(slug=slug)
        # Back-dated so that each clock ends 2 seconds after the play began: between the start
        # of the command and 2 seconds after its end, however long a busy machine took.
        assert competition.has_ended(), slug
        assert before <= competition.clock_end <= after + timedelta(seconds=2), slug
        end = competition.duration_minutes * 60
        finishes = list(Finish.objects.filter(team__competition=competition))
        assert finishes and all(0 < f.elapsed_seconds <= end for f in finishes), slug
        # Every entrant with an unfinished puzzle is counted; the standings are consistent.
        unfinished = [
            t for t in competition.teams.all() if t.finishes.count() < competition.puzzles.count()
        ]
        assert Count.objects.filter(team__competition=competition).count() == len(unfinished)
        assert assert_standings_consistent(competition)[0].rank == 1
    finishes = list(Finish.objects.select_related("registered_by"))
    assert {f.registered_by.username for f in finishes} == {"judge"}
    assert any(f.missing == [1] for f in finishes)  # some lone missing pieces (R8)
    assert any(f.missing and min(f.missing) >= 2 for f in finishes)  # production faults
    # The heats are final (their counts confirmed by the head judge), the others are not.
    final_now = set(Competition.objects.filter(finalised_at__isnull=False).values_list("slug"))
    assert final_now == {(slug,) for slug in HEATS}
    assert not Count.objects.filter(team__competition__slug__in=HEATS, confirmed_at=None)
    assert AuditEntry.objects.filter(action="clock_start").count() == 4
    final = Competition.objects.get(slug=FINAL_SLUG)
    assert final.started_at is None and not final.teams.exists()
    assert "puzzle 1 finished" in text and "Time is up" in text and "counted:" in text
    assert f"/control/{FINAL_SLUG}/advance/" in text  # what the head judge does next


def test_after_the_advance_demo_live_plays_the_final_and_remove_leaves_nothing(admin_user):
    live("1")
    final = Competition.objects.get(slug=FINAL_SLUG)
    went_on = advance(competition=final, sources=list(HEATS), best=4, by=admin_user)
    assert len(went_on) >= 8
    text = live("1")
    assert "already started" in text
    final.refresh_from_db()
    assert final.has_ended() and Finish.objects.filter(team__competition=final).exists()
    assert assert_standings_consistent(final)[0].rank == 1
    assert "Nothing left to play" in live("1")
    # --remove after a played demo: the results go with the competitions.
    call_command("demo", "--remove", stdout=StringIO())
    assert not Championship.objects.filter(slug=DEMO_SLUG).exists()
    assert not Competition.objects.exists() and not Team.objects.exists()


def test_demo_live_stops_when_the_clock_already_runs(competition, teams, admin_user):
    from competition.services import clock_start

    clock_start(competition=competition, by=admin_user)
    out = StringIO()
    assert play(slugs=[competition.slug], seconds=2, out=out) == []
    assert "already started" in out.getvalue()
    assert not Finish.objects.exists()
