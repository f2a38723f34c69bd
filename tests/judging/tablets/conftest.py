"""Fixtures for the tablets panel: a competition whose time is up and whose every count is in."""

from datetime import timedelta

import pytest

from judging.services import count_record, finish_register


@pytest.fixture
def counted(competition, teams, judge, start_clock):
    """Time is up (started 4 hours ago, 3 hours long); table 1 finished puzzle 1; every
    team is counted: nothing but the tablets stands between it and the final results."""
    start_clock(competition, ago=timedelta(hours=4))
    finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=40 * 60)
    for team, pieces in zip(teams, (300, 420, 0), strict=True):
        count_record(team=team, by=judge, pieces=pieces)
    competition.refresh_from_db()
    return competition


@pytest.fixture
def heartbeat(api_as, judge):
    """heartbeat(competition, device, waiting, **more) -> the API's answer."""

    def send(competition, device="tablet-mette-01", waiting=0, *, user=None, **more):
        body = {"device_id": device, "tables": [1, 2], "waiting": waiting, **more}
        url = f"/api/v1/competitions/{competition.slug}/tablets/heartbeat"
        return api_as(user or judge).post(url, body, format="json")

    return send
