"""The slowest tests start first (tests/slow_first.py), the others keep their order, and every
test in tests/durations.json names a test that still exists (a renamed slow test would
silently fall to the back, where it keeps one worker busy at the end of the run)."""

import re
from pathlib import Path
from types import SimpleNamespace

from tests import slow_first


def test_known_slow_tests_move_to_the_front_and_the_rest_keep_their_order(monkeypatch):
    monkeypatch.setattr(slow_first, "known_durations", lambda: {"c": 90.0, "e": 10.0})
    items = [SimpleNamespace(nodeid=n) for n in "abcdef"]
    slow_first.pytest_collection_modifyitems(None, None, items)
    assert [i.nodeid for i in items] == ["c", "e", "a", "b", "d", "f"]


def test_every_slow_test_listed_still_exists():
    """Read from the files, not from this run's collection: a run of some of the tests (one
    folder, `-k`) would otherwise find the others "gone"."""
    listed = slow_first.known_durations()
    assert listed, "tests/durations.json is missing or empty: `make durations` writes it"
    root = Path(__file__).resolve().parents[2]
    gone = []
    for nodeid in listed:
        path, *names = nodeid.split("[", 1)[0].split("::")
        source = root / path
        text = source.read_text() if source.is_file() else ""
        if not names or not all(
            re.search(rf"^\s*(?:async )?(?:def|class) {re.escape(n)}\b", text, re.M) for n in names
        ):
            gone.append(nodeid)
    assert not gone, f"renamed or removed; run `make durations`: {sorted(gone)[:10]}"
