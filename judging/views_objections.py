"""Pages for objections (R20): the desk files, an admin resolves and finalises; the official
results for print; the audit log as CSV. Every write goes through judging.services."""

import re

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from competition import audit_text
from competition.cells import csv_writer
from competition.errors import Refusal
from competition.inputs import redirect_next, whole_number
from competition.models import AuditEntry, Competition, Team
from competition.roles import ADMIN, DESK, role_required
from judging.models import Count, Finish, Objection
from judging.services import competition_finalise, objection_file, objection_resolve
from judging.views_control import _audit_rows, parse_hms
from scoring.rules import format_hms
from scoring.selectors import competition_standings

# --- forms ----------------------------------------------------------------------------------


class ObjectionForm(forms.Form):
    team = forms.ModelChoiceField(
        label=gettext_lazy("Team"),
        queryset=Team.objects.none(),
        empty_label=gettext_lazy("Choose the team"),
    )
    about = forms.ChoiceField(
        label=gettext_lazy("About (optional)"),
        required=False,
        help_text=gettext_lazy("The finish or the count the team objects to, if any."),
    )
    text = forms.CharField(
        label=gettext_lazy("The objection"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=5000,
        help_text=gettext_lazy("In the team's words: what they think is wrong and why."),
    )

    def __init__(self, *args, competition, team_id=None, **kwargs):
        super().__init__(*args, **kwargs)
        teams = Team.objects.filter(competition=competition).order_by("table")
        self.fields["team"].queryset = teams
        self.fields["team"].label_from_instance = lambda t: (
            _("Table %(table)d: %(name)s")
            % {
                "table": t.table,
                "name": t.name,
            }
        )
        self.fields["about"].choices = about_choices(competition, team_id)


def about_choices(competition, team_id=None) -> list:
    """The finishes and counts an objection may be about, grouped by team. Two queries."""
    finishes = Finish.objects.filter(team__competition=competition).select_related("team", "puzzle")
    counts = Count.objects.filter(team__competition=competition).select_related("team", "puzzle")
    if team_id:
        finishes = finishes.filter(team_id=team_id)
        counts = counts.filter(team_id=team_id)
    groups: dict[Team, list] = {}
    for f in finishes.order_by("team__table", "puzzle__position"):
        # Competition time, not a time of day: "after 0:01:51", never "at 0:01:51" (kl.).
        label = _("Puzzle %(position)d finished after %(time)s") % {
            "position": f.puzzle.position,
            "time": format_hms(f.elapsed_seconds),
        }
        groups.setdefault(f.team, []).append((f"finish:{f.pk}", label))
    for c in counts.order_by("team__table"):
        label = _("Count of puzzle %(position)d: %(pieces)d pieces") % {
            "position": c.puzzle.position,
            "pieces": c.pieces,
        }
        groups.setdefault(c.team, []).append((f"count:{c.pk}", label))
    choices = [("", _("Nothing in particular"))]
    for team in sorted(groups, key=lambda t: t.table):
        name = _("Table %(table)d: %(name)s") % {"table": team.table, "name": team.name}
        choices.append((name, groups[team]))
    return choices


def parse_missing(value: str) -> list[int]:
    """ "1, 1, 3" -> [1, 1, 3]; "0" -> [] (no missing pieces)."""
    parts = [p for p in re.split(r"[,;\s]+", value.strip()) if p]
    sizes = [whole_number(p) for p in parts]
    if None in sizes:
        raise ValidationError(_("Write the size of each missing spot as a number: 1, 1, 3."))
    if sizes == [0]:
        return []
    if any(size < 1 for size in sizes):
        raise ValidationError(_("A missing spot has at least 1 piece; write 0 for none."))
    return sizes


class ResolveForm(forms.Form):
    decision = forms.ChoiceField(
        label=gettext_lazy("Decision"),
        choices=[
            ("upheld", gettext_lazy("Upheld")),
            ("rejected", gettext_lazy("Rejected")),
        ],
        widget=forms.RadioSelect,
    )
    note = forms.CharField(
        label=gettext_lazy("Note"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=5000,
        help_text=gettext_lazy("Why: it is kept with the objection and any correction."),
    )
    elapsed = forms.CharField(
        label=gettext_lazy("Corrected time (h:mm:ss)"),
        required=False,
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
    )
    missing = forms.CharField(
        label=gettext_lazy("Corrected missing spots"),
        required=False,
    )
    pieces = forms.IntegerField(
        label=gettext_lazy("Corrected count (placed pieces)"), required=False, min_value=0
    )

    def __init__(self, *args, objection, **kwargs):
        super().__init__(*args, **kwargs)
        if objection.finish is None:
            del self.fields["elapsed"], self.fields["missing"]
        else:
            now = format_hms(objection.finish.elapsed_seconds)
            self.fields["elapsed"].help_text = _(
                "Now after %(time)s on the competition clock. Empty: unchanged."
            ) % {"time": now}
            self.fields["missing"].help_text = _(
                "Now: %(missing)s. The size of each spot with missing pieces, e.g. 1, 1, 3; "
                "0 for none. Empty: unchanged."
            ) % {"missing": ", ".join(map(str, objection.finish.missing)) or "0"}
        if objection.count is None:
            del self.fields["pieces"]
        else:
            self.fields["pieces"].help_text = _("Now %(pieces)d. Empty: unchanged.") % {
                "pieces": objection.count.pieces
            }

    def clean_elapsed(self):
        value = self.cleaned_data.get("elapsed", "")
        return parse_hms(value) if value.strip() else None

    def clean_missing(self):
        value = self.cleaned_data.get("missing", "")
        return parse_missing(value) if value.strip() else None

    def corrections(self) -> dict:
        data = self.cleaned_data
        out = {
            "elapsed_seconds": data.get("elapsed"),
            "missing": data.get("missing"),
            "pieces": data.get("pieces"),
        }
        return {k: v for k, v in out.items() if v is not None}


def _add_service_errors(form, exc: ValidationError) -> None:
    """Put a service's ValidationError on the form, on a field when the form has it."""
    aliases = {"elapsed_seconds": "elapsed"}
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            field = aliases.get(field, field)
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)


def _back(request, slug):
    """Where to go after an action: a safe `next`, else the control room."""
    return redirect_next(request, reverse("control:room", args=[slug]))


# --- pages ----------------------------------------------------------------------------------


@role_required(DESK)
def objection_new(request, slug):
    """The desk takes an objection (R20): team, optionally the finish or count, the text."""
    competition = get_object_or_404(Competition, slug=slug)
    team_id = request.POST.get("team") or request.GET.get("team")
    team_id = whole_number(team_id)
    if request.method == "POST":
        form = ObjectionForm(request.POST, competition=competition, team_id=team_id)
        if form.is_valid():
            team = form.cleaned_data["team"]
            kind, _sep, pk = form.cleaned_data["about"].partition(":")
            try:
                objection = objection_file(
                    team=team,
                    by=request.user,
                    text=form.cleaned_data["text"],
                    # Not filtered by team: the service refuses another team's record
                    # with a message, rather than the objection silently losing it.
                    finish=Finish.objects.filter(pk=pk, team__competition=competition).first()
                    if kind == "finish"
                    else None,
                    count=Count.objects.filter(pk=pk, team__competition=competition).first()
                    if kind == "count"
                    else None,
                )
            except Refusal as refusal:
                messages.error(request, refusal.message)
            except ValidationError as exc:
                _add_service_errors(form, exc)
            else:
                messages.success(
                    request,
                    _("Objection no. %(id)d from table %(table)d (%(name)s) is filed.")
                    % {"id": objection.pk, "table": team.table, "name": team.name},
                )
                return redirect("objections:new", slug=slug)
    else:
        form = ObjectionForm(competition=competition, team_id=team_id, initial={"team": team_id})
    if request.htmx and request.method == "GET":
        # The team select narrows the "about" choices to that team's finishes and count.
        return render(request, "judging/_objection_about.html", {"form": form})
    objections = (
        Objection.objects.filter(team__competition=competition)
        .select_related("team", "filed_by", "resolved_by", "finish__puzzle", "count__puzzle")
        .order_by("-filed_at", "-id")
    )
    return render(
        request,
        "judging/objection_new.html",
        {"competition": competition, "form": form, "objections": objections},
    )


@role_required(ADMIN)
def objection_resolve_page(request, slug, pk):
    """An admin upholds or rejects an objection, with a note and an optional correction."""
    competition = get_object_or_404(Competition, slug=slug)
    objection = get_object_or_404(
        Objection.objects.select_related(
            "team", "filed_by", "resolved_by", "finish__puzzle", "count__puzzle"
        ),
        pk=pk,
        team__competition=competition,
    )
    if request.method == "POST":
        form = ResolveForm(request.POST, objection=objection)
        if form.is_valid():
            try:
                objection_resolve(
                    objection=objection,
                    by=request.user,
                    decision=form.cleaned_data["decision"],
                    note=form.cleaned_data["note"],
                    **form.corrections(),
                )
            except Refusal as refusal:
                messages.error(request, refusal.message)
                if refusal.code in ("final", "already_resolved"):
                    return _back(request, slug)
            except ValidationError as exc:
                _add_service_errors(form, exc)
            else:
                messages.success(
                    request,
                    _("The objection from table %(table)d is %(decision)s.")
                    % {
                        "table": objection.team.table,
                        "decision": _("upheld")
                        if form.cleaned_data["decision"] == "upheld"
                        else _("rejected"),
                    },
                )
                return _back(request, slug)
    else:
        form = ResolveForm(objection=objection)
    team = objection.team
    finishes = team.finishes.select_related("puzzle").order_by("puzzle__position")
    count = Count.objects.filter(team=team).select_related("puzzle").first()
    audit = _audit_rows(  # in sentences, as the change log (issue 15)
        AuditEntry.objects.filter(team=team)
        .select_related("user", "team")
        .order_by("-at", "-id")[:20]
    )
    return render(
        request,
        "judging/objection_resolve.html",
        {
            "competition": competition,
            "objection": objection,
            "form": form,
            "finishes": finishes,
            "count": count,
            "audit": audit,
            "warnings": team.warnings.select_related("given_by"),
        },
    )


@role_required(ADMIN)
def finalise(request, slug):
    """R20: make the results final at the prize-giving (POST); GET shows the panel alone."""
    competition = get_object_or_404(Competition, slug=slug)
    if request.method != "POST":
        return render(request, "judging/objection_finalise.html", {"competition": competition})
    if request.POST.get("confirm") != "yes":
        messages.error(
            request, _("Tick the box to confirm that the results become final and unchangeable.")
        )
        return _back(request, slug)
    override = request.POST.get("override") == "yes"
    try:
        competition = competition_finalise(
            competition=competition,
            by=request.user,
            override_taps_waiting=override,
            reason=request.POST.get("reason", "")[:2000],
        )
    except Refusal as refusal:
        messages.error(request, refusal.message)
    except ValidationError as exc:
        for error in exc.messages:
            messages.error(request, error)
    else:
        messages.success(
            request,
            _("The results are final (%(time)s). Nothing can be changed any more.")
            % {"time": timezone.localtime(competition.finalised_at).strftime("%H:%M:%S")},
        )
    return _back(request, slug)


@role_required(DESK)
def official_results(request, slug):
    """The official results for print (A4): ranks, pieces, each puzzle's time and deduction,
    counts, disqualifications with their reasons, and when the results became final."""
    competition = get_object_or_404(Competition.objects.select_related("finalised_by"), slug=slug)
    body = competition_standings(competition, staff=True)
    reasons = dict(
        Team.objects.filter(competition=competition, disqualified=True).values_list(
            "id", "disqualified_reason"
        )
    )
    puzzles = body["puzzles"]
    language = "en" if (get_language() or "da").startswith("en") else "da"
    rows = []
    for row in body["standings"]:
        by_position = {f["puzzle"]: f for f in row["finishes"]}
        cells = []
        for p in puzzles:
            finish = by_position.get(p["position"])
            counted = (
                row["counted"] if finish is None and p["position"] == row["finished"] + 1 else None
            )
            cells.append({"puzzle": p, "finish": finish, "counted": counted})
        if row["disqualified"]:
            note = _("Disqualified: %(reason)s") % {"reason": reasons.get(row["team"]["id"], "")}
        else:
            note = (row.get("tie_break") or {}).get(language, "")
        rows.append({**row, "cells": cells, "note": note})
    return render(
        request,
        "judging/official_results.html",
        {
            "competition": competition,
            "body": body,
            "rows": rows,
            "printed_at": timezone.now(),
            "note_colspan": len(puzzles) + 2,
            "landscape": len(puzzles) > 5,
        },
    )


@role_required(ADMIN)
def audit_csv(request, slug):
    """The audit log as CSV for a spreadsheet: `;`-separated, UTF-8 with BOM, oldest first."""
    competition = get_object_or_404(Competition, slug=slug)
    entries = (
        AuditEntry.objects.filter(competition=competition)
        .select_related("user", "team")
        .order_by("at", "id")
    )
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}-audit.csv"'
    response.write("\ufeff")
    writer = csv_writer(response, delimiter=";")
    writer.writerow(
        [
            _("Time"),
            _("User"),
            _("Action"),
            _("Table"),
            _("Team"),
            _("Objection"),
            _("Reason"),
            _("What happened"),
            _("Changes"),
        ]
    )
    users: dict = {}
    for e in entries:  # in sentences and words, as on the log page (issue 15)
        if e.user_id:
            e.user = users.setdefault(e.user_id, e.user)
        text = audit_text.describe(e)
        writer.writerow(
            [
                timezone.localtime(e.at).strftime("%d.%m.%Y %H:%M:%S"),
                e.user.get_username() if e.user else "",
                text["label"],
                e.team.table if e.team else "",
                e.team.name if e.team else "",
                e.objection_id or "",
                e.reason,
                text["sentence"],
                "; ".join(text["changes"]),
            ]
        )
    return response
