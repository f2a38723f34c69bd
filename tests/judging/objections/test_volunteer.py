"""Objections (R20): competition time reads "efter 0:01:51" (never "kl.", a time of
day); the upheld/rejected choice is a big, whole-row label; no placeholder that looks filled
in; the error summary links to the choice."""

import html
import re

import pytest

from judging.services import objection_file
from tests.judging.objections.test_pages import url

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def objection(ended, teams, desk):
    finish = teams[0].finishes.get(puzzle__position=2)
    return objection_file(team=teams[0], by=desk, text="Et minut for sent", finish=finish)


def test_finishes_are_named_by_competition_time_not_time_of_day(client, desk, objection):
    client.force_login(desk)
    page = text(client.get(url("new")))
    assert "Puslespil 2 færdigt efter 1:35:00" in page  # the choice of what it is about
    assert "puslespil 2 færdigt efter 1:35:00" in page  # the list of filed objections
    assert "færdigt kl." not in page


def test_resolve_page_names_the_time_by_the_competition_clock(client, admin_user, objection):
    client.force_login(admin_user)
    page = text(client.get(url("resolve", pk=objection.pk)))
    assert "puslespil 2 færdigt efter 1:35:00" in page
    assert "Nu efter 1:35:00 på konkurrenceuret. Tomt: uændret." in page
    assert "færdigt kl." not in page


def test_the_corrected_time_field_has_no_placeholder_that_looks_filled_in(
    client, admin_user, objection
):
    client.force_login(admin_user)
    page = client.get(url("resolve", pk=objection.pk)).content.decode()
    field = re.search(r'<input[^>]*name="elapsed"[^>]*>', page).group(0)
    assert "placeholder" not in field and 'value="' not in field


def test_the_decision_is_a_whole_row_label_per_choice(client, admin_user, objection):
    client.force_login(admin_user)
    page = text(client.get(url("resolve", pk=objection.pk)))
    labels = re.findall(r'<label class="decision-choice" for="([^"]+)">(.*?)</label>', page, re.S)
    assert [(for_, re.sub(r"<[^>]+>", "", body).strip()) for for_, body in labels] == [
        ("id_decision_0", "Imødekommet"),
        ("id_decision_1", "Afvist"),
    ]
    for for_, body in labels:  # the radio inside its own label: a tap anywhere on the row
        assert f'id="{for_}"' in body and 'type="radio"' in body


def test_a_missing_decision_is_linked_from_the_error_summary(client, admin_user, objection):
    client.force_login(admin_user)
    response = client.post(url("resolve", pk=objection.pk), {"note": "Tjekket", "decision": ""})
    assert response.status_code == 200
    summary = re.search(r'<div class="error-summary".*?</div>', text(response), re.S).group(0)
    assert 'href="#id_decision_0"' in summary and "Afgørelse:" in summary
    objection.refresh_from_db()
    assert objection.is_open
