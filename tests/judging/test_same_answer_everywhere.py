"""One rule, one answer. Each rule's bad inputs go through the API and the
control room's page side by side: both refuse (a bad value 400, a refusal by the state of the
day 409 with its code), the page shows the very sentence the API answers, and neither writes
anything (R7, R8, R9, R10)."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from judging.services import count_record, finish_register

pytestmark = pytest.mark.django_db

BASE = "/api/v1/competitions/dm-2026"


def page_says(response, sentence: str) -> bool:
    return escape(sentence) in response.content.decode()


@pytest.mark.parametrize("pieces", [1, 2, 1000, 1001])  # R9: 0 or >= 3, below the puzzle's
def test_a_count_correction(ended, teams, judge, admin_user, api_as, client, state, pieces):
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=600)
    count = count_record(team=teams[0], by=judge, pieces=100)  # puzzle 2: 1,000 pieces
    before = state()
    api = api_as(admin_user).patch(
        f"{BASE}/counts/{count.pk}/", {"pieces": pieces, "reason": "Talt igen"}, "json"
    )
    assert api.status_code == 400, api.json()
    sentence = api.json()["pieces"][0]
    client.force_login(admin_user)
    page = client.post(
        reverse("control:count_correct", args=["dm-2026", teams[0].pk]),
        {"count-pieces": pieces, "count-reason": "Talt igen"},
    )
    assert page.status_code in (400, 409)
    assert page_says(page, sentence), sentence
    assert state() == before


@pytest.mark.parametrize(
    ("elapsed", "lone", "status", "field"),
    [
        (500, 0, 409, "detail"),  # R7: before the finish of puzzle 1 (time_order)
        (4 * 3600, 0, 409, "detail"),  # R10: after the end (after_end)
        (1200, 1001, 400, "missing"),  # R8: more missing pieces than the puzzle has
    ],
)
def test_a_finish_correction(
    ended, teams, judge, admin_user, api_as, client, state, elapsed, lone, status, field
):
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=600)
    finish = finish_register(team=teams[0], position=2, by=judge, elapsed_seconds=1200)
    before = state()
    api = api_as(admin_user).patch(
        f"{BASE}/finishes/{finish.pk}/",
        {"elapsed_seconds": elapsed, "missing": [1] * lone, "reason": "Rettet"},
        "json",
    )
    assert api.status_code == status, api.json()
    sentence = api.json()[field] if status == 409 else api.json()[field][0]
    client.force_login(admin_user)
    hours, rest = divmod(elapsed, 3600)
    prefix = f"f{finish.pk}"
    page = client.post(
        reverse("control:finish_correct", args=["dm-2026", teams[0].pk, finish.pk]),
        {
            f"{prefix}-time": f"{hours}:{rest // 60:02d}:{rest % 60:02d}",
            f"{prefix}-lone": lone,
            f"{prefix}-reason": "Rettet",
        },
        follow=True,  # a refusal is said on the team's page, where the form was
    )
    assert page.status_code == (400 if status == 400 else 200)
    assert page_says(page, sentence), sentence
    assert state() == before
