"""One way to write (competition/writes.py): the locks, `final` first, the standings version
bumped once on a successful exit when the write audited, nothing on a refusal; and no
service takes the steps by hand (a new one that does fails here)."""

import re
from pathlib import Path

import pytest
from django.utils import timezone

from competition.errors import Refusal
from competition.models import AuditEntry, Competition
from competition.writes import write

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def version(competition) -> int:
    return Competition.objects.get(pk=competition.pk).standings_version


def test_an_audited_write_bumps_the_version_once(competition, teams, admin_user):
    start = version(competition)
    with write(team=teams[0], by=admin_user) as w:
        assert w.team.pk == teams[0].pk and w.competition.pk == competition.pk
        w.audit("warning_log", after={"reason": "a"}, reason="a")
        w.audit("warning_log", after={"reason": "b"}, reason="b")
    assert version(competition) == start + 1
    assert (
        list(AuditEntry.objects.values_list("team", "user", "action"))
        == [(teams[0].pk, admin_user.pk, "warning_log")] * 2
    )


def test_a_write_that_audits_nothing_or_only_what_the_board_does_not_show_bumps_nothing(
    competition, teams, admin_user
):
    start = version(competition)
    with write(team=teams[0], by=admin_user):
        pass
    with write(team=teams[0], by=admin_user) as w:
        w.audit("team_fee_paid", after={"fee_paid": True}, standings=False)
    assert version(competition) == start
    assert AuditEntry.objects.count() == 1


def test_a_refusal_inside_writes_nothing_and_bumps_nothing(competition, teams, admin_user):
    start = version(competition)

    def refused_after_an_audit():
        with write(competition=competition, by=admin_user) as w:
            w.audit("competition_update", after={"name": "x"})
            raise Refusal("any", "refused")

    with pytest.raises(Refusal):
        refused_after_an_audit()
    assert version(competition) == start
    assert not AuditEntry.objects.exists()


def test_final_is_refused_before_the_body_unless_a_recall_answers(competition, teams, admin_user):
    Competition.objects.filter(pk=competition.pk).update(finalised_at=timezone.now())
    ran = []

    def body():
        with write(team=teams[0], by=admin_user):
            ran.append(True)

    with pytest.raises(Refusal) as refused:
        body()
    assert refused.value.code == "final" and not ran
    with write(team=teams[0], by=admin_user, recall=lambda c: "the first answer") as w:
        assert w.stored == "the first answer"
    with write(competition=competition, by=admin_user, check_final=False) as w:
        assert w.competition.is_final


# What a service must not do by hand: the write does it.
BY_HAND = re.compile(r"\b(lock_team|lock_competition|ensure_not_final)\(|\.bump_standings\(")
CONVERTED = ["judging/services", "competition/services", "championships/services"]


def test_no_service_takes_the_locks_checks_final_or_bumps_the_version_by_hand():
    found = []
    for folder in CONVERTED:
        for path in sorted((ROOT / folder).glob("*.py")):
            name = str(path.relative_to(ROOT))
            for number, line in enumerate(path.read_text().splitlines(), start=1):
                if BY_HAND.search(line):
                    found.append(f"{name}:{number}: {line.strip()}")
    assert found == []
