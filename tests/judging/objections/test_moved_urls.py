"""The old /objections/ addresses move permanently to their audience's: a GET
answers 301 to the new address, a POST 308 (method and body kept), with the query string."""

import pytest

from judging.models import Objection

pytestmark = pytest.mark.django_db

SLUG = "dm-2026"


@pytest.fixture
def objection(ended, teams):
    return Objection.objects.create(team=teams[0], text="for sent")


def moves(objection_id: int) -> list[tuple[str, str]]:
    return [
        (f"/objections/{SLUG}/new/", f"/desk/{SLUG}/objections/"),
        (
            f"/objections/{SLUG}/{objection_id}/resolve/",
            f"/control/{SLUG}/objections/{objection_id}/resolve/",
        ),
        (f"/objections/{SLUG}/finalise/", f"/control/{SLUG}/finalise/"),
        (f"/objections/{SLUG}/official/", f"/desk/{SLUG}/official/"),
        (f"/objections/{SLUG}/audit.csv", f"/control/{SLUG}/audit.csv"),
    ]


def test_each_old_address_answers_a_permanent_redirect_to_the_new_one(client, objection):
    for old, new in moves(objection.pk):
        get = client.get(old)
        assert (get.status_code, get["Location"]) == (301, new), old
        post = client.post(old, {"x": "1"})
        assert (post.status_code, post["Location"]) == (308, new), old
        query = client.get(old + "?team=1&next=/control/dm-2026/")
        assert query["Location"] == new + "?team=1&next=/control/dm-2026/"


def test_the_new_addresses_answer_the_head_judge(client, objection, admin_user):
    client.force_login(admin_user)
    for old, new in moves(objection.pk):
        response = client.get(old, follow=True)
        assert response.redirect_chain == [(new, 301)], old
        assert response.status_code == 200, new


def test_a_form_posted_to_an_old_address_lands_on_the_new_one(client, objection, desk):
    client.force_login(desk)
    response = client.post(
        f"/objections/{SLUG}/new/", {"team": objection.team_id, "text": "for sent igen"}
    )
    assert response.status_code == 308
    response = client.post(response["Location"], {"team": objection.team_id, "text": "igen"})
    assert response.status_code == 302
    assert Objection.objects.filter(text="igen").exists()
