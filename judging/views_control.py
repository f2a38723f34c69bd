"""The control room (admin): the clock, status at a glance, corrections, warnings,
disqualification (R4, R10, R14, R18) and the audit log. Every write is a service call."""

import logging
import re
from datetime import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db.models import Count as Num
from django.db.models import Exists, Max, OuterRef, Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from competition import audit_text
from competition import services as competition_services
from competition.errors import Refusal
from competition.inputs import whole_number
from competition.models import AuditEntry, Competition, Status, Team
from competition.roles import ADMIN, role_required
from judging import services as judging_services
from judging import views_control_clock
from judging.models import Count, Finish
from judging.spot_picker import MissingSpotsMixin
from scoring.rules import format_hms

log = logging.getLogger(__name__)


# --- input ---------------------------------------------------------------------------------
def hms(seconds: int | None) -> str:
    return "" if seconds is None else format_hms(seconds)


def parse_hms(text: str) -> int:
    """'1:23:45' (h:mm:ss), '23:45' (m:ss) or '95' (seconds) -> whole seconds."""
    text = (text or "").strip()
    # ASCII digits (`\d` is any script's), not too many of them (int() refuses 4,300).
    if not re.fullmatch(r"[0-9]{1,7}(:[0-9]{1,2}){0,2}", text):
        raise forms.ValidationError(_("Write the time as h:mm:ss, for example 1:23:45."))
    parts = [int(p) for p in text.split(":")]
    if any(p >= 60 for p in parts[1:]):
        raise forms.ValidationError(_("Minutes and seconds go from 00 to 59."))
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + part
    return seconds


def parse_spots(text: str) -> list[int]:
    """'1, 2' -> [1, 2]: one number per spot with missing pieces, its size (R8)."""
    text = (text or "").strip()
    if not text:
        return []
    parts = [p for p in re.split(r"[,;\s]+", text) if p]
    if not all(whole_number(p, low=1) for p in parts):
        raise forms.ValidationError(
            _("Write one positive number per spot with missing pieces, e.g. “1, 2”.")
        )
    return [int(p) for p in parts]


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"), widget=forms.Textarea(attrs={"rows": 2}), max_length=2000
    )


class ClockStartForm(forms.Form):
    started_at = forms.DateTimeField(
        label=gettext_lazy("It really started at (optional)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1}),
        input_formats=["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"],
    )


class ClockCorrectForm(forms.Form):
    started_at = forms.DateTimeField(
        label=gettext_lazy("The clock really started at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local", "step": 1}),
        input_formats=["%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M"],
    )


class FinishCorrectForm(MissingSpotsMixin, ReasonForm):
    """The time and the missing pieces with the tablet's picker (issue 15), and a reason."""

    time = forms.CharField(label=gettext_lazy("Time (h:mm:ss)"), max_length=12)
    field_order = ["time", "lone", "reason"]

    def clean_time(self):
        return parse_hms(self.cleaned_data["time"])


class CountCorrectForm(ReasonForm):
    pieces = forms.IntegerField(label=gettext_lazy("Placed pieces"), min_value=0)


# --- reads ---------------------------------------------------------------------------------
def _competition(slug: str) -> Competition:
    return get_object_or_404(Competition.objects.prefetch_related("puzzles"), slug=slug)


def _teams(competition: Competition):
    """Every team with its finishes counted, last time, warnings and count: fixed queries."""
    return (
        Team.objects.filter(competition=competition)
        .annotate(
            n_finished=Num("finishes", distinct=True),
            n_warnings=Num("warnings", distinct=True),
            last_seconds=Max("finishes__elapsed_seconds"),
            has_count=Exists(Count.objects.filter(team=OuterRef("pk"))),
        )
        .order_by("table")
    )


def _glance(competition: Competition, teams: list[Team]) -> dict:
    """Status at a glance: teams on each puzzle, finished everything, counts missing."""
    puzzles = list(competition.puzzles.all())
    total = len(puzzles)
    competing = [t for t in teams if t.competing]
    on = {p.position: 0 for p in puzzles}
    for t in competing:
        if t.n_finished < total:
            on[t.n_finished + 1] += 1
    ended = competition.has_ended()
    missing = [t for t in competing if t.n_finished < total and not t.has_count] if ended else []
    return {
        "puzzles": [(p, on[p.position]) for p in puzzles],
        "all_done": sum(1 for t in competing if total and t.n_finished >= total),
        "competing": len(competing),
        "withdrawn": sum(1 for t in teams if t.withdrawn),
        "disqualified": sum(1 for t in teams if t.disqualified),
        "counts_missing": missing,
        "ended": ended,
    }


@role_required(ADMIN)
def room(request, slug):
    competition = _competition(slug)
    teams = list(_teams(competition))
    for t in teams:
        t.last_hms = hms(t.last_seconds)
    now = timezone.now()
    start_initial = _local_input(now)
    status = competition.status_at(now)
    registered = any(t.n_finished or t.has_count for t in teams)
    context = {
        "competition": competition,
        "teams": teams,
        "glance": _glance(competition, teams),
        "status": status,
        "status_label": Status(status).label,
        "clock": competition.clock_dict(now),
        "elapsed_hms": hms(competition.elapsed_seconds(now)),
        "remaining_hms": hms(competition.remaining_seconds(now)),
        "server_ms": int(now.timestamp() * 1000),
        "start_form": ClockStartForm(initial={"started_at": start_initial}),
        # DAY.md: started 30 seconds late, the head judge corrects the start (R4); only
        # while nothing is registered, whose times are measured from the start.
        "correct_form": (
            ClockCorrectForm(initial={"started_at": _local_input(competition.started_at)})
            if status == Status.RUNNING and not registered
            else None
        ),
        "has_clock": hasattr(competition_services, "clock_start"),
        **views_control_clock.room_context(competition, teams, now),  # issue 15
    }
    if request.htmx and request.htmx.target == "control-live":
        return render(request, "judging/_control_live.html", context)
    return render(request, "judging/control_room.html", context)


def _local_input(moment: datetime) -> str:
    """A moment as a datetime-local field's value, in Danish time, to the second."""
    return timezone.localtime(moment).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%S")


# --- the clock -----------------------------------------------------------------------------
def _refused(request, exc) -> None:
    if isinstance(exc, Refusal):
        messages.error(request, exc.message)
    else:
        for error in exc.messages:
            messages.error(request, error)


@role_required(ADMIN)
@require_POST
def clock_start(request, slug):
    competition = _competition(slug)
    form = ClockStartForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("control:room", slug=slug)
    # "Start now" ignores the field; "correct" starts from the time the head judge gives.
    started_at: datetime | None = None
    if "correct" in request.POST:
        started_at = form.cleaned_data["started_at"]
        if started_at is None:
            messages.error(request, _("Give the time the clock really started."))
            return redirect("control:room", slug=slug)
    try:
        competition_services.clock_start(
            competition=competition, by=request.user, started_at=started_at
        )
    except (Refusal, ValidationError) as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("The clock is running."))
    return redirect("control:room", slug=slug)


@role_required(ADMIN)
@require_POST
def clock_correct(request, slug):
    """R4, DAY.md: move the start of the running clock, while nothing is registered."""
    competition = _competition(slug)
    form = ClockCorrectForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect("control:room", slug=slug)
    try:
        competition = competition_services.clock_correct(
            competition=competition, by=request.user, started_at=form.cleaned_data["started_at"]
        )
    except (Refusal, ValidationError) as exc:
        _refused(request, exc)
    else:
        messages.success(
            request,
            _("The start is corrected to %(time)s; every time is measured from it.")
            % {"time": timezone.localtime(competition.started_at).strftime("%H:%M:%S")},
        )
    return redirect("control:room", slug=slug)


@role_required(ADMIN)
@require_POST
def clock_stop(request, slug):
    competition = _competition(slug)
    try:
        competition_services.clock_stop(competition=competition, by=request.user)
    except (Refusal, ValidationError) as exc:
        _refused(request, exc)
    else:
        messages.success(request, _("The clock is stopped: time is up."))
    return redirect("control:room", slug=slug)


# --- one team ------------------------------------------------------------------------------
def _team(competition: Competition, pk: int) -> Team:
    team = get_object_or_404(
        Team.objects.prefetch_related(
            Prefetch(
                "finishes",
                queryset=Finish.objects.select_related("puzzle", "registered_by").order_by(
                    "puzzle__position"
                ),
            ),
            "warnings__given_by",
        ),
        competition=competition,
        pk=pk,
    )
    team.competition = competition
    return team


def _team_context(competition: Competition, team: Team, **forms_) -> dict:
    finishes = list(team.finishes.all())
    for f in finishes:
        f.hms = hms(f.elapsed_seconds)
        f.spots = audit_text.missing_words(f.missing) if f.missing else ""
        f.form = forms_.get(f"finish_{f.pk}") or FinishCorrectForm(
            prefix=f"f{f.pk}", initial={"time": f.hms, **MissingSpotsMixin.initial_from(f.missing)}
        )
    count = Count.objects.filter(team=team).select_related("puzzle", "registered_by").first()
    audit = (
        AuditEntry.objects.filter(team=team).select_related("user", "team").order_by("-at", "-id")
    )
    return {
        "competition": competition,
        "team": team,
        "finishes": finishes,
        "latest_finish": finishes[-1] if finishes else None,
        "count": count,
        "count_form": forms_.get("count")
        or CountCorrectForm(prefix="count", initial={"pieces": count.pieces if count else None}),
        "warning_form": forms_.get("warning") or ReasonForm(prefix="warning"),
        "dq_form": forms_.get("dq") or ReasonForm(prefix="dq"),
        "wd_form": forms_.get("wd") or ReasonForm(prefix="wd"),
        "audit": _audit_rows(audit[:50]),
    }


@role_required(ADMIN)
def team(request, slug, pk):
    competition = _competition(slug)
    return render(
        request, "judging/control_team.html", _team_context(competition, _team(competition, pk))
    )


def _team_write(request, competition, team, call, success, form_key=None, form=None):
    """Run a service; on success back to the team page, else the page with the errors."""
    try:
        call()
    except Refusal as refusal:
        messages.error(request, refusal.message)
    except ValidationError as exc:
        if form is not None:
            for field, errors in getattr(exc, "message_dict", {None: exc.messages}).items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
            team = _team(competition, team.pk)
            return render(
                request,
                "judging/control_team.html",
                _team_context(competition, team, **{form_key: form}),
                status=400,
            )
        _refused(request, exc)
    else:
        messages.success(request, success)
    return redirect("control:team", slug=competition.slug, pk=team.pk)


def _invalid(request, competition, team, form_key, form):
    return render(
        request,
        "judging/control_team.html",
        _team_context(competition, _team(competition, team.pk), **{form_key: form}),
        status=400,
    )


def _reason_action(service, success, prefix: str):
    """A team action that needs only a reason: a warning (R14), disqualify, reinstate (R18),
    withdraw or undo it (after the start the head judge's, issue 11)."""

    @role_required(ADMIN)
    @require_POST
    def view(request, slug, pk):
        competition = _competition(slug)
        team = _team(competition, pk)
        form = ReasonForm(request.POST, prefix=prefix)
        if not form.is_valid():
            return _invalid(request, competition, team, prefix, form)
        return _team_write(
            request,
            competition,
            team,
            lambda: service(team=team, by=request.user, reason=form.cleaned_data["reason"]),
            success(team),
            prefix,
            form,
        )

    return view


warning = _reason_action(
    judging_services.warning_log, lambda team: _("The warning is logged."), "warning"
)
disqualify = _reason_action(
    judging_services.team_disqualify,
    lambda team: _("“%(team)s” is disqualified.") % {"team": team.name},
    "dq",
)
reinstate = _reason_action(
    judging_services.team_reinstate,
    lambda team: _("“%(team)s” competes again.") % {"team": team.name},
    "dq",
)
withdraw = _reason_action(
    competition_services.team_withdraw,
    lambda team: _("“%(team)s” is withdrawn.") % {"team": team.name},
    "wd",
)
withdraw_undo = _reason_action(
    competition_services.team_withdraw_undo,
    lambda team: _("“%(team)s” competes again.") % {"team": team.name},
    "wd",
)


@role_required(ADMIN)
@require_POST
def finish_correct(request, slug, pk, finish_id):
    competition = _competition(slug)
    team = _team(competition, pk)
    finish = get_object_or_404(Finish, pk=finish_id, team=team)
    form = FinishCorrectForm(request.POST, prefix=f"f{finish.pk}")
    key = f"finish_{finish.pk}"
    if not form.is_valid():
        return _invalid(request, competition, team, key, form)
    data = form.cleaned_data
    return _team_write(
        request,
        competition,
        team,
        lambda: judging_services.finish_correct(
            finish=finish,
            by=request.user,
            reason=data["reason"],
            elapsed_seconds=data["time"],
            missing=data["missing"],
        ),
        _("The finish of puzzle %(position)s is corrected.") % {"position": finish.puzzle.position},
        key,
        form,
    )


@role_required(ADMIN)
@require_POST
def finish_delete(request, slug, pk, finish_id):
    competition = _competition(slug)
    team = _team(competition, pk)
    finish = get_object_or_404(Finish, pk=finish_id, team=team)
    form = ReasonForm(request.POST, prefix=f"d{finish.pk}")
    form.fields["reason"].required = False
    if not form.is_valid():  # e.g. a NUL character, which PostgreSQL's text cannot hold
        _refused(request, ValidationError(sum(form.errors.values(), [])))
        return redirect("control:team", slug=slug, pk=pk)
    reason = form.cleaned_data["reason"]
    return _team_write(
        request,
        competition,
        team,
        lambda: judging_services.finish_delete(finish=finish, by=request.user, reason=reason),
        _("The finish of puzzle %(position)s is deleted.") % {"position": finish.puzzle.position},
    )


@role_required(ADMIN)
@require_POST
def count_correct(request, slug, pk):
    competition = _competition(slug)
    team = _team(competition, pk)
    count = get_object_or_404(Count, team=team)
    form = CountCorrectForm(request.POST, prefix="count")
    if not form.is_valid():
        return _invalid(request, competition, team, "count", form)
    return _team_write(
        request,
        competition,
        team,
        lambda: judging_services.count_correct(
            count=count,
            by=request.user,
            reason=form.cleaned_data["reason"],
            pieces=form.cleaned_data["pieces"],
        ),
        _("The count is corrected."),
        "count",
        form,
    )


# --- the audit log -------------------------------------------------------------------------
def _audit_rows(entries) -> list[dict]:
    """Each entry as a Danish sentence with its changes before → after in words (issue 15)."""
    users: dict = {}
    rows = []
    for e in entries:
        if e.user_id:  # one roles lookup per person, not per entry
            e.user = users.setdefault(e.user_id, e.user)
        rows.append({"entry": e, **audit_text.describe(e)})
    return rows


@role_required(ADMIN)
def audit(request, slug):
    competition = get_object_or_404(Competition, slug=slug)
    entries = AuditEntry.objects.filter(competition=competition).select_related("user", "team")
    team_id = request.GET.get("team", "")
    user_id = request.GET.get("user", "")
    action = request.GET.get("action", "")
    if (team_pk := whole_number(team_id)) is not None:
        entries = entries.filter(team_id=team_pk)
    if (user_pk := whole_number(user_id)) is not None:
        entries = entries.filter(user_id=user_pk)
    if action and "\x00" not in action:  # PostgreSQL's text holds no NUL
        entries = entries.filter(action=action)
    all_entries = AuditEntry.objects.filter(competition=competition)
    users = (
        get_user_model()
        .objects.filter(pk__in=all_entries.exclude(user=None).values("user"))
        .order_by("username")
    )
    actions = [
        (a, audit_text.action_label(a))
        for a in all_entries.order_by("action").values_list("action", flat=True).distinct()
    ]
    return render(
        request,
        "judging/control_audit.html",
        {
            "competition": competition,
            "rows": _audit_rows(entries.order_by("-at", "-id")[:300]),
            "teams": Team.objects.filter(competition=competition).order_by("table"),
            "users": users,
            "actions": sorted(actions, key=lambda a: a[1]),
            "team_id": team_id,
            "user_id": user_id,
            "action": action,
        },
    )


# --- locked-out logins (login throttling, DESIGN.md "Running") ------------------------------
@role_required(ADMIN)
def logins(request, slug):
    """Logins locked by too many wrong passwords from one address, to unlock by hand (the
    command line does the same: `manage.py axes_reset_username NAME`)."""
    from axes.helpers import get_cool_off
    from axes.models import AccessAttempt
    from django.conf import settings
    from django.db.models import Sum

    competition = get_object_or_404(Competition, slug=slug)
    locked = (
        AccessAttempt.objects.filter(attempt_time__gte=timezone.now() - get_cool_off(request))
        .values("username", "ip_address")
        .annotate(failures=Sum("failures_since_start"), last=Max("attempt_time"))
        .filter(failures__gte=settings.AXES_FAILURE_LIMIT)
        .order_by("-last")
    )
    return render(
        request, "judging/control_logins.html", {"competition": competition, "locked": locked}
    )


class UnlockForm(forms.Form):
    username = forms.CharField(max_length=255)
    ip_address = forms.GenericIPAddressField(required=False)


@role_required(ADMIN)
@require_POST
def unlock(request, slug):
    from axes.utils import reset

    get_object_or_404(Competition, slug=slug)
    form = UnlockForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a locked login to unlock."))
        return redirect("control:logins", slug=slug)
    username, address = form.cleaned_data["username"], form.cleaned_data["ip_address"] or None
    if reset(username=username, ip=address):
        log.warning("Login %r from %s unlocked by %s", username, address, request.user)
        messages.success(request, _("“%(name)s” may log in again.") % {"name": username})
    return redirect("control:logins", slug=slug)
