"""The one decorator of a staff page (`competition.roles.staff_view`) checks in one order:
the login, then the role, then the method, then the competition of the slug. So a stranger
learns nothing about which competitions exist, and a wrong method is a 405 before a 404."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

GONE = "no-such-competition"


def test_anonymous_is_sent_to_the_login_page_before_the_slug_is_looked_up(client):
    response = client.get(reverse("control:room", args=[GONE]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_wrong_role_is_refused_before_the_slug_is_looked_up(client, judge):
    client.force_login(judge)
    assert client.get(reverse("control:room", args=[GONE])).status_code == 403
    assert client.get(reverse("desk:teams", args=[GONE])).status_code == 403


def test_a_wrong_method_is_refused_before_the_slug_is_looked_up(client, admin_user):
    client.force_login(admin_user)
    assert client.get(reverse("control:clock_stop", args=[GONE])).status_code == 405
    assert client.post(reverse("control:clock_stop", args=[GONE])).status_code == 404


def test_the_view_gets_the_competition_of_the_slug(client, admin_user, competition):
    client.force_login(admin_user)
    response = client.get(reverse("control:room", args=[competition.slug]))
    assert response.status_code == 200
    assert response.context["competition"] == competition
    assert client.get(reverse("control:room", args=[GONE])).status_code == 404


def test_a_championships_slug_reaches_its_page_after_the_same_checks(client, make_user):
    """Slugs of championships and competitions share one namespace: with `championship=`, a
    slug no competition has but a championship has is the championship's page, checked in
    the same order (login, role, method) before the slug is looked up."""
    from competition.models import Championship

    held = Championship.objects.create(slug="dm-mesterskab", name="DM")
    room = reverse("control:room", args=[held.slug])
    desk = reverse("desk:teams", args=[held.slug])
    tap = reverse("desk:check_in", args=[held.slug, 1])
    assert client.get(room)["Location"].startswith(reverse("login"))
    client.force_login(make_user("judge", "j"))
    assert client.get(room).status_code == 403 and client.get(desk).status_code == 403
    client.force_login(make_user("desk", "d"))
    assert client.get(room).status_code == 403
    assert client.get(desk).context["championship"] == held
    assert client.get(tap).status_code == 405  # POST only, before the slug is looked up
    assert client.post(tap).status_code == 404  # no such entrant in the championship
    # A page without a championship side: the championship's slug is no competition's.
    assert client.get(reverse("desk:official", args=[held.slug])).status_code == 404
