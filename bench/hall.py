"""4. The day: spectators and judges at once, and the hall's run (database, server, the
endpoints one at a time, the day, the mirror) with its results."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

from bench.build import (
    build_championship,
    build_competition,
    copy_database,
    create_judges,
    make_judges,
    recreate_database,
)
from bench.common import (
    CHAMPIONSHIP,
    DB_NAME,
    HEAT_SLUG,
    HEATS,
    JUDGES,
    MIRROR_DB,
    PG,
    ROOT,
    ROUNDS,
    SLUG,
    VENV_BIN,
)
from bench.load import (
    OwnRedis,
    chaos,
    ensure_wrk,
    free_port,
    load,
    parse_wrk,
    percentile,
    wait_until_up,
    warm_up,
    watch_public,
)
from bench.mirror import bench_mirror
from bench.report import final_report


def run_the_day(wrk, port, judges, args) -> dict:
    from bench import day

    url = f"http://127.0.0.1:{port}/api/v1/competitions/{SLUG}/standings"
    if wrk:
        spectators = day.run_day(
            wrk=wrk,
            parse_wrk=parse_wrk,
            host="127.0.0.1",
            port=port,
            slug=SLUG,
            judges=judges,
            spectators=args.spectators,
            seconds=args.day_seconds,
            pause=args.judge_pause,
        )
    else:  # the same with Python threads for the spectators
        deadline = time.monotonic() + args.day_seconds
        workers = [threading.Thread(target=j.run, args=(deadline,)) for j in judges]
        for t in workers:
            t.start()
        half = args.spectators // 2
        spectators = {}

        def poll(mode, n, headers):
            spectators[mode] = load(None, url, headers, args.day_seconds, n)

        polls = [
            threading.Thread(target=poll, args=("etag", half, {"If-None-Match": "track"})),
            threading.Thread(target=poll, args=("plain", args.spectators - half, {})),
        ]
        for t in polls:
            t.start()
        for t in polls + workers:
            t.join()
    return spectators


def judges_summary(judges, seconds: int) -> dict:
    latencies = sorted(x for j in judges for x in j.stats.latencies)
    statuses: dict[int, int] = {}
    for j in judges:
        for status, n in j.stats.statuses.items():
            statuses[status] = statuses.get(status, 0) + n
    return {
        "requests": len(latencies),
        "rps": len(latencies) / seconds,
        "p50": percentile(latencies, 0.50),
        "p99": percentile(latencies, 0.99),
        "errors": sum(len(j.stats.errors) for j in judges),
        "statuses": statuses,
        "created": sum(len(j.stats.created) for j in judges),
        "replays": sum(j.stats.replays for j in judges),
        "concurrent": sum(j.stats.concurrent for j in judges),
        "duplicate_taps": sum(j.stats.duplicate_taps for j in judges),
        "messages": [m for j in judges for m in j.stats.errors],
    }


def served_standings_match(base: str) -> tuple[bool, str]:
    """After the load, the standings a spectator gets show every finish in the database."""
    import json

    from django.db.models import Count as CountOf

    from competition.models import Team

    time.sleep(1.1)  # a public reader may be served standings up to 1 second old
    with urllib.request.urlopen(f"{base}/api/v1/competitions/{SLUG}/standings", timeout=10) as r:
        body = json.loads(r.read())
    served = {row["team"]["id"]: row["finished"] for row in body["standings"]}
    stored = dict(
        Team.objects.filter(competition__slug=SLUG)
        .annotate(n=CountOf("finishes"))
        .values_list("id", "n")
    )
    differ = [t for t in stored if served.get(t) != stored[t]]
    return not differ, f"{len(differ)} of {len(stored)} teams differ" if differ else "all teams"


def run_hall(args, timings: dict, started: float) -> int:  # noqa: C901, PLR0915 - told in order
    """Parts 2-4 and 7: the database, the server, the endpoints, the day and the mirror;
    then the results (report.py). The exit status (0: all well)."""
    redis = OwnRedis()
    use_redis = bool(redis.binary)
    if use_redis:
        redis.start()
    env = {
        **os.environ,
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "DEBUG": "0",
        "SECRET_KEY": "bench-" + os.urandom(16).hex(),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_PROXY": "0",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "ERROR",
        "CACHE_URL": redis.url if use_redis else "",
        "CACHE_PREFIX": "bench",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    os.environ.update(env)
    print(f"\n== PostgreSQL database {DB_NAME}: drop, create, migrate")
    recreate_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)
    if not args.no_mirror:
        copy_database(DB_NAME, MIRROR_DB)  # the mirror's: migrated and empty
    prebuilt = build_competition(args.teams, args.puzzles)
    tokens = create_judges(JUDGES)
    print(
        f"  {args.teams} teams x {args.puzzles} puzzles, {len(prebuilt)} finishes; "
        f"{len(tokens)} judges with API tokens"
    )
    sizes = build_championship(args.championship_scale)
    print(
        f"  the championship /{CHAMPIONSHIP}/: {sizes['individuals']} individuals in {HEATS} "
        f"heats, {sizes['pairs']} pairs, {sizes['teams']} teams, every clock running"
    )
    from django.db import connections

    connections.close_all()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    cache_name = (
        f"its own redis-server on port {redis.port}"
        if use_redis
        else "process-local memory (redis-server not found: no chaos part)"
    )
    print(f"\n== gunicorn, {args.workers} sync workers, on {base}; cache: {cache_name}")
    server_log = open(ROOT / "var" / "bench-gunicorn.log", "w")  # noqa: SIM115
    server = subprocess.Popen(
        [
            str(VENV_BIN / "gunicorn"),
            "config.wsgi:application",
            f"--workers={args.workers}",
            "--worker-class=sync",
            f"--bind=127.0.0.1:{port}",
            "--log-level=warning",
            "--timeout=30",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
        stderr=server_log,
    )

    def stop_server(*_):
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)

    signal.signal(signal.SIGTERM, lambda *a: (stop_server(), sys.exit(1)))
    results = []
    day = {}
    try:
        wait_until_up(base)
        standings = f"{base}/api/v1/competitions/{SLUG}/standings"
        with urllib.request.urlopen(standings, timeout=10) as r:
            etag = r.headers["ETag"]
        req = urllib.request.Request(f"{base}/{SLUG}/", headers={"HX-Request": "true"})
        with urllib.request.urlopen(req, timeout=10) as r:
            fragment_etag = r.headers["ETag"]
            fragment_bytes = len(r.read())
        with urllib.request.urlopen(f"{base}/{SLUG}/", timeout=10) as r:
            page_bytes = len(r.read())
            # A phone keeps the CSRF cookie of its first visit and sends it on every reload.
            set_cookie = r.headers["Set-Cookie"]
        cookie = {"Cookie": set_cookie.split(";")[0]} if set_cookie else {}
        with urllib.request.urlopen(standings, timeout=10) as r:
            json_bytes = len(r.read())
        print(
            f"  sizes: standings JSON {json_bytes:,} B, page {page_bytes:,} B, "
            f"fragment {fragment_bytes:,} B"
        )
        wrk = None if args.python_load else ensure_wrk()
        tool = "wrk" if wrk else "python threads"
        programme = f"{base}/{CHAMPIONSHIP}/"
        heat = f"{base}/api/v1/competitions/{HEAT_SLUG}/standings"
        warm_up([f"{base}/healthz", standings, f"{base}/{SLUG}/", programme, heat])
        print(
            f"\n== One endpoint at a time: {tool}, {args.connections} connections, "
            f"{args.seconds} s each"
        )
        targets = [
            ("/healthz", f"{base}/healthz", {}),
            ("standings JSON", standings, {}),
            ("leaderboard page", f"{base}/{SLUG}/", cookie),
            ("leaderboard fragment", f"{base}/{SLUG}/", {"HX-Request": "true"}),
            ("standings JSON, 304", standings, {"If-None-Match": etag}),
            (
                "fragment, 304",
                f"{base}/{SLUG}/",
                {"HX-Request": "true", "If-None-Match": fragment_etag},
            ),
            # The championship's programme and a heat's standings JSON.
            ("championship programme", programme, cookie),
            ("heat standings JSON", heat, {}),
            ("/healthz (again)", f"{base}/healthz", {}),
        ]
        # Rounds, every endpoint in turn, and the best round of each: other programs on
        # the machine only ever slow a round down, and they hit all endpoints alike.
        per_round = max(2, args.seconds // ROUNDS)
        rounds: dict[str, list[dict]] = {name: [] for name, _u, _h in targets}
        for _ in range(ROUNDS):
            for name, url, headers in targets:
                rounds[name].append(load(wrk, url, headers, per_round, args.connections))
        for name, _u, _h in targets:
            best = max(rounds[name], key=lambda r: r["rps"])
            best["errors"] = sum(r["errors"] for r in rounds[name])
            best["rounds"] = [r["rps"] for r in rounds[name]]
            results.append((name, best))
            shown = " / ".join(f"{rps:.0f}" for rps in best["rounds"])
            print(f"  {name:<22} {shown} req/s", flush=True)

        print(
            f"\n== The day: /healthz alone with {args.spectators} connections before and after; "
            f"{args.spectators} spectators on the standings (half with If-None-Match) "
            f"while {JUDGES} judges post finishes, {args.day_seconds} s"
        )
        half_time = max(2, args.seconds // 2)
        day["healthz"] = [load(wrk, f"{base}/healthz", {}, half_time, args.spectators)]
        from competition.models import Competition

        competition = Competition.objects.get(slug=SLUG)
        version_before = competition.standings_version
        judges = make_judges(tokens, port, args.judge_pause)
        team_id = competition.teams.order_by("table").values_list("pk", flat=True).first()
        connections.close_all()
        day_started = time.monotonic()
        day["chaos"] = {}
        side = []
        if use_redis and args.chaos_seconds > 0:
            at = args.day_seconds / 3 if args.chaos_at is None else args.chaos_at
            side.append(
                threading.Thread(
                    target=chaos,
                    args=(redis, day_started, at, args.chaos_seconds, day["chaos"]),
                )
            )
        watched: list = []
        side.append(
            threading.Thread(
                target=lambda: watched.extend(
                    watch_public(base, team_id, day_started, day_started + args.day_seconds)
                )
            )
        )
        for t in side:
            t.start()
        day["spectators"] = run_the_day(wrk, port, judges, args)
        for t in side:
            t.join()
        day["watched"] = watched
        day["judges"] = judges_summary(judges, args.day_seconds)
        print(f"  done; {day['judges']['created']} finishes posted", flush=True)
        day["healthz"].append(load(wrk, f"{base}/healthz", {}, half_time, args.spectators))

        from bench.day import check_database

        competition.refresh_from_db()
        day["db"] = check_database(competition, prebuilt, judges)
        day["bumps"] = competition.standings_version - version_before
        day["served"] = served_standings_match(base)
        if not args.no_mirror:
            day["mirror"] = bench_mirror(wrk, env, port, tokens, args)
    finally:
        stop_server()
        redis.kill()
        server_log.close()
        if not args.keep_db:
            connections.close_all()
            try:
                import psycopg

                with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
                    conn.execute(f'DROP DATABASE IF EXISTS "{MIRROR_DB}" WITH (FORCE)')
            except Exception as exc:  # noqa: BLE001 - cleanup must not hide the results
                print(f"  (could not drop {DB_NAME}: {exc})")

    return final_report(args, timings, started, results, per_round, day, use_redis, half_time)
