"""The audit log in Danish only, in the discipline's words (issue 33 item 6): no English field
name ("Second pieces") nor action leaks into the Danish log; a competition of individuals says
"tjekkede deltageren ind", of pairs "parret", of teams "holdet" (competition/words/audit.py)."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import translation

from competition import audit_actions
from competition import services as cs
from competition.audit_text import (
    ENTRANT_FIELDS,
    FIELD_LABELS,
    HIDDEN,
    Facts,
    action_label,
    describe,
    field_label,
)
from competition.errors import Refusal
from competition.models import AuditEntry, Discipline
from judging import services as js
from tests.factories import CompetitionFactory, PuzzleFactory

# Written the same in both languages.
SAME_IN_DANISH = {"E-mail", "Note"}

# An entry with every fact a sentence may read, as the services write them.
RICH = {
    "id": 7,
    "puzzle": 2,
    "elapsed_seconds": 3000,
    "missing": [1],
    "pieces": 430,
    "second": 432,
    "table": 5,
    "members": [{"name": "Anna", "under_15": False, "guardian": ""}],
    "labels": ["ung"],
    "from": "heat-a",
    "entrants": [{"id": 1, "name": "Anna", "from": "heat-a"}],
    "name": "Heat B",
    "text": "Vi talte 430",
    "decision": "upheld",
    "started_at": "2026-12-01T09:00:30+00:00",
    "stopped_at": "2026-12-01T11:00:00+00:00",
    "username": "mette",
    "screen_mode": "standings",
    "hold_results": True,
    "reveal_from": 10,
    "reveal_at": 9,
}
# The words a log of each discipline must not use for its entrant (a pair or an individual
# is never "holdet"; "deltager" alone is also the verb: "parret deltager igen").
NOT_ITS_WORD = {
    Discipline.INDIVIDUAL: re.compile(r"\b(hold|holdet|holdets|holdmedlem\w*|parret)\b", re.I),
    Discipline.PAIR: re.compile(
        r"\b(hold|holdet|holdets|holdmedlem\w*|deltager(en|ens|e))\b", re.I
    ),
    Discipline.TEAM: re.compile(r"\b(deltager(en|ens|e)|parret|parrets)\b", re.I),
}


def _in(lang: str, text) -> str:
    with translation.override(lang):
        return str(text)


def test_every_field_and_action_label_has_its_danish_text():
    labels = [*FIELD_LABELS.values(), *(a.label for a in audit_actions.ACTIONS.values())]
    labels.append(audit_actions.CHANGE)
    for label in labels:
        if isinstance(label, str):  # a team's text: its words per discipline, below
            continue
        english = _in("en", label)
        assert english in SAME_IN_DANISH or _in("da", label) != english, english


@pytest.mark.parametrize("discipline", Discipline.values)
def test_every_action_is_said_in_danish_in_the_disciplines_words(discipline):
    for name in audit_actions.ACTIONS:
        before = dict(RICH, pieces=420)
        if name == "competition_delete":  # its count of entrants, not the advance's list
            before["entrants"] = 2
        entry = AuditEntry(action=name, before=before, after=RICH)
        with translation.override("da"):
            text = describe(entry)
            words = [
                action_label(name, discipline),
                audit_actions.ACTIONS[name].sentence(Facts(entry, discipline)),
            ]
        with translation.override("en"):
            english = audit_actions.ACTIONS[name].sentence(Facts(entry, discipline))
        assert words[1] != english, name
        for line in words:
            assert not NOT_ITS_WORD[discipline].search(line), (name, line)
        assert text["changes"], name  # the rich entry changed its pieces
    for key in ENTRANT_FIELDS:
        with translation.override("da"):
            assert not NOT_ITS_WORD[discipline].search(field_label(key, discipline))


@pytest.mark.django_db
def test_every_field_the_services_change_is_named_in_danish(
    competition, teams, judge, desk, admin_user, make_user, start_clock
):
    """A day through the services that write a before and an after: each field that changed
    reads as a Danish word in the log, never its code name ("Second pieces")."""
    team = teams[0]
    cs.team_update(team=team, by=desk, name="Kantsøgerne 2", members=[{"name": "Kim"}])
    cs.team_fee_set(team=team, by=desk, paid=True)
    cs.team_check_in(team=team, by=desk)
    cs.team_check_in_undo(team=team, by=desk)
    cs.team_labels_set(team=team, by=desk, labels=["ung"])
    cs.team_labels_set(team=team, by=desk, labels=["senior"])
    cs.team_withdraw(team=teams[2], by=desk)
    cs.team_withdraw_undo(team=teams[2], by=desk)
    cs.competition_update(competition=competition, by=admin_user, duration_minutes=120)
    cs.competition_ranking_set(competition=competition, by=admin_user, ranking="wjpc")
    cs.puzzle_add(competition=competition, by=admin_user, position=4, title="Fyr", pieces=500)
    competition = start_clock(competition, ago=timedelta(minutes=100))
    finish = js.finish_register(team=team, position=1, by=judge, elapsed_seconds=108)
    js.finish_correct(finish=finish, by=admin_user, reason="tastefejl", elapsed_seconds=100)
    js.warning_log(team=teams[1], by=judge, reason="støj")
    js.team_disqualify(team=teams[1], by=admin_user, reason="snyd")
    js.team_reinstate(team=teams[1], by=admin_user, reason="fejl")
    competition = cs.clock_stop(competition=competition, by=admin_user)
    cs.clock_stop_undo(competition=competition, by=admin_user)
    competition = cs.clock_stop(competition=competition, by=admin_user)
    other = make_user("judge", "lise")
    counts = [js.count_record(team=t, pieces=120, by=judge) for t in teams]
    js.count_confirm(count=counts[0], by=other, pieces=120)  # agrees
    with pytest.raises(Refusal, match="forskellige"):
        js.count_confirm(count=counts[1], by=other, pieces=125)  # differs
    js.count_correct(count=counts[1], by=admin_user, reason="talt igen", pieces=125)  # settles
    js.count_confirm(count=counts[2], by=other, pieces=120)
    objection = js.objection_file(team=team, by=desk, text="For sent", finish=finish)
    js.objection_resolve(objection=objection, by=admin_user, decision="rejected", note="nej")
    competition = js.competition_finalise(competition=competition, by=admin_user)
    cs.screen_hold(competition=competition, by=admin_user, hold=True)
    cs.screen_set(competition=competition, by=admin_user, mode="message", message="Pause")
    cs.reveal_start(competition=competition, by=admin_user, from_place=3)
    cs.reveal_next(competition=competition, by=admin_user, places=[1, 2, 3])

    named = {*FIELD_LABELS, *ENTRANT_FIELDS, *HIDDEN}
    seen = set()
    entries = AuditEntry.objects.select_related("competition", "user")
    for entry in entries:
        before, after = entry.before or {}, entry.after or {}
        changed = {k for k in before.keys() & after.keys() if before[k] != after[k]}
        seen |= changed
        assert changed <= named, (entry.action, changed - named)
        with translation.override("da"):
            text = describe(entry)
        for line in [text["label"], text["sentence"], *text["changes"]]:
            assert "_" not in line and "None" not in line, (entry.action, line)
    assert {"second_pieces", "confirmed", "screen_mode", "hold_results", "reveal_at"} <= seen
    assert len({e.action for e in entries}) >= 25


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("discipline", "checked_in", "registered", "members"),
    [
        (Discipline.INDIVIDUAL, "tjekkede deltageren ind", "Deltager tilmeldt", "Pusler"),
        (Discipline.PAIR, "tjekkede parret ind", "Par tilmeldt", "Puslere"),
        (Discipline.TEAM, "tjekkede holdet ind", "Hold tilmeldt", "Holdmedlemmer"),
    ],
)
def test_the_log_page_and_csv_speak_the_disciplines_words(
    client, admin_user, desk, discipline, checked_in, registered, members
):
    c = CompetitionFactory(slug=f"dm-{discipline}", discipline=discipline)
    PuzzleFactory(competition=c, position=1, pieces=500)
    entrant = cs.team_create(
        competition=c, by=desk, name="Ida Jensen", table=3, members=[{"name": "Ida Jensen"}]
    )
    cs.team_check_in(team=entrant, by=desk)
    cs.team_update(team=entrant, by=desk, members=[{"name": "Ida M. Jensen"}])
    client.force_login(admin_user)
    page = client.get(reverse("control:audit", args=[c.slug])).content.decode()
    assert f"skranke ved skranken {checked_in}" in page
    assert f">{registered}</option>" in page
    assert f"{members}: Ida Jensen → Ida M. Jensen" in page
    sheet = client.get(reverse("control:audit_csv", args=[c.slug])).content.decode("utf-8-sig")
    assert checked_in in sheet and registered in sheet
    team_page = client.get(reverse("control:team", args=[c.slug, entrant.pk])).content.decode()
    assert checked_in in team_page


@pytest.mark.django_db
def test_a_deleted_competitions_entry_counts_its_own_entrants(admin_user):
    # A championship's log keeps the deletion of its pairs competition in the others' logs:
    # "med 2 par", in the words of the deleted one, not of the log's own competition.
    entry = AuditEntry(
        competition=CompetitionFactory(discipline=Discipline.INDIVIDUAL),
        user=admin_user,
        action="competition_delete",
        before={"name": "Par", "discipline": Discipline.PAIR, "entrants": 2},
    )
    with translation.override("da"):
        assert describe(entry)["sentence"].endswith("i mesterskabet, med 2 par")
