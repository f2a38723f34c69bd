from django.contrib import admin

from competition.models import Competition, Member, Puzzle, Team


class PuzzleInline(admin.TabularInline):
    model = Puzzle
    extra = 0


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
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
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("standings_version", "finalised_at", "finalised_by", "created_at")
    inlines = [PuzzleInline]


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ("competition", "position", "title", "brand", "pieces")
    list_filter = ("competition",)
    search_fields = ("title", "brand")


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
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
    # Disqualification is a judging decision: it goes through the control room's service.
    readonly_fields = ("disqualified", "disqualified_reason")
    inlines = [MemberInline]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ("name", "team", "under_15", "guardian")
    list_filter = ("under_15", "team__competition")
    search_fields = ("name", "guardian", "team__name")
    list_select_related = ("team",)
