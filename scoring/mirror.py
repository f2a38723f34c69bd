"""The public mirror (docs/contracts.md "The public mirror"): the hall's public snapshot of a
competition, its explicit schema, and how a mirror takes it in.

The snapshot is built from the public reads the hall serves: the competition's public
fields, its puzzles as the public API shows them (motifs blank while secret), and per team
what the public standings hold (blind: a count waiting for its second count is left out).
`SCHEMA` lists every field a snapshot may have; nothing else passes `validate`, and there is
no field for a personal value (no members, ages, adults, contacts, notes, reasons).

A mirror materialises a snapshot into its own database (the hall's ids, one transaction,
the competition's row locked, only when the version is not older than the one it holds),
so the public views and the API answer there exactly as they do in the hall.
"""

from __future__ import annotations

import hashlib
import json
from datetime import date, datetime

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from competition.models import Championship, Competition, Puzzle, Ranking, Team
from judging.models import Count, Finish, Objection
from scoring.models import MirrorState
from scoring.selectors import standings_for

# 2: the championship, the discipline and the round; 3: the labels; 4: the ranking (dm, wjpc)
SCHEMA_VERSION = 4
_INT, _STR, _BOOL = int, str, bool
_OPT_INT, _OPT_STR = (int, None), (str, None)
COMPETITION = {
    "id": _INT,
    "slug": _STR,
    "name": _STR,
    "venue": _STR,
    "starts_at": _STR,
    "duration_minutes": _INT,
    "max_at_table": _INT,
    "hide_motifs": _BOOL,
    "second_count": _BOOL,
    "started_at": _OPT_STR,
    "stopped_at": _OPT_STR,
    "finalised_at": _OPT_STR,
    "screen_mode": _STR,
    "screen_message": _STR,
    "reveal_from": _OPT_INT,
    "reveal_at": _OPT_INT,
    "hold_results": _BOOL,
    "discipline": _STR,
    "round": _STR,
    "ranking": _STR,  # the profile the standings rank by (issue 34)
}
CHAMPIONSHIP = {
    "slug": _STR,
    "name": _STR,
    "venue": _STR,
    "starts_on": _OPT_STR,
    "ends_on": _OPT_STR,
}
PUZZLE = {"id": _INT, "position": _INT, "title": _STR, "brand": _STR, "pieces": _INT}
FINISH = {"puzzle": _INT, "elapsed_seconds": _INT, "missing": [_INT]}
TEAM = {
    "id": _INT,
    "name": _STR,
    "table": _INT,
    "disqualified": _BOOL,
    "under_review": _BOOL,
    "counted": _OPT_INT,  # None while nobody counted, or while the count waits (blind)
    "counting": _BOOL,
    "finishes": [FINISH],
    "labels": [_STR],  # the organiser's (ung, senior, gæst): each label's own ranking
}
SCHEMA = {
    "schema": _INT,
    "version": _INT,
    "championship": CHAMPIONSHIP,
    "competition": COMPETITION,
    "puzzles": [PUZZLE],
    "teams": [TEAM],
}
# The most competitions a hall says it holds (a hall has tens).
HELD_MAX = 10_000
# What a mirror writes where the hall's row holds a value the public never sees.
NOT_MIRRORED = "-"


class SnapshotError(ValueError):
    pass


def is_mirror() -> bool:
    """A mirror is a deployment with MIRROR_TOKEN set and MIRROR_URL unset."""
    return bool(settings.MIRROR_TOKEN) and not settings.MIRROR_URL


def _iso(value: date | datetime | None) -> str | None:
    return value.isoformat() if value else None


def build(state: Competition) -> dict:
    """The public snapshot of `state` (a competition read with at least the state fields)."""
    competition = Competition.objects.get(pk=state.pk)
    body = standings_for(competition, staff=True, blind=True)  # the public body, none held
    secret = not competition.motifs_public()
    puzzles = [
        {
            "id": p.pk,
            "position": p.position,
            "title": "" if secret else p.title,
            "brand": "" if secret else p.brand,
            "pieces": p.pieces,
        }
        for p in competition.puzzles.order_by("position")
    ]
    teams = [
        {
            "id": r["team"]["id"],
            "name": r["team"]["name"],
            "table": r["team"]["table"],
            "disqualified": r["disqualified"],
            "under_review": r["under_review"],
            "counted": r["counted"],
            "counting": r["counting"],
            "finishes": [
                {
                    "puzzle": f["puzzle"],
                    "elapsed_seconds": f["elapsed_seconds"],
                    "missing": list(f["missing"]),
                }
                for f in r["finishes"]
            ],
            "labels": list(r.get("labels", [])),
        }
        for r in body["standings"]
    ]
    fields = {name: getattr(competition, name) for name in COMPETITION}
    fields["id"] = competition.pk
    for name in ("starts_at", "started_at", "stopped_at", "finalised_at"):
        fields[name] = _iso(fields[name])
    championship = competition.championship
    snapshot = {
        "schema": SCHEMA_VERSION,
        "version": body["version"],
        "championship": {
            "slug": championship.slug,
            "name": championship.name,
            "venue": championship.venue,
            "starts_on": _iso(championship.starts_on),
            "ends_on": _iso(championship.ends_on),
        },
        "competition": fields,
        "puzzles": puzzles,
        "teams": teams,
    }
    validate(snapshot)
    return snapshot


def digest(snapshot: dict) -> str:
    raw = json.dumps(snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(raw.encode()).hexdigest()


def _check(value, spec, where: str) -> None:
    if isinstance(spec, dict):
        if not isinstance(value, dict):
            raise SnapshotError(f"{where}: not an object")
        if set(value) != set(spec):
            odd = sorted(set(value) ^ set(spec))
            raise SnapshotError(f"{where}: fields {odd} are not the schema's")
        for key, sub in spec.items():
            _check(value[key], sub, f"{where}.{key}")
    elif isinstance(spec, list):
        if not isinstance(value, list):
            raise SnapshotError(f"{where}: not a list")
        for i, item in enumerate(value):
            _check(item, spec[0], f"{where}[{i}]")
    else:
        kinds = spec if isinstance(spec, tuple) else (spec,)
        if value is None and None in kinds:
            return
        if isinstance(value, bool) and bool not in kinds:
            raise SnapshotError(f"{where}: a boolean")
        if not any(k is not None and isinstance(value, k) for k in kinds):
            raise SnapshotError(f"{where}: the wrong type")


def _upgrade(snapshot) -> None:
    """A snapshot of version 3 (a hall not yet updated) ranks by the Danish rules: it is
    read as version 4 with `ranking` "dm", in place."""
    if isinstance(snapshot, dict) and snapshot.get("schema") == 3:
        competition = snapshot.get("competition")
        if isinstance(competition, dict) and "ranking" not in competition:
            competition["ranking"] = "dm"
            snapshot["schema"] = SCHEMA_VERSION


def validate(snapshot) -> None:
    """Exactly the schema's fields with the schema's types, else SnapshotError (a version 3
    snapshot is upgraded in place first: `_upgrade`)."""
    _upgrade(snapshot)
    _check(snapshot, SCHEMA, "snapshot")
    if snapshot["schema"] != SCHEMA_VERSION:
        raise SnapshotError("snapshot.schema: not this app's")
    if snapshot["competition"]["ranking"] not in Ranking.values:
        raise SnapshotError("snapshot.competition.ranking: not a ranking of this app")
    for name in ("starts_at", "started_at", "stopped_at", "finalised_at"):
        value = snapshot["competition"][name]
        if value is not None and parse_datetime(value) is None:
            raise SnapshotError(f"snapshot.competition.{name}: not a time")
    for name in ("starts_on", "ends_on"):
        value = snapshot["championship"][name]
        if value is not None and parse_date(value) is None:
            raise SnapshotError(f"snapshot.championship.{name}: not a date")


def _one_push_at_a_time(slug: str) -> None:
    """Until commit, no other push of this competition reads or writes (two pushers at once:
    an old one beside its restart). A row lock cannot do it on a mirror that has never seen
    the competition: there is no row yet, and the older push would insert behind the newer
    one and overwrite it. SQLite runs one writer at a time already."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [f"mirror:{slug}"])


def apply(snapshot: dict) -> tuple[int, dict]:
    """Take a validated snapshot in (on a mirror): (HTTP status, answer). 409 `older_version`
    when the mirror holds a newer one; the same snapshot again only says it was heard."""
    c = snapshot["competition"]
    version = snapshot["version"]
    seal = digest(snapshot)
    now = timezone.now()
    with transaction.atomic():
        _one_push_at_a_time(c["slug"])
        held = Competition.objects.select_for_update().filter(slug=c["slug"]).first()
        state = MirrorState.objects.filter(competition=held).first() if held else None
        if held is not None and held.pk != c["id"]:
            # Another competition under this short name: the hall deleted the one held here
            # and made a new one (whose version starts again at 0), or the hall's database was
            # replaced. The hall's ids decide, whatever the versions.
            _delete_rows(held)  # (its puzzles are protected by their finishes)
            held.delete()
            held = state = None
        if held is not None and held.standings_version > version:
            return 409, {
                "code": "older_version",
                "detail": f"The mirror holds version {held.standings_version}.",
                "version": held.standings_version,
            }
        if state is not None and state.version == version and state.digest == seal:
            MirrorState.objects.filter(pk=state.pk).update(heard_at=now)
            return 200, {"applied": False, "version": version}
        fields = {k: v for k, v in c.items() if k != "id"}
        for name in ("starts_at", "started_at", "stopped_at", "finalised_at"):
            fields[name] = parse_datetime(fields[name]) if fields[name] else None
        ch = snapshot["championship"]
        championship, _created = Championship.objects.update_or_create(
            slug=ch["slug"],
            defaults={
                "name": ch["name"],
                "venue": ch["venue"],
                "starts_on": parse_date(ch["starts_on"]) if ch["starts_on"] else None,
                "ends_on": parse_date(ch["ends_on"]) if ch["ends_on"] else None,
            },
        )
        competition, _created = Competition.objects.update_or_create(
            pk=c["id"],
            defaults={**fields, "championship": championship, "standings_version": version},
        )
        _replace_rows(competition, snapshot)
        MirrorState.objects.update_or_create(
            competition=competition, defaults={"version": version, "digest": seal, "heard_at": now}
        )
    return 200, {"applied": True, "version": version}


def keep_only(ids: list[int]) -> list[str]:
    """On a mirror: drop every competition the hall no longer holds (one deleted there before
    its start, made by mistake), with its rows and a championship left with none; answers
    the short names dropped. The hall sends the ids of all it holds (`validate_held`)."""
    with transaction.atomic():
        slugs = Competition.objects.exclude(pk__in=ids).order_by("slug")
        slugs = list(slugs.values_list("slug", flat=True))
        for slug in slugs:  # the pushes' lock first, in one order: no deadlock with a push
            _one_push_at_a_time(slug)
        gone = Competition.objects.select_for_update().exclude(pk__in=ids).filter(slug__in=slugs)
        gone = list(gone.order_by("slug"))
        for competition in gone:
            _delete_rows(competition)
            competition.delete()
        if gone:
            Championship.objects.filter(competitions=None).delete()
    return [competition.slug for competition in gone]


def validate_held(body) -> list[int]:
    """The hall's list of the competitions it holds: `{"competitions": [id, ...]}`."""
    if not isinstance(body, dict) or set(body) != {"competitions"}:
        raise SnapshotError("held: the only field is competitions")
    ids = body["competitions"]
    if not isinstance(ids, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in ids
    ):
        raise SnapshotError("held.competitions: not a list of ids")
    if len(ids) > HELD_MAX:  # (more than a query may name on SQLite)
        raise SnapshotError(f"held.competitions: more than {HELD_MAX}")
    return ids


def _delete_rows(competition: Competition) -> None:
    Objection.objects.filter(team__competition=competition).delete()
    Count.objects.filter(team__competition=competition).delete()
    Finish.objects.filter(team__competition=competition).delete()
    Team.objects.filter(competition=competition).delete()
    Puzzle.objects.filter(competition=competition).delete()


def _replace_rows(competition: Competition, snapshot: dict) -> None:
    """The competition's puzzles, teams, finishes, counts and open objections as pushed."""
    _delete_rows(competition)
    puzzles = Puzzle.objects.bulk_create(
        Puzzle(competition=competition, **p) for p in snapshot["puzzles"]
    )
    at = {p.position: p for p in puzzles}
    last = max(at) if at else None
    teams = snapshot["teams"]
    Team.objects.bulk_create(
        Team(
            id=t["id"],
            competition=competition,
            name=t["name"],
            table=t["table"],
            disqualified=t["disqualified"],
            disqualified_reason=NOT_MIRRORED if t["disqualified"] else "",
            labels=t["labels"],
        )
        for t in teams
    )
    now = timezone.now()
    finishes, counts, objections = [], [], []
    for t in teams:
        for f in t["finishes"]:
            if f["puzzle"] not in at:
                raise SnapshotError(f"team {t['id']}: puzzle {f['puzzle']} is not pushed")
            finishes.append(
                Finish(
                    team_id=t["id"],
                    puzzle=at[f["puzzle"]],
                    elapsed_seconds=f["elapsed_seconds"],
                    missing=f["missing"],
                )
            )
        if (t["counted"] is not None or t["counting"]) and last is not None:
            puzzle = at.get(len(t["finishes"]) + 1) or at[last]
            counts.append(
                Count(
                    team_id=t["id"],
                    puzzle=puzzle,
                    pieces=t["counted"] or 0,  # a waiting count's number is not pushed
                    confirmed_at=None if t["counting"] else now,
                )
            )
        if t["under_review"]:
            objections.append(Objection(team_id=t["id"], text=NOT_MIRRORED))
    Finish.objects.bulk_create(finishes)
    Count.objects.bulk_create(counts)
    Objection.objects.bulk_create(objections)
