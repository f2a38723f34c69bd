"""Print-ready table cards with a QR code to each team's page (R15)."""

import segno
from django.shortcuts import render
from django.utils.safestring import mark_safe

from competition import selectors
from competition.inputs import whole_number
from competition.roles import DESK, role_required


@role_required(DESK)
def cards(request, slug):
    """Print-ready table cards, two A5 cards per A4 sheet, each with a QR code to the team page."""
    competition = selectors.competition_get(slug=slug)
    chosen = [n for n in map(whole_number, request.GET.getlist("team")) if n is not None]
    if chosen:
        teams = selectors.team_list(competition=competition, pks=chosen)
    else:
        teams = selectors.team_list(competition=competition, withdrawn=False)
    for team in teams:
        team.url = request.build_absolute_uri(f"/{competition.slug}/teams/{team.pk}/")
        qr = segno.make(team.url, error="m")
        team.qr_svg = mark_safe(qr.svg_inline(scale=4, border=2, omitsize=True))  # noqa: S308
    pages = [teams[i : i + 2] for i in range(0, len(teams), 2)]
    return render(
        request,
        "competition/desk_cards.html",
        {"competition": competition, "teams": teams, "pages": pages, "chosen": chosen},
    )
