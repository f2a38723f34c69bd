"""The control room in the browser at the head judge's laptop size (1366x768), by visible
text: the start warns about the far date and a team not checked in (withdrawn in one tap),
a mistaken stop is undone, a correction picks missing pieces as on the tablet, and the change
log reads in Danish sentences."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Competition, Team
from judging.services import finish_register
from tests.factories import CompetitionFactory, PuzzleFactory, TeamFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}


def test_e2e_head_judge_starts_stops_undoes_corrects_and_reads_the_log(
    page, live_server, login, admin_user, judge, shot
):
    c = CompetitionFactory(
        slug="dm-ux",
        name="DM i puslespil 2027",
        starts_at=timezone.now() + timedelta(days=101, minutes=5),
    )
    for position, pieces in enumerate((500, 1000), start=1):
        PuzzleFactory(competition=c, position=position, pieces=pieces)
    here = TeamFactory(competition=c, name="Kantsøgerne", table=1, checked_in_at=timezone.now())
    TeamFactory(competition=c, name="Brikkebanden", table=2)
    TeamFactory(competition=c, name="Puslingerne", table=3, checked_in_at=timezone.now())
    page.set_viewport_size(LAPTOP)
    login(page.context, admin_user)
    page.goto(f"{live_server.url}/control/dm-ux/")

    # Point 7: what is odd is named before the start, with "withdraw" one tap away.
    expect(page.get_by_text("Før du starter uret")).to_be_visible()
    expect(page.get_by_text("om 101 dage. Er datoen rigtig?")).to_be_visible()
    expect(page.get_by_text("1 hold er ikke tjekket ind.")).to_be_visible()
    shot(page, "start-warnings")
    dialogs = []

    def accept(dialog):
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", accept)
    expect(page.locator("html")).to_have_attribute("data-confirm-armed", "")
    page.get_by_role("button", name="Træk Brikkebanden").click()  # it asks first
    expect(page.get_by_text("»Brikkebanden« er trukket.")).to_be_visible()
    assert dialogs == ["Træk »Brikkebanden«?"]
    assert Team.objects.get(name="Brikkebanden").withdrawn
    expect(page.get_by_text("ikke tjekket ind")).to_have_count(0)
    page.get_by_role("button", name="Start uret alligevel").click()
    expect(page.get_by_text("Uret kører", exact=True).first).to_be_visible()
    assert "om 101 dage" in dialogs[-1]
    # As if ten minutes had passed.
    Competition.objects.filter(pk=c.pk).update(started_at=timezone.now() - timedelta(minutes=10))
    page.reload()

    # Point 8: a mistaken stop, undone.
    page.get_by_role("button", name="Stop uret").click()
    expect(page.get_by_role("button", name="Fortryd stop")).to_be_visible()
    shot(page, "stopped-undo")
    page.get_by_role("button", name="Fortryd stop").click()
    expect(page.get_by_text("Stoppet er fortrudt: uret kører videre.")).to_be_visible()
    assert Competition.objects.get(pk=c.pk).stopped_at is None

    # Point 10: a correction with the tablet's picker; 3 adjacent pieces deduct nothing.
    finish = finish_register(team=here, position=1, by=judge, elapsed_seconds=108, missing=[1])
    page.goto(f"{live_server.url}/control/dm-ux/teams/{here.pk}/")
    page.get_by_text("Ret puslespil 1").click()
    picker = page.locator("[data-spot-picker]")
    expect(picker.get_by_text("1 brik trækkes fra")).to_be_visible()
    picker.get_by_role("button", name="−1").click()
    picker.get_by_role("button", name="+ plet").click()
    picker.locator(".spot-adjacent-list input").first.fill("3")
    expect(
        picker.get_by_text("Intet trækkes fra · Produktionsfejl, trækkes ikke fra: 3 brikker")
    ).to_be_visible()
    shot(page, "correction-picker")
    page.get_by_label("Begrundelse").first.fill("Tre brikker i ét hul")
    page.get_by_role("button", name="Gem rettelsen").click()
    expect(page.get_by_text("Registreringen af puslespil 1 er rettet.")).to_be_visible()
    finish.refresh_from_db()
    assert finish.missing == [3]

    # Point 9: the change log in sentences.
    page.get_by_role("link", name="Ændringslog").first.click()
    expect(
        page.get_by_text(
            "Dommer mette registrerede puslespil 1 færdigt efter 0:01:48, "
            "1 enkelt manglende brik trukket fra"
        )
    ).to_be_visible()
    expect(
        page.get_by_text("Overdommer overdommer fortrød stoppet: uret kører videre")
    ).to_be_visible()
    expect(page.get_by_text("Overdommer overdommer trak holdet")).to_be_visible()
    expect(page.get_by_text("finish_register")).to_have_count(0)
    shot(page, "change-log")
