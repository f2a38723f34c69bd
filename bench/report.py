"""The bench's results, printed: the endpoints' ratios and what the chaos did."""

from __future__ import annotations

import time

from bench.common import HEAD, JUDGES, ROOT, ROUNDS, fmt, load_average, ratio_table
from bench.load import PUBLIC
from bench.mirror import mirror_report


def chaos_report(day: dict, use_redis: bool) -> int:
    """Print what the spectators got while Redis was down; return the failed answers."""
    events, watched = day["chaos"], day["watched"]
    if events:
        print(
            f"\n  chaos: Redis killed {events['stopped']:.1f} s into the day, started again "
            f"{events['restarting'] - events['stopped']:.1f} s later (answering "
            f"{events['back'] - events['restarting']:.2f} s after that)"
        )
    elif use_redis:
        print("\n  chaos: off (--chaos-seconds 0)")
    else:
        print("\n  chaos: no redis-server, so no shared cache to lose")

    def summary(rows) -> str:
        counts: dict = {}
        for _t, _name, status in rows:
            counts[status] = counts.get(status, 0) + 1
        return ", ".join(f"{n} x {s}" for s, n in sorted(counts.items(), key=str)) or "none"

    if events:
        down = [w for w in watched if events["stopped"] <= w[0] <= events["back"]]
        print(
            f"  public pages polled while Redis was down ({', '.join(PUBLIC)}): "
            f"{len(down)} requests, {summary(down)}"
        )
    print(
        f"  public pages polled during the whole day: {len(watched)} requests, {summary(watched)}"
    )
    log = (ROOT / "var" / "bench-gunicorn.log").read_text(errors="replace")
    fallbacks = log.count("Shared cache unavailable")
    print(
        f'  gunicorn logged {fallbacks} "Shared cache unavailable" errors (a worker answering '
        "from its own memory, trying Redis again 2 s later)"
    )
    bad = [w for w in watched if not (isinstance(w[2], int) and 200 <= w[2] < 400)]
    for t, name, status in bad[:10]:
        print(f"  public page error: {name} {status} at {t:.1f} s")
    return len(bad)


def final_report(  # noqa: C901, PLR0913 - the results, told in order
    args, timings, started, results, per_round, day, use_redis, half_time
) -> int:
    """Print the results of the endpoints, the day, the chaos and the mirror; the exit
    status (1 on any error, a lost, doubled or changed finish, or a standings JSON ratio
    below 0.8)."""
    floor = (results[0][1]["rps"] + results[-1][1]["rps"]) / 2
    print(
        f"\n== Results, one endpoint at a time ({args.connections} connections, best of "
        f"{ROUNDS} rounds of {per_round} s; ratio to the mean of the two /healthz rows, "
        f"{floor:.1f} req/s)"
    )
    missed = ratio_table(results, floor)  # the 0.8 targets missed
    failed = any(  # only the standings JSON's fails the run
        m.startswith("standings JSON ") for m in missed
    )

    before, after = day["healthz"]
    hz = {  # /healthz alone, before and after the day: the mean of the two
        "requests": before["requests"] + after["requests"],
        "rps": (before["rps"] + after["rps"]) / 2,
        "p50": (before["p50"] + after["p50"]) / 2,
        "p99": max(before["p99"], after["p99"]),
        "errors": before["errors"] + after["errors"],
    }
    sp, jd, db = day["spectators"], day["judges"], day["db"]
    standings_rps = sp["etag"]["rps"] + sp["plain"]["rps"]
    ratio = standings_rps / hz["rps"] if hz["rps"] else 0
    half = args.spectators // 2
    print(
        f"\n== Results, the day ({args.spectators} spectators and {JUDGES} judges at once, "
        f"{args.day_seconds} s; /healthz alone with {args.spectators} connections: the mean "
        f"of {half_time} s before and {half_time} s after)"
    )
    print(f"{HEAD} {'errors':>6} {'ratio':>6}  answers")
    rows = [
        (f"/healthz, {args.spectators} conn. alone", hz, None, "before and after"),
        (
            f"standings, ETag, {half} conn.",
            sp["etag"],
            None,
            f"{sp['etag']['n200']} x 200, {sp['etag']['n304']} x 304",
        ),
        (
            f"standings, no ETag, {args.spectators - half} conn.",
            sp["plain"],
            None,
            f"{sp['plain']['n200']} x 200",
        ),
        (
            f"POST finishes, {JUDGES} judges",
            jd,
            None,
            ", ".join(f"{n} x {s}" for s, n in sorted(jd["statuses"].items())),
        ),
    ]
    for name, r, _ratio, answers in rows:
        print(
            f"  {name:<30} {fmt(r['requests'], 'd'):>8} {r['rps']:8.1f} {fmt(r['p50']):>7} "
            f"{fmt(r['p99']):>7} {r['errors']:>6} {'':>6}  {answers}"
        )
    print(
        f"  {'standings, all spectators':<30} {'':>8} {standings_rps:8.1f} {'':>7} {'':>7} "
        f"{'':>6} {ratio:6.2f}  (to /healthz alone; the judges' writes share the server)"
    )
    print(
        f"\n  judges: {jd['created']} finishes created (201), {jd['replays']} retries answered "
        f"200 with the same finish, {jd['concurrent']} taps sent twice at once (one 201, "
        f"one 200), {jd['duplicate_taps']} second taps refused 409 already_finished "
        "(expected, not errors)"
    )
    lost_or_doubled = (
        len(db["lost"]) + len(db["doubled"]) + len(db["wrong"]) + len(db["unexpected"])
    )
    print(
        f"  database: {db['rows']} finishes = {db['prebuilt']} built + {db['created']} posted; "
        f"{len(db['lost'])} lost, {len(db['doubled'])} doubled, {len(db['wrong'])} changed, "
        f"{len(db['unexpected'])} unexpected; {db['audited']} audit entries; the standings "
        f"version went up {day['bumps']} times"
    )
    if db["rows"] != db["prebuilt"] + db["created"] or db["audited"] != db["created"]:
        lost_or_doubled += 1
        print("  MISMATCH: the rows or audit entries do not add up")
    if day["bumps"] < db["created"]:
        lost_or_doubled += 1
        print("  MISMATCH: fewer standings versions than finishes")
    ok, detail = day["served"]
    watch_errors = chaos_report(day, use_redis)
    print(
        f"  served standings after the load match the database: {'yes' if ok else 'NO'} ({detail})"
    )
    failed |= not ok
    for message in jd["messages"][:10]:
        print(f"  judge error: {message}")

    http_p50 = results[1][1]["p50"]
    rules_ms = timings[10_000]["wall"]
    print("\n== rules.standings for 10,000 teams x 10 puzzles against one HTTP request")
    for label, p50 in (
        (f"a standings request, {args.connections} connections (p50)", http_p50),
        ("a standings request during the day (p50, no ETag)", sp["plain"]["p50"]),
        ("a standings request during the day (p50, ETag)", sp["etag"]["p50"]),
    ):
        if p50:
            verdict = "less" if rules_ms < p50 else "MORE"
            print(f"  {rules_ms:.1f} ms: {verdict} than {label}: {p50:.2f} ms")

    if "mirror" in day:
        mirror_errors, mirror_missed = mirror_report(day["mirror"], args)
        missed += mirror_missed
    else:
        mirror_errors = 0
    errors = sum(r["errors"] for _n, r in results) + hz["errors"] + mirror_errors
    errors += sp["etag"]["errors"] + sp["plain"]["errors"] + jd["errors"] + watch_errors
    print(f"\n  errors (non-2xx/3xx, socket, unexpected answers): {errors}")
    print(f"  lost, doubled or changed finishes: {lost_or_doubled}")
    print(f"  ratios below 0.8 x /healthz: {', '.join(missed) or 'none'}")
    print(f"  {load_average()}; {time.monotonic() - started:.0f} s in all")
    return 1 if failed or errors or lost_or_doubled else 0
