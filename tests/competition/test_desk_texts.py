"""The Danish of the desk's pages as a Dane writes it: Danish quotation
marks (»…«), the login page names the organiser, the tablet's "Slet registreringen"."""

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from competition.models import Team
from judging.views_judge import _texts
from tests.factories import TeamFactory

pytestmark = pytest.mark.django_db


def test_the_login_page_names_the_organiser_too(client):
    html = client.get(reverse("login")).content.decode()
    assert "For dommere, skranken, overdommeren og arrangøren." in html


def test_the_tablets_delete_button_says_what_it_deletes():
    with translation.override("da"):
        assert _texts()["delete_it"] == "Slet registreringen"


@override_settings(LANGUAGE_CODE="da")
def test_the_desk_quotes_names_the_danish_way(client, desk, competition):
    team = TeamFactory(competition=competition, name="Kantsøgerne", table=1)
    client.force_login(desk)
    html = client.get(reverse("desk:team_edit", args=[competition.slug, team.pk])).content
    html = html.decode()
    assert "Ret »Kantsøgerne«" in html and "Træk »Kantsøgerne«?" in html
    assert "“" not in html and "”" not in html
    response = client.post(reverse("desk:withdraw", args=[competition.slug, team.pk]), follow=True)
    assert "»Kantsøgerne« er trukket." in response.content.decode()
    assert Team.objects.get(pk=team.pk).withdrawn
