"""What the day model reads and compares: the refusal codes, a digest of every table a
step may write, and the standings the pure rules give over that digest."""

import dataclasses
import json
from collections import defaultdict
from uuid import UUID

from django.db import connection
from django.db.models import Subquery, TextField, Value
from django.db.models.functions import Cast

from competition.models import AuditEntry, Competition, Puzzle, Team
from judging.models import Count, Finish, Objection, RequestId, Tablet, Warning
from puzzle_rules import rules

# The 409 codes of docs/contracts.md "The HTTP API", in its order: the companion test asks for each
# of them.
CONTRACT_CODES = (
    "final",
    "clock_not_started",
    "already_started",
    "no_puzzles",
    "clock_running",
    "after_end",
    "in_future",
    "time_order",
    "already_finished",
    "out_of_order",
    "not_competing",
    "all_finished",
    "already_counted",
    "not_latest",
    "already_resolved",
    "finishes_after_stop",
    "has_finishes",
    "undone",
    "counts_unconfirmed",
    "count_differs",
    "taps_waiting",
    "objections_open",
    "counts_missing",
    "count_not_yours",
    "decided",
    "puzzle_sequence",
)
# Codes the API documents beside the table (its views' descriptions): refusals too, but
# not in the 409 codes of docs/contracts.md. Anything else in a 409 fails the model.
API_CODES = (
    "implausible",
    "own_count",
    "already_confirmed",
    "count_confirmed",
    "clock_stopped",
    "clock_not_stopped",
    "has_counts",
    "clock_ended",
    "undo_too_late",
    "already_disqualified",
    "not_disqualified",
)


@dataclasses.dataclass(frozen=True)
class Digest:
    """Every row of one competition that a step may write, as plain tuples (ten queries)."""

    competition: tuple
    puzzles: tuple
    teams: tuple
    finishes: tuple
    counts: tuple
    warnings: tuple
    objections: tuple
    request_ids: tuple
    audit: tuple
    tablets: tuple

    def without_tablets(self) -> "Digest":
        # A tablet's report is its health, accepted also after final (judging/services/tablets).
        return dataclasses.replace(self, tablets=())

    def masked_second_count(self) -> "Digest":
        """Without what a differing second count writes: the flag, its audit, its id."""
        return dataclasses.replace(
            self,
            competition=self.competition[:3],
            counts=tuple(row[:-1] for row in self.counts),
            request_ids=tuple(r for r in self.request_ids if r[1] != "confirm"),
            audit=(),
        )

    # --- reading it ------------------------------------------------------------------------
    @property
    def started_at(self):
        return self.competition[0]

    @property
    def stopped_at(self):
        return self.competition[1]

    @property
    def finalised_at(self):
        return self.competition[2]

    @property
    def second_count(self) -> bool:
        return self.competition[4]

    @property
    def duration_minutes(self) -> int:
        return self.competition[5]

    def finishes_of(self, team_id: int) -> list[tuple]:
        return sorted((f for f in self.finishes if f[1] == team_id), key=lambda f: f[3])

    def count_of(self, team_id: int) -> tuple | None:
        return next((c for c in self.counts if c[1] == team_id), None)

    def team(self, team_id: int) -> tuple | None:
        return next((t for t in self.teams if t[0] == team_id), None)

    def finish(self, finish_id: int) -> tuple | None:
        return next((f for f in self.finishes if f[0] == finish_id), None)

    def count(self, count_id: int) -> tuple | None:
        return next((c for c in self.counts if c[0] == count_id), None)

    def pieces_at(self, position: int) -> int | None:
        return next((p[2] for p in self.puzzles if p[1] == position), None)

    def records(self) -> dict:
        """What an objection decides about each finish and count: its puzzle and numbers."""
        out = {("finish", f[0]): (f[3], f[4], f[5]) for f in self.finishes}
        out.update({("count", c[0]): (c[2], c[3]) for c in self.counts})
        return out


def _int(value):
    return None if value is None else int(value)


def _bool(value) -> bool:
    return value in ("true", "1", "t")


def _uuid(value):
    return None if value is None else UUID(value)


def _json(value) -> tuple:
    return tuple(json.loads(value)) if value else ()


def _text(value):
    return value


# Per table its rows' columns, in the order the properties above and the model read them.
TABLES = {
    "puzzles": (Puzzle, "competition_id", (("id", _int), ("position", _int), ("pieces", _int))),
    "teams": (Team, "competition_id", (("id", _int), ("name", _text), ("table", _int),
              ("withdrawn", _bool), ("disqualified", _bool), ("checked_in_at", _text))),
    "finishes": (Finish, "team__competition_id", (("id", _int), ("team_id", _int),
                 ("puzzle_id", _int), ("puzzle__position", _int), ("elapsed_seconds", _int),
                 ("missing", _json), ("request_id", _uuid), ("registered_by_id", _int))),
    "counts": (Count, "team__competition_id", (("id", _int), ("team_id", _int),
               ("puzzle__position", _int), ("pieces", _int), ("unplaced", _int), ("loose", _int),
               ("registered_by_id", _int), ("request_id", _uuid), ("confirmed_by_id", _int),
               ("confirmed_at", _text), ("second_pieces", _int))),
    "warnings": (Warning, "team__competition_id", (("id", _int), ("team_id", _int),
                 ("request_id", _uuid))),
    "objections": (Objection, "team__competition_id", (("id", _int), ("team_id", _int),
                   ("finish_id", _int), ("count_id", _int), ("decision", _text),
                   ("resolved_by_id", _int))),
    "request_ids": (RequestId, "competition_id", (("request_id", _uuid), ("kind", _text),
                    ("outcome", _text), ("record_id", _int), ("team_id", _int))),
    "tablets": (Tablet, "competition_id", (("device_id", _text), ("waiting", _int))),
}  # fmt: skip
WIDTH = max(len(columns) for _model, _scope, columns in TABLES.values())


def _rows(name: str, queryset):
    """One table's rows as text columns, tagged with its name, for one UNION ALL."""
    columns = TABLES[name][2]
    return queryset.order_by().values_list(
        Value(name, output_field=TextField()),
        *(Cast(column, output_field=TextField()) for column, _read in columns),
        *(Value(None, output_field=TextField()) for _ in range(WIDTH - len(columns))),
    )


def digest_query(competition_id: int) -> tuple[str, list]:
    """The SQL of every table but the competition's, in one UNION ALL of text columns
    (built once a day: a digest after every call of every day must be cheap)."""
    parts = [
        _rows(name, model.objects.filter(**{scope: competition_id}))
        for name, (model, scope, _columns) in TABLES.items()
    ]
    # The audit log only grows: its newest entry stands for all of it.
    newest = AuditEntry.objects.filter(competition_id=competition_id).order_by("-pk")
    audit = AuditEntry.objects.filter(pk=Subquery(newest.values("pk")[:1]))
    parts.append(
        audit.order_by().values_list(
            Value("audit", output_field=TextField()),
            Cast("pk", output_field=TextField()),
            *(Value(None, output_field=TextField()) for _ in range(WIDTH - 1)),
        )
    )
    sql, params = parts[0].union(*parts[1:], all=True).query.sql_with_params()
    return sql, list(params)


def read_digest(competition_id: int, query: tuple[str, list]) -> Digest:
    """Two queries: the competition's row, and `digest_query`."""
    competition = Competition.objects.values_list(
        "started_at", "stopped_at", "finalised_at", "standings_version", "second_count",
        "duration_minutes", "slug",
    ).get(pk=competition_id)  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(*query)
        found = cursor.fetchall()
    tables = {name: [] for name in (*TABLES, "audit")}
    for tag, *values in found:
        if tag == "audit":
            tables[tag].append(int(values[0]))
            continue
        columns = TABLES[tag][2]
        tables[tag].append(tuple(read(v) for (_c, read), v in zip(columns, values, strict=False)))
    return Digest(
        competition=competition,
        audit=tuple(tables.pop("audit")),
        **{
            name: tuple(sorted(rows, key=lambda row, name=name: row[name == "puzzles"]))
            for name, rows in tables.items()
        },
    )


def expected_rows(digest: Digest, *, public: bool) -> list[tuple]:
    """The standings `rules.standings` gives over the digest, as the API's rows compare.

    The public sees a count only once it is confirmed (docs/contracts.md "The second count": the
    second judge counts blind, even from the café)."""
    puzzles = [rules.Puzzle(position=p[1], pieces=p[2]) for p in digest.puzzles]
    finishes = defaultdict(list)
    for f in digest.finishes:
        finishes[f[1]].append(f)
    sheets, shown = [], {}
    for team in digest.teams:
        if team[3]:  # withdrawn teams are not listed
            continue
        count = digest.count_of(team[0])
        counted = count[3] if count else None
        if public and count is not None and digest.second_count and count[9] is None:
            counted = None
        shown[team[0]] = counted
        sheets.append(
            rules.Sheet(
                team=team[0],
                finishes=tuple(
                    rules.Finish(position=f[3], elapsed_seconds=f[4], missing=f[5])
                    for f in sorted(finishes[team[0]], key=lambda f: f[3])
                ),
                counted=counted,
                disqualified=team[4],
            )
        )
    by_team = {f[1]: [] for f in digest.finishes}
    for f in sorted(digest.finishes, key=lambda f: f[3]):
        by_team[f[1]].append((f[3], f[4], rules.deducted(f[5])))
    return [
        (
            s.rank,
            s.team,
            s.pieces,
            s.finished,
            s.last_finish_seconds,
            s.disqualified,
            shown[s.team],
            tuple(by_team.get(s.team, ())),
        )  # fmt: skip
        for s in rules.standings(puzzles, sheets)
    ]


def served_rows(body: dict) -> list[tuple]:
    return [
        (
            r["rank"],
            r["team"]["id"],
            r["pieces"],
            r["finished"],
            r["last_finish_seconds"],
            r["disqualified"],
            r["counted"],
            tuple((f["puzzle"], f["elapsed_seconds"], f["deducted"]) for f in r["finishes"]),
        )  # fmt: skip
        for r in body["standings"]
    ]
