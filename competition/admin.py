"""Competition data changes only through the services (audited): read-only here."""

from django.contrib import admin

from competition.models import Competition, Member, Puzzle, Team
from config.admin import ReadOnlyAdmin, ReadOnlyInline


class PuzzleInline(ReadOnlyInline):
    model = Puzzle


class MemberInline(ReadOnlyInline):
    model = Member


@admin.register(Competition)
class CompetitionAdmin(ReadOnlyAdmin):
    list_display = (
        "name",
        "slug",
        "venue",
        "starts_at",
        "duration_minutes",
        "started_at",
        "finalised_at",
        "standings_version",
    )
    list_filter = ("starts_at", "finalised_at")
    search_fields = ("name", "slug", "venue")
    inlines = [PuzzleInline]


@admin.register(Puzzle)
class PuzzleAdmin(ReadOnlyAdmin):
    list_display = ("competition", "position", "title", "brand", "pieces")
    list_filter = ("competition",)
    search_fields = ("title", "brand")


@admin.register(Team)
class TeamAdmin(ReadOnlyAdmin):
    list_display = (
        "table",
        "name",
        "competition",
        "fee_paid",
        "checked_in_at",
        "withdrawn",
        "disqualified",
    )
    list_filter = (
        "competition",
        "fee_paid",
        "withdrawn",
        "disqualified",
        ("checked_in_at", admin.EmptyFieldListFilter),
    )
    search_fields = ("name", "members__name", "contact_name", "contact_email")
    list_select_related = ("competition",)
    inlines = [MemberInline]


@admin.register(Member)
class MemberAdmin(ReadOnlyAdmin):
    list_display = ("name", "team", "under_15", "guardian")
    list_filter = ("under_15", "team__competition")
    search_fields = ("name", "guardian", "team__name")
    list_select_related = ("team",)
