"""The audit actions' registry (competition/audit_actions.py): stored rows read the same
sentences as before the registry (tests/judging/audit_sentences.json was rendered by the
if-chain it replaced; the second count, the big screen and a restored backup, which only "made
a change" then, have since their own words: issue 33 item 6), a name not registered is
refused, only a clock stop and finalise are followed by a backup, and every call site names
its action by the registry's object."""

import json
import re
from pathlib import Path

import pytest
from django.utils.translation import override

from competition import audit_actions
from competition.audit import audit_record
from competition.audit_text import describe
from competition.models import AuditEntry

RENDERED = json.loads((Path(__file__).parent / "audit_sentences.json").read_text())

BEFORE = {
    "id": 7,
    "puzzle": 2,
    "elapsed_seconds": 3000,
    "missing": [1, 3],
    "pieces": 420,
    "decision": "open",
    "started_at": "2026-12-01T09:00:00+00:00",
    "table": 4,
}
AFTER = {
    "id": 7,
    "puzzle": 2,
    "elapsed_seconds": 2950,
    "missing": [1],
    "pieces": 430,
    "unplaced": 5,
    "loose": 2,
    "table": 5,
    "members": [{"name": "Anna", "under_15": True, "guardian": "Bo"}],
    "text": "Vi talte 430",
    "decision": "upheld",
    "started_at": "2026-12-01T09:00:30+00:00",
    "stopped_at": "2026-12-01T11:00:00+00:00",
    "username": "mette",
    "finalised_at": "2026-12-01T13:00:00+00:00",
}
SHAPES = {
    "both": (BEFORE, AFTER),
    "after": (None, AFTER),
    "before": (BEFORE, None),
    "erased": (None, {"members": "[erased]", "table": 3}),
}


@pytest.mark.parametrize("key", sorted(RENDERED))
def test_a_stored_row_reads_as_it_did_before_the_registry(key):
    action, shape = key.split("/")
    before, after = SHAPES[shape]
    with override("da"):
        text = describe(AuditEntry(action=action, before=before, after=after))
        assert [str(text["label"]), text["sentence"], text["changes"]] == RENDERED[key]


def test_every_action_a_stored_row_may_carry_is_registered():
    names = {key.split("/")[0] for key in RENDERED} - {"second_count_record"}
    assert names <= set(audit_actions.ACTIONS)


@pytest.mark.django_db
def test_an_action_not_in_the_registry_is_refused_and_writes_nothing(competition):
    with pytest.raises(ValueError, match="finish_registred"):
        audit_record(competition=competition, user=None, action="finish_registred")
    assert not AuditEntry.objects.exists()


def test_only_a_clock_stop_and_finalise_take_a_backup():
    snapshots = {a.name: a.snapshot for a in audit_actions.ACTIONS.values() if a.snapshot}
    assert snapshots == {"clock_stop": "clock_stop", "competition_finalise": "final"}


def test_every_action_is_named_in_the_registry_by_its_stored_name():
    # A service imports the action (`w.audit(FINISH_REGISTER, ...)`): a typo is an import
    # error, and the row stores the same name as before the names were objects.
    for action in audit_actions.ACTIONS.values():
        assert getattr(audit_actions, action.name.upper()) is action


@pytest.mark.django_db
def test_a_named_action_stores_its_name(competition):
    entry = audit_record(competition=competition, user=None, action=audit_actions.CLOCK_STOP)
    assert AuditEntry.objects.get(pk=entry.pk).action == "clock_stop"


ROOT = Path(__file__).resolve().parents[2]
# `w.audit("…"` or `audit_record(… action="…"`: an action written as a free string.
FREE_STRING = re.compile(r"""\.audit\(\s*["']|audit_record\([^)]*\baction=["']""")


def test_no_call_site_names_an_action_by_a_free_string():
    found = [
        str(path.relative_to(ROOT))
        for app in ("championships", "competition", "judging", "scoring", "config")
        for path in sorted((ROOT / app).rglob("*.py"))
        if "migrations" not in path.parts and FREE_STRING.search(path.read_text())
    ]
    assert found == []
