"""The championship's import in the browser at the desk's size (1366x768): the desk chooses
the second heat, uploads a sheet of individuals under "Deltagere" with two bad e-mails, sees
both rows named in the preview, and imports the good rows at the tables the first heat does
not hold at the same time."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from competition.models import Team
from competition.services import championship_create, competition_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1366, "height": 768}
SHEET = (
    "Tidsstempel;Deltagere;E-mail;Betalt\n"
    "2026/11/02;Anne Jensen;anne@example.dk;ja\n"
    "2026/11/02;Søren Nielsen;søren@example.dk;ja\n"
    "2026/11/03;Bo Hansen;bo@example.dk;\n"
    "2026/11/04;Ørjan Dal;ørjan@example;nej\n"
)


def test_e2e_the_championship_import_names_every_bad_row(page, live_server, login, desk, shot):
    dm = championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027")
    start = (timezone.localtime() + timedelta(days=1)).replace(hour=10, minute=0, microsecond=0)
    heats = [
        competition_create(
            by=None,
            slug=slug,
            name=name,
            starts_at=start,
            duration_minutes=60,
            championship=dm,
            discipline="individual",
            round=name,
        )
        for slug, name in (("heat-a", "Indledende runde A"), ("heat-b", "Indledende runde B"))
    ]
    Team.objects.create(competition=heats[0], name="Ida", table=1)
    page.set_viewport_size(DESK)
    login(page.context, desk)
    page.goto(f"{live_server.url}/desk/dm-2027/")
    page.get_by_role("link", name="Importér").first.click()
    page.get_by_label("Hvilken konkurrence er regnearket til?").select_option(
        label="Indledende runde B · Individuel"
    )
    page.set_input_files(
        'input[type="file"]',
        files=[{"name": "svar.csv", "mimeType": "text/csv", "buffer": SHEET.encode()}],
    )
    shot(page, "choose")
    page.get_by_role("button", name="Vis forhåndsvisning").click()
    expect(page.get_by_text("Til Indledende runde B")).to_be_visible()
    expect(page.get_by_label("Deltagere")).to_have_value("members:0")
    expect(page.locator("tr", has_text="Søren Nielsen")).to_contain_text("søren@example.dk")
    expect(page.locator("tr", has_text="Ørjan Dal")).to_contain_text("ørjan@example")
    expect(page.locator("tr", has_text="Anne Jensen")).to_contain_text("Ingen problemer")
    page.locator(".preview-table").scroll_into_view_if_needed()
    shot(page, "preview-bad-rows")
    page.get_by_role("button", name="Importér kun deltagerne uden problemer (2 af 4)").click()
    expect(page.get_by_text("Deltagere importeret: 2.")).to_be_visible()
    shot(page, "imported")
    assert sorted(Team.objects.filter(competition=heats[1]).values_list("name", "table")) == [
        ("Anne Jensen", 2),
        ("Bo Hansen", 3),
    ]
