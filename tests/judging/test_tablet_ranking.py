"""The tablet's finish sheet says what a missing piece costs under the competition's ranking
(issue 34 item 3): the page's config carries the ranking and the seconds per lone piece, and
the Danish words for them (static/js/judge/words.mjs says them; tests/js/judge_words_unit.mjs)."""

import json
import re

import pytest
from django.urls import reverse

from competition.models import Competition

pytestmark = pytest.mark.django_db


def _config(client, slug) -> dict:
    html = client.get(reverse("judge:board", args=[slug])).content.decode()
    raw = re.search(r'<script id="judge-config" type="application/json">(.*?)</script>', html, re.S)
    return json.loads(raw.group(1))


def test_the_tablet_knows_the_ranking_and_its_words(client, competition, teams, judge):
    client.force_login(judge)
    config = _config(client, competition.slug)
    assert config["ranking"] == "dm"
    Competition.objects.filter(pk=competition.pk).update(ranking="wjpc")
    config = _config(client, competition.slug)
    assert config["ranking"] == "wjpc" and config["penalty"] == 10
    assert config["texts"]["penalty_one"] == "+%(s)s sek. for 1 manglende brik"
    assert config["texts"]["penalty_many"] == "+%(s)s sek. for %(n)s manglende brikker"
    assert config["texts"]["penalty_none"] == "Ingen tid lægges til"
