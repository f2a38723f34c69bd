"""The slowest tests start first (tests/slow_first.py), the others keep their order, and every
test in tests/durations.json names a test that still exists (a renamed slow test would
silently fall to the back, where it keeps one worker busy at the end of the run)."""

from types import SimpleNamespace

from tests import slow_first


def test_known_slow_tests_move_to_the_front_and_the_rest_keep_their_order(monkeypatch):
    monkeypatch.setattr(slow_first, "known_durations", lambda: {"c": 90.0, "e": 10.0})
    items = [SimpleNamespace(nodeid=n) for n in "abcdef"]
    slow_first.pytest_collection_modifyitems(None, None, items)
    assert [i.nodeid for i in items] == ["c", "e", "a", "b", "d", "f"]


def test_every_slow_test_listed_still_exists(request):
    collected = {item.nodeid for item in request.session.items}
    listed = set(slow_first.known_durations())
    assert listed, "tests/durations.json is missing or empty: `make durations` writes it"
    if len(collected) < 1000:  # a run of some tests only: nothing to compare against
        return
    gone = sorted(listed - collected)
    assert not gone, f"renamed or removed; run `make durations`: {gone[:10]}"
