"""Competition setup and the puzzle sequence (R7): create, edit, and the fixed order of puzzles."""

from collections.abc import Sequence
from datetime import datetime

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.audit import audit_record
from competition.audit_actions import (
    COMPETITION_CREATE,
    COMPETITION_UPDATE,
    PUZZLE_ADD,
    PUZZLE_DELETE,
    PUZZLE_SEQUENCE_SET,
    PUZZLE_UPDATE,
    Action,
)
from competition.errors import Refusal, Vanished
from competition.inputs import SMALLINT_MAX
from competition.models import (
    DEFAULT_AT_TABLE,
    Championship,
    Competition,
    Discipline,
    Puzzle,
    Ranking,
)
from competition.services.championships import (
    ensure_joinable,
    own_championship,
    slug_check,
    validate_slug,
)
from competition.services.table_plan import ensure_plan_kept
from competition.writes import Write, write
from puzzle_rules import rules

__all__ = [
    "competition_create",
    "competition_update",
    "puzzle_add",
    "puzzle_update",
    "puzzle_delete",
    "puzzle_sequence_set",
]

COMPETITION_FIELDS = (
    "slug",
    "name",
    "venue",
    "starts_at",
    "duration_minutes",
    "max_at_table",
    "hide_motifs",
)
# What may still change once the clock has started: nothing that moves the clock or the rules.
FIELDS_AFTER_START = frozenset({"name", "venue"})


# --- snapshots for the audit trail -----------------------------------------------------------
def _competition_snapshot(c: Competition) -> dict:
    return {f: getattr(c, f) for f in COMPETITION_FIELDS}


def _puzzles_snapshot(competition: Competition) -> list[dict]:
    return [
        {"position": p.position, "title": p.title, "brand": p.brand, "pieces": p.pieces}
        for p in Puzzle.objects.filter(competition=competition).order_by("position")
    ]


def _ensure_setup(competition: Competition) -> None:
    if competition.started_at is not None:
        raise Refusal(
            "already_started",
            _("The clock has started; the puzzle sequence can no longer be changed."),
        )


# --- competition -----------------------------------------------------------------------------
@transaction.atomic
def competition_create(
    *,
    by,
    slug: str,
    name: str,
    starts_at: datetime,
    duration_minutes: int = 180,
    max_at_table: int | None = None,
    venue: str = "",
    hide_motifs: bool = False,
    second_count: bool = True,
    championship: Championship | None = None,
    discipline: str = Discipline.TEAM,
    round: str = "",
    ranking: str = Ranking.DM,
) -> Competition:
    """Create a competition in setup (no puzzles yet; add them with puzzle_add), in
    `championship` or else in a championship of its own (its slug, name and venue). The
    table limit is the discipline's (1, 2, 4) unless `max_at_table` is given."""
    validate_slug(slug)
    slug_check(slug)
    if discipline not in Discipline.values:
        raise ValidationError({"discipline": _("Choose individuals, pairs or teams.")})
    if ranking not in Ranking.values:
        raise ValidationError({"ranking": _("Choose the Danish rules or the World rules.")})
    if championship is None:
        championship = own_championship(slug=slug, name=name, venue=venue)
    else:
        ensure_joinable(championship)
    if max_at_table is None:
        max_at_table = DEFAULT_AT_TABLE[Discipline(discipline)]
    competition = Competition(
        championship=championship,
        discipline=discipline,
        round=round,
        slug=slug,
        name=name,
        starts_at=starts_at,
        duration_minutes=duration_minutes,
        max_at_table=max_at_table,
        venue=venue,
        hide_motifs=hide_motifs,
        second_count=second_count,
        ranking=ranking,
    )
    competition.full_clean()
    competition.save()
    audit_record(
        competition=competition,
        user=by,
        action=COMPETITION_CREATE,
        after={**_competition_snapshot(competition), "ranking": ranking},
    )
    return competition


def competition_update(*, competition: Competition, by, **fields) -> Competition:
    """Edit the competition; once the clock has started only its name and venue."""
    unknown = set(fields) - set(COMPETITION_FIELDS)
    if unknown:
        raise TypeError(f"unknown fields: {', '.join(sorted(unknown))}")
    with write(competition=competition, by=by) as w:
        competition = w.competition
        changed = {f: v for f, v in fields.items() if getattr(competition, f) != v}
        if competition.started_at is not None and set(changed) - FIELDS_AFTER_START:
            raise Refusal(
                "already_started",
                _("The clock has started; only the name and the venue can be changed now."),
            )
        if not changed:
            return competition
        if "slug" in changed:
            validate_slug(changed["slug"])
            slug_check(changed["slug"], competition=competition)
            own = competition.championship.slug == competition.slug
            if own and competition.championship.competitions.count() == 1:
                # a championship of its own keeps the competition's slug
                Championship.objects.filter(pk=competition.championship_id).update(
                    slug=changed["slug"]
                )
        before = _competition_snapshot(competition)
        for f, v in changed.items():
            setattr(competition, f, v)
        competition.full_clean()
        moved = [f for f in ("starts_at", "duration_minutes") if f in changed]
        if moved:  # one hall, one table plan: not into another competition's tables
            ensure_plan_kept(competition, field=moved[0])
        competition.save(update_fields=list(changed))
        w.audit(COMPETITION_UPDATE, before=before, after=_competition_snapshot(competition))
        return competition


# --- the puzzle sequence (R7) ----------------------------------------------------------------
def _sequence_changed(w: Write, action: Action, before: list[dict]) -> None:
    """The puzzle sequence before and after, in the audit log; the standings follow."""
    after = {"puzzles": _puzzles_snapshot(w.competition)}
    w.audit(action, before={"puzzles": before}, after=after)


def puzzle_add(
    *, competition: Competition, by, position: int, pieces: int, title: str = "", brand: str = ""
) -> Puzzle:
    with write(competition=competition, by=by) as w:
        competition = w.competition
        _ensure_setup(competition)
        before = _puzzles_snapshot(competition)
        if Puzzle.objects.filter(competition=competition, position=position).exists():
            raise ValidationError({"position": _("There is already a puzzle with this number.")})
        try:
            rules.check_new_position([p["position"] for p in before], position)
        except rules.RuleViolation:
            message = ngettext(
                "The sequence has %(n)d puzzle: the next one is number %(next)d (rule 7: no gaps).",
                "The sequence has %(n)d puzzles: the next one is number %(next)d "
                "(rule 7: no gaps).",
                len(before),
            ) % {"n": len(before), "next": len(before) + 1}
            raise ValidationError({"position": message}) from None
        puzzle = Puzzle(
            competition=competition, position=position, pieces=pieces, title=title, brand=brand
        )
        puzzle.full_clean()
        puzzle.save()
        _sequence_changed(w, PUZZLE_ADD, before)
        return puzzle


def puzzle_update(*, puzzle: Puzzle, by, **fields) -> Puzzle:
    unknown = set(fields) - {"position", "title", "brand", "pieces"}
    if unknown:
        raise TypeError(f"unknown fields: {', '.join(sorted(unknown))}")
    with write(competition=puzzle.competition, by=by) as w:
        competition = w.competition
        _ensure_setup(competition)
        puzzle = Puzzle.objects.filter(pk=puzzle.pk).first()
        if puzzle is None:
            raise Vanished(_("This puzzle has since been removed from the sequence."))
        before = _puzzles_snapshot(competition)
        if (
            "position" in fields
            and fields["position"] != puzzle.position
            and Puzzle.objects.filter(competition=competition, position=fields["position"]).exists()
        ):
            raise ValidationError({"position": _("There is already a puzzle with this number.")})
        for f, v in fields.items():
            setattr(puzzle, f, v)
        puzzle.full_clean()
        puzzle.save()
        _sequence_changed(w, PUZZLE_UPDATE, before)
        return puzzle


def puzzle_delete(*, puzzle: Puzzle, by) -> None:
    with write(competition=puzzle.competition, by=by) as w:
        _ensure_setup(w.competition)
        before = _puzzles_snapshot(w.competition)
        Puzzle.objects.filter(pk=puzzle.pk).delete()
        _sequence_changed(w, PUZZLE_DELETE, before)


def puzzle_sequence_set(*, competition: Competition, by, puzzles: Sequence[dict]) -> list[Puzzle]:
    """Replace the whole sequence: `puzzles` in order, each {id?, title, brand, pieces}.

    Positions become 1..n in the given order (R7: a fixed sequence without gaps); a
    puzzle with an `id` keeps its row, the others are added, the missing ones removed.
    """
    with write(competition=competition, by=by) as w:
        competition = w.competition
        _ensure_setup(competition)
        before = _puzzles_snapshot(competition)
        existing = {p.pk: p for p in Puzzle.objects.filter(competition=competition)}
        keep = {int(d["id"]) for d in puzzles if d.get("id")}
        if keep - set(existing):
            raise ValidationError(_("A puzzle in the list is not of this competition."))
        Puzzle.objects.filter(competition=competition).exclude(pk__in=keep).delete()
        # Move the kept rows out of the way first: positions are unique per competition. They
        # park on free positions after the new sequence's (a smallint on PostgreSQL, so nothing
        # derived from the id: `10000 + pk` overflowed once ids passed 22,767).
        taken = {existing[pk].position for pk in keep}
        parking = (p for p in range(len(puzzles) + 1, SMALLINT_MAX + 1) if p not in taken)
        for pk, parked in zip(sorted(keep), parking, strict=False):
            Puzzle.objects.filter(pk=pk).update(position=parked)
        result = []
        for position, data in enumerate(puzzles, start=1):
            puzzle = existing.get(int(data["id"])) if data.get("id") else None
            puzzle = puzzle or Puzzle(competition=competition)
            puzzle.position = position
            puzzle.title = data.get("title", "") or ""
            puzzle.brand = data.get("brand", "") or ""
            puzzle.pieces = data["pieces"]
            puzzle.full_clean(validate_unique=False, validate_constraints=False)
            puzzle.save()
            result.append(puzzle)
        after = _puzzles_snapshot(competition)
        if after != before:
            w.audit(PUZZLE_SEQUENCE_SET, before={"puzzles": before}, after={"puzzles": after})
        return result
