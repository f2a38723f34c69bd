"""The judges page: make judge logins (passwords validated, or strong
ones made), print a login slip per judge (username, password, the judge page's QR code at
the hall's address) and revoke a lost tablet (its tokens and sessions). Head judge only;
every write is a service call. A password is shown once, on the slip page that answers the
POST (never in a message, a redirect or a log): only its hash is kept."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from competition.qr import only_here, qr_svg
from competition.roles import ADMIN, JUDGE, staff_view
from competition.services import judge_login_create, judge_password_new, staff_revoke
from judging.forms import JudgeLoginForm
from judging.views_control.tablets import judge_url


def _judges():
    """The logins with the judge role (not the head judges), by username."""
    return (
        get_user_model()
        .objects.filter(groups__name=JUDGE, is_superuser=False)
        .exclude(groups__name=ADMIN)
        .order_by("username")
    )


def _slips(request, competition, logins):
    """The print page: one slip per (user, password or "") pair."""
    url = judge_url(request, competition)
    return render(
        request,
        "judging/judge_slips.html",
        {
            "competition": competition,
            "slips": [{"user": user, "password": password} for user, password in logins],
            "judge_url": url,
            "judge_qr": qr_svg(url, scale=4),
            "only_here": only_here(url),
        },
    )


@staff_view(ADMIN, competition=True)
@never_cache
def judges(request, competition):
    form = JudgeLoginForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user, password = judge_login_create(
                competition=competition,
                username=form.cleaned_data["username"],
                password=form.cleaned_data["password"],
                by=request.user,
            )
        except ValidationError as exc:
            for error in exc.messages:
                form.add_error(
                    "username" if getattr(exc, "code", None) == "username_taken" else "password",
                    error,
                )
        else:
            return _slips(request, competition, [(user, password)])
    judges = list(_judges())
    return render(
        request,
        "judging/control_judges.html",
        {"competition": competition, "judges": judges, "form": form},
        status=400 if form.errors else 200,
    )


@staff_view(ADMIN, competition=True)
@never_cache
def slips(request, competition):
    """GET: a slip per judge with a line to write the password on. POST (`all`): every
    judge gets a new strong password, printed on the slips (the old ones stop working)."""
    logins = list(_judges())
    if request.method == "POST":
        pairs = [
            (user, judge_password_new(competition=competition, user=user, by=request.user))
            for user in logins
        ]
        return _slips(request, competition, pairs)
    return _slips(request, competition, [(user, "") for user in logins])


@staff_view(ADMIN, competition=True, post=True)
@never_cache
def password_new(request, competition, pk):
    user = get_object_or_404(_judges(), pk=pk)
    password = judge_password_new(competition=competition, user=user, by=request.user)
    return _slips(request, competition, [(user, password)])


@staff_view(ADMIN, competition=True, post=True)
def revoke(request, competition, pk):
    """A lost tablet: its login's tokens and sessions end, and its password stops working."""
    user = get_object_or_404(_judges(), pk=pk)
    done = staff_revoke(user=user, competition=competition, by=request.user)
    messages.success(
        request,
        _(
            "“%(name)s” is logged out on every tablet (%(sessions)s sessions, %(tokens)s API "
            "tokens) and the password no longer works. Make a new password for a new slip."
        )
        % {"name": user.get_username(), **done},
    )
    return redirect("control:judges", slug=competition.slug)
