"""The judges page: make judge logins (passwords validated, or strong
ones made), print a login slip per judge (username, password, the judge page's QR code at
the hall's address) and revoke a lost tablet (its tokens and sessions). Head judge only;
every write is a service call. A password is shown once, on the slip page that answers the
POST (never in a message, a redirect or a log): only its hash is kept.

A championship's slug (`staff_view(..., championship=...)`): the same page for its judges,
who judge every competition of it; the slips' QR opens the championship's tablet page
(`/judge/<championship>/`) and each write is audited in each of its competitions."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
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


def _slips(request, where, logins):
    """The print page: one slip per (user, password or "") pair."""
    owner = next(iter(where.values()))
    url = judge_url(request, owner)
    return render(
        request,
        "judging/judge_slips.html",
        {
            **where,
            "owner": owner,
            "slips": [{"user": user, "password": password} for user, password in logins],
            "judge_url": url,
            "judge_qr": qr_svg(url, scale=4),
            "only_here": only_here(url),
        },
    )


def _judges_page(request, **where):
    form = JudgeLoginForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user, password = judge_login_create(
                **where,
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
            return _slips(request, where, [(user, password)])
    judges = list(_judges())
    return render(
        request,
        "judging/control_judges.html",
        {**where, "owner": next(iter(where.values())), "judges": judges, "form": form},
        status=400 if form.errors else 200,
    )


@staff_view(ADMIN, competition=True, championship=never_cache(_judges_page))
@never_cache
def judges(request, competition):
    return _judges_page(request, competition=competition)


def _slips_page(request, **where):
    """GET: a slip per judge with a line to write the password on. POST (`all`): every
    judge gets a new strong password, printed on the slips (the old ones stop working)."""
    logins = list(_judges())
    if request.method == "POST":
        pairs = [(user, judge_password_new(**where, user=user, by=request.user)) for user in logins]
        return _slips(request, where, pairs)
    return _slips(request, where, [(user, "") for user in logins])


@staff_view(ADMIN, competition=True, championship=never_cache(_slips_page))
@never_cache
def slips(request, competition):
    return _slips_page(request, competition=competition)


def _password_page(request, pk, **where):
    user = get_object_or_404(_judges(), pk=pk)
    password = judge_password_new(**where, user=user, by=request.user)
    return _slips(request, where, [(user, password)])


@staff_view(ADMIN, competition=True, post=True, championship=never_cache(_password_page))
@never_cache
def password_new(request, competition, pk):
    return _password_page(request, pk, competition=competition)


def _revoke(request, pk, **where):
    """A lost tablet: its login's tokens and sessions end, and its password stops working."""
    user = get_object_or_404(_judges(), pk=pk)
    done = staff_revoke(user=user, **where, by=request.user)
    messages.success(
        request,
        _(
            "“%(name)s” is logged out on every tablet (%(sessions)s, %(tokens)s) and the "
            "password no longer works. Make a new password for a new slip."
        )
        % {
            "name": user.get_username(),
            "sessions": ngettext("%(n)s session", "%(n)s sessions", done["sessions"])
            % {"n": done["sessions"]},
            "tokens": ngettext("%(n)s API token", "%(n)s API tokens", done["tokens"])
            % {"n": done["tokens"]},
        },
    )
    return redirect("control:judges", slug=next(iter(where.values())).slug)


@staff_view(ADMIN, competition=True, post=True, championship=_revoke)
def revoke(request, competition, pk):
    return _revoke(request, pk, competition=competition)
