"""Desk pages: roles, the team list (search, filters, query count), check-in, register, cards."""

import re
from datetime import timedelta

import pytest
import segno
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Competition, Discipline, Team
from tests.factories import CompetitionFactory, MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db

SLUG = "dm-2026"


def desk_urls(team_pk: int) -> list[str]:
    return [
        reverse("desk:teams", args=[SLUG]),
        reverse("desk:team_new", args=[SLUG]),
        reverse("desk:team_edit", args=[SLUG, team_pk]),
        reverse("desk:refunds", args=[SLUG]),
        reverse("desk:export", args=[SLUG]),
        reverse("desk:import", args=[SLUG]),
        reverse("desk:import_example", args=[SLUG]),
        reverse("desk:cards", args=[SLUG]),
    ]


def admin_urls() -> list[str]:
    return [reverse("desk:setup", args=[SLUG]), reverse("desk:competition_new")]


def test_anonymous_goes_to_login(client, teams):
    for url in desk_urls(teams[0].pk) + admin_urls():
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url


@pytest.mark.parametrize("role", [None, "judge"])
def test_wrong_role_is_forbidden(client, make_user, teams, role):
    client.force_login(make_user(role, f"u-{role}"))
    for url in desk_urls(teams[0].pk):
        assert client.get(url).status_code == 403, url


def test_desk_sees_desk_pages_but_not_setup(client, desk, teams):
    client.force_login(desk)
    for url in desk_urls(teams[0].pk):
        assert client.get(url).status_code == 200, url
    for url in admin_urls():
        assert client.get(url).status_code == 403, url


def test_admin_sees_everything(client, admin_user, teams):
    client.force_login(admin_user)
    for url in desk_urls(teams[0].pk) + admin_urls():
        assert client.get(url).status_code == 200, url


def test_desk_page_is_danish_with_counts_and_deadline(client, desk, teams):
    Team.objects.filter(pk=teams[0].pk).update(checked_in_at=timezone.now())
    client.force_login(desk)
    html = client.get(reverse("desk:teams", args=[SLUG])).content.decode()
    assert "Tjek ind" in html
    assert "Hold 1" in html and "Hold 3" in html
    assert re.search(r'stat-n num">1</span> <span class="stat-l">tjekket ind', html)
    assert re.search(r'stat-n num">2</span> <span class="stat-l">ikke tjekket ind', html)
    assert 'data-deadline="' in html
    assert "past-deadline" not in html.split("<body", 1)[1].split(">", 1)[0]


def test_after_the_deadline_missing_teams_stand_out(client, desk, teams):
    competition = teams[0].competition
    Competition.objects.filter(pk=competition.pk).update(
        starts_at=timezone.now() + timedelta(minutes=5)
    )
    Team.objects.filter(pk=teams[0].pk).update(checked_in_at=timezone.now())
    client.force_login(desk)
    html = client.get(reverse("desk:teams", args=[SLUG])).content.decode()
    assert 'class="desk past-deadline"' in html
    assert html.count("team-row not-in") == 2
    assert "Fristen er overskredet" in html


def test_search_and_filters(client, desk, teams):
    MemberFactory(team=teams[1], name="Søren Ærbø")
    Team.objects.filter(pk=teams[0].pk).update(checked_in_at=timezone.now(), fee_paid=True)
    Team.objects.filter(pk=teams[2].pk).update(withdrawn=True)
    client.force_login(desk)
    url = reverse("desk:teams", args=[SLUG])

    def names(**params):
        html = client.get(url, params, headers={"HX-Request": "true", "HX-Target": "team-list"})
        return set(re.findall(r'class="team-name"[^>]*>([^<]+)<', html.content.decode()))

    assert names() == {"Hold 1", "Hold 2", "Hold 3"}
    assert names(f="in") == {"Hold 1"}
    assert names(f="missing") == {"Hold 2"}
    assert names(f="unpaid") == {"Hold 2"}
    assert names(f="withdrawn") == {"Hold 3"}
    assert names(q="ærbø") == {"Hold 2"}  # a member's name, Danish letters, any case
    assert names(q="3") == {"Hold 3"}  # a table number


def test_check_in_one_tap_with_htmx_and_undo(client, desk, teams):
    client.force_login(desk)
    team = teams[0]
    url = reverse("desk:check_in", args=[SLUG, team.pk])
    response = client.post(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert f'id="team-{team.pk}"' in html and "Tjekket ind" in html
    assert 'id="desk-counts"' in html and 'hx-swap-oob="true"' in html
    team.refresh_from_db()
    assert team.checked_in_at is not None
    client.post(reverse("desk:check_in_undo", args=[SLUG, team.pk]))
    team.refresh_from_db()
    assert team.checked_in_at is None
    assert client.get(url).status_code == 405  # a GET never writes


def test_fee_toggle_and_refund_list(client, desk, teams):
    client.force_login(desk)
    client.post(reverse("desk:fee", args=[SLUG, teams[1].pk]), {"paid": "1"})
    html = client.get(reverse("desk:refunds", args=[SLUG])).content.decode()
    assert "Hold 2" in html and "Hold 1" not in html
    client.post(reverse("desk:fee", args=[SLUG, teams[1].pk]), {"paid": "0"})
    assert not Team.objects.get(pk=teams[1].pk).fee_paid


def test_withdraw_and_undo_from_the_team_page(client, desk, teams):
    client.force_login(desk)
    client.post(reverse("desk:withdraw", args=[SLUG, teams[0].pk]))
    assert Team.objects.get(pk=teams[0].pk).withdrawn
    client.post(reverse("desk:withdraw_undo", args=[SLUG, teams[0].pk]))
    assert not Team.objects.get(pk=teams[0].pk).withdrawn


def _team_post(**overrides) -> dict:
    data = {
        "name": "Kantsøgerne",
        "table": "7",
        "members-TOTAL_FORMS": "3",
        "members-INITIAL_FORMS": "0",
        "members-MIN_NUM_FORMS": "0",
        "members-MAX_NUM_FORMS": "1000",
        "members-0-name": "Anne Jensen",
        "members-1-name": "Ida Jensen",
        "members-1-under_15": "on",
        "members-1-guardian": "Anne Jensen",
        "members-2-name": "Fjernet",
        "members-2-DELETE": "on",
    }
    data.update(overrides)
    return data


def test_register_shows_photo_notice_and_next_free_table(client, desk, teams):
    client.force_login(desk)
    html = client.get(reverse("desk:team_new", args=[SLUG])).content.decode()
    assert "taget billeder og videooptagelser" in html  # P1
    assert 'name="table" value="4"' in html
    assert "members-__prefix__-name" in html  # the empty row to add in place


def test_register_team_with_members(client, desk, competition):
    client.force_login(desk)
    response = client.post(reverse("desk:team_new", args=[SLUG]), _team_post())
    assert response.status_code == 302
    team = Team.objects.get(name="Kantsøgerne")
    assert [(m.name, m.under_15, m.guardian) for m in team.members.all()] == [
        ("Anne Jensen", False, ""),
        ("Ida Jensen", True, "Anne Jensen"),
    ]


def test_register_under_15_without_adult_shows_the_rule(client, desk, competition):
    client.force_login(desk)
    response = client.post(
        reverse("desk:team_new", args=[SLUG]), _team_post(**{"members-1-guardian": ""})
    )
    assert response.status_code == 200
    assert "ledsagende voksen" in response.content.decode()
    assert not Team.objects.exists()


def test_register_duplicate_name_other_case(client, desk, teams):
    client.force_login(desk)
    response = client.post(reverse("desk:team_new", args=[SLUG]), _team_post(name="HOLD 2"))
    assert response.status_code == 200
    assert "Der findes allerede et hold med dette navn" in response.content.decode()
    assert Team.objects.count() == 3


def test_edit_team_replaces_members(client, desk, teams):
    MemberFactory(team=teams[0], name="Gammel")
    client.force_login(desk)
    url = reverse("desk:team_edit", args=[SLUG, teams[0].pk])
    assert "Gammel" in client.get(url).content.decode()
    response = client.post(
        url,
        _team_post(
            name="Hold 1",
            table="1",
            **{"members-TOTAL_FORMS": "1", "members-0-name": "Ny", "members-1-name": ""},
        ),
    )
    assert response.status_code == 302
    assert list(teams[0].members.values_list("name", flat=True)) == ["Ny"]


def _many_teams(competition, n):
    for i in range(n):
        team = TeamFactory(competition=competition, name=f"Hold nr {i}", table=100 + i)
        MemberFactory(team=team)
        MemberFactory(team=team, under_15=True, guardian="Voksen")


@pytest.mark.parametrize("n", [5, 300])
def test_desk_list_queries_do_not_grow(client, desk, competition, django_assert_max_num_queries, n):
    _many_teams(competition, n)
    client.force_login(desk)
    url = reverse("desk:teams", args=[SLUG])
    with django_assert_max_num_queries(8):
        response = client.get(url)
    assert response.content.decode().count("team-row") >= n


@pytest.mark.parametrize("n", [5, 300])
def test_cards_queries_do_not_grow(client, desk, competition, django_assert_max_num_queries, n):
    _many_teams(competition, n)
    client.force_login(desk)
    with django_assert_max_num_queries(8):
        client.get(reverse("desk:cards", args=[SLUG]))


def test_table_cards_have_names_members_and_qr(client, desk, teams):
    MemberFactory(team=teams[1], name="Søren Sørensen")
    client.force_login(desk)
    response = client.get(reverse("desk:cards", args=[SLUG]), {"team": [teams[1].pk]})
    html = response.content.decode()
    assert "Hold 2" in html and "Søren Sørensen" in html and "Hold 1" not in html
    assert "DM i puslespil 2026" in html
    assert "<svg" in html
    assert "@page" not in html  # print CSS lives in desk.css
    url = f"http://testserver/{SLUG}/teams/{teams[1].pk}/"
    assert url in html
    # The QR code encodes exactly that URL: compare with segno's own drawing of it.
    expected = segno.make(url, error="m").svg_inline(scale=4, border=2, omitsize=True)
    assert expected in html


def test_all_cards_skip_withdrawn_teams(client, desk, teams):
    Team.objects.filter(pk=teams[2].pk).update(withdrawn=True)
    client.force_login(desk)
    html = client.get(reverse("desk:cards", args=[SLUG])).content.decode()
    assert html.count('class="table-card"') == 2
    assert html.count('class="sheet"') == 1


def test_export_csv_for_danish_excel(client, desk, teams):
    MemberFactory(team=teams[0], name="Ida", under_15=True, guardian="Mor")
    client.force_login(desk)
    response = client.get(reverse("desk:export", args=[SLUG]))
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeffbord;hold;")
    assert "1;Hold 1;" in text and ";Ida;x;Mor;" in text


def test_setup_edits_competition_and_sequence(client, admin_user, competition):
    client.force_login(admin_user)
    p1, p2, p3 = competition.puzzles.order_by("position")
    data = {
        "name": "DM 2026",
        "slug": SLUG,
        "venue": "Hallen",
        "starts_at": "2026-11-29T10:00",
        "duration_minutes": "180",
        "max_at_table": "4",
        "puzzles-TOTAL_FORMS": "4",
        "puzzles-INITIAL_FORMS": "3",
        "puzzles-MIN_NUM_FORMS": "0",
        "puzzles-MAX_NUM_FORMS": "1000",
    }
    for i, (p, order) in enumerate(((p1, 2), (p2, 1), (p3, 3))):
        data.update(
            {
                f"puzzles-{i}-id": p.pk,
                f"puzzles-{i}-title": p.title,
                f"puzzles-{i}-pieces": p.pieces,
                f"puzzles-{i}-ORDER": order,
            }
        )
    data.update({"puzzles-2-DELETE": "on", "puzzles-3-pieces": "2000", "puzzles-3-ORDER": "4"})
    response = client.post(reverse("desk:setup", args=[SLUG]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    rows = list(competition.puzzles.order_by("position").values_list("pk", "pieces"))
    assert rows == [(p2.pk, 1000), (p1.pk, 500), (rows[2][0], 2000)]
    competition.refresh_from_db()
    assert competition.name == "DM 2026"
    assert timezone.localtime(competition.starts_at).hour == 10  # Europe/Copenhagen


def test_setup_after_start_is_refused_clearly(client, admin_user, competition):
    Competition.objects.filter(pk=competition.pk).update(started_at=timezone.now())
    client.force_login(admin_user)
    html = client.get(reverse("desk:setup", args=[SLUG])).content.decode()
    assert "Uret er startet" in html
    before = AuditEntry.objects.count()
    data = {
        "name": "Nyt navn",
        "slug": SLUG,
        "venue": "",
        "starts_at": "2026-11-29T10:00",
        "duration_minutes": "60",
        "max_at_table": "4",
    }
    response = client.post(reverse("desk:setup", args=[SLUG]), data)
    assert response.status_code == 302  # disabled fields keep their values; name saved
    competition.refresh_from_db()
    assert competition.duration_minutes == 180 and competition.name == "Nyt navn"
    assert AuditEntry.objects.count() == before + 1


def test_create_competition(client, admin_user):
    client.force_login(admin_user)
    response = client.post(
        reverse("desk:competition_new"),
        {
            "name": "DM i puslespil 2027",
            "slug": "dm-2027",
            "venue": "Hallen",
            "starts_at": "2027-11-28T10:00",
            "duration_minutes": "180",
            "max_at_table": "4",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("desk:setup", args=["dm-2027"])
    response = client.post(
        reverse("desk:competition_new"),
        {
            "name": "X",
            "slug": "desk",
            "starts_at": "2027-11-28T10:00",
            "duration_minutes": "180",
            "max_at_table": "4",
        },
    )
    assert response.status_code == 200
    assert "bruges af programmet selv" in response.content.decode()


def test_an_individuals_table_card_shows_the_name_once(client, desk):
    # An individual entrant is its one puzzler: the entrant's name is the member's name,
    # printed once; a pair's card still lists its two puzzlers under the pair's name.
    individuals = CompetitionFactory(slug="dm-solo", discipline=Discipline.INDIVIDUAL)
    ida = TeamFactory(competition=individuals, name="Ida Jensen", table=1)
    MemberFactory(team=ida, name="Ida Jensen")
    pairs = CompetitionFactory(slug="dm-par", discipline=Discipline.PAIR)
    pair = TeamFactory(competition=pairs, name="Søstrene", table=1)
    MemberFactory(team=pair, name="Ane Lund")
    MemberFactory(team=pair, name="Bo Lund")
    client.force_login(desk)
    card = client.get(reverse("desk:cards", args=["dm-solo"])).content.decode()
    assert card.count("Ida Jensen") == 1
    assert '<h2 class="tc-name">Ida Jensen</h2>' in card
    card = client.get(reverse("desk:cards", args=["dm-par"])).content.decode()
    assert '<h2 class="tc-name">Søstrene</h2>' in card
    assert "<li>Ane Lund</li><li>Bo Lund</li>" in card
