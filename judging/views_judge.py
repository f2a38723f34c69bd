from django.shortcuts import get_object_or_404, render

from competition.models import Competition
from competition.roles import JUDGE, role_required


@role_required(JUDGE)
def board(request, slug):
    competition = get_object_or_404(Competition, slug=slug)
    return render(request, "judging/judge_board.html", {"competition": competition})
