"""The change log in Danish sentences, local times, before → after in words.

One test per action type, each made by the real service, read as the head judge reads it."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition import services as cs
from competition.audit_text import ACTION_LABELS, describe, missing_words
from competition.models import AuditEntry
from judging import services as js
from judging.models import Count, Finish, Objection

pytestmark = pytest.mark.django_db
SLUG = "dm-2026"
CODE = re.compile(r"[a-z]+_[a-z_]+|True|False|\[|\]|\{|\d{4}-\d\d-\d\dT")


def last(action: str) -> dict:
    text = describe(AuditEntry.objects.filter(action=action).latest("id"))
    for line in [text["label"], text["sentence"], *text["changes"]]:
        assert not CODE.search(line), line
    return text


@pytest.fixture
def running(competition, teams, start_clock):
    return start_clock(competition, ago=timedelta(minutes=30))


def test_missing_pieces_in_words_r8():
    assert missing_words([]) == "ingen manglende brikker"
    assert missing_words([1]) == "1 enkelt manglende brik trukket fra"
    assert missing_words([1, 1]) == "2 enkelte manglende brikker trukket fra"
    assert missing_words([3]) == (
        "3 sammenhængende manglende brikker: produktionsfejl, intet trukket fra"
    )


def test_finish_register(running, teams, judge):
    js.finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=108, missing=[1])
    assert last("finish_register")["sentence"] == (
        "Dommer mette registrerede puslespil 1 færdigt efter 0:01:48, "
        "1 enkelt manglende brik trukket fra"
    )


def test_finish_correct_before_after_in_words(running, teams, judge, admin_user):
    finish = js.finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=108)
    js.finish_correct(
        finish=finish, by=admin_user, reason="tastefejl", elapsed_seconds=100, missing=[3]
    )
    text = last("finish_correct")
    assert text["sentence"] == "Overdommer overdommer rettede registreringen af puslespil 1"
    assert sorted(text["changes"]) == [
        "Manglende brikker: ingen manglende brikker → "
        "3 sammenhængende manglende brikker: produktionsfejl, intet trukket fra",
        "Tid: 0:01:48 → 0:01:40",
    ]


def test_finish_delete(running, teams, judge, admin_user):
    finish = js.finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=108)
    js.finish_delete(finish=finish, by=admin_user, reason="forkert bord")
    assert last("finish_delete")["sentence"] == (
        "Overdommer overdommer slettede registreringen af puslespil 1 (efter 0:01:48)"
    )


@pytest.fixture
def ended(running, competition, admin_user):
    return cs.clock_stop(competition=competition, by=admin_user)


def test_counts(ended, teams, judge, admin_user):
    count = js.count_record(team=teams[0], pieces=120, by=judge)
    assert last("count_record")["sentence"] == (
        "Dommer mette registrerede optællingen på puslespil 1: 120 lagte brikker"
    )
    js.count_correct(count=count, by=admin_user, reason="talt igen", pieces=130)
    text = last("count_correct")
    assert text["sentence"] == "Overdommer overdommer rettede optællingen på puslespil 1"
    assert text["changes"] == ["Lagte brikker: 120 → 130"]


def test_clock_start_stop_undo_in_local_time(competition, teams, admin_user):
    competition = cs.clock_start(competition=competition, by=admin_user)
    at = timezone.localtime(competition.started_at).strftime("%H:%M:%S")
    assert last("clock_start")["sentence"] == f"Overdommer overdommer startede uret kl. {at}"
    competition = cs.clock_stop(competition=competition, by=admin_user)
    at = timezone.localtime(competition.stopped_at).strftime("%H:%M:%S")
    assert last("clock_stop")["sentence"] == f"Overdommer overdommer stoppede uret kl. {at}"
    cs.clock_stop_undo(competition=competition, by=admin_user)
    assert last("clock_stop_undo")["sentence"] == (
        "Overdommer overdommer fortrød stoppet: uret kører videre"
    )


def test_clock_correct(competition, teams, admin_user):
    competition = cs.clock_start(competition=competition, by=admin_user)
    moved = competition.started_at - timedelta(seconds=30)
    cs.clock_correct(competition=competition, by=admin_user, started_at=moved)
    text = last("clock_correct")
    assert text["sentence"] == "Overdommer overdommer rettede urets starttidspunkt"
    local = timezone.localtime(moved)
    assert text["changes"][0].startswith("Startet: ")
    assert text["changes"][0].endswith(local.strftime("%H:%M:%S"))


def test_desk_actions(competition, teams, desk):
    team = teams[0]
    cs.team_check_in(team=team, by=desk)
    assert last("team_check_in")["sentence"] == "skranke ved skranken tjekkede holdet ind"
    cs.team_check_in_undo(team=team, by=desk)
    assert last("team_check_in_undo")["changes"][0].endswith("→ ikke tjekket ind")
    cs.team_fee_set(team=team, by=desk, paid=True)
    text = last("team_fee_paid")
    assert text["sentence"] == "skranke ved skranken markerede tilmeldingsgebyret som betalt"
    assert text["changes"] == ["Gebyr: ikke betalt → betalt"]
    cs.team_fee_set(team=team, by=desk, paid=False)
    assert last("team_fee_unpaid")["changes"] == ["Gebyr: betalt → ikke betalt"]
    cs.team_withdraw(team=team, by=desk)
    assert last("team_withdraw")["sentence"] == "skranke ved skranken trak holdet"
    assert last("team_withdraw")["changes"] == ["Trukket: nej → ja"]
    cs.team_withdraw_undo(team=team, by=desk)
    assert "fortrød tilbagetrækningen" in last("team_withdraw_undo")["sentence"]


def test_team_create_and_update_members_in_words(competition, desk):
    team = cs.team_create(
        competition=competition,
        by=desk,
        name="Kantsøgerne",
        table=9,
        members=[{"name": "Kim"}, {"name": "Ida", "under_15": True, "guardian": "Kim Lund"}],
    )
    assert last("team_create")["sentence"] == (
        "skranke ved skranken tilmeldte holdet ved bord 9: "
        "Kim, Ida (under 15 år, ledsaget af Kim Lund)"
    )
    cs.team_update(team=team, by=desk, name="Kantsøgerne 2", members=[{"name": "Kim"}])
    text = last("team_update")
    assert text["sentence"] == "skranke ved skranken ændrede holdet"
    assert "Navn: Kantsøgerne → Kantsøgerne 2" in text["changes"]
    assert "Holdmedlemmer: Kim, Ida (under 15 år, ledsaget af Kim Lund) → Kim" in text["changes"]


def test_competition_and_puzzles(competition, admin_user):
    cs.competition_update(competition=competition, by=admin_user, duration_minutes=120)
    text = last("competition_update")
    assert text["sentence"] == "Overdommer overdommer ændrede konkurrencen"
    assert "Varighed: 180 minutter → 120 minutter" in text["changes"]
    cs.puzzle_add(competition=competition, by=admin_user, position=4, title="Fyr", pieces=500)
    text = last("puzzle_add")
    assert text["sentence"] == "Overdommer overdommer ændrede rækkefølgen af puslespil"
    assert text["changes"][0].endswith("4. Fyr (500 brikker)")


def test_warnings_disqualify_reinstate(running, teams, judge, admin_user):
    team = teams[1]
    js.warning_log(team=team, by=judge, reason="støj")
    assert last("warning_log")["sentence"] == "Dommer mette gav holdet en advarsel"
    js.team_disqualify(team=team, by=admin_user, reason="snyd")
    text = last("team_disqualify")
    assert text["sentence"] == "Overdommer overdommer diskvalificerede holdet"
    assert "Diskvalificeret: nej → ja" in text["changes"]
    js.team_reinstate(team=team, by=admin_user, reason="fejl")
    assert "ophævede diskvalifikationen" in last("team_reinstate")["sentence"]


def test_objections_and_finalise(ended, teams, judge, desk, admin_user):
    finish = js.finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=900)
    for t in teams:
        if not Finish.objects.filter(team=t).exists() or not Count.objects.filter(team=t):
            js.count_record(team=t, pieces=50, by=judge)
    objection = js.objection_file(team=teams[0], by=desk, text="Et minut for sent", finish=finish)
    assert last("objection_file")["sentence"] == (
        f"skranke ved skranken indgav indsigelse nr. {objection.pk}: »Et minut for sent«"
    )
    js.objection_resolve(objection=objection, by=admin_user, decision="rejected", note="nej")
    text = last("objection_resolve")
    assert text["sentence"] == f"Overdommer overdommer har afvist indsigelse nr. {objection.pk}"
    assert "Afgørelse: åben → afvist" in text["changes"]
    assert Objection.objects.get().decision == "rejected"
    js.competition_finalise(competition=ended, by=admin_user)
    assert last("competition_finalise")["sentence"] == (
        "Overdommer overdommer gjorde resultaterne endelige"
    )


def test_unknown_action_reads_as_a_change(competition):
    entry = AuditEntry(competition=competition, action="second_count_record", after={"x": 1})
    text = describe(entry)
    assert text["sentence"] == "Systemet foretog en ændring" and text["label"] == "Ændring"


def test_every_action_has_a_danish_label():
    from django.utils.translation import override

    with override("da"):
        for action, label in ACTION_LABELS.items():
            assert str(label) and "_" not in str(label), action


def test_the_log_page_reads_in_sentences(client, admin_user, running, teams, judge):
    js.finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=108, missing=[1])
    cs.team_fee_set(team=teams[0], by=admin_user, paid=True)
    client.force_login(admin_user)
    page = client.get(reverse("control:audit", args=[SLUG])).content.decode()
    assert (
        "Dommer mette registrerede puslespil 1 færdigt efter 0:01:48, "
        "1 enkelt manglende brik trukket fra" in page
    )
    assert "Gebyr: ikke betalt → betalt" in page
    for code in ("finish_register", "fee_paid", "elapsed_seconds", "True", "False", "<code>"):
        assert code not in page.split("<select")[0] + page.split("</form>")[-1], code
    # The filter speaks words too, and still filters by the action.
    assert '<option value="finish_register">Registrering</option>' in page
    page = client.get(reverse("control:audit", args=[SLUG]), {"action": "team_fee_paid"})
    assert "registrerede puslespil 1" not in page.content.decode()


def test_the_objection_page_lists_the_team_changes_in_sentences(
    client, admin_user, running, teams, judge, desk
):
    finish = js.finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=108)
    objection = js.objection_file(team=teams[0], by=desk, text="For sent", finish=finish)
    client.force_login(admin_user)
    url = reverse("control:objection_resolve", args=[SLUG, objection.pk])
    page = client.get(url).content.decode()
    assert "Dommer mette registrerede puslespil 1 færdigt efter 0:01:48" in page
    assert "finish_register" not in page and "objection_file" not in page
