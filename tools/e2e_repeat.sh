#!/usr/bin/env bash
# The browser tests, again and again, optionally beside CPU-bound busy loops: proof
# that they wait for states, not moments. Reports every failure of every run and exits 1 when
# any run failed. Logs and JUnit files in var/e2e-repeat/.
#   make e2e-repeat RUNS=10 LOAD=2            # SQLite; DATABASE_URL=postgres://... for PostgreSQL
#   RUNS, LOAD (busy loops, default 0), WORKERS (pytest-xdist, default auto), ARGS (pytest's),
#   TESTS (default tests/e2e)
set -uo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
LOAD=${LOAD:-0}
WORKERS=${WORKERS:-auto}
TESTS=${TESTS:-tests/e2e}
ARGS=${ARGS:-}
out=var/e2e-repeat
mkdir -p "$out"
rm -f "$out"/run-*

loops=()
stop_loops() { [ ${#loops[@]} -eq 0 ] || kill "${loops[@]}" 2>/dev/null; }
trap stop_loops EXIT
for _ in $(seq 1 "$LOAD"); do
  (while :; do :; done) &
  loops+=($!)
done

echo "== $TESTS, $RUNS runs, $LOAD busy loops, database: ${DATABASE_URL:-SQLite}"
failed_runs=0
failures=0
for run in $(seq 1 "$RUNS"); do
  start=$(date +%s)
  # shellcheck disable=SC2086
  .venv/bin/pytest -n "$WORKERS" --dist worksteal $TESTS -q -rfE --junitxml="$out/run-$run.xml" $ARGS \
    >"$out/run-$run.log" 2>&1
  rc=$?
  echo "run $run/$RUNS: exit $rc after $(($(date +%s) - start)) s: $(tail -n 1 "$out/run-$run.log")"
  if [ "$rc" -ne 0 ]; then
    failed_runs=$((failed_runs + 1))
    grep -E "^(FAILED|ERROR) " "$out/run-$run.log" | sed 's/^/    /'
    failures=$((failures + $(grep -cE "^(FAILED|ERROR) " "$out/run-$run.log")))
  fi
done
echo "== $RUNS runs with $LOAD busy loops: $failed_runs runs failed, $failures failures in all"
[ "$failed_runs" -eq 0 ]
