"""The audit log in the control room: the page with its filters, and the CSV for a
spreadsheet. Both in sentences and words."""

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit_text
from competition.cells import csv_writer
from competition.inputs import whole_number
from competition.models import AuditEntry, Team
from competition.roles import ADMIN, staff_view
from competition.words import entrant_text
from judging.selectors import audit_rows


@staff_view(ADMIN, competition=True)
def audit(request, competition):
    entries = AuditEntry.objects.filter(competition=competition).select_related(
        "user", "team", "competition"
    )
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
        (a, audit_text.action_label(a, competition.discipline))
        for a in all_entries.order_by("action").values_list("action", flat=True).distinct()
    ]
    return render(
        request,
        "judging/control_audit.html",
        {
            "competition": competition,
            "rows": audit_rows(entries.order_by("-at", "-id")[:300]),
            "teams": Team.objects.filter(competition=competition).order_by("table"),
            "users": users,
            "actions": sorted(actions, key=lambda a: a[1]),
            "team_id": team_id,
            "user_id": user_id,
            "action": action,
        },
    )


@staff_view(ADMIN, competition=True)
def audit_csv(request, competition):
    """The audit log as CSV for a spreadsheet: `;`-separated, UTF-8 with BOM, oldest first."""
    entries = (
        AuditEntry.objects.filter(competition=competition)
        .select_related("user", "team", "competition")
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
            entrant_text(competition, "Team"),
            _("Objection"),
            _("Reason"),
            _("What happened"),
            _("Changes"),
        ]
    )
    users: dict = {}
    for e in entries:  # in sentences and words, as on the log page
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
