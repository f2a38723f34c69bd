"""In CI (`CI=true`) a browser or Node test that would skip fails instead.

A missing Chromium or Node.js makes these tests skip on a developer's machine, which is
fine there; in CI the same skip would let the run pass without the judge's outbox or the
day in the browser ever being tried. `.ci/run` installs both, and this hook turns any skip
of a test marked `e2e` (the browser) or `node` into a failure that says why.
Loaded by tests/conftest.py; `pytest -p tests.ci_no_skips` loads it alone.
"""

import os

import pytest

MUST_RUN = ("e2e", "node")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not report.skipped or hasattr(report, "wasxfail") or not in_ci():
        return
    kind = next((m for m in MUST_RUN if item.get_closest_marker(m)), None)
    if kind is None:
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    reason = reason.removeprefix("Skipped: ")
    report.outcome = "failed"
    report.longrepr = (
        f"CI=true: this {kind} test may not skip ({reason}). "
        "Install what it needs (.ci/run installs Debian's chromium and nodejs)."
    )
