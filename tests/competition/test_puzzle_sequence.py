"""A puzzle sequence with a gap never reaches the clock (R7).

Adding a puzzle past N+1 is a 400 on `position` (API and service); the setup page renumbers
its rows 1..N whatever order numbers it is given; and a clock start over a sequence that is
not exactly 1..N (a puzzle deleted or moved in setup) answers 409 `puzzle_sequence`.
"""

import pytest
from django.urls import reverse

from competition.models import Competition
from competition.services import clock_start, puzzle_add, puzzle_delete, puzzle_update
from puzzle_rules.rules import RuleViolation, check_new_position, check_puzzle_sequence

pytestmark = pytest.mark.django_db

API = "/api/v1/competitions/dm-2026"


def _positions(competition):
    return list(competition.puzzles.order_by("position").values_list("position", flat=True))


def test_the_pure_checks():
    assert check_new_position([], 1) == 1
    assert check_new_position([1, 2, 3], 4) == 4
    assert check_new_position([1, 2, 3], 2) == 2  # the service says "already a puzzle"
    for positions, position in (([], 2), ([1], 3), ([1, 2, 3], 5), ([1], 0)):
        with pytest.raises(RuleViolation) as caught:
            check_new_position(positions, position)
        assert caught.value.code == "puzzle_sequence"
    check_puzzle_sequence([1, 2, 3])
    check_puzzle_sequence([3, 1, 2])
    for positions in ([1, 3], [2], [1, 1], [0, 1]):
        with pytest.raises(RuleViolation) as caught:
            check_puzzle_sequence(positions)
        assert caught.value.code == "puzzle_sequence"


def test_adding_puzzle_3_after_puzzle_1_is_a_400_on_position(api_as, admin_user, state):
    admin = api_as(admin_user)
    body = {"slug": "dm-2030", "name": "DM 2030", "starts_at": "2030-03-01T10:00:00+01:00"}
    assert admin.post("/api/v1/competitions/", body, format="json").status_code == 201
    url = "/api/v1/competitions/dm-2030/puzzles/"
    assert admin.post(url, {"position": 1, "pieces": 500}, format="json").status_code == 201
    before = state()
    response = admin.post(url, {"position": 3, "pieces": 500}, format="json")
    assert response.status_code == 400, response.content
    assert "position" in response.json()
    assert "næste er nummer 2" in response.json()["position"][0]
    assert state() == before
    assert admin.post(url, {"position": 2, "pieces": 500}, format="json").status_code == 201


def test_the_setup_page_numbers_the_puzzles_1_to_n(client, admin_user, competition):
    client.force_login(admin_user)
    p1, p2, p3 = competition.puzzles.order_by("position")
    data = {
        "name": competition.name,
        "slug": competition.slug,
        "venue": "",
        "starts_at": "2026-11-29T10:00",
        "duration_minutes": "180",
        "max_at_table": "4",
        "puzzles-TOTAL_FORMS": "3",
        "puzzles-INITIAL_FORMS": "3",
        "puzzles-MIN_NUM_FORMS": "0",
        "puzzles-MAX_NUM_FORMS": "1000",
    }
    for i, (p, order) in enumerate(((p1, 1), (p2, 7), (p3, 9))):
        data.update(
            {
                f"puzzles-{i}-id": p.pk,
                f"puzzles-{i}-title": p.title,
                f"puzzles-{i}-pieces": p.pieces,
                f"puzzles-{i}-ORDER": order,
            }
        )
    data["puzzles-1-DELETE"] = "on"
    response = client.post(reverse("desk:setup", args=[competition.slug]), data)
    assert response.status_code == 302
    assert _positions(competition) == [1, 2]


@pytest.mark.parametrize("how", ["delete", "move"])
def test_a_clock_start_over_a_gap_is_refused_puzzle_sequence(
    api_as, admin_user, competition, teams, state, how
):
    if how == "delete":
        puzzle_delete(puzzle=competition.puzzles.get(position=2), by=admin_user)
        gap = [1, 3]
    else:
        puzzle_update(puzzle=competition.puzzles.get(position=3), by=admin_user, position=5)
        gap = [1, 2, 5]
    assert _positions(competition) == gap
    before = state()
    response = api_as(admin_user).post(f"{API}/clock/start", {}, format="json")
    assert response.status_code == 409, response.content
    assert response.json()["code"] == "puzzle_sequence"
    assert "1 til" in response.json()["detail"]
    assert state() == before
    # Filled again, the clock starts.
    if how == "delete":
        puzzle_add(competition=competition, by=admin_user, position=2, pieces=800)
    else:
        puzzle_update(puzzle=competition.puzzles.get(position=5), by=admin_user, position=3)
    assert clock_start(competition=competition, by=admin_user).started_at is not None


def test_the_control_room_says_why_the_clock_does_not_start(client, admin_user, competition):
    puzzle_delete(puzzle=competition.puzzles.get(position=1), by=admin_user)
    client.force_login(admin_user)
    response = client.post(reverse("control:clock_start", args=[competition.slug]), follow=True)
    assert "uden huller" in response.content.decode()
    assert Competition.objects.get(pk=competition.pk).started_at is None
