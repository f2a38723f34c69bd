"""/readyz for a load balancer (docs/contracts.md "Running"): 200 only when the database answers,
503 naming what is down; /healthz stays without database and cache."""

import pytest
from django.db import OperationalError, connection


@pytest.mark.django_db
def test_readyz_is_ready_when_the_database_answers(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"ok": True, "database": "ok", "cache": "local"}
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_readyz_answers_503_naming_the_database_when_it_is_down(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json() == {"ok": False, "database": "down", "cache": "local"}
    # /healthz only says the process lives.
    assert client.get("/healthz").status_code == 200
