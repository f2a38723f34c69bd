"""Property tests of the pure championship rules (puzzle_rules/championship.py) with hypothesis:
a label's ranking is the rules run on that label's sheets alone; advancing never passes a
higher entrant over for a lower one, fills exactly its seats when no tie is at a cut, and
does not depend on the order of the sources."""

from hypothesis import given
from hypothesis import strategies as st

from puzzle_rules.championship import advancing, decide, label_ranking, r11_key
from puzzle_rules.rules import standings
from tests.scoring.test_rules_properties import SETTINGS, competitions


@SETTINGS
@given(competitions(), st.data())
def test_a_label_ranking_is_the_rules_on_that_labels_sheets_alone(competition, data):
    puzzles, sheets = competition
    label = data.draw(st.sets(st.sampled_from([s.team for s in sheets])))
    alone = standings(puzzles, [s for s in sheets if s.team in label])
    assert label_ranking(standings(puzzles, sheets), label) == alone


@st.composite
def rounds(draw):
    """Two to four final heats (each a competition's standings) and a number of seats."""
    heats = {}
    for name in draw(st.lists(st.sampled_from("abcd"), min_size=2, max_size=4, unique=True)):
        puzzles, sheets = draw(competitions())
        heats[name] = standings(puzzles, sheets)
    return heats, draw(st.integers(1, 14))


def beats(a, b) -> bool:
    """R11 written out: a strictly ahead of b (more pieces; then an earlier last finish,
    no finish after every finish)."""
    if a.pieces != b.pieces:
        return a.pieces > b.pieces
    if a.last_finish_seconds is None or b.last_finish_seconds is None:
        return a.last_finish_seconds is not None and b.last_finish_seconds is None
    return a.last_finish_seconds < b.last_finish_seconds


def pools(heats, per_source):
    ranked = [(n, s) for n, rows in heats.items() for s in rows if not s.disqualified]
    if not per_source:
        return {None: ranked}
    return {n: [(m, s) for m, s in ranked if m == n] for n in heats}


@SETTINGS
@given(rounds(), st.booleans())
def test_advancing_never_takes_a_lower_entrant_over_a_higher_one(heats_best, per_source):
    heats, best = heats_best
    taken = decide(advancing(heats, best=best, per_source=per_source), include_tied=True)
    chosen = {(e.source, e.team) for e in taken}
    assert not any(e.standing.disqualified for e in taken)
    for pool in pools(heats, per_source).values():
        for n, s in pool:
            for m, t in pool:
                if (m, t.team) in chosen and beats(s, t):
                    assert (n, s.team) in chosen, "a higher entrant left out"


@SETTINGS
@given(rounds(), st.booleans())
def test_advancing_fills_exactly_its_seats_without_a_tie_at_the_cut(heats_best, per_source):
    heats, best = heats_best
    result = advancing(heats, best=best, per_source=per_source)
    expected = sum(min(best, len(pool)) for pool in pools(heats, per_source).values())
    if result.ties:
        seats = sum(tie.seats for tie in result.ties)
        assert len(result.sure) + seats == expected
        for tie in result.ties:
            assert len({r11_key(e.standing) for e in tie.tied}) == 1
            assert len(tie.tied) > tie.seats >= 1
    else:
        assert len(decide(result)) == expected


@SETTINGS
@given(rounds(), st.data())
def test_advancing_overall_does_not_depend_on_the_order_of_the_sources(heats_best, data):
    heats, best = heats_best
    names = data.draw(st.permutations(list(heats)))
    shuffled = {n: data.draw(st.permutations(heats[n])) for n in names}
    for per_source in (False, True):
        assert advancing(shuffled, best=best, per_source=per_source) == advancing(
            heats, best=best, per_source=per_source
        )


@SETTINGS
@given(rounds(), st.data())
def test_choosing_the_seats_of_each_tie_fills_exactly_the_seats(heats_best, data):
    heats, best = heats_best
    result = advancing(heats, best=best, per_source=data.draw(st.booleans()))
    choose = []
    for tie in result.ties:
        picked = data.draw(st.permutations(tie.tied))[: tie.seats]
        choose += [(e.source, e.team) for e in picked]
    taken = decide(result, choose=choose)
    assert len(taken) == len(result.sure) + sum(t.seats for t in result.ties)
    assert {(e.source, e.team) for e in taken} >= {(e.source, e.team) for e in result.sure}
    assert [r11_key(e.standing) for e in taken] == sorted(r11_key(e.standing) for e in taken)
