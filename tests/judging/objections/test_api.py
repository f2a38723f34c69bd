"""R20 by API: the whole path from an objection to final results, and nothing changes after."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import AuditEntry, Competition, Team
from judging.models import Count, Finish, Objection, Warning
from judging.services import objection_file
from scoring.selectors import memo_clear

pytestmark = pytest.mark.django_db

BASE = "/api/v1/competitions/dm-2026"


def version() -> int:
    return Competition.objects.get(slug="dm-2026").standings_version


def standings(api) -> dict:
    memo_clear()  # a public reader may reuse the version read < 1 s ago: read afresh
    body = api.get(f"{BASE}/standings").json()
    return {row["team"]["table"]: row for row in body["standings"]}


def counts() -> dict:
    return {
        "finishes": list(Finish.objects.order_by("pk").values()),
        "counts": list(Count.objects.order_by("pk").values()),
        "warnings": Warning.objects.count(),
        "objections": list(Objection.objects.order_by("pk").values()),
        "audit": AuditEntry.objects.count(),
        "teams": list(Team.objects.order_by("pk").values()),
        "competition": list(Competition.objects.order_by("pk").values()),
    }


def test_from_objection_to_final_and_after(api_as, ended, teams, judge, desk, admin_user):
    t1, t2, t3 = teams
    finish = t1.finishes.get(puzzle__position=2)

    # 13:20 Table 1 thinks puzzle 2 was registered a minute late: the desk files it.
    api = api_as(desk)
    r = api.post(
        f"{BASE}/objections/",
        {"team": t1.pk, "text": "Registreret et minut for sent", "finish": finish.pk},
        format="json",
    )
    assert r.status_code == 201, r.json()
    objection = r.json()
    assert objection["id"]
    assert objection["decision"] == "open"
    assert objection["filed_by"] == "skranke"
    assert objection["team"] == {"id": t1.pk, "name": "Hold 1", "table": 1}
    assert objection["puzzle"] == 2
    assert [o["id"] for o in api.get(f"{BASE}/objections/").json()] == [objection["id"]]

    # The public leaderboard marks table 1 "under review".
    public = api_as(None)
    rows = standings(public)
    assert rows[1]["under_review"] is True
    assert rows[2]["under_review"] is False

    # Finalise is refused while the objection is open.
    api = api_as(admin_user)
    r = api.post(f"{BASE}/finalise")
    assert r.status_code == 409
    assert r.json()["code"] == "objections_open"

    # 13:35 The head judge upholds it and corrects the time, with the objection as reason.
    r = api.post(
        f"{BASE}/objections/{objection['id']}/resolve",
        {"decision": "upheld", "note": "Dommeren bekræfter: 1:34:00", "elapsed_seconds": 5640},
        format="json",
    )
    assert r.status_code == 200, r.json()
    assert r.json()["decision"] == "upheld"
    assert r.json()["resolved_by"] == "overdommer"
    finish.refresh_from_db()
    assert finish.elapsed_seconds == 5640
    entry = AuditEntry.objects.get(action="finish_correct")
    assert entry.objection_id == objection["id"]
    assert entry.reason == "Dommeren bekræfter: 1:34:00"
    assert (entry.before["elapsed_seconds"], entry.after["elapsed_seconds"]) == (5700, 5640)
    rows = standings(public)
    assert rows[1]["under_review"] is False
    assert rows[1]["finishes"][1]["elapsed_seconds"] == 5640

    # Resolving it again is refused.
    r = api.post(
        f"{BASE}/objections/{objection['id']}/resolve",
        {"decision": "rejected", "note": "Alligevel ikke"},
        format="json",
    )
    assert (r.status_code, r.json()["code"]) == (409, "already_resolved")

    # 13:45 Finalise: refused while counts are missing, naming the teams.
    r = api.post(f"{BASE}/finalise")
    assert r.status_code == 409
    assert r.json()["code"] == "counts_missing"
    assert r.json()["teams"] == [
        {"id": t.pk, "name": t.name, "table": t.table} for t in (t1, t2, t3)
    ]
    judge_api = api_as(judge)
    for team, pieces in ((t1, 300), (t2, 420)):
        r = judge_api.post(f"{BASE}/counts/", {"team": team.pk, "pieces": pieces}, format="json")
        assert r.status_code == 201, r.json()
    api = api_as(admin_user)
    r = api.post(f"{BASE}/finalise")
    assert r.json()["teams"] == [{"id": t3.pk, "name": "Hold 3", "table": 3}]
    judge_api = api_as(judge)
    assert judge_api.post(f"{BASE}/counts/", {"team": t3.pk, "pieces": 0}).status_code == 201

    # Accepted.
    api = api_as(admin_user)
    r = api.post(f"{BASE}/finalise")
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "final"
    assert r.json()["final"] is True
    assert r.json()["finalised_by"] == "overdommer"
    memo_clear()
    body = api_as(None).get(f"{BASE}/standings").json()
    assert (body["status"], body["final"]) == ("final", True)

    # After: every write answers 409 `final` and changes nothing.
    before, v = counts(), version()
    count = Count.objects.get(team=t2)
    latest = t1.finishes.get(puzzle__position=2)
    now = timezone.now().isoformat()
    writes = [
        (judge, "post", f"{BASE}/finishes/", {"team": t2.pk, "puzzle": 2, "elapsed_seconds": 60}),
        (judge, "post", f"{BASE}/counts/", {"team": t1.pk, "pieces": 5}),
        (judge, "patch", f"{BASE}/counts/{count.pk}/", {"pieces": 400, "reason": "x"}),
        (judge, "patch", f"{BASE}/finishes/{latest.pk}/", {"elapsed_seconds": 10, "reason": "x"}),
        (admin_user, "delete", f"{BASE}/finishes/{latest.pk}/", None),
        (admin_user, "post", f"{BASE}/clock/start", {}),
        (admin_user, "post", f"{BASE}/clock/stop", {"stopped_at": now}),
        (admin_user, "post", f"{BASE}/teams/{t2.pk}/disqualify", {"reason": "Støj"}),
        (admin_user, "post", f"{BASE}/teams/{t2.pk}/reinstate", {"reason": "x"}),
        (judge, "post", f"{BASE}/teams/{t2.pk}/warnings/", {"reason": "Støj"}),
        (desk, "patch", f"{BASE}/teams/{t2.pk}/", {"name": "Nyt navn", "fee_paid": True}),
        (desk, "patch", f"{BASE}/teams/{t2.pk}/", {"withdrawn": True}),
        (desk, "post", f"{BASE}/objections/", {"team": t2.pk, "text": "For sent"}),
        (
            admin_user,
            "post",
            f"{BASE}/objections/{objection['id']}/resolve",
            {"decision": "rejected", "note": "x"},
        ),
        (admin_user, "post", f"{BASE}/finalise", None),
    ]
    for user, method, path, data in writes:
        client = api_as(user)
        r = getattr(client, method)(path, data, format="json")
        assert r.status_code == 409, (method, path, r.status_code, r.content)
        assert r.json()["code"] == "final", (method, path, r.json())
    assert counts() == before
    assert version() == v


# --- refusals and input -------------------------------------------------------------------


def test_finalise_refusals_by_clock(api_as, competition, teams, admin_user, started):
    api = api_as(admin_user)
    r = api.post(f"{BASE}/finalise")
    assert (r.status_code, r.json()["code"]) == (409, "clock_not_started")
    started(timedelta(minutes=30))
    r = api.post(f"{BASE}/finalise")
    assert (r.status_code, r.json()["code"]) == (409, "clock_running")
    assert not Competition.objects.get(pk=competition.pk).is_final


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"text": "x"}, "team"),
        ({"team": 999999, "text": "x"}, "team"),
        ({"team": "TEAM", "text": ""}, "text"),
        ({"team": "TEAM", "text": "x", "finish": "OTHER"}, "finish"),
        ({"team": "TEAM", "text": "x", "count": 999999}, "count"),
    ],
)
def test_file_bad_input_is_400(api_as, ended, teams, desk, body, field):
    other = teams[1].finishes.get()
    body = {
        k: (teams[0].pk if v == "TEAM" else other.pk if v == "OTHER" else v)
        for k, v in body.items()
    }
    r = api_as(desk).post(f"{BASE}/objections/", body, format="json")
    assert r.status_code == 400
    assert field in r.json()
    assert not Objection.objects.exists()


def test_file_for_a_team_of_another_competition_is_400(api_as, ended, desk):
    from tests.factories import TeamFactory

    stranger = TeamFactory(name="Fremmed", table=1)
    r = api_as(desk).post(f"{BASE}/objections/", {"team": stranger.pk, "text": "x"})
    assert r.status_code == 400
    assert "team" in r.json()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"decision": "maybe", "note": "x"}, "decision"),
        ({"decision": "upheld"}, "note"),
        ({"decision": "upheld", "note": "x", "pieces": 2}, "pieces"),
        ({"decision": "upheld", "note": "x", "missing": [0]}, "missing"),
        ({"decision": "rejected", "note": "x", "elapsed_seconds": 60}, "decision"),
    ],
)
def test_resolve_bad_input_is_400(api_as, ended, teams, desk, admin_user, body, field):
    objection = objection_file(team=teams[0], by=desk, text="x", finish=teams[0].finishes.first())
    r = api_as(admin_user).post(f"{BASE}/objections/{objection.pk}/resolve", body, format="json")
    assert r.status_code == 400
    assert field in r.json()
    objection.refresh_from_db()
    assert objection.is_open


def test_resolve_an_objection_of_another_competition_is_404(api_as, desk, admin_user):
    from tests.factories import CompetitionFactory, TeamFactory

    CompetitionFactory(slug="dm-2026")
    elsewhere = TeamFactory(name="Fremmed", table=1)
    objection = objection_file(team=elsewhere, by=desk, text="x")
    r = api_as(admin_user).post(
        f"{BASE}/objections/{objection.pk}/resolve", {"decision": "rejected", "note": "x"}
    )
    assert r.status_code == 404


# --- roles --------------------------------------------------------------------------------


def test_roles(api_as, ended, teams, judge, desk, admin_user):
    file = {"team": teams[0].pk, "text": "x"}
    # Anonymous: refused everywhere.
    api = api_as(None)
    assert api.get(f"{BASE}/objections/").status_code in (401, 403)
    assert api.post(f"{BASE}/objections/", file).status_code in (401, 403)
    assert api.post(f"{BASE}/finalise").status_code in (401, 403)
    # A judge can neither file, list, resolve nor finalise.
    api = api_as(judge)
    assert api.get(f"{BASE}/objections/").status_code == 403
    assert api.post(f"{BASE}/objections/", file).status_code == 403
    assert api.post(f"{BASE}/finalise").status_code == 403
    # The desk files and lists, but neither resolves nor finalises.
    api = api_as(desk)
    r = api.post(f"{BASE}/objections/", file)
    assert r.status_code == 201
    pk = r.json()["id"]
    assert api.get(f"{BASE}/objections/").status_code == 200
    resolve = {"decision": "rejected", "note": "x"}
    assert api.post(f"{BASE}/objections/{pk}/resolve", resolve).status_code == 403
    assert api.post(f"{BASE}/finalise").status_code == 403
    assert not Competition.objects.get(slug="dm-2026").is_final
    # An admin may do all.
    api = api_as(admin_user)
    assert api.post(f"{BASE}/objections/", {**file, "text": "y"}).status_code == 201
    assert api.post(f"{BASE}/objections/{pk}/resolve", resolve).status_code == 200
    assert Objection.objects.filter(decision="open").count() == 1


def test_objection_list_queries_do_not_grow(
    api_as, ended, teams, desk, django_assert_max_num_queries
):
    from tests.factories import TeamFactory

    for i in range(4, 40):
        objection_file(team=TeamFactory(competition=ended, table=i), by=desk, text="x")
    api = api_as(desk)
    with django_assert_max_num_queries(4):
        r = api.get(f"{BASE}/objections/")
    assert len(r.json()) == 36


def test_schema_documents_the_endpoints(client):
    schema = client.get("/api/schema/").content.decode()
    assert "/api/v1/competitions/{slug}/objections/" in schema
    assert "/api/v1/competitions/{slug}/objections/{id}/resolve" in schema
    assert "/api/v1/competitions/{slug}/finalise" in schema


def test_a_resent_objection_is_the_same_one(api_as, ended, teams, desk, state):
    """The answer was lost and the desk's laptop sends the objection again: 200 with the
    objection filed the first time, nothing written twice."""
    body = {"team": teams[0].pk, "text": "Registreret et minut for sent"}
    first = api_as(desk).post(f"{BASE}/objections/", body, format="json")
    assert first.status_code == 201, first.json()
    before = state()
    again = api_as(desk).post(f"{BASE}/objections/", body, format="json")
    assert again.status_code == 200, again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert state() == before
