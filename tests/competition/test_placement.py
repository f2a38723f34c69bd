"""Where a competition belongs (issue 33): moved into a championship and out again, its
discipline and round changed, deleted when made by mistake, a championship left empty
deleted; each refused with a sentence once the clock has started (409 `started`), and the
table plan and the one namespace of slugs kept."""

import logging
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone, translation

from competition.audit_text import describe
from competition.errors import Refusal
from competition.models import AuditEntry, Championship, Competition, Member, Team
from competition.services import (
    championship_create,
    championship_delete,
    competition_create,
    competition_delete,
    competition_placement_set,
)
from puzzle_rules import championship as rules
from tests.factories import MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db

START = timezone.now().replace(microsecond=0) + timedelta(days=3)


@pytest.fixture
def dm(admin_user):
    """A championship of several competitions with heat A (an entrant at table 3)."""
    dm = championship_create(by=admin_user, slug="dm-2027", name="DM i puslespil 2027")
    heat = competition_create(
        by=admin_user,
        slug="heat-a",
        name="Indledende runde A",
        starts_at=START,
        duration_minutes=60,
        championship=dm,
        discipline="individual",
        round="Indledende runde A",
    )
    TeamFactory(competition=heat, name="Anna", table=3)
    return dm


@pytest.fixture
def stray(admin_user):
    """A competition made on its own by mistake, with two teams."""
    stray = competition_create(
        by=admin_user, slug="heat-b", name="Indledende runde B", starts_at=START, venue="Hallen"
    )
    for table in (1, 2):
        team = TeamFactory(competition=stray, name=f"Hold {table}", table=table)
        MemberFactory(team=team, name=f"Pusler {table}")
    return stray


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).standings_version


def started(competition) -> Competition:
    Competition.objects.filter(pk=competition.pk).update(started_at=timezone.now())
    competition.refresh_from_db()
    return competition


# --- the pure rules -----------------------------------------------------------------------
def test_the_pure_checks_refuse_once_started_and_a_championship_with_competitions():
    rules.check_placement_change(started=False)
    rules.check_competition_delete(started=False)
    rules.check_championship_delete(competitions=0)
    for check in (rules.check_placement_change, rules.check_competition_delete):
        with pytest.raises(rules.RuleViolation) as info:
            check(started=True)
        assert info.value.code == "started"
    with pytest.raises(rules.RuleViolation) as info:
        rules.check_championship_delete(competitions=2)
    assert info.value.code == "has_competitions"


# --- moving -------------------------------------------------------------------------------
def test_a_stray_competition_moves_into_a_championship_and_its_own_goes(admin_user, dm, stray):
    before = version(stray)
    moved = competition_placement_set(
        competition=stray, by=admin_user, championship=dm, discipline="individual", round="B"
    )
    moved.refresh_from_db()
    assert (moved.championship, moved.discipline, moved.round) == (dm, "individual", "B")
    assert moved.max_at_table == 1  # the team's default 4 followed the discipline's
    assert not Championship.objects.filter(slug="heat-b").exists()  # its own is gone
    assert version(stray) == before + 1  # the pages and the mirror show it where it is
    entry = AuditEntry.objects.get(competition=stray, action="competition_placement")
    with translation.override("da"):
        said = describe(entry)
    assert said["sentence"] == (
        "Overdommer overdommer flyttede konkurrencen ind i mesterskabet »DM i puslespil 2027«"
    )
    assert "Disciplin: Hold → Individuel" in said["changes"]
    assert "Runde: — → B" in said["changes"]


def test_it_moves_out_again_into_a_championship_of_its_own(admin_user, dm, stray):
    competition_placement_set(competition=stray, by=admin_user, championship=dm)
    alone = competition_placement_set(competition=stray, by=admin_user, championship=None)
    own = Championship.objects.get(competitions=alone)
    assert (own.slug, own.name, own.venue) == ("heat-b", "Indledende runde B", "Hallen")
    assert Championship.objects.filter(pk=dm.pk).exists()  # the championship stays
    with translation.override("da"):
        sentence = describe(AuditEntry.objects.filter(action="competition_placement")[0])
    assert sentence["sentence"] == (
        "Overdommer overdommer tog konkurrencen ud af »DM i puslespil 2027«: den står for sig selv"
    )


def test_a_typed_table_limit_stays_when_the_discipline_changes(admin_user, stray):
    Competition.objects.filter(pk=stray.pk).update(max_at_table=3)
    changed = competition_placement_set(competition=stray, by=admin_user, discipline="pair")
    assert (changed.discipline, changed.max_at_table) == ("pair", 3)


def test_a_discipline_too_small_for_an_entrants_puzzlers_is_refused(admin_user, stray):
    team = Team.objects.get(competition=stray, table=1)
    MemberFactory(team=team, name="Anden pusler")
    MemberFactory(team=team, name="Tredje pusler")
    with pytest.raises(ValidationError) as info:
        competition_placement_set(competition=stray, by=admin_user, discipline="pair")
    assert "Hold 1" in info.value.message_dict["discipline"][0]
    assert Competition.objects.get(pk=stray.pk).discipline == "team"
    assert Member.objects.filter(team=team).count() == 3


def test_a_move_onto_tables_the_championship_holds_at_the_same_time_is_refused(
    admin_user, dm, stray
):
    Team.objects.filter(competition=stray, table=2).update(table=3)  # Anna's table in heat A
    with pytest.raises(ValidationError) as info:
        competition_placement_set(competition=stray, by=admin_user, championship=dm)
    with translation.override("da"):
        said = str(info.value.message_dict["championship"][0])
    assert "Anna" in said and "Indledende runde A" in said
    stray.refresh_from_db()
    assert stray.championship.slug == "heat-b"  # nothing moved
    assert not AuditEntry.objects.filter(action="competition_placement").exists()


def test_a_move_at_another_time_may_use_the_same_tables(admin_user, dm, stray):
    Team.objects.filter(competition=stray, table=2).update(table=3)
    Competition.objects.filter(pk=stray.pk).update(starts_at=START + timedelta(hours=2))
    moved = competition_placement_set(competition=stray, by=admin_user, championship=dm)
    assert moved.championship == dm


def test_a_competition_may_not_move_into_another_competitions_own_championship(admin_user, stray):
    other = competition_create(by=admin_user, slug="andet", name="Andet", starts_at=START)
    with pytest.raises(ValidationError) as info:
        competition_placement_set(competition=stray, by=admin_user, championship=other.championship)
    assert "championship" in info.value.message_dict
    assert Competition.objects.get(pk=stray.pk).championship.slug == "heat-b"


def test_nothing_changed_writes_nothing(admin_user, stray):
    before = version(stray)
    competition_placement_set(
        competition=stray, by=admin_user, championship=None, discipline="team", round=""
    )
    assert version(stray) == before
    assert not AuditEntry.objects.filter(action="competition_placement").exists()


@pytest.mark.parametrize(
    "change", [{"championship": "dm"}, {"discipline": "pair"}, {"round": "Finale"}]
)
def test_after_the_start_each_change_is_refused_with_a_sentence(admin_user, dm, stray, change):
    stray = started(stray)
    if "championship" in change:
        change = {"championship": dm}
    with translation.override("da"), pytest.raises(Refusal) as info:
        competition_placement_set(competition=stray, by=admin_user, **change)
    assert info.value.code == "started"
    assert str(info.value.message) == (
        "Uret er startet; mesterskabet, disciplinen og runden kan ikke længere ændres."
    )
    again = Competition.objects.get(pk=stray.pk)
    assert (again.championship.slug, again.discipline, again.round) == ("heat-b", "team", "")


def test_a_final_competition_answers_final_first(admin_user, dm, stray):
    Competition.objects.filter(pk=stray.pk).update(
        started_at=timezone.now() - timedelta(hours=4), finalised_at=timezone.now()
    )
    with pytest.raises(Refusal) as info:
        competition_placement_set(competition=stray, by=admin_user, championship=dm)
    assert info.value.code == "final"
    with pytest.raises(Refusal) as info:
        competition_delete(competition=stray, by=admin_user)
    assert info.value.code == "final"


# --- deleting -----------------------------------------------------------------------------
def test_a_stray_competition_is_deleted_with_its_entrants_and_its_own_championship(
    admin_user, stray, caplog
):
    with caplog.at_level(logging.WARNING, logger="competition.removal"):
        assert competition_delete(competition=stray, by=admin_user) is None
    assert not Competition.objects.filter(slug="heat-b").exists()
    assert not Team.objects.filter(name__in=["Hold 1", "Hold 2"]).exists()
    assert not Member.objects.exists()
    assert not Championship.objects.filter(slug="heat-b").exists()
    assert "Indledende runde B (heat-b), 2 entrants" in caplog.text  # its only trace
    assert "overdommer" in caplog.text
    # its short name is free again
    competition_create(by=admin_user, slug="heat-b", name="Igen", starts_at=START)


def test_a_competition_deleted_from_a_championship_is_in_the_others_logs(admin_user, dm, stray):
    competition_placement_set(competition=stray, by=admin_user, championship=dm)
    assert competition_delete(competition=stray, by=admin_user) == dm
    assert Championship.objects.filter(pk=dm.pk).exists()
    entry = AuditEntry.objects.get(action="competition_delete")
    assert entry.competition.slug == "heat-a"
    with translation.override("da"):
        said = describe(entry)
    assert said["sentence"] == (
        "Overdommer overdommer slettede konkurrencen »Indledende runde B« i mesterskabet, "
        "med 2 hold"  # in the deleted team competition's word
    )


def test_a_started_competition_is_not_deleted(admin_user, stray):
    stray = started(stray)
    with translation.override("da"), pytest.raises(Refusal) as info:
        competition_delete(competition=stray, by=admin_user)
    assert info.value.code == "started"
    assert str(info.value.message) == "Uret er startet; konkurrencen kan ikke længere slettes."
    assert Team.objects.filter(competition=stray).count() == 2


def test_a_championship_is_deleted_only_when_empty(admin_user, dm):
    heat = Competition.objects.get(slug="heat-a")
    with translation.override("da"), pytest.raises(Refusal) as info:
        championship_delete(championship=dm, by=admin_user)
    assert info.value.code == "has_competitions"
    assert "DM i puslespil 2027" in str(info.value.message)
    assert competition_delete(competition=heat, by=admin_user) == dm  # the last one: it stays
    championship_delete(championship=dm, by=admin_user)
    assert not Championship.objects.filter(slug="dm-2027").exists()
    championship_create(by=admin_user, slug="dm-2027", name="Igen")  # the slug is free
