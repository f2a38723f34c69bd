"""Advancing (docs/contracts.md "A championship of several competitions"): the best of earlier
rounds go on to the final with their names and members, by the sources' final standings; the
refusals' codes; the same advance twice makes nothing twice; the sources never change."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.audit_text import sentence
from competition.models import AuditEntry, Competition, Member, Team
from judging.models import Finish
from scoring.selectors import standings_for
from tests.championships.conftest import heat

pytestmark = pytest.mark.django_db


def advance(api, target, body, **headers):
    return api.post(f"/api/v1/competitions/{target.slug}/advance", body, format="json", **headers)


def names(response):
    return [(e["name"], e["from"]) for e in response.json()["entrants"]]


def board(competition):
    body = standings_for(Competition.objects.get(pk=competition.pk), staff=True)
    return [(r["rank"], r["team"]["name"], r["pieces"]) for r in body["standings"]]


def test_the_best_of_each_heat_go_on_with_their_names_and_members(api_as, admin_user, heats, final):
    a, b = heats
    before = [board(a), board(b)]
    r = advance(api_as(admin_user), final, {"from": ["heat-a", "heat-b"], "best": 2})
    assert r.status_code == 200, r.content
    # In R11 order across the heats: Eva finished first.
    assert names(r) == [("Eva", "heat-b"), ("Anna", "heat-a"), ("Bo", "heat-a"), ("Finn", "heat-b")]
    teams = Team.objects.filter(competition=final).order_by("table")
    assert [(t.name, t.table) for t in teams] == [("Eva", 1), ("Anna", 2), ("Bo", 3), ("Finn", 4)]
    members = Member.objects.filter(team__competition=final).order_by("team__table")
    assert [m.name for m in members] == [
        "Eva Hansen",
        "Anna Hansen",
        "Bo Hansen",
        "Finn Hansen",
    ]
    anna = teams.get(name="Anna")
    assert anna.advanced_from.competition == a and anna.contact_email == "1@heat-a.dk"
    assert not anna.checked_in_at and not Finish.objects.filter(team__competition=final).exists()
    # The sources' results never change.
    assert [board(a), board(b)] == before
    assert Team.objects.filter(competition=a).count() == 4


def test_the_entrants_keep_their_labels_in_the_final(api_as, admin_user, heats, final):
    """A youth of the heats is one in the final: the final's own label ranking holds them."""
    a, b = heats
    Team.objects.filter(competition=a, name="Anna").update(labels=["ung"])
    Team.objects.filter(competition=b, name="Eva").update(labels=["senior", "gæst"])
    r = advance(api_as(admin_user), final, {"from": ["heat-a", "heat-b"], "best": 2})
    assert r.status_code == 200, r.content
    labels = dict(Team.objects.filter(competition=final).values_list("name", "labels"))
    assert labels == {"Anna": ["ung"], "Eva": ["senior", "gæst"], "Bo": [], "Finn": []}
    ung = api_as(admin_user).get(f"/api/v1/competitions/{final.slug}/standings?label=ung")
    assert [row["team"]["name"] for row in ung.json()["standings"]] == ["Anna"]


def test_the_best_overall_and_a_tie_at_the_cut(api_as, admin_user, heats, final):
    api = api_as(admin_user)
    body = {"from": ["heat-a", "heat-b"], "best": 4, "per_source": False}
    r = advance(api, final, body)
    # Cille (heat A) and Finn (heat B): 300 pieces each, no whole puzzle: tied for place 4.
    assert r.status_code == 409
    refusal = r.json()
    assert refusal["code"] == "tie_at_cut"
    assert "2" in refusal["detail"]
    assert [(e["name"], e["from"]) for e in refusal["tied"]] == [
        ("Cille", "heat-a"),
        ("Finn", "heat-b"),
    ]
    assert refusal["ties"][0]["seats"] == 1 and refusal["ties"][0]["from"] is None
    assert not Team.objects.filter(competition=final).exists()
    finn = next(e["id"] for e in refusal["tied"] if e["name"] == "Finn")
    r = advance(api, final, {**body, "choose": [finn]})
    assert r.status_code == 200, r.content
    assert names(r) == [("Eva", "heat-b"), ("Anna", "heat-a"), ("Bo", "heat-a"), ("Finn", "heat-b")]
    entry = AuditEntry.objects.get(competition=final, action="advance")
    assert entry.after["choose"] == [finn] and len(entry.after["tied"]) == 2
    assert "4" in sentence(entry) and "heat-a" in sentence(entry)
    assert AuditEntry.objects.filter(competition=final, action="team_advance").count() == 4


def test_include_tied_takes_the_whole_tie(api_as, admin_user, heats, final):
    body = {"from": ["heat-a", "heat-b"], "best": 4, "per_source": False, "include_tied": True}
    r = advance(api_as(admin_user), final, body)
    assert r.status_code == 200
    assert len(r.json()["entrants"]) == 5


def test_a_choice_outside_the_tie_or_of_the_wrong_size_is_refused(api_as, admin_user, heats, final):
    a, _b = heats
    api = api_as(admin_user)
    body = {"from": ["heat-a", "heat-b"], "best": 4, "per_source": False}
    anna = Team.objects.get(competition=a, name="Anna").pk
    tied = [t.pk for t in Team.objects.filter(name__in=["Cille", "Finn"])]
    for choose, says in (([anna], "Vælg kun blandt"), (tied, "Vælg præcis"), ([], "Vælg præcis")):
        r = advance(api, final, {**body, "choose": choose}, HTTP_ACCEPT_LANGUAGE="da")
        assert r.status_code == 400, choose
        assert r.json()["choose"][0].startswith(says)
    assert not Team.objects.filter(competition=final).exists()


def test_the_disqualified_never_go_on(api_as, admin_user, heats, final):
    r = advance(api_as(admin_user), final, {"from": ["heat-b"], "best": 10})
    assert ("Anna", "heat-b") not in names(r)
    assert len(names(r)) == 3


def test_sources_not_final_are_named(api_as, admin_user, dm, heats, final):
    heat(dm, "heat-c", "Indledende runde C", [("Ib", 100, None, False)], final=False)
    r = advance(api_as(admin_user), final, {"from": ["heat-a", "heat-c"], "best": 2})
    assert r.status_code == 409
    assert r.json()["code"] == "sources_not_final"
    assert r.json()["sources"] == ["heat-c"]
    assert "DM Indledende runde C" in r.json()["detail"]
    assert not Team.objects.filter(competition=final).exists()


def test_a_started_final_takes_no_more_entrants(api_as, admin_user, heats, final):
    Competition.objects.filter(pk=final.pk).update(started_at=timezone.now() - timedelta(minutes=1))
    r = advance(api_as(admin_user), final, {"from": ["heat-a"], "best": 2})
    assert (r.status_code, r.json()["code"]) == (409, "already_started")
    assert not Team.objects.filter(competition=final).exists()


def test_a_final_result_refuses_first(api_as, admin_user, heats):
    a, b = heats
    r = advance(api_as(admin_user), b, {"from": ["heat-a"], "best": 2})
    assert (r.status_code, r.json()["code"]) == (409, "final")


def test_the_same_advance_twice_makes_nothing_twice(api_as, admin_user, heats, final):
    api = api_as(admin_user)
    body = {"from": ["heat-a", "heat-b"], "best": 2}
    first = advance(api, final, body)
    version = Competition.objects.get(pk=final.pk).standings_version
    again = advance(api, final, body)
    assert again.status_code == 200
    assert again.json() == first.json()
    assert Team.objects.filter(competition=final).count() == 4
    assert AuditEntry.objects.filter(competition=final, action="advance").count() == 1
    assert Competition.objects.get(pk=final.pk).standings_version == version
    other = advance(api, final, {**body, "best": 3})
    assert (other.status_code, other.json()["code"]) == (409, "already_advanced")
    assert Team.objects.filter(competition=final).count() == 4


def test_a_name_taken_in_the_final_gets_its_rounds_name(api_as, admin_user, dm, heats, final):
    """Names are unique in a competition: the higher-placed Anna keeps hers."""
    heat(dm, "heat-c", "Indledende runde C", [("Anna", 100, None, False)])
    r = advance(api_as(admin_user), final, {"from": ["heat-a", "heat-c"], "best": 1})
    assert names(r) == [("Anna", "heat-c"), ("Anna (Indledende runde A)", "heat-a")]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"from": [], "best": 2}, "from"),
        ({"from": ["heat-a"], "best": 0}, "best"),
        ({"from": ["nope"], "best": 2}, "from"),
        ({"from": ["heat-a", "heat-a"], "best": 2}, "from"),
        ({"from": ["finale"], "best": 2}, "from"),
    ],
)
def test_a_request_that_could_never_be_right_is_400_with_a_sentence(
    api_as, admin_user, heats, final, body, field
):
    r = advance(api_as(admin_user), final, body)
    assert r.status_code == 400
    assert isinstance(r.json()[field][0], str) and r.json()[field][0]


def test_a_round_of_another_championship_is_refused(api_as, admin_user, heats, final):
    from tests.factories import CompetitionFactory

    CompetitionFactory(slug="andet", name="Et andet mesterskab")
    r = advance(api_as(admin_user), final, {"from": ["andet"], "best": 2})
    assert r.status_code == 400
    assert "Et andet mesterskab" in r.json()["from"][0]


@pytest.mark.parametrize("role", [None, "judge", "desk"])
def test_only_the_head_judge_advances(api_as, make_user, heats, final, role):
    user = make_user(role, f"u-{role}") if role else None
    r = advance(api_as(user), final, {"from": ["heat-a"], "best": 2})
    assert r.status_code in (401, 403)
    assert not Team.objects.filter(competition=final).exists()


def test_erasing_a_heat_erases_the_copies_in_the_rounds_it_went_on_to(
    api_as, admin_user, heats, final
):
    from competition.errors import Refusal
    from competition.services import competition_erase_personal_data

    a, _b = heats
    advance(api_as(admin_user), final, {"from": ["heat-a", "heat-b"], "best": 2})
    with pytest.raises(Refusal) as info:
        competition_erase_personal_data(competition=a, by=admin_user)
    assert info.value.code == "not_final" and "DM Finale" in str(info.value.message)
    assert Member.objects.filter(team__competition=a).count() == 4
    Competition.objects.filter(pk=final.pk).update(
        started_at=timezone.now() - timedelta(hours=4), finalised_at=timezone.now()
    )
    competition_erase_personal_data(competition=a, by=admin_user)
    assert not Member.objects.filter(team__competition__in=[a, final]).exists()
    assert not Team.objects.filter(competition=final).exclude(contact_email="").exists()
    texts = str(list(AuditEntry.objects.filter(competition=final).values("before", "after")))
    assert "Anna Hansen" not in texts and "Eva Hansen" not in texts
    assert [t.name for t in Team.objects.filter(competition=final).order_by("table")] == [
        "Eva",
        "Anna",
        "Bo",
        "Finn",
    ]


@pytest.mark.parametrize("action", ["advance", "team_advance"])
@pytest.mark.parametrize("after", [None, {}, {"members": "[erased]", "table": 3}])
def test_the_advance_sentences_read_in_danish_whatever_is_stored(action, after):
    from django.utils.translation import override

    from competition.audit_text import describe

    with override("da"):
        text = describe(AuditEntry(action=action, before=None, after=after))
    assert "gik videre" in str(text["label"]).lower() or "videre" in text["sentence"]
