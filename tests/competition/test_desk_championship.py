"""`/desk/<championship-slug>/`: the desk checks in across a championship (docs/contracts.md "A
championship of several competitions"). Every entrant of every competition on one list, each
row naming its competition, found by a name or a table as on a competition's desk; check-in
and its undo through the same services (the audit entry, the lock, the refusal when final);
desk and admin roles; queries per page do not grow with the entrants. A competition's own
desk answers as before."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Championship, Competition, Team
from competition.services import championship_create, competition_create
from tests.factories import MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "team-1"}


def entrant(competition, name, table, **fields):
    team = TeamFactory(competition=competition, name=name, table=table, **fields)
    MemberFactory(team=team, name=f"{name} Medlem")
    return team


@pytest.fixture
def dm(db):
    """DM 2027: heat A of individuals tomorrow (tables 1-2), the pairs today in an hour
    (tables 1-2 as well: another time of the day), the final with nobody yet."""
    dm = championship_create(by=None, slug="dm-2027", name="DM i puslespil 2027", venue="Odense")
    soon = timezone.now() + timedelta(hours=1)
    heat = competition_create(
        by=None,
        slug="heat-a",
        name="DM Individuel",
        round="Indledende runde A",
        discipline="individual",
        championship=dm,
        starts_at=soon + timedelta(days=1),
    )
    pairs = competition_create(
        by=None, slug="par", name="DM Par", discipline="pair", championship=dm, starts_at=soon
    )
    competition_create(
        by=None,
        slug="finale",
        name="DM Finale",
        round="Finale",
        discipline="individual",
        championship=dm,
        starts_at=soon + timedelta(days=2),
    )
    anna = entrant(heat, "Anna Andersen", 1)
    bo = entrant(heat, "Bo Bech", 2, fee_paid=True)
    duo = entrant(pairs, "Brik & Bræt", 1)
    kant = entrant(pairs, "Kant og Hjørne", 2, checked_in_at=timezone.now())
    return dm, heat, pairs, {"anna": anna, "bo": bo, "duo": duo, "kant": kant}


def page(client, slug="dm-2027", **query):
    response = client.get(reverse("desk:teams", args=[slug]), query)
    return response, response.content.decode()


def row(html, team):
    """The entrant's row: up to the next row, or the end of the answer."""
    start = html.index(f'id="team-{team.pk}"')
    end = html.find('<li id="team-', start)
    return html[start : end if end > 0 else len(html)]


def test_every_entrant_of_every_competition_each_row_naming_its_competition(client, desk, dm):
    championship, heat, pairs, t = dm
    client.force_login(desk)
    response, html = page(client)
    assert response.status_code == 200
    assert "competition/desk_championship.html" in [x.name for x in response.templates]
    assert "DM i puslespil 2027" in html
    # By the programme's order (the pairs start first), then by table.
    order = [html.index(f'id="team-{t[k].pk}"') for k in ("duo", "kant", "anna", "bo")]
    assert order == sorted(order)
    anna = row(html, t["anna"])
    assert "DM Individuel" in anna and "Indledende runde A" in anna and "Individuel" in anna
    assert f'href="{reverse("desk:teams", args=[heat.slug])}"' in anna
    assert "Anna Andersen Medlem" in anna and "ikke betalt" in anna
    assert f'hx-post="{reverse("desk:check_in", args=["dm-2027", t["anna"].pk])}"' in anna
    kant = row(html, t["kant"])
    assert "DM Par" in kant and "Tjekket ind" in kant
    assert f'hx-post="{reverse("desk:check_in_undo", args=["dm-2027", t["kant"].pk])}"' in kant
    # Each competition's check-in at a glance, the final with nobody.
    counts = html[html.index('id="desk-counts"') : html.index("</table>")]
    assert 'data-competition="par"' in counts and 'data-competition="finale"' in counts
    par = counts[counts.index('data-competition="par"') :]
    assert "1 / 2" in par[: par.index("</tr>")]


@pytest.mark.parametrize(
    ("q", "found"),
    [("1", ["duo", "anna"]), ("bræt", ["duo"]), ("bech medlem", ["bo"]), ("ANNA", ["anna"])],
)
def test_search_by_name_member_or_table_across_the_competitions(client, desk, dm, q, found):
    _championship, _heat, _pairs, t = dm
    client.force_login(desk)
    _response, html = page(client, q=q)
    shown = [k for k in t if f'id="team-{t[k].pk}"' in html]
    assert sorted(shown) == sorted(found)
    fragment = client.get(
        reverse("desk:teams", args=["dm-2027"]),
        {"q": q},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="team-list",
    ).content.decode()
    assert "<html" not in fragment and 'id="desk-filters"' in fragment
    assert sorted(k for k in t if f'id="team-{t[k].pk}"' in fragment) == sorted(found)


def test_the_filters_show_who_is_not_checked_in(client, desk, dm):
    _championship, _heat, _pairs, t = dm
    client.force_login(desk)
    _response, html = page(client, f="missing")
    assert sorted(k for k in t if f'id="team-{t[k].pk}"' in html) == ["anna", "bo", "duo"]
    _response, html = page(client, f="in")
    assert [k for k in t if f'id="team-{t[k].pk}"' in html] == ["kant"]


def test_check_in_and_undo_across_the_championship_through_the_service(client, desk, dm):
    championship, heat, _pairs, t = dm
    client.force_login(desk)
    url = reverse("desk:check_in", args=[championship.slug, t["anna"].pk])
    response = client.post(url, **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    anna = Team.objects.get(pk=t["anna"].pk)
    assert anna.checked_in_at is not None
    entry = AuditEntry.objects.get(team=anna, action="team_check_in")
    assert entry.competition_id == heat.pk and entry.user == desk
    # The row names its competition; the counts and what was done come out of band.
    assert "Tjekket ind" in row(html, anna) and "DM Individuel" in row(html, anna)
    assert 'id="desk-counts"' in html and 'hx-swap-oob="true"' in html
    counts = html[html.index('id="desk-counts"') :]
    counts = counts[counts.index('data-competition="heat-a"') :]
    assert "1 / 2" in counts[: counts.index("</tr>")]
    assert "Bord 1 »Anna Andersen« er tjekket ind kl." in html
    # A second tap writes nothing new.
    client.post(url, **HTMX)
    assert AuditEntry.objects.filter(team=anna, action="team_check_in").count() == 1
    undo = client.post(reverse("desk:check_in_undo", args=[championship.slug, anna.pk]), **HTMX)
    assert undo.status_code == 200
    assert Team.objects.get(pk=anna.pk).checked_in_at is None
    assert AuditEntry.objects.filter(team=anna, action="team_check_in_undo").count() == 1
    assert "Tjek ind" in row(undo.content.decode(), anna)


def test_without_htmx_the_tap_goes_back_to_the_list_with_what_was_done(client, desk, dm):
    championship, _heat, _pairs, t = dm
    client.force_login(desk)
    response = client.post(reverse("desk:check_in", args=[championship.slug, t["duo"].pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("desk:teams", args=[championship.slug])
    assert Team.objects.get(pk=t["duo"].pk).checked_in_at is not None
    html = client.get(response["Location"]).content.decode()
    assert "Bord 1 »Brik &amp; Bræt« er tjekket ind kl." in html


def test_an_entrant_of_another_championship_is_404_and_nothing_is_written(client, desk, dm):
    championship, _heat, _pairs, _t = dm
    other = competition_create(
        by=None, slug="andet", name="Andet", starts_at=timezone.now() + timedelta(days=1)
    )
    stranger = entrant(other, "Fremmed", 1)
    client.force_login(desk)
    for name in ("desk:check_in", "desk:check_in_undo"):
        response = client.post(reverse(name, args=[championship.slug, stranger.pk]), **HTMX)
        assert response.status_code == 404
    assert Team.objects.get(pk=stranger.pk).checked_in_at is None
    assert not AuditEntry.objects.filter(team=stranger).exists()
    # GET is not a tap; no championship, no competition: 404.
    assert client.get(reverse("desk:check_in", args=[championship.slug, 1])).status_code == 405
    assert client.get(reverse("desk:teams", args=["findes-ikke"])).status_code == 404


def test_a_refusal_is_said_on_the_status_line_and_writes_nothing(client, desk, dm, admin_user):
    championship, heat, _pairs, t = dm
    Competition.objects.filter(pk=heat.pk).update(
        started_at=timezone.now() - timedelta(hours=4), finalised_at=timezone.now()
    )
    client.force_login(desk)
    response = client.post(reverse("desk:check_in", args=[championship.slug, t["bo"].pk]), **HTMX)
    assert response.status_code == 200
    html = response.content.decode()
    assert "desk-status-refused" in html and "endelige" in html
    assert "Tjek ind" in row(html, t["bo"])
    assert Team.objects.get(pk=t["bo"].pk).checked_in_at is None
    assert not AuditEntry.objects.filter(team=t["bo"]).exists()


def test_roles_desk_and_admin_only(client, make_user, dm):
    championship, _heat, _pairs, t = dm
    url = reverse("desk:teams", args=[championship.slug])
    tap = reverse("desk:check_in", args=[championship.slug, t["anna"].pk])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert client.post(tap).status_code == 302
    for role in (None, "judge"):
        client.force_login(make_user(role, f"u-{role}"))
        assert client.get(url).status_code == 403
        assert client.post(tap).status_code == 403
    assert Team.objects.get(pk=t["anna"].pk).checked_in_at is None
    client.force_login(make_user("admin", "chef"))
    _response, html = page(client)
    assert f'href="{reverse("control:room", args=[championship.slug])}"' in html


def test_past_a_competitions_deadline_its_missing_entrants_stand_out(client, desk, dm):
    championship, _heat, pairs, t = dm
    Competition.objects.filter(pk=pairs.pk).update(starts_at=timezone.now() + timedelta(minutes=5))
    Team.objects.filter(pk=t["duo"].pk).update(contact_phone="+45 12 34 56 78")
    client.force_login(desk)
    _response, html = page(client)
    assert "is-past-deadline" in row(html, t["duo"]) and "12345678" in row(html, t["duo"])
    assert "is-past-deadline" not in row(html, t["anna"])  # the heat is tomorrow
    counts = html[html.index('data-competition="par"') :]
    assert "has-missing" in html[html.index('id="desk-counts"') :][:2000]
    assert "overskredet" in counts[: counts.index("</tr>")]


def test_a_competitions_own_desk_answers_as_before(client, desk, dm):
    _championship, heat, _pairs, t = dm
    client.force_login(desk)
    response, html = page(client, heat.slug)
    assert "competition/desk_teams.html" in [x.name for x in response.templates]
    assert f'id="team-{t["anna"].pk}"' in html and f'id="team-{t["duo"].pk}"' not in html
    tap = client.post(reverse("desk:check_in", args=[heat.slug, t["anna"].pk]), **HTMX)
    assert "competition/_desk_row_answer.html" in [x.name for x in tap.templates]
    # The competition's desk refuses another competition's entrant, as it did.
    other = client.post(reverse("desk:check_in", args=[heat.slug, t["duo"].pk]), **HTMX)
    assert other.status_code == 404


@pytest.mark.parametrize("n_teams", [2, 30])
def test_queries_per_page_do_not_grow_with_the_entrants(
    client, desk, django_assert_max_num_queries, n_teams
):
    dm = Championship.objects.create(slug="mange", name="Mange")
    for i in range(3):
        competition = competition_create(
            by=None,
            slug=f"m-{i}",
            name=f"Runde {i}",
            championship=dm,
            starts_at=timezone.now() + timedelta(days=1, hours=i),
        )
        for table in range(1, n_teams + 1):
            entrant(competition, f"Deltager {i}-{table}", table)
    client.force_login(desk)
    # Session, user, roles; the competition that has not the slug, the championship that
    # has; its competitions; the entrants and their members.
    with django_assert_max_num_queries(8):
        response = client.get(reverse("desk:teams", args=["mange"]))
    assert response.content.decode().count('class="team-row entrant-row') == 3 * n_teams
    team = Team.objects.filter(competition__championship=dm).first()
    # The service's own (its lock, the write, the audit entry), then the row, the counts.
    with django_assert_max_num_queries(20):
        tap = client.post(reverse("desk:check_in", args=["mange", team.pk]), **HTMX)
    assert tap.status_code == 200
