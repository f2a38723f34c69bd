"""The team import is bounded and keeps its preview out of the session.

Before: any size was parsed (a 60,000-row file: 13 s of CPU and a 14 MB preview) and the
uploaded file, members and all, sat base64-encoded in the desk's session row until the
session expired (two weeks), where erasing the personal data never reached it. Now: at most
1 MB and 2,000 rows, with a clear message beyond, and the file waits for its confirm in an
ImportPreview row of its own: removed on confirm, on cancel, when it expires, and by
`erase_personal_data`.
"""

from datetime import timedelta

import pytest
import tablib
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from competition import imports
from competition.imports import plan as import_plan
from competition.models import ImportPreview, Team
from competition.services import competition_erase_personal_data

pytestmark = pytest.mark.django_db
URL = reverse("desk:import", args=["dm-2026"])

FILE = (
    "\ufeffHold;Bord;Medlem 1;Medlem 1 under 15;Medlem 1 ledsagende voksen\n"
    "Kantsøgerne;1;Ottilie Hemmeligsen;x;Valdemar Værgesen\n"
    "Brikkebanden;2;Balder Brikmand;;\n"
)


def rows_csv(n: int) -> bytes:
    return ("hold;bord\n" + "".join(f"Hold {i};{i}\n" for i in range(1, n + 1))).encode()


def upload(client, content: bytes, name: str = "tilmeldinger.csv"):
    return client.post(URL, {"file": SimpleUploadedFile(name, content)})


@pytest.fixture
def at_desk(client, desk, competition):
    client.force_login(desk)
    return client


# --- size and rows ------------------------------------------------------------------------
def test_a_file_of_60000_rows_is_refused_before_its_teams_are_read(at_desk, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("the rows of a too-long file were read")

    monkeypatch.setattr(import_plan, "_check", never)
    response = upload(at_desk, rows_csv(60_000))
    assert response.status_code == 200
    assert "preview" not in response.context
    assert "højst 2.000 rækker" in response.content.decode()
    assert not ImportPreview.objects.exists()


def test_2000_rows_are_read_and_2001_are_not(competition):
    assert len(imports.preview(competition, rows_csv(2000), "x.csv").teams) == 2000
    with pytest.raises(imports.ImportFileError, match="2.000"):
        imports.preview(competition, rows_csv(2001), "x.csv")


def test_empty_lines_are_not_counted_as_rows(competition):
    content = rows_csv(2000) + b"\n;\n\n"
    assert len(imports.preview(competition, content, "x.csv").teams) == 2000


def test_an_xlsx_of_more_than_2000_rows_is_refused(competition):
    data = tablib.Dataset(headers=["Hold", "Bord"])
    for i in range(1, 2002):
        data.append([f"Hold {i}", i])
    with pytest.raises(imports.ImportFileError, match="2.000"):
        imports.preview(competition, data.export("xlsx"), "x.xlsx")


def test_a_file_over_1_mb_is_refused_with_a_clear_message(at_desk):
    content = b"hold;noter\n" + b"Hold 1;" + b"x" * (1024 * 1024) + b"\n"
    response = upload(at_desk, content)
    assert "preview" not in response.context
    assert "højst 1 MB" in response.content.decode()
    with pytest.raises(imports.ImportFileError, match="1 MB"):
        imports.read_dataset(content, "x.csv")


# --- the preview kept server-side ------------------------------------------------------------
def _session_text() -> str:
    return " ".join(str(s.get_decoded()) for s in Session.objects.all())


def test_the_preview_waits_in_its_own_row_not_in_the_session(at_desk, desk):
    response = upload(at_desk, FILE.encode())
    assert response.context["preview"].ok
    stored = ImportPreview.objects.get()
    assert stored.user == desk
    assert str(stored.token) == response.context["token"]
    assert "team-import" not in _session_text()
    assert "Hemmeligsen" not in _session_text()


def test_confirm_creates_the_teams_and_removes_the_preview(at_desk):
    token = upload(at_desk, FILE.encode()).context["token"]
    response = at_desk.post(URL, {"token": token})
    assert response.status_code == 302
    assert Team.objects.count() == 2
    assert not ImportPreview.objects.exists()
    # The same token again: expired, nothing imported twice.
    response = at_desk.post(URL, {"token": token}, follow=True)
    assert "udløbet" in response.content.decode()
    assert Team.objects.count() == 2


def test_cancel_removes_the_preview_and_writes_nothing(at_desk):
    token = upload(at_desk, FILE.encode()).context["token"]
    response = at_desk.post(URL, {"token": token, "cancel": "1"})
    assert response.status_code == 302
    assert not ImportPreview.objects.exists()
    assert not Team.objects.exists()


def test_an_expired_preview_is_removed_and_cannot_be_confirmed(at_desk, desk, competition):
    token = upload(at_desk, FILE.encode()).context["token"]
    ImportPreview.objects.update(created_at=timezone.now() - ImportPreview.EXPIRY - timedelta(1))
    response = at_desk.post(URL, {"token": token}, follow=True)
    assert "udløbet" in response.content.decode()
    assert not Team.objects.exists()
    assert not ImportPreview.objects.exists()


def test_an_expired_preview_is_cleaned_up_by_the_next_import(at_desk):
    upload(at_desk, FILE.encode())
    ImportPreview.objects.update(created_at=timezone.now() - ImportPreview.EXPIRY - timedelta(1))
    at_desk.get(URL)
    assert not ImportPreview.objects.exists()


def test_only_the_desk_user_who_uploaded_can_confirm(at_desk, client, make_user):
    token = upload(at_desk, FILE.encode()).context["token"]
    client.force_login(make_user("desk", "anden"))
    response = client.post(URL, {"token": token}, follow=True)
    assert "udløbet" in response.content.decode()
    assert not Team.objects.exists()
    assert ImportPreview.objects.count() == 1


@pytest.mark.parametrize("token", ["", "nope", "\x00", "9" * 30, "{" * 40])
def test_an_odd_token_is_an_expired_preview(at_desk, token):
    response = at_desk.post(URL, {"token": token})
    assert response.status_code == 302


def test_erasing_personal_data_removes_waiting_previews(at_desk, admin_user, competition):
    upload(at_desk, FILE.encode())
    competition.finalised_at = timezone.now()
    competition.save()
    competition_erase_personal_data(competition=competition, by=admin_user)
    assert not ImportPreview.objects.exists()
