"""The slowest tests start first, so that the two workers (pytest-xdist) finish together.

pytest-xdist deals tests out in collection order; a long test dealt last keeps one worker
busy while the other idles (a browser layout walk is over a minute). Sorting the known slow
tests to the front is the longest-first rule of scheduling. `tests/durations.json` holds the
tests that took 2 s or more in a run (`make durations` writes it again from a JUnit file);
a stale or missing file only costs time, never a result: the same tests run either way.
Loaded by tests/conftest.py.
"""

import json
from pathlib import Path

DURATIONS = Path(__file__).with_name("durations.json")


def known_durations() -> dict[str, float]:
    try:
        return json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}


def pytest_collection_modifyitems(session, config, items):
    known = known_durations()
    if known:
        # A stable sort: tests of unknown or short duration keep their order.
        items.sort(key=lambda item: -known.get(item.nodeid, 0.0))
