"""What the judges record (R5, R8, R9, R14, R20) and the audit trail of every change."""

from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from competition.models import Competition, Puzzle, Team


class Finish(models.Model):
    """A whole puzzle finished by a team, registered by a judge (R5, R8)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="finishes")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="finishes")
    elapsed_seconds = models.PositiveIntegerField(_("time (seconds since the start)"))
    # One entry per spot with missing pieces: its size (R8).
    missing = models.JSONField(_("missing pieces per spot"), default=list, blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    # The device's id for the tap that created it; its history is a RequestId (docs/offline.md).
    request_id = models.UUIDField(null=True, blank=True, unique=True)

    class Meta:
        ordering = ["team", "puzzle__position"]
        verbose_name = _("finish")
        verbose_name_plural = _("finishes")
        constraints = [
            models.UniqueConstraint(
                fields=["team", "puzzle"],
                name="finish_once_per_team_and_puzzle",
                violation_error_message=_("This team has already finished this puzzle."),
            ),
            models.CheckConstraint(
                condition=Q(elapsed_seconds__gte=0), name="finish_time_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team} – {self.puzzle}"


class Count(models.Model):
    """The count of a team's unfinished puzzle after the clock stops (R9, R10).

    Not Django's aggregate: `django.db.models.Count` is imported as `CountOf` everywhere."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="count")
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="counts")
    pieces = models.PositiveIntegerField(_("placed pieces"))
    unplaced = models.PositiveIntegerField(_("unplaced pieces"), null=True, blank=True)
    loose = models.PositiveIntegerField(_("loose pieces and pairs"), null=True, blank=True)
    registered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    request_id = models.UUIDField(null=True, blank=True, unique=True)
    # The second, blind count (docs/contracts.md "The second count"): confirmed when it is equal, or
    # when the head judge settles a difference by correcting the count.
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    # The last second count that differed (both numbers are shown; a recount is asked).
    second_pieces = models.PositiveIntegerField(_("second count"), null=True, blank=True)

    class Meta:
        verbose_name = _("count")
        verbose_name_plural = _("counts")
        constraints = [
            models.CheckConstraint(
                condition=Q(pieces=0) | Q(pieces__gte=3),
                name="count_zero_or_group_of_three",
                violation_error_message=_("Only groups of at least 3 pieces count (rule 9)."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.pieces}"


class Warning(models.Model):  # noqa: A001 - the judges' word (R14)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="warnings")
    reason = models.TextField(_("reason"))
    given_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    given_at = models.DateTimeField(auto_now_add=True)
    # The tablet's id for the warning, so a resend is not a second one (see RequestId).
    request_id = models.UUIDField(null=True, blank=True, unique=True)

    class Meta:
        ordering = ["-given_at"]
        verbose_name = _("warning")
        verbose_name_plural = _("warnings")

    def __str__(self) -> str:
        return f"{self.team}: {self.reason[:40]}"


class RequestId(models.Model):
    """A device's request id, kept for the whole competition (docs/offline.md "The server's side").

    It outlives the record it created: a resend of the same id answers the first answer,
    or 409 `undone` once that record was deleted, voided by a later finish or cancelled,
    and never writes it again. A cancel that arrives before its request leaves a row with
    no kind and no fingerprint, so the request is `undone` when it comes.
    """

    class Kind(models.TextChoices):
        FINISH = "finish", _("finish")
        COUNT = "count", _("count")
        WARNING = "warning", _("warning")
        CONFIRM = "confirm", _("second count")

    class Outcome(models.TextChoices):
        CREATED = "created", _("created")
        DELETED = "deleted", _("deleted")
        VOIDED = "voided", _("voided")
        CANCELLED = "cancelled", _("cancelled")

    request_id = models.UUIDField(unique=True)
    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="request_ids"
    )
    # The team the request was for (its lock comes first); None for a cancel of a request
    # that never arrived.
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="request_ids"
    )
    kind = models.CharField(max_length=10, choices=Kind.choices, blank=True)
    fingerprint = models.CharField(max_length=64, blank=True)
    answer = models.JSONField(null=True, blank=True, encoder=DjangoJSONEncoder)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.CREATED)
    record_id = models.BigIntegerField(null=True, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at"]
        verbose_name = _("request id")
        verbose_name_plural = _("request ids")

    def __str__(self) -> str:
        return f"{self.request_id} {self.kind} {self.outcome}"


class Objection(models.Model):
    """R20: filed at the desk before the prize-giving, resolved by an admin."""

    class Decision(models.TextChoices):
        OPEN = "open", _("Open")
        UPHELD = "upheld", _("Upheld")
        REJECTED = "rejected", _("Rejected")

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="objections")
    finish = models.ForeignKey(
        Finish, null=True, blank=True, on_delete=models.SET_NULL, related_name="objections"
    )
    count = models.ForeignKey(
        Count, null=True, blank=True, on_delete=models.SET_NULL, related_name="objections"
    )
    text = models.TextField(_("objection"))
    filed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    filed_at = models.DateTimeField(auto_now_add=True)
    decision = models.CharField(
        _("decision"), max_length=10, choices=Decision.choices, default=Decision.OPEN
    )
    note = models.TextField(_("note"), blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-filed_at"]
        verbose_name = _("objection")
        verbose_name_plural = _("objections")
        constraints = [
            models.CheckConstraint(
                condition=Q(decision="open", resolved_at__isnull=True)
                | (~Q(decision="open") & Q(resolved_at__isnull=False)),
                name="objection_resolved_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.text[:40]}"

    @property
    def is_open(self) -> bool:
        return self.decision == self.Decision.OPEN


class Tablet(models.Model):
    """A judge's tablet as it last reported (docs/offline.md "Heartbeat").

    Only the latest report per device is kept, and no audit entry: it is the tablet's
    health, not competition data. `waiting` > 0 makes finalise answer `taps_waiting` until
    the same device reports 0.
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="tablets")
    device_id = models.CharField(_("device"), max_length=64)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    tables = models.JSONField(_("tables"), default=list, blank=True)  # [] = all tables
    waiting = models.PositiveIntegerField(_("taps waiting"), default=0)
    oldest_waiting_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_offset_ms = models.BigIntegerField(null=True, blank=True)
    clock_rtt_ms = models.PositiveIntegerField(null=True, blank=True)
    version = models.CharField(_("app version"), max_length=40, blank=True)
    first_seen_at = models.DateTimeField(auto_now_add=True)
    last_seen_at = models.DateTimeField(_("last contact"))
    # When it first reported waiting taps without reporting an empty outbox since.
    waiting_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["competition", "device_id"]
        verbose_name = _("tablet")
        verbose_name_plural = _("tablets")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "device_id"], name="tablet_once_per_competition"
            ),
        ]

    def __str__(self) -> str:
        return self.device_id


class Backup(models.Model):
    """One snapshot of the database into BACKUP_DIR, or a failed attempt (`error`)."""

    at = models.DateTimeField(db_index=True)
    reason = models.CharField(max_length=20)  # auto, clock_stop, final, manual, pre_restore
    file = models.CharField(max_length=200, blank=True)
    size = models.PositiveBigIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("backup")
        verbose_name_plural = _("backups")

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.reason}"

    @property
    def ok(self) -> bool:
        return not self.error
