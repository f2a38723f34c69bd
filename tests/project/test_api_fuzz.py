"""API fuzzing: schemathesis against /api/schema/, bounded, in-process.

No answer may be a 500, and every answer must match the schema. Requests come from an
admin (so they reach past the permission checks) against a real competition, with the
clock running, so the generated bodies hit the services' rules rather than only 404s.
"""

from datetime import timedelta

import pytest
import schemathesis
from django.utils import timezone
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from competition.services import staff_upsert


@pytest.fixture
def api_schema(db):
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from config.wsgi import application

    # As Django's test client does: the requests run inside the test's transaction, so the
    # end of a request must not close the database connection.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/schema/", application)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def running(competition, teams):
    competition.started_at = timezone.now() - timedelta(minutes=30)
    competition.save()
    return competition


@pytest.fixture
def admin_token(db):
    return staff_upsert(
        username="fuzz-admin", role="admin", password="kaffe-og-brikker-77", issue_token=True
    )[2]


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_no_server_error_and_answers_match_the_schema(case, running, teams, admin_token):
    if "slug" in (case.path_parameters or {}):
        case.path_parameters["slug"] = running.slug
    if "id" in (case.path_parameters or {}) and "teams" in case.path:
        case.path_parameters["id"] = teams[0].pk
    case.call_and_validate(
        headers={"Authorization": f"Token {admin_token}"},
        checks=[not_a_server_error, response_schema_conformance],
    )
