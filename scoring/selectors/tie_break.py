"""R11 told in words for a standings row: why an entrant is placed after the one above it with
the same pieces (Danish and English sentences), and the same in a few words for a phone."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext, pgettext

from puzzle_rules import formatting, rules

__all__ = ["LANGUAGES", "short_duration", "tie_break_sentence"]

LANGUAGES = ("da", "en")


def short_duration(seconds: int) -> str:
    """A gap as a scoreboard writes it: "58 sek.", "1 min. 40 sek.", "1 t. 5 min." (the
    units of formatting.duration_parts), in the active language."""
    units = {
        "hour": pgettext("duration", "%(n)s h"),
        "minute": pgettext("duration", "%(n)s min."),
        "second": pgettext("duration", "%(n)s sec."),
    }
    return " ".join(units[unit] % {"n": n} for unit, n in formatting.duration_parts(seconds))


def tie_break_sentence(gap: tuple[str, int | None], ahead_name: str, language: str) -> str:
    """R11 told from the team behind, for a phone's row: ahead of whom it is placed and by
    how much (`gap` from rules.tie_break)."""
    kind, seconds = gap
    with translation.override(language):
        if kind == "earlier":
            return gettext(
                "Same number of pieces as %(name)s, but the last whole puzzle was finished "
                "%(delta)s later."
            ) % {"name": ahead_name, "delta": short_duration(seconds)}
        if kind == "only":
            return gettext("Same number of pieces as %(name)s, but no whole puzzle finished.") % {
                "name": ahead_name
            }
        if kind == "all_finished":  # the World rules (wjpc)
            return gettext("Same number of pieces as %(name)s, but not every puzzle finished.") % {
                "name": ahead_name
            }
        if kind == "same_ranking_time":
            return gettext(
                "Same time as %(name)s with the penalty for missing pieces: shared place."
            ) % {"name": ahead_name}
        if kind == "same_pieces":
            return gettext(
                "Same number of pieces as %(name)s, and neither finished every puzzle: "
                "shared place."
            ) % {"name": ahead_name}
        if kind == "same_time":
            return gettext(
                "Same number of pieces as %(name)s, and the last whole puzzle finished at the "
                "same second: shared place."
            ) % {"name": ahead_name}
        return gettext(
            "Same number of pieces as %(name)s, and neither finished a whole puzzle: shared place."
        ) % {"name": ahead_name}


def _tie_break(
    previous: rules.Standing, s: rules.Standing, ahead_name: str, alone: bool, profile: str = "dm"
) -> tuple:
    """R11 (or the World rules' tie, `profile="wjpc"`) told for `s` ranked after `previous`
    (called `ahead_name`, one puzzler when `alone`): ({"da", "en"} sentences, the same in a
    few words), or (None, None) when there is nothing to tell."""
    if s.pieces <= 0:  # nothing to explain while nobody has pieces
        return None, None
    try:
        texts = {
            lang: rules.tie_break_reason(
                previous,
                s,
                ahead_name=ahead_name,
                language=lang,
                with_time=True,
                alone=alone,
                profile=profile,
            )
            for lang in LANGUAGES
        }
        gap = rules.tie_break(previous, s, profile)
    except ValueError:
        return None, None
    if not texts.get("da") or gap is None:
        return None, None
    return texts, {lang: tie_break_sentence(gap, ahead_name, lang) for lang in LANGUAGES}
