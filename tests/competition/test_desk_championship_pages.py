"""The desk across a championship does what a competition's desk does (issue 33, "The
championship's desk and judges"): a walk-in asks which competition (those not final) and is
registered there, the fee toggled on any row, the paid fees and "Mangler" across the
competitions, every competition's table cards in its own words; desk and admin roles,
every write through the same service with its audit entry."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Competition, Team
from tests.competition.test_desk_championship import HTMX, row

pytestmark = pytest.mark.django_db


def walk_in(client, competition, name, **fields):
    """The walk-in form of `competition` posted from the championship's desk."""
    url = reverse("desk:team_new", args=["dm-2027"]) + f"?competition={competition.slug}"
    data = {
        "name": name,
        "table": fields.pop("table", 7),
        "members-TOTAL_FORMS": "1",
        "members-INITIAL_FORMS": "0",
        "members-0-name": name,
        **fields,
    }
    return client.post(url, data)


def test_a_walk_in_asks_which_competition_and_is_registered_in_it(client, desk, dm):
    championship, heat, pairs, _t = dm
    finale = Competition.objects.get(slug="finale")
    Competition.objects.filter(pk=finale.pk).update(
        started_at=timezone.now() - timedelta(hours=3), finalised_at=timezone.now()
    )
    client.force_login(desk)
    html = client.get(reverse("desk:team_new", args=[championship.slug])).content.decode()
    assert "Hvilken konkurrence deltager deltageren i?" in html
    assert 'data-competition="heat-a"' in html and 'data-competition="par"' in html
    assert 'data-competition="finale"' not in html  # its results are final
    form = client.get(
        reverse("desk:team_new", args=[championship.slug]), {"competition": heat.slug}
    ).content.decode()
    assert "DM Individuel" in form and "Tilmeld deltager" in form
    assert f'href="{reverse("desk:teams", args=[championship.slug])}"' in form
    response = walk_in(client, heat, "Cecilie Carlsen", check_in="1", contact_phone="12345678")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("desk:teams", args=[championship.slug]))
    new = Team.objects.get(name="Cecilie Carlsen")
    assert new.competition_id == heat.pk and new.checked_in_at is not None
    assert AuditEntry.objects.filter(team=new, action="team_create", user=desk).exists()
    # Back on the championship's desk the walk-in is first and marked.
    landed = client.get(response["Location"]).content.decode()
    assert landed.index(f'id="team-{new.pk}"') < landed.index(f'id="team-{_t["duo"].pk}"')
    assert "lige tilmeldt" in row(landed, new) and "is-new" in row(landed, new)
    # A final competition is not offered even by its address: the choice again.
    again = client.get(
        reverse("desk:team_new", args=[championship.slug]), {"competition": "finale"}
    ).content.decode()
    assert "Hvilken konkurrence" in again


def test_the_fee_is_toggled_on_the_championships_row_through_the_service(client, desk, dm):
    championship, heat, _pairs, t = dm
    client.force_login(desk)
    html = client.get(reverse("desk:teams", args=[championship.slug])).content.decode()
    fee_url = reverse("desk:fee", args=[championship.slug, t["anna"].pk])
    assert f'hx-post="{fee_url}"' in row(html, t["anna"])
    response = client.post(fee_url, {"paid": "1"}, **HTMX)
    assert response.status_code == 200
    assert Team.objects.get(pk=t["anna"].pk).fee_paid
    answer = response.content.decode()
    assert "Betalt" in row(answer, t["anna"]) and "DM Individuel" in row(answer, t["anna"])
    entry = AuditEntry.objects.get(team=t["anna"], action="team_fee_paid")
    assert entry.competition_id == heat.pk and entry.user == desk
    client.post(fee_url, {"paid": "0"}, **HTMX)
    assert not Team.objects.get(pk=t["anna"].pk).fee_paid
    # The filter of the unpaid across the championship.
    unpaid = client.get(reverse("desk:teams", args=[championship.slug]), {"f": "unpaid"})
    shown = [k for k in t if f'id="team-{t[k].pk}"' in unpaid.content.decode()]
    assert sorted(shown) == ["anna", "duo", "kant"]


def test_the_paid_fees_across_the_championship(client, desk, dm):
    championship, _heat, _pairs, t = dm
    Team.objects.filter(pk=t["kant"].pk).update(fee_paid=True, contact_email="kant@example.dk")
    client.force_login(desk)
    html = client.get(reverse("desk:refunds", args=[championship.slug])).content.decode()
    assert "Deltagere, der har betalt: 2" in html
    assert "Bo Bech" in html and "Kant og Hjørne" in html and "kant@example.dk" in html
    assert "DM Par" in html and "Anna Andersen" not in html


def test_missing_lists_who_is_not_checked_in_with_the_phone_across_the_competitions(
    client, desk, dm
):
    championship, _heat, pairs, t = dm
    Team.objects.filter(pk=t["duo"].pk).update(contact_phone="+45 12 34 56 78")
    Team.objects.filter(pk=t["bo"].pk).update(withdrawn=True)
    client.force_login(desk)
    html = client.get(reverse("desk:missing", args=[championship.slug])).content.decode()
    assert "Mangler ved tjek-ind: 2 deltagere" in html
    assert f'id="missing-{t["anna"].pk}"' in html and f'id="missing-{t["duo"].pk}"' in html
    assert f'id="missing-{t["kant"].pk}"' not in html  # checked in
    assert f'id="missing-{t["bo"].pk}"' not in html  # withdrawn
    assert "tel:+4512345678" in html and "DM Par" in html and "data-print" in html


def test_table_cards_of_every_competition_in_its_own_words(client, desk, dm, settings):
    settings.PUBLIC_URL = "http://10.20.0.7:8000"
    championship, heat, pairs, t = dm
    client.force_login(desk)
    html = client.get(reverse("desk:cards", args=[championship.slug])).content.decode()
    assert html.count('class="table-card"') == 4
    assert f"http://10.20.0.7:8000/{heat.slug}/teams/{t['anna'].pk}/" in html
    assert f"http://10.20.0.7:8000/{pairs.slug}/teams/{t['duo'].pk}/" in html
    assert "Følg deltageren live" in html and "Følg parret live" in html
    assert "DM Individuel" in html and "DM Par" in html


@pytest.mark.parametrize("name", ["desk:team_new", "desk:refunds", "desk:missing", "desk:cards"])
def test_the_championships_desk_pages_are_for_the_desk_and_admin(client, make_user, dm, name):
    championship, _heat, _pairs, _t = dm
    url = reverse(name, args=[championship.slug])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(make_user("judge", "dommer"))
    assert client.get(url).status_code == 403
    for role in ("desk", "admin"):
        client.force_login(make_user(role, f"u-{role}"))
        assert client.get(url).status_code == 200
