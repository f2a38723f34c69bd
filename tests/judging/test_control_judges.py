"""The control room's judges page: the head judge makes judge logins (passwords validated, or strong
ones made), prints a slip per judge (username, password, the judge page's QR code at the
hall's address) and revokes a lost tablet: its sessions and API tokens stop working."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.test import Client
from rest_framework.test import APIClient

from competition.models import AuditEntry
from competition.roles import has_role
from competition.services import staff_token_issue

pytestmark = pytest.mark.django_db


def logs_in(username: str, password: str) -> bool:
    """The login form, as a tablet uses it."""
    response = Client().post("/accounts/login/", {"username": username, "password": password})
    return response.status_code == 302 and "/accounts/login/" not in response["Location"]


@pytest.fixture
def head(client, admin_user, settings):
    settings.PUBLIC_URL = "http://10.20.0.7:8000"  # the hall's address (make hall sets it)
    client.force_login(admin_user)
    return client


def _url(competition, rest=""):
    return f"/control/{competition.slug}/judges/{rest}"


def test_a_weak_password_is_refused_and_makes_no_login(head, competition):
    for weak in ("1", "password", "12345678", "demo-judge"):
        response = head.post(_url(competition), {"username": "mette2", "password": weak})
        assert response.status_code == 400
        assert 'class="error"' in response.content.decode()  # the validators' reasons
    assert not get_user_model().objects.filter(username="mette2").exists()


def test_a_login_with_a_given_password_prints_its_slip_once(head, competition):
    response = head.post(_url(competition), {"username": "dommer7", "password": "pusle-bord-17"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "dommer7" in page and "pusle-bord-17" in page
    assert f"http://10.20.0.7:8000/judge/{competition.slug}/" in page
    assert "<svg" in page and "data-print" in page  # the QR code and the print button
    assert "no-store" in response["Cache-Control"]  # the password is not kept by the browser
    user = get_user_model().objects.get(username="dommer7")
    assert has_role(user, "judge") and not has_role(user, "desk")
    assert logs_in("dommer7", "pusle-bord-17")
    assert AuditEntry.objects.filter(competition=competition, action="staff_create").exists()
    # The list shows the login, never its password (only a hash is kept).
    listing = head.get(_url(competition)).content.decode()
    assert "dommer7" in listing and "pusle-bord-17" not in listing


def test_an_empty_password_makes_a_strong_one_for_the_slip(head, competition):
    response = head.post(_url(competition), {"username": "dommer8", "password": ""})
    assert response.status_code == 200
    password = re.search(r'class="slip-password">([^<]+)<', response.content.decode())[1]
    user = get_user_model().objects.get(username="dommer8")
    validate_password(password, user)
    assert len(password) >= 12 and user.check_password(password)


def test_a_taken_username_is_refused(head, competition, judge):
    response = head.post(_url(competition), {"username": judge.username.upper(), "password": ""})
    assert response.status_code == 400
    assert get_user_model().objects.filter(username__iexact=judge.username).count() == 1


def test_revoking_a_lost_tablet_ends_its_sessions_tokens_and_password(head, competition, judge):
    from tests.factories import STAFF_PASSWORD

    tablet = Client()
    tablet.force_login(judge)
    assert tablet.get(f"/judge/{competition.slug}/").status_code == 200
    key = staff_token_issue(user=judge)
    program = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert program.get("/api/v1/competitions/").wsgi_request.user == judge

    response = head.post(_url(competition, f"{judge.pk}/revoke"), follow=True)
    assert response.status_code == 200
    assert "er logget ud" in response.content.decode() or "logged out" in response.content.decode()

    answer = tablet.get(f"/judge/{competition.slug}/")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert program.get("/api/v1/competitions/").status_code in (401, 403)
    assert not logs_in(judge.username, STAFF_PASSWORD)
    assert AuditEntry.objects.filter(competition=competition, action="staff_revoke").exists()


def test_a_new_password_ends_the_old_one_and_is_shown_on_the_slip(head, competition, judge):
    from tests.factories import STAFF_PASSWORD

    tablet = Client()
    tablet.force_login(judge)
    response = head.post(_url(competition, f"{judge.pk}/password"))
    assert response.status_code == 200
    password = re.search(r'class="slip-password">([^<]+)<', response.content.decode())[1]
    assert logs_in(judge.username, password)
    assert not logs_in(judge.username, STAFF_PASSWORD)
    assert tablet.get(f"/judge/{competition.slug}/").status_code == 302


def test_slips_for_every_judge(head, competition, judge, make_user, admin_user):
    other = make_user("judge", "dommer9")
    page = head.get(_url(competition, "slips/")).content.decode()
    assert page.count('class="slip"') == 2  # the judges, not the head judge
    assert judge.username in page and other.username in page
    assert admin_user.username not in page.split('class="a4 slips"')[1]
    renewed = head.post(_url(competition, "slips/")).content.decode()
    passwords = re.findall(r'class="slip-password">([^<]+)<', renewed)
    assert len(passwords) == 2 and len(set(passwords)) == 2


def test_the_judges_page_for_many_judges_in_few_queries(
    head, competition, make_user, django_assert_max_num_queries
):
    for i in range(20):
        make_user("judge", f"dommer-{i:02d}")
    with django_assert_max_num_queries(12):
        response = head.get(_url(competition))
    assert response.status_code == 200 and "dommer-19" in response.content.decode()
    with django_assert_max_num_queries(12):
        assert head.get(_url(competition, "slips/")).status_code == 200


@pytest.mark.parametrize("role", ["judge", "desk"])
def test_only_the_head_judge(client, competition, make_user, role):
    client.force_login(make_user(role, f"x-{role}"))
    assert client.get(_url(competition)).status_code == 403
    assert client.post(_url(competition), {"username": "ny", "password": ""}).status_code == 403
    assert not get_user_model().objects.filter(username="ny").exists()


def test_a_championships_judges_page_makes_logins_whose_slips_open_its_tablet_page(head, make_user):
    """`/control/<championship>/judges/`: the championship's judges judge every competition
    of it, so their slips' QR opens the championship's tablet page; each write is audited in
    each of its competitions."""
    from datetime import timedelta

    from django.utils import timezone

    from competition.services import championship_create, competition_create

    dm = championship_create(by=None, slug="dm-2027", name="DM 2027")
    heats = [
        competition_create(
            by=None,
            slug=slug,
            name=slug,
            championship=dm,
            starts_at=timezone.now() + timedelta(days=1),
        )
        for slug in ("heat-a", "heat-b")
    ]
    page = head.get(_url(dm))
    assert page.status_code == 200 and "DM 2027" in page.content.decode()
    response = head.post(_url(dm), {"username": "dommer9", "password": "pusle-bord-19"})
    assert response.status_code == 200
    slip = response.content.decode()
    assert "dommer9" in slip and "pusle-bord-19" in slip and "<svg" in slip
    assert "http://10.20.0.7:8000/judge/dm-2027/" in slip
    assert "/judge/heat-a/" not in slip
    assert logs_in("dommer9", "pusle-bord-19")
    for heat in heats:
        assert AuditEntry.objects.filter(competition=heat, action="staff_create").count() == 1
    user = get_user_model().objects.get(username="dommer9")
    new = head.post(_url(dm, f"{user.pk}/password"))
    assert new.status_code == 200 and "http://10.20.0.7:8000/judge/dm-2027/" in new.content.decode()
    assert not logs_in("dommer9", "pusle-bord-19")
    slips = head.get(_url(dm, "slips/")).content.decode()
    assert "dommer9" in slips and "/judge/dm-2027/" in slips
    revoked = head.post(_url(dm, f"{user.pk}/revoke"))
    assert revoked.status_code == 302 and revoked["Location"] == _url(dm)
    assert AuditEntry.objects.filter(competition=heats[1], action="staff_revoke").count() == 1
    # The head judge only.
    head.force_login(make_user("desk", "skranke"))
    assert head.get(_url(dm)).status_code == 403
