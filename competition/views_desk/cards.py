"""Print-ready table cards with a QR code to each team's page (R15), of a competition or of
every competition of a championship."""

from django.shortcuts import render
from django.urls import reverse

from competition import selectors
from competition.inputs import whole_number
from competition.models import Championship
from competition.qr import absolute_url, only_here, qr_svg
from competition.roles import DESK, staff_view


def _page(request, teams, context: dict):
    """The cards of `teams` (each with its competition: its name, date and words on the
    card), two A5 cards per A4 sheet, each with a QR code to the team page at the address
    phones open (PUBLIC_URL, the hall's under `make hall`)."""
    for team in teams:
        path = reverse("public:team", args=[team.competition.slug, team.pk])
        team.url = absolute_url(request, path)
        team.qr_svg = qr_svg(team.url)
    context.update(
        teams=teams,
        pages=[teams[i : i + 2] for i in range(0, len(teams), 2)],
        only_here=only_here(absolute_url(request, "/")),
    )
    return render(request, "competition/desk_cards.html", context)


def _championship_cards(request, championship: Championship):
    """Every competition's cards (not the withdrawn), by the programme's order then table."""
    competitions = selectors.championship_competitions(championship=championship)
    teams = selectors.championship_teams(championship=championship, competitions=competitions)
    shown = [t for t in teams if not t.withdrawn]
    return _page(request, shown, {"championship": championship, "desk_slug": championship.slug})


@staff_view(DESK, competition=True, championship=_championship_cards)
def cards(request, competition):
    """The competition's cards, or those of the teams chosen on the desk (`?team=`)."""
    chosen = [n for n in map(whole_number, request.GET.getlist("team")) if n is not None]
    if chosen:
        teams = selectors.team_list(competition=competition, pks=chosen)
    else:
        teams = selectors.team_list(competition=competition, withdrawn=False)
    for team in teams:
        team.competition = competition
    context = {"competition": competition, "chosen": chosen, "desk_slug": competition.slug}
    return _page(request, teams, context)
