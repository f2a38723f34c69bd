"""What the head judge reads on the advance page (issue 33, item 3): "4 går videre" only once it
is true (while a tie at the cut is undecided, who is sure and how many places the tie
holds); only the earlier rounds of the round's discipline offered; a heat's own page and
control room offer no advance; who went on with their check-in and fee; "Fortryd
videregangen" before the start, and advancing again after it."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from championships.services import advance
from competition.models import AuditEntry, Competition, Team
from competition.services import competition_create
from tests.championships.conftest import heat
from tests.championships.test_advance_carry import same_day_before
from tests.championships.test_advance_page import html_of, preview, url

pytestmark = pytest.mark.django_db

TIE = {"from": ["heat-a", "heat-b"], "best": 4, "per": "all"}  # Cille and Finn tied for 4th


@pytest.fixture
def head(client, admin_user):
    client.force_login(admin_user)
    return client


def heading(html: str) -> str:
    """The words of the preview's count (heading and the tie's line), tags dropped."""
    import re

    start = html.index('id="advance-going"')
    part = html[start : html.index("</div>", start)]
    return " ".join(re.sub(r"<[^>]+>", " ", part.split(">", 1)[1]).split())


def finn() -> int:
    return Team.objects.get(competition__slug="heat-b", name="Finn").pk


def cille() -> int:
    return Team.objects.get(competition__slug="heat-a", name="Cille").pk


def test_an_undecided_tie_says_who_is_sure_and_the_places_it_holds(head, heats, final):
    html = preview(html_of(head.get(url(final, **TIE))))
    assert heading(html) == (
        "3 går videre med sikkerhed til DM Finale "
        "Ligestilling ved grænsen: 2 deltagere står lige om 1 plads mere. "
        "Afgør nedenfor, om de alle går videre, eller hvem der gør."
    )
    assert "4 går videre" not in html and "5 går videre" not in html


@pytest.mark.parametrize(
    ("decision", "says"),
    [
        ({"tie": "all"}, "5 går videre til DM Finale"),
        ({"tie": "choose", "choose": "finn"}, "4 går videre til DM Finale"),
        ({"choose": "cille"}, "4 går videre til DM Finale"),  # ticking alone chooses
        ({"tie": "choose", "choose": "both"}, "3 går videre med sikkerhed til DM Finale"),
        ({"tie": "choose"}, "3 går videre med sikkerhed til DM Finale"),
    ],
)
def test_the_count_follows_the_ties_decision_once_it_is_decided(head, heats, final, decision, says):
    chosen = {"finn": [finn()], "cille": [cille()], "both": [finn(), cille()]}
    params = {**TIE, **decision}
    if "choose" in decision:
        params["choose"] = chosen[decision["choose"]]
    html = preview(html_of(head.get(url(final, **params))))
    assert heading(html).startswith(says)
    # The decision stays ticked (a reloaded link shows the same).
    if decision.get("tie") == "all":
        assert 'value="all" id="id_tie_0" checked' in html


def test_htmx_swaps_the_count_alone_when_the_tie_is_decided(head, heats, final):
    html = preview(html_of(head.get(url(final, **TIE))))
    # The confirmation form asks the page again (GET, no CSRF token in the address) on a change.
    assert 'hx-target="#advance-going"' in html and 'hx-params="not csrfmiddlewaretoken"' in html
    response = head.get(
        url(final, **TIE, tie="all"), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="advance-going"
    )
    body = html_of(response)
    assert "<html" not in body
    assert heading(body) == "5 går videre til DM Finale"


def test_without_a_tie_the_count_is_said_at_once(head, heats, final):
    html = preview(html_of(head.get(url(final, **{**TIE, "best": 3}))))
    assert heading(html) == "3 går videre til DM Finale"


# --- only the earlier rounds of the round's discipline ---------------------------------------


@pytest.fixture
def pairs(dm):
    return heat(dm, "par", "Par", [("Ida og Ole", 700, None, False)], discipline="pair")


def test_an_individual_final_never_offers_the_pairs_or_a_later_round(head, dm, heats, pairs, final):
    competition_create(
        by=None,
        slug="superfinale",
        name="DM Superfinale",
        starts_at=final.starts_at + timedelta(hours=1),
        championship=dm,
        discipline="individual",
        round="Superfinale",
    )
    html = html_of(head.get(url(final)))
    assert 'value="heat-a"' in html and 'value="heat-b"' in html
    assert 'value="par"' not in html and 'value="superfinale"' not in html
    response = head.post(url(final), {"from": ["par"], "best": 1, "per": "each", "tie": "all"})
    assert "»par« er ikke en tidligere runde i denne rundes disciplin" in html_of(response)
    assert not Team.objects.filter(competition=final).exists()


@pytest.fixture
def heats_in_setup(dm):
    """Two heats side by side tomorrow at 10 (entrants registered, not started) and their
    final at 14."""
    tomorrow = timezone.localtime() + timedelta(days=1)
    at = tomorrow.replace(hour=10, minute=0, second=0, microsecond=0)
    rounds = {}
    for slug, round_, hours in (("a", "Indledende runde A", 0), ("b", "Indledende runde B", 0)):
        rounds[slug] = competition_create(
            by=None,
            slug=f"side-{slug}",
            name=f"DM {round_}",
            starts_at=at + timedelta(hours=hours),
            championship=dm,
            discipline="individual",
            round=round_,
        )
        Team.objects.create(competition=rounds[slug], name=f"Puslinger {slug}", table=1)
    rounds["final"] = competition_create(
        by=None,
        slug="side-finale",
        name="DM Finale i morgen",
        starts_at=at + timedelta(hours=4),
        championship=dm,
        discipline="individual",
        round="Finale",
    )
    return rounds


def test_a_heats_control_room_offers_no_advance_and_its_page_says_why(head, heats_in_setup):
    heat_a, final = heats_in_setup["a"], heats_in_setup["final"]
    room = html_of(head.get(reverse("control:room", args=[heat_a.slug])))
    assert url(heat_a) not in room and "Hvem går videre fra de tidligere runder" not in room
    page = html_of(head.get(url(heat_a)))
    assert (
        "DM Indledende runde A får ikke deltagere fra tidligere runder: ingen konkurrence i "
        "samme disciplin i mesterskabet starter før den."
    ) in page
    assert "advance-form" not in page and 'value="side-b"' not in page
    # Also once its clock runs: the reason is that it has no earlier round.
    Competition.objects.filter(pk=heat_a.pk).update(started_at=timezone.now())
    page = html_of(head.get(url(heat_a)))
    assert "får ikke deltagere fra tidligere runder" in page and "data-started" not in page
    # The final's control room links its page, which offers both heats.
    assert url(final) in html_of(head.get(reverse("control:room", args=[final.slug])))
    page = html_of(head.get(url(final)))
    assert 'value="side-a"' in page and 'value="side-b"' in page


def test_a_heat_planned_after_another_offers_no_advance_in_its_control_room(head, dm, heats, final):
    """Heats one after the other (the second planned when the first ends), the final after
    both: the second heat has entrants of its own and a round after it, so it is a heat, not
    a round that takes entrants from the first."""
    later = heat(dm, "heat-c", "Indledende runde C", [("Gry", None, None, False)], final=False)
    Competition.objects.filter(pk=later.pk).update(
        starts_at=timezone.now() + timedelta(hours=1), started_at=None
    )
    room = html_of(head.get(reverse("control:room", args=[later.slug])))
    assert url(later) not in room and "Hvem går videre fra de tidligere runder" not in room
    # Before anyone is in it, it could be a later round: the link is there.
    Team.objects.filter(competition=later).delete()
    room = html_of(head.get(reverse("control:room", args=[later.slug])))
    assert url(later) in room
    # The final with a wildcard entrant of its own (no round after it) keeps its link.
    Team.objects.create(competition=final, name="Vinder 2026", table=9)
    assert url(final) in html_of(head.get(reverse("control:room", args=[final.slug])))


def test_a_heats_own_advance_refuses_the_other_heat(head, api_as, admin_user, heats_in_setup):
    """Heats side by side: neither is the other's earlier round, on the page or the API."""
    heat_a = heats_in_setup["a"]
    response = head.post(url(heat_a), {"from": ["side-b"], "best": 1, "per": "each"})
    assert response.status_code == 200
    assert "»side-b« er ikke en tidligere runde i denne rundes disciplin" in html_of(response)
    r = api_as(admin_user).post(
        f"/api/v1/competitions/{heat_a.slug}/advance",
        {"from": ["side-b"], "best": 1},
        format="json",
        HTTP_ACCEPT_LANGUAGE="da",
    )
    assert r.status_code == 400
    assert r.json()["from"] == [
        "»DM Indledende runde B« starter ikke før »DM Indledende runde A«: der går kun "
        "deltagere videre fra tidligere runder."
    ]
    assert not Team.objects.filter(competition=heat_a, advanced_from__isnull=False).exists()


# --- who went on, and the undo -----------------------------------------------------------------


def test_who_went_on_is_listed_with_check_in_and_fee_and_can_be_taken_back(
    head, admin_user, heats, final
):
    Team.objects.filter(competition__slug="heat-b", name="Eva").update(
        checked_in_at=same_day_before(final), fee_paid=True
    )
    advance(competition=final, sources=["heat-a", "heat-b"], best=2, by=admin_user)
    page = html_of(head.get(url(final)))
    done = page[page.index("data-advanced") : page.index("</section>", page.index("data-advanced"))]
    eva = Team.objects.get(competition=final, name="Eva")
    row = done[done.index(f'data-went-on="{eva.pk}"') :].split("</tr>")[0]
    assert "✓ " in row and "✓ betalt" in row
    bo = Team.objects.get(competition=final, name="Bo")
    row = done[done.index(f'data-went-on="{bo.pk}"') :].split("</tr>")[0]
    assert "ikke tjekket ind" in row and "ikke betalt" in row
    assert "Fortryd videregangen" in done
    assert 'data-confirm="Fortryd videregangen? 4 deltagere, der gik videre, fjernes igen' in done

    response = head.post(reverse("control:advance_undo", args=[final.slug]))
    assert response.status_code == 302 and response["Location"] == url(final)
    page = html_of(head.get(response["Location"]))
    assert (
        "Videregangen er fortrudt: 4 deltagere er ikke længere med i »DM Finale«: "
        "Eva, Anna, Bo, Finn."
    ) in page
    assert "data-advanced" not in page and "advance-form" in page
    assert not Team.objects.filter(competition=final).exists()
    # ... and the head judge advances again.
    again = head.post(url(final), {"from": ["heat-a", "heat-b"], "best": 2, "per": "each"})
    assert again.status_code == 302
    assert Team.objects.filter(competition=final).count() == 4


def test_the_undo_twice_or_after_the_start_is_said_and_changes_nothing(
    head, admin_user, heats, final
):
    undo = reverse("control:advance_undo", args=[final.slug])
    page = html_of(head.get(head.post(undo)["Location"]))
    assert "Ingen er gået videre til »DM Finale« fra en tidligere runde" in page
    advance(competition=final, sources=["heat-a", "heat-b"], best=2, by=admin_user)
    Competition.objects.filter(pk=final.pk).update(started_at=timezone.now())
    page = html_of(head.get(url(final)))
    assert "data-advanced" in page and "Fortryd videregangen" not in page
    page = html_of(head.get(head.post(undo)["Location"]))
    assert "Uret i »DM Finale« er startet; deltagerne kan ikke længere ændres." in page
    assert Team.objects.filter(competition=final).count() == 4
    assert not AuditEntry.objects.filter(competition=final, action="advance_undo").exists()


def test_only_the_head_judge_takes_it_back(client, make_user, admin_user, heats, final):
    advance(competition=final, sources=["heat-a", "heat-b"], best=2, by=admin_user)
    undo = reverse("control:advance_undo", args=[final.slug])
    assert client.post(undo)["Location"].startswith("/accounts/login/")
    for role in ("judge", "desk"):
        client.force_login(make_user(role, f"u-{role}"))
        assert client.post(undo).status_code == 403
    client.force_login(admin_user)
    assert client.get(undo).status_code == 405
    assert Team.objects.filter(competition=final).count() == 4
