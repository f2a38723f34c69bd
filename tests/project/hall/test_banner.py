"""`make hall`'s banner (config/hall.py `_banner`): the addresses tablets and phones open, with
QR codes. For the nearest competition that is not final it prints its leaderboard, its
judges' page and its control room; when that competition belongs to a championship of
several competitions, the championship's (its programme, its tablet across the
competitions, its control room), not the one competition's (issue 33: a stray heat drove
the QR codes)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Competition
from competition.services import championship_create, competition_create, staff_upsert
from config import hall

pytestmark = pytest.mark.django_db
BASE = "http://10.0.0.5:8000"
ENV = {"PUBLIC_URL": BASE, "PORT": "8000", "ALLOWED_HOSTS": "10.0.0.5", "BACKUP_MINUTES": "5"}


@pytest.fixture(autouse=True)
def head_judge(db):
    # a login exists: the banner makes none (and prints no password)
    return staff_upsert(username="chef", role="admin", password="kaffe-og-kanter-26")[0]


def printed(capsys) -> dict[str, str]:
    hall._banner(dict(ENV))
    out = capsys.readouterr().out
    urls = re.findall(r"(Dommere \(log ind\)|Tilskuere|Kontrolrum[^:]*): (\S+)", out)
    return {title.split(" ")[0]: url for title, url in urls}


def make(slug: str, *, days: float, championship=None, **extra) -> Competition:
    return competition_create(
        by=None,
        slug=slug,
        name=slug,
        starts_at=timezone.now() + timedelta(days=days),
        championship=championship,
        **extra,
    )


def test_a_competition_on_its_own_prints_its_own_addresses(capsys):
    make("dm-2027", days=1)
    assert printed(capsys) == {
        "Dommere": f"{BASE}/judge/dm-2027/",
        "Tilskuere": f"{BASE}/dm-2027/",
        "Kontrolrummet": f"{BASE}/control/dm-2027/",
    }


def test_a_championships_competition_prints_the_championships_addresses(capsys):
    dm = championship_create(by=None, slug="dm-i-puslespil", name="DM i puslespil")
    make("heat-a", days=1, championship=dm, discipline="individual")
    make("finale", days=1.2, championship=dm, discipline="individual")
    make("gammel-stray", days=30)  # further away: not the hall's day
    assert printed(capsys) == {
        "Dommere": f"{BASE}/judge/dm-i-puslespil/",
        "Tilskuere": f"{BASE}/dm-i-puslespil/",
        "Kontrolrummet": f"{BASE}/control/dm-i-puslespil/",
    }


def test_the_nearest_open_competition_decides_final_ones_do_not_count(capsys):
    dm = championship_create(by=None, slug="dm-i-puslespil", name="DM i puslespil")
    heat = make("heat-a", days=0.1, championship=dm)
    make("stray", days=2)
    assert printed(capsys)["Tilskuere"] == f"{BASE}/dm-i-puslespil/"
    Competition.objects.filter(pk=heat.pk).update(
        started_at=timezone.now() - timedelta(hours=4), finalised_at=timezone.now()
    )
    assert printed(capsys)["Tilskuere"] == f"{BASE}/stray/"


def test_no_competition_yet_prints_the_login_and_the_home_page(capsys):
    hall._banner(dict(ENV))
    out = capsys.readouterr().out
    assert f"{BASE}/accounts/login/" in out and f"Tilskuere: {BASE}/ " in out
    assert "Kontrolrum" not in out
