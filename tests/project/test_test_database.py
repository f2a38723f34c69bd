"""The tests run on the hall's kind of database: on SQLite a file in WAL mode with a
busy timeout, as `make hall` runs, so that the browser tests' live server and the test body
have a connection each, readers never wait and a writer waits instead of failing."""

import threading

import pytest
from django.db import connection, connections

from competition.models import Competition

sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the SQLite test database's configuration"
)


@sqlite_only
@pytest.mark.django_db
def test_the_sqlite_test_database_is_a_file_in_wal_mode_with_a_busy_timeout():
    assert not connection.is_in_memory_db()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0] == "wal"
        cursor.execute("PRAGMA busy_timeout")
        assert cursor.fetchone()[0] >= 10_000  # ms: a writer waits for the lock


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_write_while_another_thread_is_inside_a_read_does_not_fail(competition):
    """The live server reads (a page, a poll) while the test writes: on the in-memory shared
    cache this failed at once with "database table is locked: competition_competition"."""
    reading, written = threading.Event(), threading.Event()
    seen = {}

    def live_server_request():
        try:
            conn = connections["default"]
            with conn.cursor() as cursor:
                cursor.execute("BEGIN")
                cursor.execute("SELECT screen_mode FROM competition_competition")
                seen["before"] = cursor.fetchall()
                reading.set()
                written.wait(10)
                cursor.execute("SELECT count(*) FROM competition_competition")
                seen["after"] = cursor.fetchone()
                cursor.execute("COMMIT")
        finally:
            connections.close_all()
            reading.set()

    thread = threading.Thread(target=live_server_request)
    thread.start()
    assert reading.wait(10)
    Competition.objects.filter(pk=competition.pk).update(screen_mode="results")
    written.set()
    thread.join(10)
    assert seen["after"] == (1,)
    assert Competition.objects.get(pk=competition.pk).screen_mode == "results"
