"""Competition data changes only through the services (audited): read-only here."""

from django.contrib import admin

from competition.models import AuditEntry, Competition, Member, Puzzle, Team
from competition.roles import ADMIN, has_role


class ReadOnly:
    """View only, for every user: no add, change or delete, no actions."""

    actions = None

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        return has_role(request.user, ADMIN)

    def has_module_permission(self, request):
        return has_role(request.user, ADMIN)


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    pass


class ReadOnlyInline(ReadOnly, admin.TabularInline):
    extra = 0


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


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("at", "action", "team", "user", "reason")
    list_filter = ("competition", "action", "user")
    search_fields = ("team__name", "reason", "action")
    list_select_related = ("team", "user")
