"""The head judge's advance page (/control/<round>/advance/): the earlier rounds, how many
go on, the preview by the sources' final standings (R11) with a tie at the cut shown with
its entrants' pieces and times, the tie decided, the advance confirmed through the service
(audited); every refusal said in Danish on the page, nothing written then."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from competition.models import AuditEntry, Competition, Team
from tests.championships.conftest import heat
from tests.factories import CompetitionFactory

pytestmark = pytest.mark.django_db


def url(competition, **params) -> str:
    from urllib.parse import urlencode

    query = urlencode(params, doseq=True)
    return reverse("control:advance", args=[competition.slug]) + (f"?{query}" if query else "")


@pytest.fixture
def head(client, admin_user):
    client.force_login(admin_user)
    return client


def html_of(response) -> str:
    return response.content.decode()


def preview(html: str) -> str:
    start = html.index('id="advance-preview"')
    return html[start : html.index("</section>", start)]


def rows(html: str, marker: str) -> list[str]:
    """The names in the rows marked `marker` (data-entrant / data-tied), in order."""
    import re

    return re.findall(rf'<tr {marker}="\d+">.*?<td>(?:<label[^>]*>)?([^<]+)<', html, re.S)


def nothing_written(final) -> bool:
    return (
        not Team.objects.filter(competition=final).exists()
        and not AuditEntry.objects.filter(competition=final, action="advance").exists()
    )


def test_the_page_offers_the_earlier_rounds_of_the_same_discipline_ticked(head, heats, final):
    response = head.get(url(final))
    assert response.status_code == 200
    html = html_of(response)
    assert "Hvem går videre" in html and "DM Finale" in html
    for heat_ in heats:
        assert f'value="{heat_.slug}" id=' in html
        assert f'value="{heat_.slug}" id="id_from_{heats.index(heat_)}" checked' in html
    assert "Endelige resultater" in html  # each round's status
    assert "data-goes-on" not in html  # no preview before the numbers are given


def test_the_preview_of_the_best_of_each_heat_writes_nothing(head, heats, final):
    response = head.get(url(final, **{"from": ["heat-a", "heat-b"], "best": 2, "per": "each"}))
    html = preview(html_of(response))
    # R11 across the heats: Eva finished first; Anna and Bo share place 1 in heat A.
    assert rows(html, "data-entrant") == ["Eva", "Anna", "Bo", "Finn"]
    assert 'data-going="4"' in html and "4 går videre til DM Finale" in html
    assert "0:16:40" in html and "300" in html  # Anna's last whole puzzle; Finn's pieces
    assert "data-tie" not in html
    assert nothing_written(final)


def test_a_tie_at_the_cut_is_shown_with_pieces_and_times(head, heats, final):
    response = head.get(url(final, **{"from": ["heat-a", "heat-b"], "best": 4, "per": "all"}))
    html = preview(html_of(response))
    assert rows(html, "data-entrant") == ["Eva", "Anna", "Bo"]
    tie = html[html.index("data-tie") :]
    assert rows(tie, "data-tied") == ["Cille", "Finn"]
    assert "2 deltagere står lige efter reglerne (regel 11) om 1 plads" in tie
    assert "Ligestilling ved grænsen for alle runderne samlet" in tie
    assert "alle de ligestillede går videre" in html and "Jeg vælger, hvem der går videre" in html
    assert nothing_written(final)


def post(client, final, **fields):
    body = {"from": ["heat-a", "heat-b"], "best": 4, "per": "all", **fields}
    return client.post(url(final), body)


def test_the_tie_undecided_is_asked_again_and_nothing_is_written(head, heats, final):
    response = post(head, final)
    assert response.status_code == 200
    html = html_of(response)
    assert "Der står deltagere lige ved grænsen" in html
    assert "data-tie" in preview(html)  # the tie is shown again to decide
    assert nothing_written(final)


def test_a_choice_outside_the_tie_is_refused_and_nothing_is_written(head, heats, final):
    anna = Team.objects.get(competition__slug="heat-a", name="Anna").pk
    response = post(head, final, tie="choose", choose=[anna])
    html = html_of(response)
    assert "Vælg kun blandt de deltagere, der står lige ved grænsen." in html
    assert nothing_written(final)
    for choose in ([], [t.pk for t in Team.objects.filter(name__in=["Cille", "Finn"])]):
        response = post(head, final, tie="choose", choose=choose)
        assert "Vælg præcis så mange" in html_of(response)
        assert nothing_written(final)
    response = post(head, final, tie="choose", choose=["x²"])
    assert response.status_code == 200 and nothing_written(final)


def test_the_head_judge_chooses_in_the_tie_and_they_go_on(head, admin_user, heats, final):
    finn = Team.objects.get(competition__slug="heat-b", name="Finn").pk
    response = post(head, final, tie="choose", choose=[finn])
    assert response.status_code == 302
    assert response["Location"] == reverse("control:room", args=[final.slug])
    teams = Team.objects.filter(competition=final).order_by("table")
    assert [t.name for t in teams] == ["Eva", "Anna", "Bo", "Finn"]
    entry = AuditEntry.objects.get(competition=final, action="advance")
    assert entry.user == admin_user and entry.after["choose"] == [finn]
    room = head.get(response["Location"])
    assert "4 gik videre til »DM Finale«: Eva, Anna, Bo, Finn." in html_of(room)
    # The page now lists who went on, with the round they came from.
    page = html_of(head.get(url(final)))
    assert "4 deltagere er gået videre til denne runde" in page
    assert "DM Indledende runde B" in page[page.index("data-advanced") :]


def test_all_the_tied_go_on(head, heats, final):
    response = post(head, final, tie="all")
    assert response.status_code == 302
    assert Team.objects.filter(competition=final).count() == 5


def test_ticking_the_tied_alone_chooses_them(head, heats, final):
    cille = Team.objects.get(competition__slug="heat-a", name="Cille").pk
    assert post(head, final, choose=[cille]).status_code == 302
    assert Team.objects.filter(competition=final, name="Cille").exists()


def test_the_same_confirmation_twice_makes_nothing_twice(head, heats, final):
    """Two tabs, or a resend: the service answers what it made the first time."""
    assert post(head, final, tie="all").status_code == 302
    again = post(head, final, tie="all")
    assert again.status_code == 302
    assert Team.objects.filter(competition=final).count() == 5
    assert AuditEntry.objects.filter(competition=final, action="advance").count() == 1
    other = post(head, final, tie="all", best=2)
    assert other.status_code == 200
    assert "Deltagere fra disse runder er allerede gået videre til »DM Finale«." in html_of(other)
    assert Team.objects.filter(competition=final).count() == 5
    # Its preview says so and offers no confirmation.
    html = preview(html_of(head.get(url(final, **{"from": ["heat-a"], "best": 1, "per": "each"}))))
    assert "er allerede gået videre til denne runde" in html
    assert "Bekræft" not in html


def test_sources_not_final_are_named_in_the_preview_and_refused(head, dm, heats, final):
    heat(dm, "heat-c", "Indledende runde C", [("Ib", 100, None, False)], final=False)
    params = {"from": ["heat-a", "heat-c"], "best": 2, "per": "each"}
    html = html_of(head.get(url(final, **params)))
    assert "Resultaterne af “DM Indledende runde C” er ikke endelige endnu." in preview(html)
    assert "data-goes-on" not in html
    response = head.post(url(final), params)
    assert "Resultaterne af “DM Indledende runde C” er ikke endelige endnu." in html_of(response)
    assert nothing_written(final)


def test_a_started_round_says_so_and_refuses(head, heats, final):
    Competition.objects.filter(pk=final.pk).update(started_at=timezone.now() - timedelta(minutes=1))
    html = html_of(head.get(url(final)))
    assert "Uret i denne runde er startet" in html and "advance-form" not in html
    response = post(head, final, tie="all")
    assert response.status_code == 200
    assert "Uret i »DM Finale« er startet; deltagerne kan ikke længere ændres." in html_of(response)
    assert nothing_written(final)


def test_a_finalised_round_refuses_first(head, heats):
    a, b = heats
    response = head.post(url(b), {"from": ["heat-a"], "best": 1, "per": "each"})
    assert response.status_code == 200
    assert "endelige" in html_of(response)
    assert not Team.objects.filter(competition=b, advanced_from__isnull=False).exists()


def test_odd_input_is_said_never_a_500(head, heats, final):
    for params in (
        {"from": ["nope"], "best": 2},
        {"from": ["heat-a"], "best": "²"},
        {"from": ["heat-a"], "best": "0"},
        {"from": ["heat-a"], "best": "9" * 30},
        {"from": ["finale"], "best": 2},
        {"from": [], "best": 2},
        {"from": ["heat-a"], "best": 2, "per": "hvad"},
    ):
        response = head.get(url(final, **params))
        assert response.status_code == 200, params
        assert 'class="error-summary"' in html_of(response), params
        assert head.post(url(final), params).status_code == 200, params
    assert nothing_written(final)


def test_a_round_of_another_championship_is_not_offered(head, heats, final):
    CompetitionFactory(slug="andet", name="Et andet mesterskab")
    html = html_of(head.get(url(final)))
    assert "Et andet mesterskab" not in html
    response = head.get(url(final, **{"from": ["andet"], "best": 2}))
    assert "Et andet mesterskab" not in html_of(response)
    assert "er ikke en tidligere runde" in html_of(response)


def test_htmx_swaps_the_preview_alone(head, heats, final):
    response = head.get(
        url(final, **{"from": ["heat-a", "heat-b"], "best": 2, "per": "each"}),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="advance-preview",
    )
    body = html_of(response)
    assert body.startswith('<section id="advance-preview"') and "<html" not in body
    assert rows(body, "data-entrant") == ["Eva", "Anna", "Bo", "Finn"]
    bad = head.get(
        url(final, **{"from": ["heat-a"], "best": ""}),
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="advance-preview",
    )
    assert "Hvor mange går videre: Dette felt er påkrævet." in html_of(bad)


def test_the_control_room_links_a_round_in_setup_of_a_championship(head, heats, final):
    link = url(final)
    assert link in html_of(head.get(reverse("control:room", args=[final.slug])))
    a, _b = heats  # a heat with its results: no link
    assert url(a) not in html_of(head.get(reverse("control:room", args=[a.slug])))
    alone = CompetitionFactory(slug="alene")  # a competition alone in its championship
    assert url(alone) not in html_of(head.get(reverse("control:room", args=[alone.slug])))


def test_only_the_head_judge(client, make_user, heats, final):
    assert client.get(url(final))["Location"].startswith("/accounts/login/")
    for role in ("judge", "desk"):
        client.force_login(make_user(role, f"u-{role}"))
        assert client.get(url(final)).status_code == 403
        assert post(client, final, tie="all").status_code == 403
    assert nothing_written(final)


@pytest.mark.parametrize("n", [3, 40])
def test_the_preview_reads_in_queries_that_do_not_grow(
    head, dm, final, django_assert_max_num_queries, memo_clock, n
):
    for letter in "ab":
        heat(
            dm,
            f"h-{letter}",
            f"Indledende runde {letter.upper()}",
            [(f"{letter}{i}", 600 + i, None, False) for i in range(n)],
        )
    params = {"from": ["h-a", "h-b"], "best": 2, "per": "each"}
    head.get(url(final, **params))  # the sources' standings computed once, as on their pages
    memo_clock.advance(2)
    with django_assert_max_num_queries(14):
        response = head.get(url(final, **params))
    assert rows(preview(html_of(response)), "data-entrant") == ["a0", "b0", "a1", "b1"]
