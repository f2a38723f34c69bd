"""Why two teams with the same pieces are placed as they are (R11; rules.py is the entry):
`tie_break` says which case and by how much, `tie_break_reason` says it in a sentence,
Danish or English; under either ranking profile ("dm", the default, or "wjpc")."""

from __future__ import annotations

from puzzle_rules.formatting import format_duration, format_hms, language_of
from puzzle_rules.records import Standing, check_profile

__all__ = ["tie_break", "tie_break_reason"]

_SENTENCES = {
    "da": {
        "earlier": (
            "Samme antal brikker; {name} lagde {their} sidste hele puslespil færdigt "
            "{delta} tidligere."
        ),
        "earlier_at": (
            "Samme antal brikker; {name} lagde {their} sidste hele puslespil færdigt "
            "på {time}, {delta} tidligere."
        ),
        "only": "Samme antal brikker; kun {name} lagde et helt puslespil færdigt.",
        "same_time": "Samme antal brikker og samme tid: delt placering.",
        "none_finished": "Samme antal brikker og intet helt puslespil færdigt: delt placering.",
        "all_finished": "Samme antal brikker; kun {name} lagde alle puslespil færdigt.",
        "same_pieces": (
            "Samme antal brikker og ingen af dem lagde alle puslespil færdigt: delt placering."
        ),
        "same_ranking_time": "Samme tid med tillæg for manglende brikker: delt placering.",
    },
    "en": {
        "earlier": "Same pieces; {name} finished their last whole puzzle {delta} earlier.",
        "earlier_at": (
            "Same pieces; {name} finished their last whole puzzle at {time}, {delta} earlier."
        ),
        "only": "Same pieces; only {name} finished a whole puzzle.",
        "same_time": "Same pieces and same time: shared place.",
        "none_finished": "Same pieces and no whole puzzle finished: shared place.",
        "all_finished": "Same pieces; only {name} finished every puzzle.",
        "same_pieces": "Same pieces and neither finished every puzzle: shared place.",
        "same_ranking_time": "Same time with the penalty for missing pieces: shared place.",
    },
}


def tie_break(
    ahead: Standing, behind: Standing, profile: str = "dm"
) -> tuple[str, int | None] | None:
    """R11: how `ahead` comes before `behind` with the same pieces, as (kind, seconds).

    Under `profile="wjpc"` (the standings of that profile; see `_wjpc`) the kinds are
    "same_ranking_time", "all_finished" and "same_pieces". Another profile raises
    RuleViolation("profile"). Under "dm" (the default):

    - ("earlier", s): `ahead` finished its last whole puzzle `s` seconds before `behind`;
    - ("only", None): only `ahead` finished a whole puzzle;
    - ("same_time", None): both finished their last whole puzzle at the same second;
    - ("none_finished", None): neither finished a whole puzzle (a shared place either way).

    None when the pieces differ (no tie to explain) or when either team is disqualified.
    Raises ValueError when `ahead` does not in fact come first by R11.
    """
    if check_profile(profile) == "wjpc":
        return _wjpc(ahead, behind)
    if ahead.pieces != behind.pieces or ahead.disqualified or behind.disqualified:
        return None
    a, b = ahead.last_finish_seconds, behind.last_finish_seconds
    if a is None and b is None:
        return ("none_finished", None)
    if a is None or (b is not None and a > b):
        raise ValueError("`ahead` finished its last whole puzzle after `behind` (R11)")
    if b is None:
        return ("only", None)
    if a == b:
        return ("same_time", None)
    return ("earlier", b - a)


def tie_break_reason(
    ahead: Standing,
    behind: Standing,
    *,
    ahead_name: str,
    language: str = "da",
    with_time: bool = False,
    alone: bool = False,
    profile: str = "dm",
) -> str | None:
    """R11: why `ahead` is placed before `behind` although both placed the same pieces, in
    a sentence (tie_break says which case and by how much).

    `alone`: `ahead` is one puzzler (an individual entrant): Danish "lagde sit sidste",
    a team or a pair "lagde deres sidste".

    None when there is no tie to explain (see tie_break).
    `with_time` adds the time `ahead` finished its last whole puzzle ("på 1:23:45").
    `language` is "da" (default) or "en"; other languages get Danish.
    `profile`: the ranking profile the standings were made by ("dm" or "wjpc").
    Raises ValueError when `ahead` does not in fact come first by R11.
    """
    gap = tie_break(ahead, behind, profile)
    if gap is None:
        return None
    kind, seconds = gap
    texts = _SENTENCES[language_of(language)]
    if kind != "earlier":
        return texts[kind].format(name=ahead_name)
    # "earlier": both finished a whole puzzle, `ahead` first (tie_break), by `seconds`.
    assert seconds is not None and ahead.last_finish_seconds is not None
    key = "earlier_at" if with_time else "earlier"
    return texts[key].format(
        name=ahead_name,
        their="sit" if alone else "deres",  # Danish only: "their" is either in English
        delta=format_duration(seconds, language),
        time=format_hms(ahead.last_finish_seconds),
    )


def _wjpc(ahead: Standing, behind: Standing) -> tuple[str, int | None] | None:
    """The wjpc profile's ties, of two standings made under it (`ranking_seconds` is set
    exactly for a team that finished every puzzle):

    - ("same_ranking_time", None): both finished every puzzle at the same time plus penalty,
      a shared place (their pieces may differ: the penalty stands for the missing pieces);
    - ("all_finished", None): the same pieces, and only `ahead` finished every puzzle;
    - ("same_pieces", None): the same pieces, neither finished every puzzle: a shared place
      (wjpc does not look at the time of an earlier whole puzzle).

    None when there is no tie (different times of finishers, different pieces otherwise) or
    when either team is disqualified. Raises ValueError when `ahead` does not in fact come
    first under wjpc.
    """
    if ahead.disqualified or behind.disqualified:
        return None
    a, b = ahead.ranking_seconds, behind.ranking_seconds
    if a is None and b is not None:
        raise ValueError("`behind` finished every puzzle and `ahead` did not (wjpc)")
    if a is not None and b is not None:
        if a > b:
            raise ValueError("`ahead` ranks by a later time than `behind` (wjpc)")
        return ("same_ranking_time", None) if a == b else None
    if ahead.pieces != behind.pieces:
        if a is None and ahead.pieces < behind.pieces:
            raise ValueError("`ahead` placed fewer pieces than `behind` (wjpc)")
        return None
    return ("all_finished", None) if a is not None else ("same_pieces", None)
