"""Championships (docs/contracts.md "A championship of several competitions"): every competition
has one (its own unless it joins one), disciplines give the table limit, and championships and
competitions share one namespace of short names."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from competition.models import Championship, Competition
from competition.services import championship_create, competition_create, competition_update
from tests.factories import CompetitionFactory

STARTS = timezone.now() + timedelta(days=3)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_competition_a_championship_of_its_own():
    old = migrate([("competition", "0010_screen_mode_ticker")])
    try:
        made = old.get_model("competition", "Competition")
        for slug in ("dm-2024", "dm-2025"):
            made.objects.create(slug=slug, name=f"DM {slug}", venue="Hallen", starts_at=STARTS)
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    for competition in Competition.objects.select_related("championship"):
        own = competition.championship
        assert (own.slug, own.name, own.venue) == (competition.slug, competition.name, "Hallen")
        assert list(own.competitions.all()) == [competition]
        assert (competition.discipline, competition.round) == ("team", "")


pytestmark = pytest.mark.django_db


def test_a_competition_made_alone_gets_a_championship_of_its_own(admin_user):
    c = competition_create(
        by=admin_user, slug="dm-2027", name="DM 2027", venue="Aarhus", starts_at=STARTS
    )
    assert (c.championship.slug, c.championship.name, c.championship.venue) == (
        "dm-2027",
        "DM 2027",
        "Aarhus",
    )
    assert (c.discipline, c.round, c.max_at_table) == ("team", "", 4)


def test_every_way_of_making_a_competition_gives_it_a_championship():
    c = CompetitionFactory(slug="fabrik")
    assert Championship.objects.get(competitions=c).slug == "fabrik"


@pytest.mark.parametrize(("discipline", "limit"), [("individual", 1), ("pair", 2), ("team", 4)])
def test_the_discipline_gives_the_table_limit_unless_one_is_given(admin_user, discipline, limit):
    dm = championship_create(by=admin_user, slug="dm", name="DM")
    c = competition_create(
        by=admin_user,
        slug=f"dm-{discipline}",
        name=discipline,
        starts_at=STARTS,
        championship=dm,
        discipline=discipline,
        round="Indledende runde A",
    )
    assert (c.championship, c.max_at_table, c.round) == (dm, limit, "Indledende runde A")
    other = competition_create(
        by=admin_user,
        slug=f"x-{discipline}",
        name="x",
        starts_at=STARTS,
        championship=dm,
        discipline=discipline,
        max_at_table=3,
    )
    assert other.max_at_table == 3


def test_an_unknown_discipline_is_refused(admin_user):
    with pytest.raises(ValidationError) as info:
        competition_create(
            by=admin_user, slug="a", name="A", starts_at=STARTS, discipline="quartet"
        )
    assert "discipline" in info.value.message_dict


def test_a_championship_may_not_take_a_competitions_short_name(admin_user):
    CompetitionFactory(slug="heat-a", name="Indledende runde A")
    with pytest.raises(ValidationError) as info:
        championship_create(by=admin_user, slug="heat-a", name="DM")
    assert "Indledende runde A" in info.value.message_dict["slug"][0]


def test_a_competition_may_not_take_a_championships_short_name(admin_user):
    championship_create(by=admin_user, slug="dm-2027", name="DM 2027")
    with pytest.raises(ValidationError) as info:
        competition_create(by=admin_user, slug="dm-2027", name="Finale", starts_at=STARTS)
    assert "DM 2027" in info.value.message_dict["slug"][0]
    assert not Competition.objects.filter(slug="dm-2027").exists()


def test_a_championship_short_name_is_checked_like_a_competitions(admin_user):
    for slug in ("DM 2027", "desk", "new"):
        with pytest.raises(ValidationError):
            championship_create(by=admin_user, slug=slug, name="X")


def test_a_new_short_name_moves_a_championship_of_its_own_along(admin_user):
    c = competition_create(by=admin_user, slug="dm-2027", name="DM 2027", starts_at=STARTS)
    competition_update(competition=c, by=admin_user, slug="dm-2028")
    c.refresh_from_db()
    assert (c.slug, c.championship.slug) == ("dm-2028", "dm-2028")


def test_a_new_short_name_may_not_be_another_championships(admin_user):
    championship_create(by=admin_user, slug="em-2027", name="EM 2027")
    c = competition_create(by=admin_user, slug="dm-2027", name="DM 2027", starts_at=STARTS)
    with pytest.raises(ValidationError):
        competition_update(competition=c, by=admin_user, slug="em-2027")


def test_a_competition_in_a_championship_renames_only_itself(admin_user):
    dm = championship_create(by=admin_user, slug="dm", name="DM")
    c = competition_create(by=admin_user, slug="dm-a", name="A", starts_at=STARTS, championship=dm)
    competition_update(competition=c, by=admin_user, slug="dm-b")
    assert Championship.objects.get(pk=dm.pk).slug == "dm"


def test_a_deleted_competition_frees_the_short_name_of_its_own_championship(admin_user):
    competition_create(by=admin_user, slug="demo", name="Demo", starts_at=STARTS)
    Competition.objects.filter(slug="demo").delete()
    assert not Championship.objects.filter(slug="demo").exists()
    again = competition_create(by=admin_user, slug="demo", name="Demo", starts_at=STARTS)
    assert again.championship.slug == "demo"


def test_a_competitions_own_championship_takes_no_other_competition(admin_user):
    alone = competition_create(by=admin_user, slug="dm-2026", name="DM 2026", starts_at=STARTS)
    with pytest.raises(ValidationError) as info:
        competition_create(
            by=admin_user,
            slug="dm-2026-b",
            name="B",
            starts_at=STARTS,
            championship=alone.championship,
        )
    assert "DM 2026" in info.value.message_dict["championship"][0]
    assert list(alone.championship.competitions.all()) == [alone]
