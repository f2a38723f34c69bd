"""Reads that judging's pages share: the judge's tablet page (R5, R7, R9, R14: one row per
team, constant queries), the tablets, the objections (R20) and the audit log in sentences."""

from dataclasses import dataclass, field
from datetime import timedelta

from django.db.models import Count as CountOf
from django.utils import timezone
from django.utils.translation import gettext as _

from competition import audit_text
from competition.errors import Refusal
from competition.inputs import INT_MAX, whole_number
from competition.models import AuditEntry, Championship, Competition, Puzzle, Team
from judging.count_state import CountState, count_state, count_states
from judging.models import Count, Finish, Objection, Tablet
from puzzle_rules.formatting import format_hms


@dataclass(frozen=True)
class BoardCard:
    """What a judge's card shows for one team."""

    id: int
    table: int
    name: str
    disqualified: bool
    finished: int  # whole puzzles finished
    total: int  # puzzles in the sequence
    current: Puzzle | None  # the next puzzle to finish; None when all are finished
    last_finish_seconds: int  # the clock time of its last finish; 0 = the start
    latest_finish_id: int | None
    latest_finish_position: int | None
    counted: int | None  # placed pieces of the count, once counted
    warnings: int
    # The second count (docs/contracts.md "The second count"): the count's id and who counted it,
    # and the count's one state (judging/count_state.py, as the control room and finalise read
    # it): missing, waiting for a second count, the counts differ, done.
    count_id: int | None = None
    counted_by: int | None = None
    count_state: CountState = CountState.NONE
    competition: Competition | None = None  # the card's competition (a championship's tablet)

    @property
    def all_finished(self) -> bool:
        return self.current is None

    @property
    def unconfirmed(self) -> bool:
        """Counted, and the count waits for a second count or the two counts differ."""
        return self.count_state in (CountState.WAITING, CountState.DIFFERS)


def counts_missing(competition: Competition, teams: list[Team] | None = None) -> list[Team]:
    """R9: the competing teams with an unfinished puzzle and no count, in table order.
    Finalise waits for them (docs/contracts.md). `teams`: already read with their count state
    (`judging.count_state`, as the control room has them); else two queries."""
    teams = count_states(competition) if teams is None else teams
    return [t for t in teams if t.count_state == CountState.MISSING]


def parse_tables(values) -> list[int]:
    """Table numbers from the query (`t=1&t=2` or `t=1-8,12`); bad parts are ignored."""
    tables: set[int] = set()
    for value in values:
        for part in str(value).replace(" ", "").split(","):
            low, _, high = part.partition("-")
            start, stop = whole_number(low, high=INT_MAX), whole_number(high or low, high=INT_MAX)
            if start is None or stop is None:
                continue
            if start > stop or stop - start > 500:
                continue
            tables.update(range(start, stop + 1))
    return sorted(tables)


def judge_board(competition: Competition, *, tables: list[int] | None = None) -> list[BoardCard]:
    """The teams a judge watches (all when `tables` is empty), in table order; 3 queries."""
    return judge_boards([competition], tables=tables)


def judge_boards(
    competitions: list[Competition], *, tables: list[int] | None = None
) -> list[BoardCard]:
    """The entrants of `competitions` at the tables a judge watches (all when `tables` is
    empty), in table order, then in the order of `competitions`; each card knows its
    competition. 3 queries, whatever the number of competitions and entrants."""
    by_id = {c.pk: c for c in competitions}
    order = {c.pk: i for i, c in enumerate(competitions)}
    puzzles: dict[int, list[Puzzle]] = {pk: [] for pk in by_id}
    for puzzle in Puzzle.objects.filter(competition_id__in=by_id).order_by("position"):
        puzzles[puzzle.competition_id].append(puzzle)
    teams = (
        Team.objects.filter(competition_id__in=by_id, withdrawn=False)
        .select_related("count")
        .annotate(warning_total=CountOf("warnings"))
        .order_by("table", "pk")
    )
    if tables:
        teams = teams.filter(table__in=tables)
    teams = sorted(teams, key=lambda t: (t.table, order[t.competition_id]))
    latest: dict[int, tuple[int, int, int]] = {}  # team -> (position, seconds, finish id)
    finished: dict[int, int] = {}
    rows = (
        Finish.objects.filter(team__in=[t.pk for t in teams])
        .order_by("puzzle__position")
        .values_list("team_id", "puzzle__position", "elapsed_seconds", "id")
    )
    for team_id, position, seconds, finish_id in rows:
        finished[team_id] = finished.get(team_id, 0) + 1
        latest[team_id] = (position, seconds, finish_id)
    cards = []
    for team in teams:
        competition = by_id[team.competition_id]
        sequence = puzzles[team.competition_id]
        done = finished.get(team.pk, 0)
        position, seconds, finish_id = latest.get(team.pk, (None, 0, None))
        count = getattr(team, "count", None)
        cards.append(
            BoardCard(
                id=team.pk,
                table=team.table,
                name=team.name,
                disqualified=team.disqualified,
                finished=done,
                total=len(sequence),
                current=sequence[done] if done < len(sequence) else None,
                last_finish_seconds=seconds,
                latest_finish_id=finish_id,
                latest_finish_position=position,
                counted=count.pieces if count else None,
                warnings=team.warning_total,
                count_id=count.pk if count else None,
                counted_by=count.registered_by_id if count else None,
                count_state=count_state(
                    competing=team.competing,
                    count=count,
                    finished=done,
                    puzzles=len(sequence),
                    second_count=competition.second_count,
                ),
                competition=competition,
            )
        )
    return cards


# How long before its planned start a competition comes onto a championship's tablet: the
# judges are at their tables before the start and see who sits there.
TABLET_BEFORE_START = timedelta(hours=1)


def tablet_competitions(championship: Championship, now=None) -> list[Competition]:
    """The competitions of `championship` the judge's tablet shows now, by planned start:
    every one whose clock runs, whose time is up and whose results are not yet final (the
    counts), and every one that starts within the hour (`TABLET_BEFORE_START`), its
    puzzles prefetched. One query, two with the puzzles."""
    now = now or timezone.now()
    shown = []
    for competition in (
        Competition.objects.filter(championship=championship, finalised_at__isnull=True)
        .prefetch_related("puzzles")
        .order_by("starts_at", "name")
    ):
        if competition.started_at is not None or competition.starts_at <= now + TABLET_BEFORE_START:
            shown.append(competition)
    return shown


# --- the judges' tablets ------------------------------------------------------
TABLET_QUIET_SECONDS = 60  # not heard from for a minute: amber
TABLET_LOST_SECONDS = 300  # not heard from for five minutes with taps waiting: red


def tablet_light(*, waiting: int, silent_seconds: float) -> str:
    """green: in touch, nothing waiting; amber: taps waiting or not heard from for a
    minute; red: not heard from for five minutes with taps waiting."""
    if waiting and silent_seconds >= TABLET_LOST_SECONDS:
        return "red"
    if waiting or silent_seconds >= TABLET_QUIET_SECONDS:
        return "amber"
    return "green"


@dataclass(frozen=True)
class TabletRow:
    tablet: Tablet
    light: str
    silent_seconds: int


def tablets_health(competition: Competition, now) -> list[TabletRow]:
    """The competition's tablets, red first, then amber, then green; one query."""
    rows = []
    for tablet in Tablet.objects.filter(competition=competition).select_related("user"):
        silent = max(0, int((now - tablet.last_seen_at).total_seconds()))
        rows.append(
            TabletRow(tablet, tablet_light(waiting=tablet.waiting, silent_seconds=silent), silent)
        )
    order = {"red": 0, "amber": 1, "green": 2}
    rows.sort(key=lambda r: (order[r.light], r.tablet.user_id or 0, r.tablet.device_id))
    return rows


# --- objections (R20) ---------------------------------------------------------------------
def objections_of(competition: Competition, *, newest_first: bool = True):
    """The competition's objections with what their pages show; one query."""
    order = ("-filed_at", "-id") if newest_first else ("filed_at", "id")
    return (
        Objection.objects.filter(team__competition=competition)
        .select_related("team", "filed_by", "resolved_by", "finish__puzzle", "count__puzzle")
        .order_by(*order)
    )


def objection_about_choices(competition: Competition, team_id: int | None = None) -> list:
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


def objections_panel(competition: Competition, now) -> dict:
    """The control room's objections panel: the objections, and what blocks finalising.
    Five queries."""
    objections = list(objections_of(competition, newest_first=False))
    blockers = [] if competition.is_final else finalise_blockers(competition, now)
    # Taps waiting on a tablet block finalise unless the head judge overrides with a reason.
    taps_waiting = next((b.tablets for b in blockers if b.code == "taps_waiting"), [])
    return {
        "open": [o for o in objections if o.is_open],
        "resolved": [o for o in objections if not o.is_open][::-1],
        "blockers": blockers,
        "taps_waiting": taps_waiting,
        "can_finalise": not competition.is_final
        and all(b.code == "taps_waiting" for b in blockers),
    }


# --- the audit log, as sentences -------------------------------------------------------------
def audit_rows(entries) -> list[dict]:
    """Each entry as a Danish sentence with its changes before → after in words."""
    users: dict = {}
    rows = []
    for e in entries:
        if e.user_id:  # one roles lookup per person, not per entry
            e.user = users.setdefault(e.user_id, e.user)
        rows.append({"entry": e, **audit_text.describe(e)})
    return rows


def team_audit(team: Team, limit: int) -> list[dict]:
    """A team's latest audit entries, newest first, as sentences."""
    entries = (
        AuditEntry.objects.filter(team=team)
        .select_related("user", "team", "competition")
        .order_by("-at", "-id")
    )
    return audit_rows(entries[:limit])


def counts_unconfirmed(competition: Competition, teams: list[Team] | None = None) -> list[Team]:
    """The competing teams whose count waits for a second count or whose two counts differ
    (none while `second_count` is off), each with `.count` (its `second_pieces` set when the
    two counts differ). The same rule and arguments as `counts_missing`."""
    teams = count_states(competition) if teams is None else teams
    return [t for t in teams if t.count_state in (CountState.WAITING, CountState.DIFFERS)]


def tablets_waiting(competition: Competition) -> list[Tablet]:
    """Tablets whose latest report holds unsent taps: they block finalise (`taps_waiting`)."""
    return list(
        Tablet.objects.filter(competition=competition, waiting__gt=0)
        .select_related("user")
        .order_by("device_id")
    )


# --- what blocks finalise (R20): one rule for the service, the page and the API -----------
@dataclass(frozen=True)
class Blocker:
    """One reason `competition_finalise` refuses: its 409 `code` and `message` (the sentence
    for a person) with `details` (what the 409's body adds: tablets, objections, teams), and
    the records the control room's panel lists (`teams`, `tablets`)."""

    code: str
    message: str
    details: dict = field(default_factory=dict)
    teams: list[Team] = field(default_factory=list)
    tablets: list[Tablet] = field(default_factory=list)

    def refusal(self) -> Refusal:
        return Refusal(self.code, self.message, **self.details)


def _team_dict(team: Team) -> dict:
    return {"id": team.pk, "name": team.name, "table": team.table}


def _names(teams) -> str:
    return ", ".join(
        _("%(name)s (table %(table)d)") % {"name": t.name, "table": t.table} for t in teams
    )


def tablet_dict(tablet: Tablet) -> dict:
    """A tablet as `taps_waiting` names it: who, which tables, how many taps, since when."""
    return {
        "device_id": tablet.device_id,
        "user": tablet.user.get_username() if tablet.user else None,
        "tables": tablet.tables,
        "waiting": tablet.waiting,
        "oldest_waiting_seconds": tablet.oldest_waiting_seconds,
        "last_seen_at": tablet.last_seen_at,
    }


def _tablet_label(tablet: Tablet) -> str:
    tables = ", ".join(map(str, tablet.tables)) or _("all")
    return _("%(user)s's tablet (tables %(tables)s): %(n)d waiting, last heard from %(time)s") % {
        "user": tablet.user.get_username() if tablet.user else "?",
        "tables": tables,
        "n": tablet.waiting,
        "time": timezone.localtime(tablet.last_seen_at).strftime("%H:%M:%S"),
    }


def finalise_blockers(competition: Competition, now) -> list[Blocker]:
    """Everything that stands between the competition and its final results at `now`, in
    the order `competition_finalise` refuses (it refuses with the first; the control room
    lists them all; the API's 409 names the first). Not `final`: every write checks that
    before anything else.

    Before the start or while the clock runs, that alone. Then: tablets with unsent taps
    (`taps_waiting`; the head judge may override it with a reason), open objections,
    competing teams with an unfinished puzzle and no count (`counts_missing`), counts that
    wait for a second count (`counts_unconfirmed`). A team competes unless withdrawn or
    disqualified; check-in never matters here (docs/contracts.md). Four or five queries.
    """
    if competition.started_at is None:
        message = _("The clock has not been started: there are no results to make final.")
        return [Blocker("clock_not_started", message)]
    if competition.is_running(now):
        message = _("The clock is still running: the results can be made final when time is up.")
        return [Blocker("clock_running", message)]
    blockers = []
    waiting = tablets_waiting(competition)
    if waiting:
        message = _(
            "A judge's tablet has taps it has not sent yet: %(tablets)s. Bring it "
            "onto the Wi-Fi, or finalise anyway with a reason."
        ) % {"tablets": "; ".join(_tablet_label(t) for t in waiting)}
        details = {"tablets": [tablet_dict(t) for t in waiting]}
        blockers.append(Blocker("taps_waiting", message, details, tablets=waiting))
    objections = list(
        Objection.objects.filter(team__competition=competition, decision=Objection.Decision.OPEN)
        .select_related("team")
        .order_by("filed_at", "id")
    )
    if objections:
        tables = ", ".join(str(o.team.table) for o in objections)
        message = _("Objections are still open (tables %(tables)s): resolve them first.") % {
            "tables": tables
        }
        details = {"objections": [{"id": o.pk, "team": _team_dict(o.team)} for o in objections]}
        teams = [o.team for o in objections]
        blockers.append(Blocker("objections_open", message, details, teams=teams))
    teams = count_states(competition)  # one rule with the control room's
    missing = counts_missing(competition, teams)
    if missing:
        message = _("Counts are missing for: %(names)s.") % {"names": _names(missing)}
        details = {"teams": [_team_dict(t) for t in missing]}
        blockers.append(Blocker("counts_missing", message, details, teams=missing))
    unconfirmed = counts_unconfirmed(competition, teams)  # docs/contracts.md "The second count"
    if unconfirmed:
        message = _("Counts wait for a second count: %(names)s.") % {"names": _names(unconfirmed)}
        details = {"teams": [_team_dict(t) for t in unconfirmed]}
        blockers.append(Blocker("counts_unconfirmed", message, details, teams=unconfirmed))
    return blockers
