from django.shortcuts import get_object_or_404, render

from competition.models import Competition


def home(request):
    """The competitions, newest first."""
    competitions = Competition.objects.only(
        "slug",
        "name",
        "venue",
        "starts_at",
        "started_at",
        "stopped_at",
        "finalised_at",
        "duration_minutes",
    )
    return render(request, "scoring/home.html", {"competitions": competitions})


def rules(request):
    return render(request, "scoring/rules.html")


def leaderboard(request, slug):
    competition = get_object_or_404(Competition, slug=slug)
    return render(request, "scoring/leaderboard.html", {"competition": competition})
