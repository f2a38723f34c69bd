"""The control room's counts in the browser at the head judge's laptop (1366x768): a count
waiting for its second count or whose two counts differ is among "optællinger mangler", never
"✓"; the room changes by itself (its poll) when a judge's recount confirms it."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from judging.models import Count
from judging.services import count_confirm
from tests.factories import CompetitionFactory, PuzzleFactory, TeamFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_e2e_counts_in_the_control_room(page, live_server, login, admin_user, make_user, shot):
    c = CompetitionFactory(
        slug="dm-counts", second_count=True, started_at=timezone.now() - timedelta(hours=5)
    )
    puzzle = PuzzleFactory(competition=c, position=1, pieces=2000)
    names = ["Kantsøgerne", "Brikkebanden", "Puslerne", "Hjørnerne"]
    teams = [TeamFactory(competition=c, name=n, table=i + 1) for i, n in enumerate(names)]
    first, second = make_user("judge", "mette"), make_user("judge", "lars")
    Count.objects.create(team=teams[1], puzzle=puzzle, pieces=1500, registered_by=first)
    differs = Count.objects.create(
        team=teams[2], puzzle=puzzle, pieces=1234, second_pieces=1236, registered_by=first
    )
    Count.objects.create(
        team=teams[3], puzzle=puzzle, pieces=1800, registered_by=first, confirmed_at=timezone.now()
    )
    page.set_viewport_size({"width": 1366, "height": 768})
    login(page.context, admin_user)
    page.goto(f"{live_server.url}/control/dm-counts/")
    stat = page.locator(".stat", has_text="optællinger mangler").locator(".stat-n")
    expect(stat).to_have_text("3")
    row = page.locator(".control-teams tbody tr")
    expect(row.nth(0).locator("[data-count-state]")).to_have_text("mangler")
    expect(row.nth(1).locator("[data-count-state]")).to_have_text("venter på kontroloptælling")
    expect(row.nth(2).locator("[data-count-state]")).to_have_text(
        "optællingerne er forskellige: 1.234 / 1.236"
    )
    expect(row.nth(3).locator("[data-count-state]")).to_have_text("1.800 ✓")
    expect(page.locator(".control-teams")).not_to_contain_text("1.234 ✓")
    page.locator(".control-teams").scroll_into_view_if_needed()
    shot(page, "counts")
    # a second judge counts Puslerne again, equal to the first: confirmed; the room follows
    count_confirm(count=differs, by=second, pieces=1234)
    expect(row.nth(2).locator("[data-count-state]")).to_have_text("1.234 ✓", timeout=20_000)
    expect(stat).to_have_text("2")
