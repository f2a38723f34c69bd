"""The home page names each championship of several competitions, linking to its programme
and big screen; a competition of its own stays a competition, as before."""

from django.utils import timezone

from competition.services import competition_create


def test_a_championship_is_named_with_its_programme_and_rounds(client, dm, heats):
    body = client.get("/").content.decode()
    head, competitions = body.split("<h2>Alle konkurrencer</h2>", 1)
    assert "Mesterskaber" in head and "DM i puslespil 2027" in head
    assert 'href="/dm-2027/"' in head and 'href="/dm-2027/screen/"' in head
    assert "2 konkurrencer" in head
    # Every round is still listed among the competitions, with its own pages.
    assert 'href="/heat-a/"' in competitions and 'href="/heat-b/"' in competitions


def test_staff_get_the_championships_desk_and_control_room(client, admin_user, dm, heats):
    client.force_login(admin_user)
    body = client.get("/").content.decode().split("<h2>Alle konkurrencer</h2>", 1)[0]
    assert 'href="/desk/dm-2027/"' in body and 'href="/control/dm-2027/"' in body


def test_a_competition_of_its_own_is_no_championship(client, db, admin_user):
    competition_create(by=admin_user, slug="alene", name="Alene 2027", starts_at=timezone.now())
    body = client.get("/").content.decode()
    assert "Mesterskaber" not in body and "Alene 2027" in body


def test_the_home_page_is_one_query_however_many(client, dm, heats, django_assert_num_queries):
    with django_assert_num_queries(1):
        client.get("/")
