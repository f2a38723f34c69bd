"""Competition, its puzzle sequence, teams and members (R2, R3, R4, R7, R15, R17, P2)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Lower
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

from competition.clock import Clock, Status
from competition.disciplines import Discipline
from competition.ranking import Ranking

# First path segments the app uses: a competition's slug may not be one of them.
RESERVED_SLUGS = frozenset(
    {
        "rules",
        "desk",
        "judge",
        "control",
        "admin",
        "api",
        "accounts",
        "healthz",
        "static",
        "media",
        "new",
        "objections",
        "i18n",
        "favicon.ico",
        "robots.txt",
        "sw.js",
    }
)


def validate_slug_not_reserved(value: str) -> None:
    if value.lower() in RESERVED_SLUGS:
        raise ValidationError(
            _("“%(slug)s” is used by the app itself; choose another short name."),
            params={"slug": value},
            code="reserved_slug",
        )


def validate_plausible_start(value: datetime) -> None:
    """A championship day between 2000 and 2100: anything else is a typing mistake."""
    if not 2000 <= value.year <= 2100:
        raise ValidationError(
            _("Check the date: a competition takes place between the years 2000 and 2100."),
            code="implausible_date",
        )


class ScreenMode(models.TextChoices):
    """What the big screen shows, chosen in the control room."""

    STANDINGS = "standings", _("Standings")
    COUNTDOWN = "countdown", _("Countdown to the start")
    MESSAGE = "message", _("Announcement")
    RESULTS = "results", _("Final results")
    REVEAL = "reveal", _("The reveal")
    TICKER = "ticker", _("The speaker's ticker")


class Championship(models.Model):
    """A championship holds competitions: disciplines and rounds of one event (docs/contracts.md
    "A championship of several competitions"). Its slug shares one namespace with the
    competitions' (`/<slug>/`), except that a competition's own championship (made with it,
    one competition, the same slug and name) has the competition's slug."""

    slug = models.SlugField(_("short name"), unique=True, validators=[validate_slug_not_reserved])
    name = models.CharField(_("name"), max_length=200)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    starts_on = models.DateField(_("first day"), null=True, blank=True)
    ends_on = models.DateField(_("last day"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("championship")
        verbose_name_plural = _("championships")
        constraints = [
            models.CheckConstraint(
                condition=Q(starts_on__isnull=True)
                | Q(ends_on__isnull=True)
                | Q(ends_on__gte=F("starts_on")),
                name="championship_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name


# The table limit a competition of each discipline gets unless another one is given.
DEFAULT_AT_TABLE = {Discipline.INDIVIDUAL: 1, Discipline.PAIR: 2, Discipline.TEAM: 4}


class Competition(models.Model):
    slug = models.SlugField(_("short name"), unique=True, validators=[validate_slug_not_reserved])
    # Every competition belongs to a championship; one made without one gets its own
    # (`save`: the same slug, name and venue), so every way of making one keeps this true.
    championship = models.ForeignKey(
        Championship,
        on_delete=models.PROTECT,
        related_name="competitions",
        verbose_name=_("championship"),
    )
    discipline = models.CharField(
        _("discipline"), max_length=12, choices=Discipline.choices, default=Discipline.TEAM
    )
    round = models.CharField(_("round"), max_length=100, blank=True, default="")
    ranking = models.CharField(_("ranking"), max_length=8, choices=Ranking.choices, default="dm")
    name = models.CharField(_("name"), max_length=200)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    starts_at = models.DateTimeField(_("planned start"), validators=[validate_plausible_start])
    duration_minutes = models.PositiveIntegerField(
        _("duration (minutes)"), default=180, validators=[MinValueValidator(1)]
    )
    max_at_table = models.PositiveSmallIntegerField(
        _("puzzlers at the table at most"), default=4, validators=[MinValueValidator(1)]
    )
    # docs/day.md: the organiser may keep the motifs off public pages until the clock starts.
    hide_motifs = models.BooleanField(
        _("hide the motifs on public pages until the start"), default=False
    )
    # docs/contracts.md "The second count": every count needs a second, blind count before finalise.
    second_count = models.BooleanField(_("every count is checked by a second judge"), default=True)
    # The clock (R4, R10): started by an admin; ends by itself at start + duration.
    started_at = models.DateTimeField(_("clock started"), null=True, blank=True)
    stopped_at = models.DateTimeField(_("clock stopped early"), null=True, blank=True)
    finalised_at = models.DateTimeField(_("results final"), null=True, blank=True)
    finalised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The big screen: its mode rides on the standings version, like the standings.
    screen_mode = models.CharField(
        _("big screen shows"), max_length=12, choices=ScreenMode.choices, default="standings"
    )
    screen_message = models.CharField(_("announcement"), max_length=200, blank=True)
    # The prize-giving reveal: from place `reveal_from` up to 1; `reveal_at` is the place
    # shown now (None: not started). Places above it are not yet revealed.
    reveal_from = models.PositiveSmallIntegerField(_("reveal from place"), null=True, blank=True)
    reveal_at = models.PositiveSmallIntegerField(_("revealed down to place"), null=True, blank=True)
    hold_results = models.BooleanField(
        _("hold the final order on public pages until the reveal is over"), default=False
    )
    # Bumped in the same transaction as every write that can change the standings.
    standings_version = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.CheckConstraint(condition=Q(duration_minutes__gt=0), name="duration_positive"),
            models.CheckConstraint(condition=Q(max_at_table__gt=0), name="max_at_table_positive"),
            models.CheckConstraint(
                condition=Q(stopped_at__isnull=True) | Q(started_at__isnull=False),
                name="stopped_only_after_started",
            ),
            models.CheckConstraint(
                condition=Q(stopped_at__isnull=True) | Q(stopped_at__gte=F("started_at")),
                name="stopped_after_start",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs) -> None:
        if self.championship_id is None:  # a competition of its own: its own championship
            self.championship = Championship.objects.create(
                slug=self.slug, name=self.name, venue=self.venue
            )
        super().save(*args, **kwargs)

    # --- the clock: competition/clock.py works it out; these read it ------------------------
    def clock(self, now: datetime | None = None) -> Clock:
        """The clock at `now` (default: now): status, end, seconds gone and left."""
        return Clock.of(self, now)

    @property
    def duration(self) -> timedelta:
        return timedelta(minutes=self.duration_minutes)

    @property
    def ends_at(self) -> datetime | None:
        """start + duration (R10), whether or not it was stopped earlier."""
        return self.clock().ends_at

    @property
    def clock_end(self) -> datetime | None:
        """When the clock stops or stopped: the earlier of ends_at and stopped_at."""
        return self.clock().end

    @property
    def check_in_deadline(self) -> datetime:
        """R2: participants present at the latest 15 minutes before the start."""
        return self.starts_at - timedelta(minutes=15)

    def status_at(self, now: datetime | None = None) -> str:
        return self.clock(now).status

    @property
    def status(self) -> str:
        return self.status_at()

    @property
    def is_final(self) -> bool:
        return self.finalised_at is not None

    def is_running(self, now: datetime | None = None) -> bool:
        return self.clock(now).status == Status.RUNNING

    def has_ended(self, now: datetime | None = None) -> bool:
        """The clock has started and ended (by itself or stopped early)."""
        return self.clock(now).has_ended

    def elapsed_seconds(self, now: datetime | None = None) -> int:
        """Whole seconds on the competition clock, capped at its end; 0 before the start."""
        return self.clock(now).elapsed_seconds

    def remaining_seconds(self, now: datetime | None = None) -> int:
        return self.clock(now).remaining_seconds

    def motifs_public(self) -> bool:
        """May the public see the puzzles' titles and brands now?"""
        return not self.hide_motifs or self.started_at is not None

    def reveal_over(self) -> bool:
        return self.reveal_at == 1

    def held_above(self, status: str | None = None) -> int | None:
        """With `hold_results`, public readers see no ranked place below this number once
        time is up, until the reveal is over: 0 = nothing held; None = every place held."""
        if not self.hold_results or self.reveal_over():
            return 0
        if (status or self.status_at()) not in (Status.STOPPED, Status.FINAL):
            return 0
        return self.reveal_at

    def bump_standings(self) -> None:
        """Call inside the transaction of every write that can change the standings."""
        Competition.objects.filter(pk=self.pk).update(standings_version=F("standings_version") + 1)


@receiver(post_delete, sender=Competition)
def _own_championship_goes_with_it(sender, instance: Competition, **kwargs) -> None:
    """A competition deleted (the demo's reset) takes its own championship with it, so that its
    short name is free again; a championship that holds other competitions stays."""
    Championship.objects.filter(
        pk=instance.championship_id, slug=instance.slug, competitions=None
    ).delete()


class Puzzle(models.Model):
    """One puzzle of the fixed sequence (R7)."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="puzzles")
    position = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    title = models.CharField(_("title"), max_length=200, blank=True)
    brand = models.CharField(_("brand"), max_length=100, blank=True)
    pieces = models.PositiveIntegerField(_("pieces"), validators=[MinValueValidator(1)])

    class Meta:
        ordering = ["competition", "position"]
        verbose_name = _("puzzle")
        verbose_name_plural = _("puzzles")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "position"], name="puzzle_position_unique"
            ),
            models.CheckConstraint(condition=Q(pieces__gt=0), name="puzzle_pieces_positive"),
            models.CheckConstraint(condition=Q(position__gte=1), name="puzzle_position_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.title or ''} ({self.pieces})".replace(" ()", "")


class Team(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=120)
    table = models.PositiveIntegerField(_("table number"), validators=[MinValueValidator(1)])
    fee_paid = models.BooleanField(_("entry fee paid"), default=False)
    checked_in_at = models.DateTimeField(_("checked in"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    disqualified = models.BooleanField(_("disqualified"), default=False)
    disqualified_reason = models.TextField(_("reason for disqualification"), blank=True)
    # Personal data: desk and admin only, never on a public page or answer.
    contact_name = models.CharField(_("contact person"), max_length=120, blank=True)
    contact_email = models.EmailField(_("contact e-mail"), blank=True)
    contact_phone = models.CharField(_("contact phone"), max_length=40, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    # The entrant of an earlier round it went on from (advancing); its members are copies.
    advanced_from = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="advanced_to",
        verbose_name=_("went on from"),
    )
    # Labels the organiser gives an entrant ("ung", "senior", "gæst"): each label has its
    # own ranking among the entrants carrying it (puzzle_rules/championship.py `label_ranking`).
    labels = models.JSONField(_("labels"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["competition", "table"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(
                "competition",
                Lower("name"),
                name="team_name_unique",
                violation_error_message=_("A team with this name already exists."),
            ),
            models.UniqueConstraint(
                fields=["competition", "table"],
                name="team_table_unique",
                violation_error_message=_("Another team already has this table number."),
            ),
            models.CheckConstraint(condition=Q(table__gte=1), name="team_table_positive"),
            models.CheckConstraint(
                condition=Q(disqualified=False) | ~Q(disqualified_reason=""),
                name="disqualified_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.name}"

    @property
    def competing(self) -> bool:
        """A team competes unless withdrawn or disqualified; check-in never gates judging."""
        return not (self.withdrawn or self.disqualified)


class Member(models.Model):
    """A puzzler of a team. Personal data (R3): desk and admin only."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    name = models.CharField(_("name"), max_length=120)
    under_15 = models.BooleanField(_("under 15"), default=False)
    guardian = models.CharField(_("accompanying adult"), max_length=120, blank=True)

    class Meta:
        ordering = ["team", "id"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.CheckConstraint(
                condition=Q(under_15=False) | ~Q(guardian=""),
                name="under_15_has_guardian",
                violation_error_message=_(
                    "A member under 15 needs the name of the accompanying adult (rule 3)."
                ),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class AuditEntry(models.Model):
    """Who changed what, when, with the record before and after (WCA Live #277).

    The ground floor keeps the log for every app (docs/architecture.md "Floors"); the table keeps
    its first name. `objection_id` names the objection a correction decided: a plain number, so
    that this floor knows nothing of judging's models (an objection is never deleted).
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="audit")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="audit"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=40, db_index=True)
    reason = models.TextField(_("reason"), blank=True)
    objection_id = models.BigIntegerField(_("objection"), null=True, blank=True, db_index=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        db_table = "judging_auditentry"
        ordering = ["-at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.action}"


# The sign-up sheets between preview and confirm and the desk's column choices: their own module,
# registered here with the app's other models.
from competition.models_imports import ImportColumnChoice, ImportPreview  # noqa: E402, F401
