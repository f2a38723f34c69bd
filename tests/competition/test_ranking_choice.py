"""A competition's ranking profile (issue 34 item 2): `dm` (the Danish rules, the default) or
`wjpc` (the World rules), chosen on the new-competition and setup pages and in the API, locked
once the clock has started (409 `started`, with a sentence), audited."""

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.audit_text import describe
from competition.models import AuditEntry, Competition
from puzzle_rules import rules

pytestmark = pytest.mark.django_db
BASE = "/api/v1/competitions/"
SLUG = "dm-2026"
STARTED = "Uret er startet; rangeringen kan ikke længere ændres."
NEW = {
    "slug": "uk-2027",
    "name": "UK Nationals 2027",
    "starts_at": "2027-11-28T10:00:00+01:00",
    "duration_minutes": 180,
}


def test_the_pure_check_refuses_a_change_once_started():
    rules.check_ranking_change(started=False)
    with pytest.raises(rules.RuleViolation) as caught:
        rules.check_ranking_change(started=True)
    assert caught.value.code == "started"


def test_post_takes_the_ranking_and_dm_is_the_default(api_as, admin_user):
    api = api_as(admin_user)
    body = api.post(BASE, {**NEW, "ranking": "wjpc"}, format="json").json()
    assert body["ranking"] == "wjpc"
    assert Competition.objects.get(slug="uk-2027").ranking == "wjpc"
    body = api.post(BASE, {**NEW, "slug": "dm-2027"}, format="json").json()
    assert body["ranking"] == "dm"
    response = api.post(BASE, {**NEW, "slug": "x-2027", "ranking": "uk"}, format="json")
    assert response.status_code == 400 and "ranking" in response.json()
    assert not Competition.objects.filter(slug="x-2027").exists()
    assert api_as(None).get(BASE + "uk-2027/").json()["ranking"] == "wjpc"


def test_patch_changes_the_ranking_audited_and_the_standings_follow(
    api_as, admin_user, competition
):
    version = competition.standings_version
    response = api_as(admin_user).patch(BASE + f"{SLUG}/", {"ranking": "wjpc"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["ranking"] == "wjpc"
    competition.refresh_from_db()
    assert competition.ranking == "wjpc"
    assert competition.standings_version > version  # no page keeps the old order cached
    entry = AuditEntry.objects.get(competition=competition, action="competition_ranking")
    assert entry.before == {"ranking": "dm"} and entry.after == {"ranking": "wjpc"}
    words = describe(entry)
    assert words["label"] == "Rangering ændret"
    assert words["sentence"] == (
        "Overdommer overdommer ændrede rangeringen til Verdensmesterskabets regler (WJPC)"
    )
    assert words["changes"] == [
        "Rangering: Danske regler (DM) → Verdensmesterskabets regler (WJPC)"
    ]
    # the same value again writes nothing
    api_as(admin_user).patch(BASE + f"{SLUG}/", {"ranking": "wjpc"}, format="json")
    assert AuditEntry.objects.filter(action="competition_ranking").count() == 1


@pytest.mark.parametrize("role", [None, "judge", "desk"])
def test_only_an_admin_patches(api_as, make_user, competition, role):
    user = make_user(role, f"u-{role}") if role else None
    response = api_as(user).patch(BASE + f"{SLUG}/", {"ranking": "wjpc"}, format="json")
    assert response.status_code == 403
    competition.refresh_from_db()
    assert competition.ranking == "dm"


def test_patch_after_the_start_is_409_started_with_a_sentence(
    api_as, admin_user, competition, start_clock, state
):
    from datetime import timedelta

    start_clock(competition, ago=timedelta(minutes=5))
    before = state()
    response = api_as(admin_user).patch(BASE + f"{SLUG}/", {"ranking": "wjpc"}, format="json")
    assert response.status_code == 409
    assert response.json() == {"detail": STARTED, "code": "started"}
    assert state() == before
    bad = api_as(admin_user).patch(BASE + f"{SLUG}/", {"ranking": "bold"}, format="json")
    assert bad.status_code == 400 and "ranking" in bad.json()


def test_patch_of_a_final_competition_is_409_final(api_as, admin_user, competition):
    now = timezone.now()
    Competition.objects.filter(pk=competition.pk).update(started_at=now, finalised_at=now)
    response = api_as(admin_user).patch(BASE + f"{SLUG}/", {"ranking": "wjpc"}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "final"


def test_an_unknown_competition_is_404(api_as, admin_user, db):
    response = api_as(admin_user).patch(BASE + "ingen/", {"ranking": "wjpc"}, format="json")
    assert response.status_code == 404


# --- the pages -------------------------------------------------------------------------------
def _setup_post(**extra) -> dict:
    return {
        "name": "DM 2026",
        "slug": SLUG,
        "venue": "Hallen",
        "starts_at": "2026-11-29T10:00",
        "duration_minutes": "180",
        "max_at_table": "4",
        "puzzles-TOTAL_FORMS": "0",
        "puzzles-INITIAL_FORMS": "0",
        **extra,
    }


def test_the_new_competition_page_chooses_the_ranking(client, admin_user):
    client.force_login(admin_user)
    html = client.get(reverse("desk:competition_new")).content.decode()
    assert "Rangering" in html and "Verdensmesterskabets regler (WJPC)" in html
    assert 'value="dm" selected' in html
    response = client.post(
        reverse("desk:competition_new"),
        {
            "name": "WJPC-runde",
            "slug": "wjpc-runde",
            "starts_at": "2027-11-28T10:00",
            "duration_minutes": "180",
            "max_at_table": "4",
            "ranking": "wjpc",
        },
    )
    assert response.status_code == 302
    assert Competition.objects.get(slug="wjpc-runde").ranking == "wjpc"


def test_the_setup_page_changes_the_ranking(client, admin_user, competition):
    client.force_login(admin_user)
    response = client.post(reverse("desk:setup", args=[SLUG]), _setup_post(ranking="wjpc"))
    assert response.status_code == 302, response.content.decode()[:2000]
    competition.refresh_from_db()
    assert competition.ranking == "wjpc" and competition.name == "DM 2026"
    html = client.get(reverse("desk:setup", args=[SLUG])).content.decode()
    assert 'value="wjpc" selected' in html
    assert AuditEntry.objects.filter(action="competition_ranking").count() == 1


def test_the_setup_page_refuses_a_change_after_the_start(client, admin_user, competition):
    Competition.objects.filter(pk=competition.pk).update(started_at=timezone.now())
    client.force_login(admin_user)
    html = client.get(reverse("desk:setup", args=[SLUG])).content.decode()
    assert 'name="ranking"' in html and "disabled" in html.split('name="ranking"')[1][:80]
    before = AuditEntry.objects.count()
    # a page opened before the start, sent after it: refused with the sentence, nothing saved
    response = client.post(
        reverse("desk:setup", args=[SLUG]), _setup_post(name="Nyt navn", ranking="wjpc")
    )
    assert response.status_code == 200
    assert STARTED in response.content.decode()
    competition.refresh_from_db()
    assert competition.ranking == "dm" and competition.name != "Nyt navn"
    assert AuditEntry.objects.count() == before
    # the disabled select sends nothing: the name is saved, the ranking stays
    response = client.post(reverse("desk:setup", args=[SLUG]), _setup_post(name="Nyt navn"))
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.ranking == "dm" and competition.name == "Nyt navn"


def test_the_choices_are_the_pure_rules_profiles():
    from competition.models import Ranking

    assert tuple(Ranking.values) == rules.PROFILES
