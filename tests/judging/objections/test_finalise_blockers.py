"""R20: what blocks finalise is one rule (`judging.selectors.finalise_blockers`), and each
blocker reads the same in its three outlets: the service refuses with it, the control
room's panel lists it, the API's 409 names it (code, sentence, teams or tablets)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.errors import Refusal
from competition.models import AuditEntry, Competition
from judging.selectors import finalise_blockers
from judging.services import competition_finalise, count_record, objection_file

pytestmark = pytest.mark.django_db

# The panel's heading for each blocker (templates/judging/_objections_panel.html), in Danish.
HEADING = {
    "clock_not_started": "Uret er ikke startet.",
    "clock_running": "Uret kører stadig: vent, til tiden er gået.",
    "taps_waiting": "Registreringer venter på en dommers tablet:",
    "objections_open": "Indsigelser under behandling:",
    "counts_missing": "Optælling mangler for:",
    "counts_unconfirmed": "Venter på kontroloptælling:",
}


def _count_all(teams, judge):
    for team, pieces in zip(teams, (300, 420, 0), strict=True):
        count_record(team=team, by=judge, pieces=pieces)


def _not_started(competition, teams, judge, desk, api_as, start_clock):
    return competition


def _running(competition, teams, judge, desk, api_as, start_clock):
    return start_clock(competition, ago=timedelta(hours=1))


def _taps_waiting(competition, teams, judge, desk, api_as, start_clock):
    start_clock(competition, ago=timedelta(hours=4))
    _count_all(teams, judge)
    answer = api_as(judge).post(
        f"/api/v1/competitions/{competition.slug}/tablets/heartbeat",
        {"device_id": "tablet-mette-01", "tables": [1, 2], "waiting": 2},
        format="json",
    )
    assert answer.status_code == 204
    return competition


def _objections_open(competition, teams, judge, desk, api_as, start_clock):
    start_clock(competition, ago=timedelta(hours=4))
    _count_all(teams, judge)
    objection_file(team=teams[1], by=desk, text="Vi talte 430")
    return competition


def _counts_missing(competition, teams, judge, desk, api_as, start_clock):
    start_clock(competition, ago=timedelta(hours=4))
    count_record(team=teams[0], by=judge, pieces=300)
    return competition


def _counts_unconfirmed(competition, teams, judge, desk, api_as, start_clock):
    Competition.objects.filter(pk=competition.pk).update(second_count=True)
    start_clock(competition, ago=timedelta(hours=4))
    _count_all(teams, judge)
    return competition


SCENARIOS = {
    "clock_not_started": _not_started,
    "clock_running": _running,
    "taps_waiting": _taps_waiting,
    "objections_open": _objections_open,
    "counts_missing": _counts_missing,
    "counts_unconfirmed": _counts_unconfirmed,
}


@pytest.mark.parametrize("code", list(SCENARIOS))
def test_each_blocker_reads_the_same_in_the_service_the_panel_and_the_api(
    code, competition, teams, judge, desk, admin_user, api_as, start_clock, client
):
    competition = SCENARIOS[code](competition, teams, judge, desk, api_as, start_clock)
    competition.refresh_from_db()
    blockers = finalise_blockers(competition, timezone.now())
    assert [b.code for b in blockers] == [code]
    blocker = blockers[0]
    audit_before = AuditEntry.objects.count()

    # The service refuses with it, and writes nothing.
    with pytest.raises(Refusal) as refused:
        competition_finalise(competition=competition, by=admin_user)
    assert refused.value.code == code
    assert str(refused.value.message) == blocker.message
    assert refused.value.extra == blocker.details

    # The API names it: the same code, sentence and what the body adds.
    answer = api_as(admin_user).post(f"/api/v1/competitions/{competition.slug}/finalise")
    assert answer.status_code == 409
    body = answer.json()
    assert (body["code"], body["detail"]) == (code, blocker.message)
    assert set(body) == {"code", "detail", *blocker.details}
    for key in ("teams", "objections"):
        assert body.get(key) == blocker.details.get(key)
    if "tablets" in blocker.details:
        assert [t["device_id"] for t in body["tablets"]] == ["tablet-mette-01"]
        assert [t.device_id for t in blocker.tablets] == ["tablet-mette-01"]

    # The control room's panel lists it, with the same teams or tablets.
    client.force_login(admin_user)
    page = client.get(reverse("control:finalise", kwargs={"slug": competition.slug}))
    listed = page.context["panel"]["blockers"]
    assert [b.code for b in listed] == [code]
    assert [t.pk for t in listed[0].teams] == [t.pk for t in blocker.teams]
    assert HEADING[code] in page.text
    for team in blocker.teams:
        assert f"{team.name} (bord {team.table})" in page.text
    for tablet in blocker.tablets:
        assert f"{tablet.user.get_username()}: {tablet.waiting}" in page.text
    assert page.context["panel"]["can_finalise"] is (code == "taps_waiting")

    assert AuditEntry.objects.count() == audit_before
    competition.refresh_from_db()
    assert competition.finalised_at is None


def test_the_panel_lists_them_all_in_the_order_the_service_refuses(
    competition, teams, judge, desk, admin_user, api_as, client, start_clock
):
    """Tablets, objections, missing counts: all listed; the service refuses with the first,
    and with the tablets overridden (and a reason), with the next."""
    _taps_waiting(competition, teams, judge, desk, api_as, start_clock)
    objection_file(team=teams[1], by=desk, text="Vi talte 430")
    teams[2].count.delete()
    competition.refresh_from_db()
    codes = [b.code for b in finalise_blockers(competition, timezone.now())]
    assert codes == ["taps_waiting", "objections_open", "counts_missing"]

    client.force_login(admin_user)
    page = client.get(reverse("control:finalise", kwargs={"slug": competition.slug}))
    assert [b.code for b in page.context["panel"]["blockers"]] == codes
    url = f"/api/v1/competitions/{competition.slug}/finalise"
    assert api_as(admin_user).post(url).json()["code"] == "taps_waiting"
    overridden = api_as(admin_user).post(url, {"override": True, "reason": "Væk"}, format="json")
    assert overridden.json()["code"] == "objections_open"
