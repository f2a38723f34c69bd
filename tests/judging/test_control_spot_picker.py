"""Corrections pick missing pieces as on the tablet, the deduction shown."""

from datetime import timedelta

import pytest
from django.urls import reverse

from competition.models import AuditEntry
from judging.models import Finish
from judging.services import finish_register

pytestmark = pytest.mark.django_db
SLUG = "dm-2026"


@pytest.fixture
def finish(competition, teams, judge, start_clock):
    start_clock(competition, ago=timedelta(minutes=60))
    return finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=600, missing=[1])


def page(client, team):
    return client.get(reverse("control:team", args=[SLUG, team.pk])).content.decode()


def test_the_picker_shows_the_saved_spots_and_the_deduction(client, admin_user, finish, teams):
    client.force_login(admin_user)
    html = page(client, teams[0])
    assert "Enkelte manglende brikker (trækkes fra)" in html
    assert f'name="f{finish.pk}-lone" value="1"' in html
    assert "1 brik trækkes fra" in html
    assert "1 enkelt manglende brik trukket fra" in html  # the finishes table, in words
    # The correction has no free-text field any more (the paper-sheet entry is another form).
    correction = html.split(f'action="/control/{SLUG}/teams/{teams[0].pk}/finishes/')[1]
    correction = correction.split("</form>")[0]
    assert "fx 1, 2" not in correction and f'name="f{finish.pk}-missing"' not in correction
    assert f'name="f{finish.pk}-adjacent"' in correction


def test_three_adjacent_pieces_deduct_nothing_r8(client, admin_user, finish, teams):
    client.force_login(admin_user)
    url = reverse("control:finish_correct", args=[SLUG, teams[0].pk, finish.pk])
    response = client.post(
        url,
        {
            f"f{finish.pk}-time": "0:10:00",
            f"f{finish.pk}-lone": "0",
            f"f{finish.pk}-adjacent": ["3", ""],
            f"f{finish.pk}-reason": "Tre brikker i ét hul",
        },
        follow=True,
    )
    finish.refresh_from_db()
    assert finish.missing == [3]
    html = response.content.decode()
    assert "Intet trækkes fra · Produktionsfejl, trækkes ikke fra: 3 brikker" in html
    entry = AuditEntry.objects.get(action="finish_correct")
    assert entry.after["missing"] == [3] and entry.after["deducted"] == 0


def test_a_spot_of_one_is_refused_with_a_clear_message(client, admin_user, finish, teams):
    client.force_login(admin_user)
    url = reverse("control:finish_correct", args=[SLUG, teams[0].pk, finish.pk])
    response = client.post(
        url,
        {
            f"f{finish.pk}-time": "0:10:00",
            f"f{finish.pk}-adjacent": ["1"],
            f"f{finish.pk}-reason": "x",
        },
    )
    assert response.status_code == 400
    assert "tæl en enkelt brik som enkelt manglende brik" in response.content.decode()
    assert Finish.objects.get(pk=finish.pk).missing == [1]
    for odd in (["abc"], ["-2"], ["2.5"]):
        data = {f"f{finish.pk}-time": "0:10:00", f"f{finish.pk}-adjacent": odd}
        data[f"f{finish.pk}-reason"] = "x"
        assert client.post(url, data).status_code == 400
    response = client.post(
        url,
        {f"f{finish.pk}-time": "0:10:00", f"f{finish.pk}-lone": "-1", f"f{finish.pk}-reason": "x"},
    )
    assert response.status_code == 400
