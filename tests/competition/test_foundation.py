"""The foundation: constraints in the database, roles, commands, settings, health check."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from competition.models import Competition, Member, Team
from competition.roles import has_role
from judging.models import Count, Finish
from tests.factories import TeamFactory

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
class TestConstraints:
    """Single-row invariants live in the database, so a bug elsewhere cannot break them."""

    def test_duplicate_table_refused(self, competition):
        TeamFactory(competition=competition, table=7)
        with pytest.raises(IntegrityError), transaction.atomic():
            TeamFactory(competition=competition, table=7)
        assert Team.objects.filter(table=7).count() == 1

    def test_duplicate_team_name_refused_whatever_the_case(self, competition):
        # SQLite lowers only ASCII letters; the desk's service compares casefolded names too.
        TeamFactory(competition=competition, name="Brikkebanden")
        with pytest.raises(IntegrityError), transaction.atomic():
            TeamFactory(competition=competition, name="BRIKKEBANDEN")

    def test_same_table_in_another_competition_is_fine(self, competition):
        other = Competition.objects.create(
            slug="other", name="Other", starts_at=competition.starts_at
        )
        TeamFactory(competition=competition, table=1)
        TeamFactory(competition=other, table=1)

    def test_duplicate_finish_refused(self, competition, teams):
        puzzle = competition.puzzles.get(position=1)
        Finish.objects.create(team=teams[0], puzzle=puzzle, elapsed_seconds=100)
        with pytest.raises(IntegrityError), transaction.atomic():
            Finish.objects.create(team=teams[0], puzzle=puzzle, elapsed_seconds=200)
        assert Finish.objects.count() == 1

    def test_under_15_without_adult_refused_r3(self, teams):
        with pytest.raises(IntegrityError), transaction.atomic():
            Member.objects.create(team=teams[0], name="Alma", under_15=True, guardian="")
        Member.objects.create(team=teams[0], name="Alma", under_15=True, guardian="Mette Jensen")
        assert Member.objects.count() == 1

    def test_count_of_two_refused_r9(self, competition, teams):
        puzzle = competition.puzzles.get(position=1)
        with pytest.raises(IntegrityError), transaction.atomic():
            Count.objects.create(team=teams[0], puzzle=puzzle, pieces=2)
        Count.objects.create(team=teams[0], puzzle=puzzle, pieces=0)

    def test_one_count_per_team(self, competition, teams):
        puzzle = competition.puzzles.get(position=1)
        Count.objects.create(team=teams[0], puzzle=puzzle, pieces=10)
        with pytest.raises(IntegrityError), transaction.atomic():
            Count.objects.create(team=teams[0], puzzle=puzzle, pieces=12)

    def test_duplicate_puzzle_position_refused(self, competition):
        with pytest.raises(IntegrityError), transaction.atomic():
            competition.puzzles.create(position=1, pieces=100)

    def test_puzzle_without_pieces_refused(self, competition):
        with pytest.raises(IntegrityError), transaction.atomic():
            competition.puzzles.create(position=9, pieces=0)

    def test_reserved_slug_refused(self, competition):
        from django.core.exceptions import ValidationError

        competition.slug = "judge"
        with pytest.raises(ValidationError):
            competition.full_clean()


@pytest.mark.django_db
def test_create_staff_creates_user_with_role_and_prints_token_last():
    out = StringIO()
    call_command("create_staff", "mette", "--role", "judge", "--password", "hemmelig-1", stdout=out)
    user = get_user_model().objects.get(username="mette")
    assert has_role(user, "judge") and not has_role(user, "desk")
    assert user.check_password("hemmelig-1")
    last = out.getvalue().strip().splitlines()[-1]
    assert last.startswith("token: ")
    key = last.removeprefix("token: ")
    api = APIClient(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/competitions/").wsgi_request.user == user

    # Again with another role: updated, one role only, the password kept; a new token
    # (the first is shown only once: it is stored as a hash).
    out2 = StringIO()
    call_command("create_staff", "mette", "--role", "desk", stdout=out2)
    user = get_user_model().objects.get(username="mette")
    assert has_role(user, "desk") and not has_role(user, "judge")
    assert user.check_password("hemmelig-1")
    key2 = out2.getvalue().strip().splitlines()[-1].removeprefix("token: ")
    assert key2 != key
    assert (
        APIClient(HTTP_AUTHORIZATION=f"Token {key2}").get("/api/v1/competitions/").status_code
        == 200
    )
    assert APIClient(HTTP_AUTHORIZATION="Token x" + key2[1:]).get(
        "/api/v1/competitions/"
    ).status_code in (401, 403)


@pytest.mark.django_db
def test_no_table_of_the_database_holds_a_token_key():
    """A stolen database (or backup) holds no working token: only a hash."""
    from django.db import connection

    out = StringIO()
    call_command("create_staff", "chef", "--role", "admin", stdout=out)
    key = out.getvalue().strip().splitlines()[-1].removeprefix("token: ")
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT * FROM "{table}"')
            for row in cursor.fetchall():
                assert not any(key in str(value) for value in row), table
    assert "authtoken_token" not in connection.introspection.table_names()


@pytest.mark.django_db
@pytest.mark.parametrize("password", ["1", "mette123", "password", "12345678901"])
def test_create_staff_refuses_a_weak_password_and_makes_no_login(password):
    """`create_staff chef2 --role admin --password 1` made a login."""
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="password"):
        call_command("create_staff", "mette", "--role", "admin", "--password", password)
    assert not get_user_model().objects.filter(username="mette").exists()


@pytest.mark.django_db
def test_admin_role_includes_the_others():
    call_command("create_staff", "boss", "--role", "admin", stdout=StringIO())
    user = get_user_model().objects.get(username="boss")
    assert has_role(user, "judge") and has_role(user, "desk") and has_role(user, "admin")


@pytest.mark.django_db
def test_demo_loads_once_with_the_promised_shape(settings):
    """The demo is a small championship: two heats of individuals, the final they
    go on to, a pairs and a team competition (the team competition as the demo was before:
    3 puzzles, 24 teams of 3-6 members, a few under 15)."""
    from competition.models import Championship

    settings.DEBUG = True  # demo logins with known passwords exist only in development
    out = StringIO()
    call_command("demo", stdout=out)
    championship = Championship.objects.get()
    assert (championship.slug, championship.name) == ("demo-dm", "Demo-DM i puslespil")
    rounds = {
        c.slug: (c.discipline, c.round, c.max_at_table, c.teams.count())
        for c in championship.competitions.all()
    }
    assert rounds == {
        "demo-dm-a": ("individual", "Indledende runde A", 1, 12),
        "demo-dm-b": ("individual", "Indledende runde B", 1, 12),
        "demo-dm-finale": ("individual", "Finale", 1, 0),
        "demo-dm-par": ("pair", "", 2, 12),
        "demo-dm-hold": ("team", "", 4, 24),
    }
    competition = Competition.objects.get(slug="demo-dm-hold")
    assert [p.pieces for p in competition.puzzles.order_by("position")] == [500, 1000, 1000]
    teams = list(competition.teams.prefetch_related("members"))
    assert all(3 <= len(t.members.all()) <= 6 for t in teams)
    kids = Member.objects.filter(team__competition=competition, under_15=True)
    assert kids.exists() and all(k.guardian for k in kids)
    assert all(
        [m.name for m in t.members.all()] == [t.name]
        for t in Team.objects.filter(competition__slug="demo-dm-a").prefetch_related("members")
    )
    assert Member.objects.filter(team__competition__slug="demo-dm-par").count() == 24
    # One hall: the competitions at the same time sit at different tables.
    at_ten = Team.objects.filter(competition__slug__in=["demo-dm-a", "demo-dm-b", "demo-dm-par"])
    tables = list(at_ten.values_list("table", flat=True))
    assert len(tables) == len(set(tables)) == 36
    text = out.getvalue()
    for role in ("judge", "desk", "admin"):
        assert role in text
    assert "/demo-dm/" in text
    # A second run leaves the database alone.
    call_command("demo", stdout=StringIO())
    assert Competition.objects.count() == 5 and Team.objects.count() == 60


@pytest.mark.django_db
def test_healthz_answers_without_a_database_query(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"ok": True}


@pytest.mark.django_db
def test_home_page_in_danish_lists_the_demo(client):
    call_command("demo", stdout=StringIO())
    response = client.get("/")
    body = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="da">' in body
    assert "Demo-DM i puslespil" in body
    assert "Konkurrencer" in body


@pytest.mark.django_db
def test_english_by_accept_language_and_by_switch(client):
    body = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in body and "Competitions" in body
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    body = client.get("/").content.decode()
    assert '<html lang="en">' in body


@pytest.mark.django_db
def test_login_page_in_danish(client):
    body = client.get("/accounts/login/").content.decode()
    assert "Log ind" in body and "Adgangskode" in body


@pytest.mark.django_db
def test_login_works_and_wrong_password_says_so(client):
    get_user_model().objects.create_user("mette", password="rigtig-kode-1")
    response = client.post("/accounts/login/", {"username": "mette", "password": "forkert"})
    assert response.status_code == 200
    assert "Forkert brugernavn eller adgangskode" in response.content.decode()
    response = client.post("/accounts/login/", {"username": "mette", "password": "rigtig-kode-1"})
    assert response.status_code == 302


def _settings_subprocess(env_extra: dict) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS"}}
    env.update(env_extra)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_refuses_to_start_without_secret_key():
    result = _settings_subprocess({"DEBUG": "0", "ALLOWED_HOSTS": "example.dk"})
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_production_starts_with_secret_key_and_passes_check_deploy():
    env = {"DEBUG": "0", "ALLOWED_HOSTS": "example.dk", "SECRET_KEY": "x" * 60 + "-Ab1"}
    assert _settings_subprocess(env).returncode == 0
    full_env = {
        k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    } | env
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.django_db
def test_wrong_role_gets_a_danish_page_that_says_why(client, competition, desk):
    client.force_login(desk)
    response = client.get(f"/control/{competition.slug}/")
    assert response.status_code == 403
    body = response.content.decode()
    assert "Ingen adgang" in body
    assert "Du er logget ind som skranke" in body


@pytest.mark.django_db
def test_unknown_address_gets_a_danish_page(client):
    response = client.get("/findes-ikke/")
    assert response.status_code == 404
    assert "Siden findes ikke" in response.content.decode()


@pytest.mark.django_db
def test_api_docs_load_nothing_from_a_cdn(client):
    """The hall's Wi-Fi may have no internet: the API docs come from our own static files."""
    body = client.get("/api/docs/").content.decode()
    assert "swagger-ui" in body
    assert "cdn" not in body.lower()
    assert "/static/drf_spectacular_sidecar/" in body
