"""No test asserts how long something took on the wall clock.

Speed is measured in `make bench`, never asserted in a test: a duration that holds on a quiet
machine fails on a busy one (CI with two busy loops beside it timed a page behind a hung
Redis at 2.04 s against a bound of 2 s, and the day's good work would not have landed). This
test reads every test module and refuses an `assert` over a duration measured on the wall
clock: a wall-clock read minus something, directly or through a name it was assigned to.
The same for a time the app stamped (`now - competition.started_at < 5`: a slow write
passes it). A deadline (`time.monotonic() + 20`, a hang guard around a wait for a state) is
not a duration and stays allowed. Prove a timeout by what happened instead (the error it raised,
how often it was waited for), and hold a clock still where the code reads one.
"""

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
CLOCKS = {"monotonic", "perf_counter", "time", "monotonic_ns", "perf_counter_ns", "time_ns"}
NOWS = {"now", "utcnow"}  # timezone.now(), datetime.now(UTC): a time zone is no duration


def _is_clock_read(node: ast.AST) -> bool:
    """`time.monotonic()`, `time.time()`, `perf_counter()`... (no arguments), and
    `timezone.now()` or `datetime.now(UTC)` (a time zone at most)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    bare = not node.args and not node.keywords
    return (name in CLOCKS and bare) or (name in NOWS and len(node.args) + len(node.keywords) <= 1)


def _measures(node: ast.AST, marks: set[str], durations: set[str]) -> bool:
    """Does `node` hold a duration: a clock read minus a mark (a name holding an earlier clock
    read, or a time the app stamped: `competition.started_at`) or minus another read, or a name
    holding such a duration?"""
    for sub in ast.walk(node):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Sub):
            sides = (sub.left, sub.right)
            reads = sum(_is_clock_read(side) for side in sides)
            named = sum(
                (isinstance(side, ast.Name) and side.id in marks)
                or (isinstance(side, ast.Attribute) and side.attr.endswith("_at"))
                for side in sides
            )
            if (reads and reads + named == 2) or _both_marks(sides, marks):
                return True
        if isinstance(sub, ast.Name) and sub.id in durations:
            return True
    return False


def _both_marks(sides, marks: set[str]) -> bool:
    """`ended - started`: two names, each holding a clock read."""
    return all(isinstance(side, ast.Name) and side.id in marks for side in sides)


def _targets(node: ast.AST) -> set[str]:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return {t.id for t in targets if isinstance(t, ast.Name)}


def timed_asserts(source: str, name: str) -> list[str]:
    tree = ast.parse(source)
    lines = source.splitlines()
    assigns = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.NamedExpr) and node.value
    ]
    marks = {t for node in assigns if _is_clock_read(node.value) for t in _targets(node)}
    durations: set[str] = set()
    while True:  # a duration of a duration, in whatever order the walk meets them
        more = {
            t for node in assigns if _measures(node.value, marks, durations) for t in _targets(node)
        }
        if more <= durations:
            break
        durations |= more
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and _measures(node.test, marks, durations):
            found.append(f"{name}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    return found


def test_no_test_asserts_a_duration_on_the_wall_clock():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        if "vendor" in path.parts:
            continue
        found += timed_asserts(path.read_text(), str(path.relative_to(TESTS)))
    assert found == [], "a duration asserted on the wall clock:\n" + "\n".join(found)


def test_the_check_finds_a_timed_assert_and_lets_a_deadline_pass():
    timed = """
started = time.monotonic()
response = client.get(path)
took = time.monotonic() - started
assert took < 2, (path, took)
"""
    assert timed_asserts(timed, "t") == ["t:5: assert took < 2, (path, took)"]
    inline = "began = timezone.now()\nsave()\nassert (timezone.now() - began).seconds < 5\n"
    assert timed_asserts(inline, "t") == ["t:3: assert (timezone.now() - began).seconds < 5"]
    stamped = "assert abs((timezone.now() - competition.started_at).total_seconds()) < 5\n"
    assert len(timed_asserts(stamped, "t")) == 1
    marks = """
started = time.perf_counter_ns()
ended: int = time.perf_counter_ns()
took = ended - started
seconds = took / 1e9
assert seconds < 2
"""
    assert timed_asserts(marks, "t") == ["t:6: assert seconds < 2"]
    zoned = (
        "began = datetime.now(UTC)\nassert datetime.now(tz=UTC) - began < timedelta(seconds=5)\n"
    )
    assert len(timed_asserts(zoned, "t")) == 1
    deadline = """
deadline = time.monotonic() + 20
while not done():
    assert time.monotonic() < deadline, "never came"
"""
    assert timed_asserts(deadline, "t") == []
