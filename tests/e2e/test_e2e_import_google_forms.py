"""A Google Forms import in the browser at the desk's size (1366x768), by visible text: the desk
imports a Google Forms export, sees how each column is read, leaves out the row with a
problem, and finds the teams with their members and fee."""

import pytest
from playwright.sync_api import expect

from competition.models import Member, Team
from tests.factories import CompetitionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESK = {"width": 1366, "height": 768}
GOOGLE_FORMS = (
    "Tidsstempel,Holdnavn,E-mailadresse,Telefonnummer,Deltager 1,Deltager 2,Deltager 3,"
    "Deltager 4,Er deltager 4 under 15 år?,Navn på ledsagende voksen,Har I betalt?\n"
    "2026/11/02 9:14:03 PM CET,Kantsøgerne,anne@example.dk,20304050,Anne Jensen,Bo Jensen,"
    "Carl Jensen,Ida Jensen,Ja,Anne Jensen,Ja\n"
    "2026/11/03 8:01:44 AM CET,Brikkebanden,soren@example.dk,,Søren Nielsen,Line Nielsen,,,"
    "Nej,,Nej\n"
    "2026/11/04 7:30:00 PM CET,Tomme Hænder,tom@example.dk,,,,,,,,Nej\n"
)


def test_e2e_desk_imports_a_google_forms_export(page, live_server, login, desk, shot):
    CompetitionFactory(slug="dm-import", name="DM i puslespil 2027")
    page.set_viewport_size(DESK)
    login(page.context, desk)
    page.goto(f"{live_server.url}/desk/dm-import/import/")
    page.set_input_files(
        'input[type="file"]',
        files=[{"name": "svar.csv", "mimeType": "text/csv", "buffer": GOOGLE_FORMS.encode()}],
    )
    page.get_by_role("button", name="Vis forhåndsvisning").click()
    expect(page.get_by_text("Sådan læses kolonnerne")).to_be_visible()
    expect(page.get_by_label("Er deltager 4 under 15 år?")).to_have_value("u15:4")
    expect(page.get_by_label("Har I betalt?")).to_have_value("paid:0")
    expect(page.get_by_label("Tidsstempel")).to_have_value("")
    expect(page.get_by_text("Holdet har ingen holdmedlemmer")).to_be_visible()
    expect(page.get_by_text("(voksen: Anne Jensen)")).to_be_visible()
    shot(page, "preview-mapping")
    page.get_by_role(
        "button", name="Importér kun holdene uden problemer (2 af 3)"
    ).scroll_into_view_if_needed()
    shot(page, "preview-choice")
    page.get_by_role("button", name="Importér kun holdene uden problemer (2 af 3)").click()
    expect(page.get_by_text("Hold importeret: 2.")).to_be_visible()
    shot(page, "imported")
    assert sorted(Team.objects.values_list("name", "table", "fee_paid")) == [
        ("Brikkebanden", 2, False),
        ("Kantsøgerne", 1, True),
    ]
    ida = Member.objects.get(name="Ida Jensen")
    assert ida.under_15 and ida.guardian == "Anne Jensen"
