"""Login throttling against password guessing (django-axes): 5 failures lock the login."""

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
