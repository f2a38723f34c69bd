"""The pages that build a championship (issue 33 item 1): "Nyt mesterskab", the
new-competition page's championship (an existing one, a new one typed there, or none),
discipline and round, the setup page's move and its read-only fields after the start,
"Tilføj konkurrence" on the championship's control room, and deleting what was made by
mistake; each refusal names its sentence and saves nothing, and nothing stale is left on the
public pages."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Championship, Competition, Team
from competition.services import championship_create, competition_create
from tests.factories import MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db
START = (timezone.now() + timedelta(days=3)).replace(second=0, microsecond=0)
LOCAL = timezone.localtime(START).strftime("%Y-%m-%dT%H:%M")
NEW = reverse("desk:competition_new")
STARTED = "Uret er startet; mesterskabet, disciplinen og runden kan ikke længere ændres."


def new_competition(**extra) -> dict:
    return {
        "name": "Indledende runde A",
        "starts_at": LOCAL,
        "duration_minutes": "60",
        "max_at_table": "",
        "ranking": "dm",
        **extra,
    }


def said(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.fixture
def admin(client, admin_user):
    client.force_login(admin_user)
    return client


@pytest.fixture
def public():
    """A reader who is not logged in (`client` is the head judge's, `admin`)."""
    return Client()


@pytest.fixture
def dm(admin_user):
    return championship_create(by=admin_user, slug="dm-2027", name="DM 2027", venue="Vejle")


@pytest.fixture
def stray(admin_user):
    stray = competition_create(by=admin_user, slug="stray", name="Stray", starts_at=START)
    for table in (1, 2):
        MemberFactory(team=TeamFactory(competition=stray, name=f"Hold {table}", table=table))
    return stray


def setup_post(competition, **extra) -> dict:
    return {
        "championship": "_own",
        "discipline": competition.discipline,
        "round": competition.round,
        "name": competition.name,
        "slug": competition.slug,
        "venue": competition.venue,
        "starts_at": timezone.localtime(competition.starts_at).strftime("%Y-%m-%dT%H:%M"),
        "duration_minutes": str(competition.duration_minutes),
        "max_at_table": str(competition.max_at_table),
        "ranking": competition.ranking,
        "puzzles-TOTAL_FORMS": "0",
        "puzzles-INITIAL_FORMS": "0",
        **extra,
    }


# --- a new championship ---------------------------------------------------------------------
def test_the_home_page_offers_a_new_championship_and_shows_an_empty_one_to_the_head_judge(
    admin, public, dm
):
    home = admin.get("/").content.decode()
    assert reverse("desk:championship_new") in home and "Nyt mesterskab" in home
    assert "data-empty-championship" in home and "DM 2027" in home
    assert "/desk/new/?championship=dm-2027" in home
    assert "DM 2027" not in public.get("/").content.decode()  # not filled: not public yet


def test_the_new_championship_page_makes_one_and_opens_its_control_room(admin):
    page = admin.get(reverse("desk:championship_new")).content.decode()
    assert 'data-slug-from="id_name"' in page and "Første dag" in page
    response = admin.post(
        reverse("desk:championship_new"),
        {"name": "DM i puslespil 2027", "slug": "", "venue": "Vejle", "starts_on": "2027-03-06"},
    )
    assert response.status_code == 302 and response["Location"] == "/control/dm-i-puslespil-2027/"
    made = Championship.objects.get(slug="dm-i-puslespil-2027")
    assert (made.name, made.venue, str(made.starts_on)) == (
        "DM i puslespil 2027",
        "Vejle",
        "2027-03-06",
    )
    room = admin.get(response["Location"]).content.decode()
    assert "Tilføj konkurrence" in room
    assert f"{NEW}?championship=dm-i-puslespil-2027" in room
    assert "Ingen konkurrencer endnu: tilføj den første." in room
    assert 'id="delete-championship"' in room


def test_a_taken_short_name_or_days_in_the_wrong_order_are_said_and_nothing_is_made(admin, stray):
    response = admin.post(reverse("desk:championship_new"), {"name": "X", "slug": "stray"})
    assert response.status_code == 200
    assert (
        "Det korte navn »stray« bruges allerede af konkurrencen »Stray«."
        in response.content.decode()
    )
    response = admin.post(
        reverse("desk:championship_new"),
        {"name": "X", "starts_on": "2027-03-07", "ends_on": "2027-03-06"},
    )
    assert "Sidste dag kan ikke ligge før første dag." in response.content.decode()
    assert not Championship.objects.filter(name="X").exists()


# --- the new-competition page -----------------------------------------------------------------
def test_add_competition_opens_the_new_page_with_the_championship_chosen(admin, dm):
    page = admin.get(f"{NEW}?championship=dm-2027").content.decode()
    assert '<option value="dm-2027" selected>DM 2027</option>' in page
    assert 'value="Vejle"' in page  # its venue
    assert "Deltagere: én pusler ved bordet" in page


def test_a_competition_is_made_in_the_championship_with_its_discipline_and_round(admin, dm):
    response = admin.post(
        NEW,
        new_competition(
            championship="dm-2027", discipline="individual", round="Indledende runde A"
        ),
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    made = Competition.objects.get(name="Indledende runde A")
    assert (made.championship, made.discipline, made.round) == (
        dm,
        "individual",
        "Indledende runde A",
    )
    assert made.max_at_table == 1  # left empty: the discipline's
    assert made.slug == "indledende-runde-a"


def test_a_new_championship_typed_on_the_page_is_made_with_its_competition(admin):
    response = admin.post(
        NEW,
        new_competition(
            championship="_new",
            discipline="pair",
            **{"championship-name": "DM 2028", "championship-venue": "Aarhus"},
        ),
    )
    assert response.status_code == 302
    made = Competition.objects.get(name="Indledende runde A")
    assert (made.championship.slug, made.championship.venue, made.max_at_table) == (
        "dm-2028",
        "Aarhus",
        2,
    )


def test_a_refused_new_championship_makes_neither(admin, stray):
    response = admin.post(
        NEW,
        new_competition(
            championship="_new", **{"championship-name": "S", "championship-slug": "stray"}
        ),
    )
    assert response.status_code == 200
    assert (
        "Det korte navn »stray« bruges allerede af konkurrencen »Stray«."
        in response.content.decode()
    )
    assert not Competition.objects.filter(name="Indledende runde A").exists()
    assert not Championship.objects.filter(name="S").exists()
    # and a refused competition takes its new championship back
    response = admin.post(
        NEW,
        new_competition(slug="stray", championship="_new", **{"championship-name": "DM 2029"}),
    )
    assert response.status_code == 200
    assert not Championship.objects.filter(name="DM 2029").exists()


def test_the_default_is_a_team_competition_on_its_own_as_before(admin):
    page = admin.get(NEW).content.decode()
    assert '<option value="_own" selected>' in page
    assert admin.post(NEW, new_competition()).status_code == 302
    made = Competition.objects.get(name="Indledende runde A")
    assert (made.championship.slug, made.discipline, made.max_at_table) == (made.slug, "team", 4)


# --- the setup page ---------------------------------------------------------------------------
def test_the_setup_page_moves_a_stray_competition_into_a_championship_and_out(admin, dm, stray):
    url = reverse("desk:setup", args=["stray"])
    response = admin.post(url, setup_post(stray, championship="dm-2027", round="B"))
    assert response.status_code == 302, response.content.decode()[:3000]
    stray.refresh_from_db()
    assert (stray.championship, stray.round) == (dm, "B")
    assert not Championship.objects.filter(slug="stray").exists()
    page = admin.get(url).content.decode()
    assert "Del af mesterskabet" in page and "/control/dm-2027/" in page
    assert '<option value="dm-2027" selected>' in page
    admin.post(url, setup_post(stray, championship="_own", round="B"))
    stray.refresh_from_db()
    assert stray.championship.slug == "stray"


def test_the_setup_page_names_a_table_clash_and_saves_nothing(admin, admin_user, dm, stray):
    heat = competition_create(
        by=admin_user, slug="heat-a", name="Heat A", starts_at=START, championship=dm
    )
    TeamFactory(competition=heat, name="Anna", table=2)
    response = admin.post(
        reverse("desk:setup", args=["stray"]),
        setup_post(stray, championship="dm-2027", name="Omdøbt"),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "»Anna«" in html and "»Heat A«" in html
    stray.refresh_from_db()
    assert (stray.championship.slug, stray.name) == ("stray", "Stray")


def test_after_the_start_the_placement_is_read_only_and_a_late_change_is_refused(admin, dm, stray):
    Competition.objects.filter(pk=stray.pk).update(started_at=timezone.now())
    stray.refresh_from_db()
    url = reverse("desk:setup", args=["stray"])
    page = admin.get(url).content.decode()
    for name in ("championship", "discipline", "round"):
        assert "disabled" in page.split(f'name="{name}"')[1][:200], name
    assert "kan ikke længere slettes" in page and 'action="/desk/stray/delete"' not in page
    before = AuditEntry.objects.count()
    response = admin.post(url, setup_post(stray, championship="dm-2027", name="Omdøbt"))
    assert response.status_code == 200
    assert STARTED in response.content.decode()
    stray.refresh_from_db()
    assert (stray.championship.slug, stray.name) == ("stray", "Stray")
    assert AuditEntry.objects.count() == before
    # the disabled fields are not sent: the name is saved, the rest stays
    body = setup_post(stray, name="Omdøbt")
    for name in ("championship", "discipline", "round"):
        del body[name]
    assert admin.post(url, body).status_code == 302
    stray.refresh_from_db()
    assert (stray.championship.slug, stray.name, stray.discipline) == ("stray", "Omdøbt", "team")


# --- deleting ---------------------------------------------------------------------------------
def test_delete_asks_first_and_says_how_many_entrants_go(admin, stray):
    page = admin.get(reverse("desk:setup", args=["stray"])).content.decode()
    form = page.split('action="/desk/stray/delete"')[1][:300]
    assert 'data-confirm="Slet »Stray« med dens 2 hold? Det kan ikke fortrydes."' in form


def test_a_stray_competition_deleted_goes_from_the_home_page_and_its_address(admin, public, stray):
    assert 'href="/stray/"' in public.get("/").content.decode()
    response = admin.post(reverse("desk:delete", args=["stray"]))
    assert response.status_code == 302 and response["Location"] == "/"
    assert said(response) == ["»Stray« er slettet med sine 2 hold."]
    assert not Team.objects.filter(name="Hold 1").exists()
    assert 'href="/stray/"' not in admin.get("/").content.decode()
    assert public.get("/stray/").status_code == 404
    assert admin.get(reverse("desk:delete", args=["stray"])).status_code == 405


def test_a_competition_deleted_from_a_championship_leaves_its_programme(
    admin, admin_user, public, dm, stray, memo_clock
):
    heat = competition_create(
        by=admin_user,
        slug="heat-a",
        name="Heat A",
        starts_at=START,
        championship=dm,
        discipline="individual",
    )
    admin.post(reverse("desk:setup", args=["stray"]), setup_post(stray, championship="dm-2027"))
    programme = public.get("/dm-2027/", HTTP_HX_REQUEST="true")
    assert "Stray" in programme.content.decode()
    etag = programme["ETag"]
    response = admin.post(reverse("desk:delete", args=["stray"]))
    assert response["Location"] == "/control/dm-2027/"
    memo_clock.advance(2)  # a public reader is at most a second behind
    again = public.get("/dm-2027/", HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and again["ETag"] != etag
    assert "Stray" not in again.content.decode() and "Heat A" in again.content.decode()
    assert "Stray" not in public.get("/dm-2027/").content.decode()
    assert 'href="/stray/"' not in public.get("/").content.decode()
    entry = AuditEntry.objects.get(action="competition_delete")
    assert entry.competition == heat


def test_a_started_competition_is_not_deleted(admin, stray):
    Competition.objects.filter(pk=stray.pk).update(started_at=timezone.now())
    response = admin.post(reverse("desk:delete", args=["stray"]))
    assert response["Location"] == reverse("desk:setup", args=["stray"])
    assert said(response) == ["Uret er startet; konkurrencen kan ikke længere slettes."]
    assert Team.objects.filter(competition=stray).count() == 2


def test_a_championship_is_deleted_from_its_control_room_only_when_empty(admin, admin_user, dm):
    competition_create(
        by=admin_user, slug="heat-a", name="Heat A", starts_at=START, championship=dm
    )
    room = admin.get("/control/dm-2027/").content.decode()
    assert 'id="delete-championship"' not in room
    response = admin.post(reverse("desk:delete", args=["dm-2027"]))
    assert response["Location"] == "/control/dm-2027/"
    assert "har stadig konkurrencer" in said(response)[0]
    admin.post(reverse("desk:delete", args=["heat-a"]))
    response = admin.post(reverse("desk:delete", args=["dm-2027"]))
    assert response["Location"] == "/"
    assert said(response)[-1] == "Mesterskabet »DM 2027« er slettet."
    assert not Championship.objects.filter(slug="dm-2027").exists()
