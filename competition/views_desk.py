"""The desk (R2, R3, R15, R17, P1, P2) and the competition setup pages.

Every write goes through competition.services; the views only read input and show answers.
"""

import segno
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from competition import imports, services
from competition.errors import Refusal
from competition.forms import (
    CompetitionForm,
    ImportForm,
    PuzzleFormSet,
    TeamForm,
    member_formset,
    members_from,
    puzzles_from,
)
from competition.inputs import redirect_next, whole_number
from competition.models import Competition, Team
from competition.roles import ADMIN, DESK, role_required

FILTERS = {
    "in": lambda t: t.checked_in_at is not None and not t.withdrawn,
    "missing": lambda t: t.checked_in_at is None and not t.withdrawn,
    "unpaid": lambda t: not t.fee_paid and not t.withdrawn,
    "withdrawn": lambda t: t.withdrawn,
}


def _competition(slug: str) -> Competition:
    return get_object_or_404(Competition, slug=slug)


def _team(competition: Competition, pk: int) -> Team:
    team = get_object_or_404(Team, competition=competition, pk=pk)
    team.competition = competition
    return team


def _counts(teams: list[Team]) -> dict:
    active = [t for t in teams if not t.withdrawn]
    return {
        "all": len(active),
        "in": sum(1 for t in active if t.checked_in_at),
        "missing": sum(1 for t in active if not t.checked_in_at),
        "unpaid": sum(1 for t in active if not t.fee_paid),
        "withdrawn": len(teams) - len(active),
    }


def _matches(team: Team, q: str) -> bool:
    if not q:
        return True
    if whole_number(q) == team.table:
        return True
    q = q.casefold()  # Python, not SQL: SQLite's lower() knows only ASCII
    return q in team.name.casefold() or any(q in m.name.casefold() for m in team.members.all())


def _desk_context(request, competition: Competition) -> dict:
    teams = list(
        Team.objects.filter(competition=competition).prefetch_related("members").order_by("table")
    )
    q = request.GET.get("q", "").strip()
    f = request.GET.get("f", "")
    shown = [t for t in teams if _matches(t, q) and FILTERS.get(f, lambda t: True)(t)]
    now = timezone.now()
    return {
        "competition": competition,
        "teams": shown,
        "counts": _counts(teams),
        "q": q,
        "f": f if f in FILTERS else "",
        "past_deadline": now >= competition.check_in_deadline,
        "deadline_iso": competition.check_in_deadline.isoformat(),
        "server_ms": int(now.timestamp() * 1000),
        "filters": [
            ("", _("All"), "all"),
            ("in", _("Checked in"), "in"),
            ("missing", _("Not checked in"), "missing"),
            ("unpaid", _("Fee unpaid"), "unpaid"),
            ("withdrawn", _("Withdrawn"), "withdrawn"),
        ],
    }


@role_required(DESK)
def teams(request, slug):
    """The desk's team list: search, filters, counts, check-in in one tap."""
    competition = _competition(slug)
    context = _desk_context(request, competition)
    if request.htmx and request.htmx.target == "team-list":
        return render(request, "competition/_desk_team_list.html", context)
    return render(request, "competition/desk_teams.html", context)


def _row_answer(request, competition: Competition, team: Team):
    """After a tap: the htmx row plus the counts (out of band), or back to the list."""
    if not request.htmx:
        return redirect_next(request, reverse("desk:teams", args=[competition.slug]))
    team = Team.objects.prefetch_related("members").get(pk=team.pk)
    all_teams = list(
        Team.objects.filter(competition=competition).only("checked_in_at", "fee_paid", "withdrawn")
    )
    return render(
        request,
        "competition/_desk_row_answer.html",
        {
            "competition": competition,
            "team": team,
            "counts": _counts(all_teams),
            "past_deadline": timezone.now() >= competition.check_in_deadline,
        },
    )


def _team_action(service, **extra):
    @role_required(DESK)
    @require_POST
    def view(request, slug, pk):
        competition = _competition(slug)
        team = _team(competition, pk)
        try:
            kwargs = {k: v(request) if callable(v) else v for k, v in extra.items()}
            team = service(team=team, by=request.user, **kwargs)
        except Refusal as refusal:
            if request.htmx:
                return HttpResponse(str(refusal.message), status=409)
            messages.error(request, refusal.message)
        return _row_answer(request, competition, team)

    return view


check_in = _team_action(services.team_check_in)
check_in_undo = _team_action(services.team_check_in_undo)
fee = _team_action(services.team_fee_set, paid=lambda r: r.POST.get("paid") == "1")


def _withdraw_action(service, message):
    @role_required(DESK)
    @require_POST
    def view(request, slug, pk):
        competition = _competition(slug)
        team = _team(competition, pk)
        try:
            service(team=team, by=request.user)
            messages.success(request, message % {"team": team.name})
        except Refusal as refusal:  # after the start: the head judge's (issue 11)
            messages.error(request, refusal.message)
        except ValidationError as error:  # an admin here after the start: no reason field
            for text in error.messages:
                messages.error(request, text)
        return redirect("desk:team_edit", slug=slug, pk=pk)

    return view


withdraw = _withdraw_action(services.team_withdraw, gettext_lazy("“%(team)s” is withdrawn."))
withdraw_undo = _withdraw_action(
    services.team_withdraw_undo, gettext_lazy("“%(team)s” competes again.")
)


def _save_team(request, competition: Competition, team: Team | None):
    """Register (team None) or edit a team with its members."""
    MemberFormSet = member_formset(extra=competition.max_at_table if team is None else 1)
    if request.method == "POST":
        form = TeamForm(request.POST)
        formset = MemberFormSet(request.POST, prefix="members")
        if form.is_valid() and formset.is_valid():
            data = dict(form.cleaned_data)
            members = members_from(formset)
            try:
                if team is None:
                    team = services.team_create(
                        competition=competition, by=request.user, members=members, **data
                    )
                    messages.success(
                        request,
                        _("“%(team)s” is registered at table %(table)s.")
                        % {"team": team.name, "table": team.table},
                    )
                    if "another" in request.POST:
                        return redirect("desk:team_new", slug=competition.slug)
                else:
                    services.team_update(team=team, by=request.user, members=members, **data)
                    messages.success(request, _("“%(team)s” is saved.") % {"team": team.name})
                return redirect("desk:teams", slug=competition.slug)
            except ValidationError as exc:
                for field, errors in exc.message_dict.items():
                    for error in errors:
                        form.add_error(field if field in form.fields else None, error)
            except Refusal as refusal:
                form.add_error(None, str(refusal.message))
    elif team is None:
        form = TeamForm(initial={"table": services.next_free_table(competition)})
        formset = MemberFormSet(prefix="members")
    else:
        form = TeamForm(
            initial={f: getattr(team, f) for f in TeamForm.base_fields if hasattr(team, f)}
        )
        formset = MemberFormSet(
            prefix="members",
            initial=[
                {"name": m.name, "under_15": m.under_15, "guardian": m.guardian}
                for m in team.members.all()
            ],
        )
    return render(
        request,
        "competition/desk_team_form.html",
        {
            "competition": competition,
            "team": team,
            "form": form,
            "formset": formset,
            "next_free": services.next_free_table(competition),
        },
    )


@role_required(DESK)
def team_new(request, slug):
    return _save_team(request, _competition(slug), None)


@role_required(DESK)
def team_edit(request, slug, pk):
    competition = _competition(slug)
    return _save_team(request, competition, _team(competition, pk))


@role_required(DESK)
def refunds(request, slug):
    """P2: the teams that paid their entry fee (refunded on a cancellation)."""
    competition = _competition(slug)
    paid = Team.objects.filter(competition=competition, fee_paid=True).order_by("table")
    return render(
        request, "competition/desk_refunds.html", {"competition": competition, "teams": paid}
    )


@role_required(DESK)
def export(request, slug):
    competition = _competition(slug)
    response = HttpResponse(
        "\ufeff" + imports.export_csv(competition), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}-hold.csv"'
    return response


# --- import ---------------------------------------------------------------------------------
@role_required(DESK)
def import_teams(request, slug):
    """Upload -> preview (nothing written) -> confirm (all or nothing), or cancel."""
    competition = _competition(slug)
    context = {"competition": competition, "form": ImportForm()}
    imports.preview_cleanup()
    if request.method == "POST" and "token" in request.POST:
        token = request.POST["token"]
        stored = imports.preview_find(competition, token, by=request.user)
        if not stored:
            messages.error(request, _("The uploaded file has expired; upload it again."))
            return redirect("desk:import", slug=slug)
        if "cancel" in request.POST:
            imports.preview_discard(stored)
            messages.info(request, _("The import is cancelled; nothing was saved."))
            return redirect("desk:import", slug=slug)
        content = bytes(stored.content)
        mapping = _import_mapping(request.POST)
        if "remap" in request.POST:  # the desk changed how a column is read: preview again
            context.update(
                preview=imports.preview(competition, content, stored.filename, mapping),
                token=token,
                filename=stored.filename,
            )
            return _import_page(request, context)
        try:
            created = imports.confirm(
                competition,
                content,
                stored.filename,
                by=request.user,
                mapping=mapping,
                skip_problems="skip_problems" in request.POST,
            )
        except imports.ImportRefused as refused:
            context.update(
                preview=refused.preview,
                token=token,
                refused=refused.message,
                filename=stored.filename,
            )
        except Refusal as refusal:
            messages.error(request, refusal.message)
            return redirect("desk:import", slug=slug)
        else:
            imports.preview_discard(stored)
            messages.success(request, _("Teams imported: %(count)s.") % {"count": len(created)})
            return redirect("desk:teams", slug=slug)
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        context["form"] = form
        if form.is_valid():
            upload = form.cleaned_data["file"]
            content = upload.read()
            try:
                context["preview"] = imports.preview(competition, content, upload.name)
            except imports.ImportFileError as exc:
                form.add_error("file", str(exc))
            else:
                token = imports.preview_store(competition, content, upload.name, by=request.user)
                context.update(token=token, filename=upload.name)
    return _import_page(request, context)


def _import_mapping(data) -> dict[int, str]:
    """The preview's column selects (`col-3` = "member:2"), as the import's mapping."""
    mapping = {}
    for name, value in data.items():
        if name.startswith("col-"):
            index = whole_number(name[4:], low=0, high=10_000)
            if index is not None:
                mapping[index] = value
    return mapping


def _import_page(request, context):
    """The import page; with a preview, its columns with how each is read (issue 15)."""
    preview = context.get("preview")
    if preview is not None:
        numbers = [int(c["key"].split(":")[1]) for c in preview.columns if c["key"]]
        choices = imports.mapping_choices(max([6, *numbers]))
        for column in preview.columns:
            column["choices"] = choices
    return render(request, "competition/desk_import.html", context)


@role_required(DESK)
def import_example(request, slug):
    text = (
        "hold;bord;medlem 1;medlem 1 under 15;medlem 1 ledsagende voksen;medlem 2;"
        "medlem 2 under 15;medlem 2 ledsagende voksen;betalt\r\n"
        "Kantsøgerne;1;Anne Jensen;;;Ida Jensen;x;Anne Jensen;ja\r\n"
        "Brikkebanden;2;Søren Nielsen;;;Line Nielsen;;;\r\n"
    )
    response = HttpResponse("\ufeff" + text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="tilmeldinger-eksempel.csv"'
    return response


# --- table cards (R15) -------------------------------------------------------------------------
@role_required(DESK)
def cards(request, slug):
    """Print-ready table cards, two A5 cards per A4 sheet, each with a QR code to the team page."""
    competition = _competition(slug)
    qs = Team.objects.filter(competition=competition, withdrawn=False)
    chosen = [n for n in map(whole_number, request.GET.getlist("team")) if n is not None]
    if chosen:
        qs = Team.objects.filter(competition=competition, pk__in=chosen)
    teams = list(qs.prefetch_related("members").order_by("table"))
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


# --- setup (admin) -------------------------------------------------------------------------
@role_required(ADMIN)
def competition_new(request):
    form = CompetitionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            competition = services.competition_create(by=request.user, **form.cleaned_data)
        except ValidationError as exc:
            _errors_to_form(form, exc)
        else:
            messages.success(request, _("The competition is created; now add its puzzles."))
            return redirect("desk:setup", slug=competition.slug)
    return render(request, "competition/setup.html", {"form": form, "competition": None})


def _errors_to_form(form, exc: ValidationError) -> None:
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            for error in errors:
                form.add_error(field if field in form.fields else None, error)
    else:
        for error in exc.messages:
            form.add_error(None, error)


@role_required(ADMIN)
def setup(request, slug):
    """Edit the competition and its puzzle sequence while it is in setup."""
    competition = get_object_or_404(Competition.objects.prefetch_related("puzzles"), slug=slug)
    started = competition.started_at is not None
    fields = (
        "name",
        "slug",
        "venue",
        "starts_at",
        "duration_minutes",
        "max_at_table",
        "hide_motifs",
    )
    initial = {f: getattr(competition, f) for f in fields}
    puzzles_initial = [
        {"id": p.pk, "title": p.title, "brand": p.brand, "pieces": p.pieces, "ORDER": p.position}
        for p in competition.puzzles.all()
    ]
    if request.method == "POST":
        form = CompetitionForm(request.POST, initial=initial, started=started)
        formset = PuzzleFormSet(request.POST, prefix="puzzles", initial=puzzles_initial)
        sequence_ok = started or formset.is_valid()
        if form.is_valid() and sequence_ok:
            try:
                data = form.cleaned_data
                if started:  # the disabled fields only echo what is stored
                    data = {f: data[f] for f in ("name", "venue")}
                competition = services.competition_update(
                    competition=competition, by=request.user, **data
                )
                if not started:
                    services.puzzle_sequence_set(
                        competition=competition, by=request.user, puzzles=puzzles_from(formset)
                    )
            except ValidationError as exc:
                _errors_to_form(form, exc)
            except Refusal as refusal:
                form.add_error(None, str(refusal.message))
            else:
                messages.success(request, _("The competition is saved."))
                return redirect("desk:setup", slug=competition.slug)
    else:
        form = CompetitionForm(initial=initial, started=started)
        formset = PuzzleFormSet(prefix="puzzles", initial=puzzles_initial)
    return render(
        request,
        "competition/setup.html",
        {"form": form, "formset": formset, "competition": competition, "started": started},
    )
