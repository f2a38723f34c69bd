from django.shortcuts import get_object_or_404, render

from competition.models import Competition
from competition.roles import ADMIN, role_required


@role_required(ADMIN)
def room(request, slug):
    competition = get_object_or_404(Competition, slug=slug)
    return render(request, "judging/control_room.html", {"competition": competition})
