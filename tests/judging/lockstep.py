"""Requests that read a record, then wait for a lock that another transaction holds while it
deletes that record: the race of Made certain instead of likely.

`behind_the_lock(team, jobs, inside)` locks the team row (the first lock of every judging
write), starts each job in its own thread and database connection, waits until every job
is blocked on that lock (PostgreSQL's `pg_blocking_pids`: each job's view has read its
record by then), runs `inside` in the lock holder's transaction (the undo, the void, the
first delete) and commits; the jobs then go on and find their record gone.
"""

import threading
import time

from django.db import connection, transaction

from competition.locking import lock_team


def _pid() -> int:
    connection.ensure_connection()
    return connection.connection.info.backend_pid


def behind_the_lock(team, jobs, inside=lambda: None, timeout=10.0, lock=None):
    """`lock`: take another lock than the team's row (a callable run in the holder's
    transaction; the championship's row for the table plan)."""
    results: list = [None] * len(jobs)
    pids: list = [None] * len(jobs)
    ready = threading.Barrier(len(jobs) + 1)

    def work(i, job):
        try:
            pids[i] = _pid()
            ready.wait()
            results[i] = job()
        except Exception as error:  # noqa: BLE001 - collected for the assertions
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(i, job)) for i, job in enumerate(jobs)]
    with transaction.atomic():
        if lock is None:
            lock_team(team)
        else:
            lock()
        for thread in threads:
            thread.start()
        ready.wait()
        deadline = time.monotonic() + timeout
        with connection.cursor() as cursor:
            while True:
                cursor.execute(
                    # Each job waits on the lock holder or on a job queued before it.
                    "SELECT count(*) FROM unnest(%s::int[]) AS p"
                    " WHERE cardinality(pg_blocking_pids(p)) > 0",
                    [pids],
                )
                if cursor.fetchone()[0] == len(jobs):
                    break
                if time.monotonic() > deadline:
                    cursor.execute("SELECT pg_stat_clear_snapshot()")
                    cursor.execute(
                        "SELECT pid, wait_event_type, state, pg_blocking_pids(pid), left(query, 80)"
                        " FROM pg_stat_activity WHERE pid = ANY(%s::int[])",
                        [pids],
                    )
                    raise AssertionError(f"the jobs never reached the lock: {cursor.fetchall()}")
                time.sleep(0.02)
        inside()
    for thread in threads:
        thread.join(timeout=60)
    return results
