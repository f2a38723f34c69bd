"""The API walk end to end: set up, run the clock, judge, count, finalise, rank."""

from datetime import timedelta

import pytest
from django.utils import timezone

from judging.models import Count, Finish

pytestmark = pytest.mark.django_db

API = "/api/v1/competitions"


def ok(response, status=200):
    assert response.status_code == status, (response.status_code, response.content)
    return response.json() if response.content else None


def refused(response, code):
    assert response.status_code == 409, (response.status_code, response.content)
    assert response.json()["code"] == code
    assert response.json()["detail"]


def test_the_api_walk(api_as, admin_user, desk, judge):
    admin = api_as(admin_user)
    starts = timezone.now() - timedelta(hours=3)
    ok(
        admin.post(
            f"{API}/",
            {"slug": "dm-2027", "name": "DM i puslespil 2027", "starts_at": starts.isoformat()},
            format="json",
        ),
        201,
    )
    url = f"{API}/dm-2027"
    for position, pieces in ((1, 500), (2, 1000), (3, 1000)):
        ok(admin.post(f"{url}/puzzles/", {"position": position, "pieces": pieces}), 201)

    desk_api = api_as(desk)
    members = [{"name": f"Pusler {i}"} for i in range(4)]
    ids = {}
    for table, name in enumerate(["A", "B", "C", "D", "E"], start=1):
        team = ok(
            desk_api.post(
                f"{url}/teams/", {"name": name, "table": table, "members": members}, format="json"
            ),
            201,
        )
        ids[name] = team["id"]
    ok(desk_api.patch(f"{url}/teams/{ids['E']}/", {"withdrawn": True}, format="json"))

    judging = api_as(judge)
    refused(judging.post(f"{url}/finishes/", {"team": ids["A"], "puzzle": 1}), "clock_not_started")

    # The head judge starts the clock late and corrects the start: 10 minutes are left.
    admin = api_as(admin_user)
    started = timezone.now() - timedelta(hours=2, minutes=50)
    competition = ok(admin.post(f"{url}/clock/start", {"started_at": started.isoformat()}))
    assert competition["status"] == "running"
    refused(admin.post(f"{url}/clock/start", {}), "already_started")
    refused(admin.post(f"{url}/puzzles/", {"position": 4, "pieces": 500}), "already_started")

    judging = api_as(judge)

    def finish(team, puzzle, at, missing=()):
        body = {"team": ids[team], "puzzle": puzzle, "elapsed_seconds": at, "missing": missing}
        return judging.post(f"{url}/finishes/", body, format="json")

    assert ok(finish("A", 1, 2400, [1]), 201)["deducted"] == 1
    ok(finish("A", 2, 6000, [2]), 201)  # a production fault: nothing deducted (R8)
    ok(finish("B", 1, 2300), 201)
    ok(finish("B", 2, 6100), 201)
    ok(finish("C", 1, 3000), 201)
    ok(finish("D", 1, 2900), 201)
    refused(finish("C", 3, 4000), "out_of_order")
    refused(finish("C", 1, 3000), "already_finished")
    refused(finish("C", 2, 2999), "time_order")
    refused(finish("C", 2, 10700), "in_future")
    refused(finish("E", 1, 1000), "not_competing")
    refused(
        judging.post(f"{url}/counts/", {"team": ids["C"], "pieces": 10}, format="json"),
        "clock_running",
    )
    ok(judging.post(f"{url}/teams/{ids['D']}/warnings/", {"reason": "Larm"}), 201)

    admin = api_as(admin_user)
    disqualified = ok(admin.post(f"{url}/teams/{ids['D']}/disqualify", {"reason": "Larm (R14)"}))
    assert disqualified["disqualified"] is True
    refused(finish("D", 2, 5000), "not_competing")
    refused(admin.post(f"{url}/finalise", {}), "clock_running")

    stopped = ok(admin.post(f"{url}/clock/stop", {}))
    assert stopped["status"] == "stopped"
    judging = api_as(judge)
    refused(judging.post(f"{url}/finishes/", {"team": ids["C"], "puzzle": 2}), "after_end")

    def count(body):
        return judging.post(f"{url}/counts/", body, format="json")

    ok(count({"team": ids["A"], "pieces": 300}), 201)
    ok(count({"team": ids["B"], "unplaced": 695, "loose": 6}), 201)  # 1000 − 695 − 6 = 299
    assert ok(count({"team": ids["C"], "unplaced": 990, "loose": 10}), 201)["pieces"] == 0
    refused(count({"team": ids["A"], "pieces": 310}), "already_counted")
    assert count({"team": ids["C"], "pieces": 2}).status_code == 400

    # second_count is on by default: every count is counted again, blind, by another judge
    # (or the head judge); finalise waits for it (docs/contracts.md).
    counts = {c.team.name: c.pk for c in Count.objects.select_related("team")}
    refused(judging.post(f"{url}/counts/{counts['A']}/confirm", {"pieces": 300}), "own_count")
    admin = api_as(admin_user)
    refused(admin.post(f"{url}/finalise", {}), "counts_unconfirmed")
    ok(admin.post(f"{url}/counts/{counts['A']}/confirm", {"pieces": 300}))
    ok(admin.post(f"{url}/counts/{counts['B']}/confirm", {"unplaced": 695, "loose": 6}))
    ok(admin.post(f"{url}/counts/{counts['C']}/confirm", {"pieces": 0}))
    ok(admin.post(f"{url}/finalise", {}))
    refused(finish("C", 2, 5000), "final")
    refused(admin.post(f"{url}/teams/{ids['D']}/reinstate", {}), "final")

    standings = ok(admin.get(f"{url}/standings"))
    assert standings["final"] is True
    rows = [(s["team"]["name"], s["rank"], s["pieces"]) for s in standings["standings"]]
    # A and B both have 1799 pieces; A finished its last whole puzzle first (R11).
    assert rows == [("A", 1, 1799), ("B", 2, 1799), ("C", 3, 500), ("D", None, 500)]
    assert Finish.objects.count() == 6
    assert Count.objects.count() == 3
