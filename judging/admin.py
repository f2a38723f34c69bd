"""Judging records change only through the services (audited): read-only here."""

from django.contrib import admin

from competition.admin import ReadOnlyAdmin
from judging.models import Backup, Count, Finish, Objection, RequestId, Tablet, Warning


@admin.register(Finish)
class FinishAdmin(ReadOnlyAdmin):
    list_display = (
        "team",
        "puzzle",
        "elapsed_seconds",
        "missing",
        "registered_by",
        "registered_at",
    )
    list_filter = ("team__competition", "puzzle__position")
    search_fields = ("team__name",)
    list_select_related = ("team", "puzzle", "registered_by")


@admin.register(Count)
class CountAdmin(ReadOnlyAdmin):
    list_display = ("team", "puzzle", "pieces", "unplaced", "loose", "registered_by")
    list_filter = ("team__competition",)
    search_fields = ("team__name",)
    list_select_related = ("team", "puzzle", "registered_by")


@admin.register(Warning)
class WarningAdmin(ReadOnlyAdmin):
    list_display = ("team", "reason", "given_by", "given_at")
    list_filter = ("team__competition",)
    search_fields = ("team__name", "reason")
    list_select_related = ("team", "given_by")


@admin.register(Objection)
class ObjectionAdmin(ReadOnlyAdmin):
    list_display = ("team", "decision", "filed_by", "filed_at", "resolved_by", "resolved_at")
    list_filter = ("decision", "team__competition")
    search_fields = ("team__name", "text", "note")
    list_select_related = ("team", "filed_by", "resolved_by")


@admin.register(RequestId)
class RequestIdAdmin(ReadOnlyAdmin):
    list_display = ("request_id", "kind", "outcome", "team", "user", "created_at")
    list_filter = ("competition", "kind", "outcome")
    search_fields = ("request_id", "team__name")
    list_select_related = ("team", "user")


@admin.register(Tablet)
class TabletAdmin(ReadOnlyAdmin):
    list_display = ("device_id", "competition", "user", "waiting", "last_seen_at")
    list_filter = ("competition",)


@admin.register(Backup)
class BackupAdmin(ReadOnlyAdmin):
    list_display = ("at", "reason", "file")
