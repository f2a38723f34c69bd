"""Followers beyond the tables: the speaker's feed, the stream overlay and the
projected finish on the team page. Public answers only, never a personal value, never an
unconfirmed count; a projection says it is one ("forventet") and is never a result."""

import pytest

from competition.models import Competition
from scoring.selectors.memo import memo_clear
from tests.factories import MemberFactory, TeamFactory
from tests.scoring.standings_data import finish, running_competition


@pytest.fixture
def day(db):
    """90 minutes into a 180-minute clock: Kantsøgerne lead after overtaking Brikkebanden."""
    c, (p1, p2, _p3) = running_competition(slug="dm-feed", minutes_ago=90)
    a = TeamFactory(competition=c, name="Kantsøgerne", table=5, contact_phone="+45 99887766")
    b = TeamFactory(competition=c, name="Brikkebanden", table=8)
    MemberFactory(team=a, name="Ottilie Hemmeligsen", under_15=True, guardian="Valdemar Værgesen")
    finish(b, p1, 1700)
    finish(a, p1, 1800, missing=[1])
    finish(a, p2, 4323)  # 1:12:03: now first, up one place
    return c, a, b


SECRETS = ("Ottilie", "Valdemar", "99887766")


def test_the_feed_reads_the_newest_finish_first_with_its_place(client, day):
    c, a, b = day
    response = client.get(f"/{c.slug}/feed/")
    assert response.status_code == 200
    text = " ".join(response.content.decode().split())
    first = text.index("Bord 5 · Kantsøgerne er færdig med puslespil 2 efter 1:12:03 – nu nr. 1")
    second = text.index("Bord 5 · Kantsøgerne er færdig med puslespil 1 efter 0:30:00 – nu nr. 2")
    third = text.index("Bord 8 · Brikkebanden er færdig med puslespil 1 efter 0:28:20 – nu nr. 1")
    assert first < second < third  # newest first
    assert "(+1)" in text[first:second]
    assert "Ny førende" in text[first - 80 : first]  # the badge opens its line
    assert "Ny førende" not in text[second - 80 : second]
    for secret in SECRETS:
        assert secret not in text


def test_the_feed_names_teams_close_to_finishing_as_projected(client, day):
    c, a, b = day
    # Brikkebanden: 500 pieces in 1700 s, so 1000 more at 5100 s: past (5400 s now), not
    # "close". A team on pace to finish within five minutes of now:
    fast = TeamFactory(competition=c, name="Hurtigfingrene", table=3)
    finish(fast, c.puzzles.get(position=1), 1830)  # 1000 more in 3660 s -> 5490 s: in 90 s
    response = client.get(f"/{c.slug}/feed/")
    text = " ".join(response.content.decode().split())
    assert "Tæt på at blive færdige" in text
    assert "Bord 3 · Hurtigfingrene forventes færdig med puslespil 2 om ca. 2 min." in text
    assert "forventet" in text


def test_the_overlay_is_the_top_n_and_the_clock_on_a_transparent_page(client, day):
    c, a, b = day
    response = client.get(f"/{c.slug}/overlay/?top=1")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Kantsøgerne" in html and "Brikkebanden" not in html  # only the top 1
    assert "data-clock" in html and "overlay.css" in html
    assert "Content-Security-Policy" in response.headers
    for secret in SECRETS:
        assert secret not in html
    default = client.get(f"/{c.slug}/overlay/").content.decode()
    assert "Brikkebanden" in default  # top 5 by default


def test_the_overlay_says_which_heat_by_its_rounds_name(client, day):
    # A heat of a championship: the stream's viewers read which heat it is, the round's name.
    c, _a, _b = day
    Competition.objects.filter(pk=c.pk).update(
        name="DM individuel", discipline="individual", round="Indledende heat 1"
    )
    html = client.get(f"/{c.slug}/overlay/").content.decode()
    assert '<div class="overlay-title">DM individuel</div>' in html
    assert '<div class="overlay-round" data-round>Indledende heat 1</div>' in html
    # A competition of one round says its name once.
    Competition.objects.filter(pk=c.pk).update(round="")
    memo_clear()  # as a reader a second later
    assert "data-round" not in client.get(f"/{c.slug}/overlay/").content.decode()


@pytest.mark.parametrize("top", ["0", "21", "abc", "-1", "５"])
def test_an_odd_top_is_a_sentence_not_a_500(client, day, top):
    c, _a, _b = day
    response = client.get(f"/{c.slug}/overlay/", {"top": top})
    assert response.status_code == 400
    assert "1" in response.content.decode() and "20" in response.content.decode()


def test_the_team_page_shows_the_projected_finish_labelled_as_such(client, day):
    c, a, b = day
    fast = TeamFactory(competition=c, name="Hurtigfingrene", table=3)
    finish(fast, c.puzzles.get(position=1), 1830)  # 1000 more in 3660 s: at 5490 s
    html = " ".join(client.get(f"/{c.slug}/teams/{fast.pk}/").content.decode().split())
    assert "forventet færdig omkring 1:31:30 (ud fra holdets tempo)" in html
    # Brikkebanden's pace says 1:25:00, already past at 1:30:00: no guess is shown.
    slow = " ".join(client.get(f"/{c.slug}/teams/{b.pk}/").content.decode().split())
    assert "forventet færdig" not in slow


def test_the_speaker_page_is_the_feed_for_the_head_judge(client, day, admin_user, judge):
    c, a, b = day
    client.force_login(judge)
    assert client.get(f"/control/{c.slug}/speaker/").status_code == 403
    client.force_login(admin_user)
    html = " ".join(client.get(f"/control/{c.slug}/speaker/").content.decode().split())
    assert "Bord 5 · Kantsøgerne er færdig med puslespil 2 efter 1:12:03 – nu nr. 1" in html
    # The time is the clock's, since the start: "efter", never a time of day ("kl.").
    assert " kl. " not in html
    fragment = client.get(f"/{c.slug}/feed/", HTTP_HX_REQUEST="true").content.decode()
    assert "færdig med puslespil 2 efter 1:12:03" in " ".join(fragment.split())
    client.cookies["django_language"] = "en"
    html = " ".join(client.get(f"/control/{c.slug}/speaker/").content.decode().split())
    assert "Table 5 · Kantsøgerne finished puzzle 2 after 1:12:03 – now no. 1" in html


def test_the_feed_answers_in_constant_queries(client, day, django_assert_max_num_queries):
    c, _a, _b = day
    client.get(f"/{c.slug}/feed/")
    with django_assert_max_num_queries(3):
        client.get(f"/{c.slug}/feed/")
