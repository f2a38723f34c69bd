"""The control room says of a count only what finalise agrees with (issue 33 item 5): never
"✓" nor "0 optællinger mangler" while a count waits for its second, blind count or the two
counts differ; one rule (judging/count_state.py) for the room, the team page and finalise."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from judging.count_state import CountState, count_states
from judging.models import Count, Tablet
from judging.selectors import finalise_blockers
from tests.factories import CompetitionFactory, PuzzleFactory, TeamFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ended(judge):
    """Time is up for a competition of one 2000-piece puzzle with the second count on, and
    five teams: no count, a count waiting for its second count, two counts that differ, a
    confirmed count, and one withdrawn."""
    competition = CompetitionFactory(
        slug="dm-count", second_count=True, started_at=timezone.now() - timedelta(hours=5)
    )
    puzzle = PuzzleFactory(competition=competition, position=1, pieces=2000)
    names = ["Ingen", "Venter", "Forskel", "Bekræftet", "Trukket"]
    teams = [TeamFactory(competition=competition, name=n, table=i + 1) for i, n in enumerate(names)]
    teams[4].withdrawn = True
    teams[4].save()
    now = timezone.now()
    Count.objects.create(team=teams[1], puzzle=puzzle, pieces=1500, registered_by=judge)
    Count.objects.create(
        team=teams[2], puzzle=puzzle, pieces=1234, second_pieces=1236, registered_by=judge
    )
    Count.objects.create(team=teams[3], puzzle=puzzle, pieces=1800, confirmed_at=now)
    return competition, teams


def _room(client, admin_user, competition):
    client.force_login(admin_user)
    return client.get(reverse("control:room", args=[competition.slug]))


def _count_cell(html: str, table: int) -> str:
    row = re.search(rf'<tr class="[^"]*">\s*<td class="num">{table}</td>(.*?)</tr>', html, re.S)
    assert row, f"no row for table {table}"
    cell = re.search(r'<td data-count-state="[a-z]+">(.*?)</td>', row.group(1), re.S)
    return re.sub(r"<[^>]+>", "", cell.group(1)).strip()


def test_each_count_state_in_words(client, admin_user, ended):
    competition, _teams = ended
    html = _room(client, admin_user, competition).content.decode()
    assert _count_cell(html, 1) == "mangler"
    assert _count_cell(html, 2) == "venter på kontroloptælling"
    assert _count_cell(html, 3) == "optællingerne er forskellige: 1.234 / 1.236"
    assert _count_cell(html, 4) == "1.800 ✓"
    assert _count_cell(html, 5) == "—"  # withdrawn: nothing to count
    # "✓" only where the count is done
    assert html.count("✓") == 1


def test_waiting_and_differing_counts_are_among_what_is_missing(client, admin_user, ended):
    competition, teams = ended
    response = _room(client, admin_user, competition)
    glance = response.context["glance"]
    assert [t.name for t in glance["counts_missing"]] == ["Ingen", "Venter", "Forskel"]
    html = response.content.decode()
    stat = re.search(
        r'<div class="stat-n num">(\d+)</div><div class="stat-l">optællinger mangler', html
    )
    assert stat and stat.group(1) == "3"
    line = re.sub(
        r"<[^>]+>", "", re.search(r'<p class="card counts-missing">(.*?)</p>', html, re.S).group(1)
    )
    assert "bord 2 Venter (venter på kontroloptælling)" in line
    assert "bord 3 Forskel (optællingerne er forskellige: 1.234 / 1.236)" in line
    assert "Bekræftet" not in line


def test_the_room_agrees_with_finalise(client, admin_user, ended):
    """The teams the room counts as missing are exactly those finalise refuses for."""
    competition, _teams = ended
    glance = _room(client, admin_user, competition).context["glance"]
    blockers = {b.code: b for b in finalise_blockers(competition, timezone.now())}
    refused = blockers["counts_missing"].teams + blockers["counts_unconfirmed"].teams
    assert sorted(t.pk for t in glance["counts_missing"]) == sorted(t.pk for t in refused)


def test_no_zero_missing_while_only_the_difference_is_left(client, admin_user, ended):
    competition, teams = ended
    Count.objects.filter(team=teams[1]).update(confirmed_at=timezone.now())
    Count.objects.create(team=teams[0], puzzle=competition.puzzles.get(), pieces=900)
    Count.objects.filter(team=teams[0]).update(confirmed_at=timezone.now())
    html = _room(client, admin_user, competition).content.decode()
    assert '0</div><div class="stat-l">optællinger mangler' not in html
    assert '1</div><div class="stat-l">optællinger mangler' in html
    assert _count_cell(html, 3) == "optællingerne er forskellige: 1.234 / 1.236"
    # settled by the head judge: nothing is missing, and the room says so
    Count.objects.filter(team=teams[2]).update(confirmed_at=timezone.now(), second_pieces=None)
    html = _room(client, admin_user, competition).content.decode()
    assert '0</div><div class="stat-l">optællinger mangler' in html
    assert _count_cell(html, 3) == "1.234 ✓"
    assert not [b for b in finalise_blockers(competition, timezone.now()) if "count" in b.code]


def test_without_the_second_count_a_count_is_done(client, admin_user, ended):
    competition, _teams = ended
    competition.second_count = False
    competition.save()
    html = _room(client, admin_user, competition).content.decode()
    assert _count_cell(html, 2) == "1.500 ✓"
    assert _count_cell(html, 3) == "1.234 ✓"
    assert '1</div><div class="stat-l">optællinger mangler' in html


def test_the_team_page_says_the_same(client, admin_user, ended):
    competition, teams = ended
    client.force_login(admin_user)

    def page(team):
        url = reverse("control:team", args=[competition.slug, team.pk])
        return re.sub(r"\s+", " ", client.get(url).content.decode())

    assert "venter på kontroloptælling" in page(teams[1])
    assert "✓ bekræftet" not in page(teams[1])
    assert "Optællingerne er forskellige: 1234 og 1236 brikker" in page(teams[2])
    assert "✓ bekræftet" not in page(teams[2])
    assert "✓ bekræftet" in page(teams[3])


def test_count_states_in_two_queries(ended, django_assert_num_queries):
    competition, _teams = ended
    with django_assert_num_queries(2):
        states = [t.count_state for t in count_states(competition)]
    assert states == [
        CountState.MISSING,
        CountState.WAITING,
        CountState.DIFFERS,
        CountState.DONE,
        CountState.NONE,
    ]


INVALID = "<<INVALID %s>>"


def test_a_deleted_counting_judge_is_named_as_deleted_in_the_objections_panel(
    client, admin_user, ended, judge, settings
):
    # The judge who counted is deleted (a login removed after the day): the panel still
    # reads, and says who counted in words, never an empty name nor a failed lookup.
    settings.TEMPLATES = [{**settings.TEMPLATES[0]}]
    settings.TEMPLATES[0]["OPTIONS"] = {**settings.TEMPLATES[0]["OPTIONS"]}
    settings.TEMPLATES[0]["OPTIONS"]["string_if_invalid"] = INVALID
    competition, _teams = ended
    Tablet.objects.create(
        competition=competition, device_id="t1", user=judge, waiting=2, last_seen_at=timezone.now()
    )
    judge.delete()
    html = _room(client, admin_user, competition).content.decode()
    panel = html[html.index('id="objections-panel"') :]
    assert "INVALID" not in panel
    assert "Første optælling ved en slettet dommer." in panel
    assert "en slettet dommer: 2 venter" in panel
    client.cookies["django_language"] = "en"
    html = _room(client, admin_user, competition).content.decode()
    assert "First count by a deleted judge." in html
