from django.shortcuts import get_object_or_404, render

from competition.models import Competition
from competition.roles import DESK, role_required


@role_required(DESK)
def teams(request, slug):
    competition = get_object_or_404(Competition, slug=slug)
    return render(request, "competition/desk_teams.html", {"competition": competition})
