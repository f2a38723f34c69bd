"""The pure rules of a championship (docs/contracts.md "A championship of several
competitions"): who goes on from earlier rounds, and one label's own ranking. Plain data in,
plain data out, beside `rules.py` (no Django, no project module but the rules).

Advancing (`advancing`, then `decide`): a round takes its entrants from the final standings
of earlier rounds (the sources), the best N of each source (`per_source=True`) or the best N
of all sources ranked together by R11's key (more pieces, then the earlier last finish, no
finish after any finish). Disqualified entrants never go on. When a cut falls inside a tie
(entrants equal by R11 on both sides of it) `advancing` names the tied entrants and the
seats left for them; `decide` then refuses with ``tie_at_cut`` unless the head judge takes
them all (`include_tied`) or chooses exactly the seats' number of them (`choose`).

A label's ranking (`label_ranking`): only the entrants that carry the label, ranked among
themselves by the same rules (1, 2, 2, 4; disqualified last with rank None), as
`rules.standings` would rank their sheets alone.

=====================  ==========================================================
code                   when
=====================  ==========================================================
``tie_at_cut``         a cut falls inside a tie and nothing decides it
``choose_not_tied``    `choose` names an entrant that is not tied at a cut
``choose_count``       `choose` takes more or fewer of a tie than its seats left
``started``            a competition's championship, discipline or round changed, or
                       the competition deleted, once its clock has started
``has_competitions``   a championship deleted while it still holds competitions
=====================  ==========================================================

Where a competition belongs (`check_placement_change`, `check_competition_delete`,
`check_championship_delete`): a competition made by mistake is moved, changed or deleted
before its clock starts; once it runs, its entrants, judges and public pages are of it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from puzzle_rules.rules import RuleViolation, Standing, check_profile

__all__ = [
    "Advancing",
    "Entrant",
    "Tie",
    "advancing",
    "check_championship_delete",
    "check_competition_delete",
    "check_placement_change",
    "decide",
    "label_ranking",
    "r11_key",
    "rank_key",
]


@dataclass(frozen=True)
class Entrant:
    """One entrant of a source round with its final standing there."""

    source: object  # the source round's id (a slug); opaque here
    standing: Standing
    key: tuple[int, ...] = ()  # its order under its round's profile (`rank_key`); () is R11's

    @property
    def team(self) -> object:
        return self.standing.team


@dataclass(frozen=True)
class Tie:
    """A cut inside a tie: `seats` of the `tied` entrants fit within the best N."""

    source: object | None  # the source whose cut it is; None for the cut across all sources
    seats: int
    tied: tuple[Entrant, ...]


@dataclass(frozen=True)
class Advancing:
    """Who goes on: `sure` are above every cut; each tie at a cut waits for a decision."""

    sure: tuple[Entrant, ...]
    ties: tuple[Tie, ...] = ()

    @property
    def tied(self) -> tuple[Entrant, ...]:
        return tuple(e for tie in self.ties for e in tie.tied)


def r11_key(standing: Standing) -> tuple[int, int, int]:
    """R11's order as a key: more pieces first, then the earlier last finish, no finish after
    every finish. Equal keys are a tie."""
    last = standing.last_finish_seconds
    return (-standing.pieces, 1 if last is None else 0, 0 if last is None else last)


def rank_key(standing: Standing, profile: str = "dm") -> tuple[int, ...]:
    """A standing's order as a key under the ranking profile it was made by, comparable
    across rounds of that profile: `dm` R11's (`r11_key`); `wjpc` a finisher of every puzzle
    by its time plus its penalty (`ranking_seconds`), before every other entrant, those by
    more pieces. Equal keys are a tie; another profile raises RuleViolation("profile")."""
    if check_profile(profile) == "dm":
        return r11_key(standing)
    if standing.ranking_seconds is not None:
        return (0, standing.ranking_seconds, 0)
    return (1, -standing.pieces, 0)


def _key(entrant: Entrant) -> tuple[int, ...]:
    return entrant.key or r11_key(entrant.standing)


def _order(entrant: Entrant) -> tuple[object, ...]:
    # Its round's order, then one that does not depend on the input's: the source, the team.
    return (*_key(entrant), _plain_key(entrant.source), _plain_key(entrant.team))


def _plain_key(value: object) -> tuple[int, float, str]:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return (0, value, "")
    if isinstance(value, str):
        return (1, 0, value)
    return (2, 0, f"{type(value).__qualname__}:{value!r}")


def _cut(
    entrants: Sequence[Entrant], best: int, source: object | None
) -> tuple[list[Entrant], Tie | None]:
    """The best `best` of `entrants` (already in R11 order): (sure, the tie at the cut)."""
    if len(entrants) <= best:
        return list(entrants), None
    at_cut = _key(entrants[best - 1])
    if _key(entrants[best]) != at_cut:
        return list(entrants[:best]), None
    sure = [e for e in entrants if _key(e) < at_cut]
    tied = tuple(e for e in entrants if _key(e) == at_cut)
    return sure, Tie(source=source, seats=best - len(sure), tied=tied)


def advancing(
    sources: Mapping[object, Sequence[Standing]],
    *,
    best: int,
    per_source: bool,
    keys: Mapping[object, tuple[int, ...]] | None = None,
) -> Advancing:
    """The entrants that go on from `sources` (each source's final standings, by its id):
    the best `best` of each source (`per_source`) or of all of them together. Disqualified
    entrants never go on. A cut inside a tie is a `Tie` (nothing of it is in `sure`).
    `keys` (by team) orders the entrants as their rounds' profiles rank (`rank_key`);
    without it, R11. The answer is the same whatever the order of the sources and of
    their standings."""
    if best < 1:
        raise ValueError("best must be at least 1")
    pools: list[tuple[object | None, list[Entrant]]]
    everyone = [
        Entrant(source, s, keys.get(s.team, ()) if keys else ())
        for source, rows in sources.items()
        for s in rows
        if not s.disqualified and s.rank is not None
    ]
    everyone.sort(key=_order)
    if per_source:
        ordered = sorted(sources, key=_plain_key)
        pools = [(source, [e for e in everyone if e.source == source]) for source in ordered]
    else:
        pools = [(None, everyone)]
    sure: list[Entrant] = []
    ties: list[Tie] = []
    for source, pool in pools:
        chosen, tie = _cut(pool, best, source)
        sure += chosen
        if tie is not None:
            ties.append(tie)
    sure.sort(key=_order)
    return Advancing(sure=tuple(sure), ties=tuple(ties))


def decide(
    result: Advancing,
    *,
    include_tied: bool = False,
    choose: Iterable[tuple[object, object]] | None = None,
) -> list[Entrant]:
    """The entrants that go on, in R11 order across the sources: `sure`, and for each tie
    at a cut all its entrants (`include_tied`) or the chosen ones (`choose`: (source, team)
    pairs, exactly the tie's seats of each tie). Raises ``tie_at_cut`` when a tie is left
    undecided, ``choose_not_tied`` / ``choose_count`` when `choose` does not fit the ties."""
    chosen = set(choose) if choose is not None else None
    taken = list(result.sure)
    if chosen is not None:
        tied = {(e.source, e.team) for e in result.tied}
        stray = chosen - tied
        if stray:
            raise RuleViolation(
                "choose_not_tied",
                f"{len(stray)} of the chosen entrants are not tied at a cut.",
            )
        for tie in result.ties:
            picked = [e for e in tie.tied if (e.source, e.team) in chosen]
            if len(picked) != tie.seats:
                raise RuleViolation(
                    "choose_count",
                    f"{tie.seats} of the {len(tie.tied)} tied entrants go on, not {len(picked)}.",
                )
            taken += picked
    elif include_tied:
        taken += result.tied
    elif result.ties:
        raise RuleViolation(
            "tie_at_cut",
            f"{len(result.tied)} entrants are tied at the cut; "
            "take them all or choose who goes on.",
        )
    taken.sort(key=_order)
    return taken


def label_ranking(ranked: Sequence[Standing], teams: Collection[object]) -> list[Standing]:
    """One label's own ranking: the standings of `ranked` (a competition's, as
    `rules.standings` gives them) whose team is in `teams`, ranked anew among themselves by
    the same rules (rank = 1 + entrants of the label strictly ahead: 1, 2, 2, 4);
    disqualified entrants last with rank None, in the order they had. The competition's
    ranks already say who is ahead and who is equal under its profile (dm: R11, wjpc: the
    World rules), so a label's ranking keeps that order; a standing without a rank (not
    disqualified) is placed by R11's key after the ranked ones."""
    out: list[Standing] = []
    previous: tuple[object, ...] | None = None
    rank: int | None = None

    def order(s: Standing) -> tuple[object, ...]:
        if s.rank is not None:
            return (0, s.rank)
        return (1, *r11_key(s))

    mine = sorted(
        (s for s in ranked if s.team in teams),
        key=lambda s: (s.disqualified, order(s)),
    )
    for position, s in enumerate(mine, start=1):
        if s.disqualified:
            out.append(replace(s, rank=None))
            continue
        key = order(s)
        if key != previous:
            rank, previous = position, key
        out.append(replace(s, rank=rank))
    return out


# --- where a competition belongs ---------------------------------------------------------
def check_placement_change(*, started: bool) -> None:
    """A competition's championship, discipline and round are chosen before its clock
    starts: once it runs, its judges' tablets, its words and the championship's programme
    show it so, and stay so."""
    if started:
        raise RuleViolation(
            "started",
            "The clock has started; the championship, the discipline and the round can no "
            "longer be changed.",
        )


def check_competition_delete(*, started: bool) -> None:
    """A competition made by mistake is deleted before its clock starts; one that has run
    keeps its results (and its audit log) for good."""
    if started:
        raise RuleViolation(
            "started", "The clock has started; the competition can no longer be deleted."
        )


def check_championship_delete(*, competitions: int) -> None:
    """A championship is deleted only once it holds no competition: each is moved out or
    deleted first (and each of those is refused once its clock has started)."""
    if competitions:
        raise RuleViolation(
            "has_competitions",
            f"The championship still holds {competitions} competitions: move or delete them first.",
        )
