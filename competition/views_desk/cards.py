"""Print-ready table cards with a QR code to each team's page (R15)."""

from django.shortcuts import render
from django.urls import reverse

from competition import selectors
from competition.inputs import whole_number
from competition.qr import absolute_url, only_here, qr_svg
from competition.roles import DESK, staff_view


@staff_view(DESK, competition=True)
def cards(request, competition):
    """Print-ready table cards, two A5 cards per A4 sheet, each with a QR code to the team page
    at the address phones open (PUBLIC_URL, the hall's under `make hall`)."""
    chosen = [n for n in map(whole_number, request.GET.getlist("team")) if n is not None]
    if chosen:
        teams = selectors.team_list(competition=competition, pks=chosen)
    else:
        teams = selectors.team_list(competition=competition, withdrawn=False)
    for team in teams:
        team.url = absolute_url(request, reverse("public:team", args=[competition.slug, team.pk]))
        team.qr_svg = qr_svg(team.url)
    pages = [teams[i : i + 2] for i in range(0, len(teams), 2)]
    return render(
        request,
        "competition/desk_cards.html",
        {
            "competition": competition,
            "teams": teams,
            "pages": pages,
            "chosen": chosen,
            "only_here": only_here(absolute_url(request, "/")),
        },
    )
