"""Login throttling against password guessing (django-axes): 5 failures lock the login."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model


@pytest.mark.django_db
def test_five_wrong_passwords_lock_the_login_even_for_the_right_one(client):
    get_user_model().objects.create_user("mette", password="rigtig-kode-1")
    for _ in range(5):
        response = client.post("/accounts/login/", {"username": "mette", "password": "gæt"})
    assert response.status_code == 429
    assert "For mange forsøg" in response.content.decode()
    locked = client.post("/accounts/login/", {"username": "mette", "password": "rigtig-kode-1"})
    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_few_typos_do_not_lock_a_judge_out(client):
    get_user_model().objects.create_user("mette", password="rigtig-kode-1")
    for _ in range(3):
        client.post("/accounts/login/", {"username": "mette", "password": "gæt"})
    response = client.post("/accounts/login/", {"username": "mette", "password": "rigtig-kode-1"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"]


# --- behind the TLS proxy (docs/contracts.md "Running") ------------------------
PROXY = "10.0.0.2"  # every request reaches the app from the proxy


def login_via_proxy(client, username, password, forwarded_for):
    return client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


@pytest.fixture
def behind_proxy(settings, db):
    settings.TRUSTED_PROXIES = 1
    get_user_model().objects.create_user("overdommer", password="rigtig-kode-1")


def test_a_guesser_elsewhere_does_not_lock_out_the_head_judge(behind_proxy, client):
    for _ in range(5):
        response = login_via_proxy(client, "overdommer", "gæt", "203.0.113.9")
    assert response.status_code == 429
    judge = login_via_proxy(client.__class__(), "overdommer", "rigtig-kode-1", "198.51.100.7")
    assert judge.status_code == 302


def test_the_guesser_cannot_escape_by_forging_the_header(behind_proxy, client):
    """The proxy appends the real address last; what the client wrote before it is ignored."""
    for i in range(5):
        login_via_proxy(client, "overdommer", "gæt", f"192.0.2.{i}, 203.0.113.9")
    locked = login_via_proxy(client, "overdommer", "rigtig-kode-1", "192.0.2.99, 203.0.113.9")
    assert locked.status_code == 429


def test_without_a_proxy_the_header_is_not_believed(settings, client, db):
    settings.TRUSTED_PROXIES = 0
    get_user_model().objects.create_user("mette", password="rigtig-kode-1")
    for i in range(5):
        client.post(
            "/accounts/login/",
            {"username": "mette", "password": "gæt"},
            HTTP_X_FORWARDED_FOR=f"192.0.2.{i}",
        )
    locked = client.post(
        "/accounts/login/",
        {"username": "mette", "password": "rigtig-kode-1"},
        HTTP_X_FORWARDED_FOR="192.0.2.99",
    )
    assert locked.status_code == 429


# --- the head judge unlocks ---------------------------------------------------------------
def lock_out(client, username="mette", address="198.51.100.7"):
    get_user_model().objects.create_user(username, password="rigtig-kode-1")
    for _ in range(5):
        client.post(
            "/accounts/login/", {"username": username, "password": "gæt"}, REMOTE_ADDR=address
        )
    locked = client.post(
        "/accounts/login/", {"username": username, "password": "rigtig-kode-1"}, REMOTE_ADDR=address
    )
    assert locked.status_code == 429


def test_the_head_judge_sees_the_locked_login_and_unlocks_it(client, competition, admin_user):
    lock_out(client.__class__())
    client.force_login(admin_user)
    page = client.get(f"/control/{competition.slug}/logins/")
    body = page.content.decode()
    assert page.status_code == 200
    assert "mette" in body and "198.51.100.7" in body and "Lås op" in body
    response = client.post(
        f"/control/{competition.slug}/logins/unlock",
        {"username": "mette", "ip_address": "198.51.100.7"},
    )
    assert response.status_code == 302
    after = client.get(f"/control/{competition.slug}/logins/").content.decode()
    assert "»mette« kan logge ind igen" in after
    assert "198.51.100.7" not in after and "Ingen login er låst" in after
    again = client.__class__().post(
        "/accounts/login/",
        {"username": "mette", "password": "rigtig-kode-1"},
        REMOTE_ADDR="198.51.100.7",
    )
    assert again.status_code == 302


def test_a_few_typos_are_not_listed_as_locked(client, competition, admin_user):
    get_user_model().objects.create_user("mette", password="rigtig-kode-1")
    for _ in range(2):
        client.post("/accounts/login/", {"username": "mette", "password": "gæt"})
    client.force_login(admin_user)
    body = client.get(f"/control/{competition.slug}/logins/").content.decode()
    assert "mette" not in body
    assert "Ingen login er låst" in body


@pytest.mark.parametrize("body", [{}, {"username": ""}, {"username": "x", "ip_address": "nej"}])
def test_an_odd_unlock_request_unlocks_nothing_and_says_so(client, competition, admin_user, body):
    lock_out(client.__class__())
    client.force_login(admin_user)
    response = client.post(f"/control/{competition.slug}/logins/unlock", body)
    assert response.status_code == 302
    after = client.get(f"/control/{competition.slug}/logins/").content.decode()
    assert "198.51.100.7" in after


def test_the_command_line_unlock_documented_for_the_head_judge(client, db):
    from django.core.management import call_command

    lock_out(client)
    call_command("axes_reset_username", "mette", stdout=StringIO())
    again = client.post(
        "/accounts/login/",
        {"username": "mette", "password": "rigtig-kode-1"},
        REMOTE_ADDR="198.51.100.7",
    )
    assert again.status_code == 302


@pytest.mark.parametrize(
    ("hops", "header", "expected"),
    [
        (0, "203.0.113.9", "10.0.0.2"),  # no proxy: the header is not believed
        (1, "203.0.113.9", "203.0.113.9"),
        (1, "192.0.2.1, 203.0.113.9", "203.0.113.9"),  # a forged entry stands to the left
        (2, "192.0.2.1, 203.0.113.9, 10.0.0.7", "203.0.113.9"),  # two proxies in front
        (2, "203.0.113.9", "10.0.0.2"),  # fewer entries than proxies: the proxy's own
        (1, "", "10.0.0.2"),
        (1, "not-an-address", "10.0.0.2"),
        (1, "2001:db8::1", "2001:db8::1"),
    ],
)
def test_the_client_address_behind_trusted_proxies(settings, rf, hops, header, expected):
    from config.proxy import client_ip

    settings.TRUSTED_PROXIES = hops
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=header)
    assert client_ip(request) == expected
