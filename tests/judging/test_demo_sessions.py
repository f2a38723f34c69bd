"""`manage.py demo --live` in the middle of a demo keeps the demo passwords and
every staff session, the judge's tablet included."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from judging.management.commands.demo import HEATS

pytestmark = pytest.mark.django_db


def demo(*args):
    call_command("demo", *args, stdout=StringIO(), stderr=StringIO())


@pytest.fixture
def demo_loaded(settings):
    settings.DEBUG = True  # the demo logins exist only then
    demo()
    return get_user_model().objects


def test_a_logged_in_judge_stays_logged_in_through_demo_live(client, demo_loaded):
    client.force_login(demo_loaded.get(username="judge"))
    board = f"/judge/{HEATS[0]}/"  # a heat of the demo championship
    assert client.get(board).status_code == 200
    demo("--live", "--seconds", "1")
    assert client.get(board).status_code == 200  # not sent to the login page
    assert demo_loaded.get(username="judge").check_password("demo-judge")


def test_a_changed_demo_password_is_kept(demo_loaded):
    admin = demo_loaded.get(username="admin")
    admin.set_password("vores-egen-kode")
    admin.save()
    demo("--live", "--seconds", "1")
    admin.refresh_from_db()
    assert admin.check_password("vores-egen-kode")


def test_a_missing_demo_login_is_made_again(demo_loaded):
    demo_loaded.filter(username="desk").delete()
    demo()
    desk = demo_loaded.get(username="desk")
    assert desk.check_password("demo-desk") and desk.groups.filter(name="desk").exists()
