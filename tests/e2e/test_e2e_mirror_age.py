"""The public mirror's age line on a phone: "Sidste nyt fra hallen for 14 sek. siden" counts
on every second between its polls, follows the newest push, and fits the phone's width."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scoring import mirror
from scoring.models import MirrorState
from tests.e2e.measure import box
from tests.factories import TeamFactory
from tests.scoring.standings_data import finish, running_competition

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 740}


def test_e2e_the_mirror_says_how_old_its_news_is_and_keeps_counting(
    page, live_server, settings, shot
):
    c, puzzles = running_competition(slug="dm-mirror", name="DM i puslespil 2026")
    team = TeamFactory(competition=c, name="Kantsøgerne", table=1)
    finish(team, puzzles[0], 1800)
    snapshot = mirror.build(c)
    settings.MIRROR_TOKEN, settings.MIRROR_URL = "mirror-e2e-token-0123456789", ""
    assert mirror.apply({**snapshot, "version": snapshot["version"] + 1})[0] == 200
    MirrorState.objects.update(heard_at=timezone.now() - timedelta(seconds=14))

    page.set_viewport_size(PHONE)
    page.goto(f"{live_server.url}/{c.slug}/")
    age = page.locator("[data-mirror-age]")
    expect(age).to_have_text(re.compile(r"^Sidste nyt fra hallen for 1\d sek\. siden$"))
    first = age.inner_text()
    # No push comes, and the sentence moves on (counted each second, polled each 5 s).
    expect(age).not_to_have_text(first)
    expect(page.locator("main")).to_contain_text("Kantsøgerne")
    shot(page, "mirror-age")
    edge = box(age)
    assert edge["x"] >= 0 and edge["x"] + edge["width"] <= PHONE["width"]

    # The hall has been away for three minutes: the next poll says so.
    MirrorState.objects.update(heard_at=timezone.now() - timedelta(minutes=3))
    expect(age).to_have_text(
        re.compile(r"^Sidste nyt fra hallen for 3 min\.( \d+ sek\.)? siden$"), timeout=15_000
    )
