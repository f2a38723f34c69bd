"""Known credentials (docs/contracts.md "Personal data and the hall's files"): `make run` then
`make hall` on one checkout shared var/db.sqlite3, and the hall served `admin / demo-admin`
(the README's password) and the demo competition on every interface. The hall's start-up
check refuses such a database and says how to set new passwords; every way of making a
login validates the password."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command

from competition.passwords import DEMO_LOGINS, KNOWN_PASSWORDS
from competition.services import password_generate, staff_upsert
from config import hall

README = Path(__file__).resolve().parents[3] / "README.md"
pytestmark = pytest.mark.django_db


@pytest.fixture
def after_make_run(settings):
    """What `make run` leaves in the database: the demo and its logins."""
    settings.DEBUG = True
    call_command("demo", stdout=StringIO())
    settings.DEBUG = False  # then `make hall`: DEBUG off


def test_every_password_the_readme_prints_is_a_known_one():
    text = README.read_text()
    printed = set(re.findall(r"`\w+ / ([^`\s]+)`", text))
    printed |= set(re.findall(r"--password[ =]([^\s`\]]+)", text)) - {"PW", "NEW"}
    assert printed  # the demo's logins are printed
    assert printed <= KNOWN_PASSWORDS, printed - KNOWN_PASSWORDS


def test_the_hall_refuses_a_database_with_the_demo_logins_and_says_what_to_do(
    after_make_run, capsys
):
    found = hall.refusals()
    text = " ".join(found)
    for username, _password, _role in DEMO_LOGINS:
        assert username in text
    assert "demo-dm" in text  # the demo competition would be on the home page
    assert ".venv/bin/python -m config.hall manage create_staff" in text
    assert ".venv/bin/python -m config.hall manage demo --remove" in text
    with pytest.raises(SystemExit) as stopped:
        hall._refuse(found)
    assert stopped.value.code != 0
    assert "make hall does not start" in capsys.readouterr().err


def test_a_new_password_or_removing_the_demo_lets_the_hall_start(after_make_run):
    for username, _password, role in DEMO_LOGINS[:2]:
        staff_upsert(username=username, role=role, password=password_generate())
    remaining = " ".join(hall.refusals())
    assert "admin" in remaining and "judge," not in remaining
    call_command("demo", "--remove", stdout=StringIO())
    assert hall.refusals() == []
    assert not get_user_model().objects.filter(username="admin").exists()
    assert get_user_model().objects.filter(username="judge").exists()  # its new password


def test_a_demo_password_set_on_another_head_judge_is_found(settings):
    settings.DEBUG = True
    staff_upsert(username="chef", role="admin", password="demo-admin")
    settings.DEBUG = False
    assert "chef" in " ".join(hall.refusals())


@pytest.mark.parametrize("password", ["demo-admin", "demo-judge", "1", "password", "12345678"])
def test_no_login_gets_a_weak_or_known_password_with_debug_off(settings, password):
    settings.DEBUG = False
    with pytest.raises(ValidationError):
        staff_upsert(username="chef", role="admin", password=password)
    assert not get_user_model().objects.filter(username="chef").exists()


def test_the_first_start_login_has_a_password_the_validators_accept(settings, capsys):
    settings.DEBUG = False
    env = {"PUBLIC_URL": "http://10.0.0.5:8000", "PORT": "8000", "ALLOWED_HOSTS": "10.0.0.5"}
    env["BACKUP_MINUTES"] = "5"
    hall._banner(env)
    printed = capsys.readouterr().out
    admin = get_user_model().objects.get(username="admin")
    generated = re.findall(r"\b[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}\b", printed)
    assert len(generated) == 1, printed
    assert admin.check_password(generated[0])
    validate_password(generated[0], admin)


def test_make_run_then_make_hall_on_one_checkout_does_not_serve(tmp_path):
    """The real sequence, in processes of their own on one database: `make run`'s migrate
    and demo (DEBUG on), then `make hall`'s script (DEBUG off): it stops before serving
    and says why."""
    import os
    import subprocess
    import sys

    from tests.project.hall.server import ROOT, free_port

    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")},
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "VAR_DIR": str(tmp_path),
        "BACKUP_DIR": str(tmp_path / "backups"),
        "PORT": str(free_port()),
    }
    dev = {**env, "DEBUG": "1"}
    for command in (["migrate", "--noinput"], ["demo"]):
        subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=dev, check=True, timeout=300
        )
    hall_run = subprocess.run(
        [sys.executable, "-m", "config.hall"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert hall_run.returncode == 2, hall_run.stdout[-2000:] + hall_run.stderr[-2000:]
    assert "make hall does not start" in hall_run.stderr
    assert "admin" in hall_run.stderr and "demo --remove" in hall_run.stderr
    assert "demo-admin" not in hall_run.stdout + hall_run.stderr  # never prints a password


def test_the_readme_create_staff_works_on_a_hall_laptop(tmp_path):
    """`python manage.py create_staff …` stopped with "SECRET_KEY must be
    set" on a hall install; with the hall's secret key on disk it uses the hall's settings,
    and the password is validated there too."""
    import os
    import subprocess
    import sys

    from config.hall import secret_key
    from tests.project.hall.server import ROOT

    secret_key(tmp_path / "secret_key")  # what the hall's first start leaves
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")},
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "VAR_DIR": str(tmp_path),
    }

    def create_staff(*args):
        return subprocess.run(
            [sys.executable, "manage.py", "create_staff", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    subprocess.run(
        [sys.executable, "-m", "config.hall", "manage", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        timeout=300,
    )
    made = create_staff("mette", "--role", "judge", "--password", "pusle-bord-17")
    assert made.returncode == 0, made.stderr[-2000:]
    assert made.stdout.strip().splitlines()[-1].startswith("token: ")
    weak = create_staff("lars", "--role", "judge", "--password", "1")
    assert weak.returncode != 0 and "password" in weak.stderr.lower()
