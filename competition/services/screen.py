"""The big screen: what every `/<slug>/screen/` shows, and the prize-giving
reveal from place N up to 1. Each write bumps the standings version, so the screens, which
poll the cached answer of that version, switch within their next poll; no reload."""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from competition.audit_actions import REVEAL_NEXT, REVEAL_START, SCREEN, SCREEN_HOLD, Action
from competition.errors import Refusal
from competition.models import Competition, ScreenMode
from competition.writes import Write, write
from puzzle_rules import rules

__all__ = ["reveal_next", "reveal_start", "screen_hold", "screen_set"]

FIELDS = ["screen_mode", "screen_message", "reveal_from", "reveal_at", "hold_results"]


def _screen(competition: Competition) -> dict:
    return {field: getattr(competition, field) for field in FIELDS}


def _saved(w: Write, action: Action, before: dict) -> None:
    w.competition.save(update_fields=FIELDS)
    w.audit(action, before=before, after=_screen(w.competition))


def _not_started() -> Refusal:
    return Refusal("reveal_not_started", _("Start the reveal first: choose the first place."))


def _screen_write(competition: Competition, by):
    """The screen's writes: the competition locked; after final too (the reveal is then)."""
    return write(competition=competition, by=by, check_final=False)


def _fresh(competition: Competition) -> Competition:
    """With the standings version the write bumped."""
    competition.refresh_from_db(fields=["standings_version"])
    return competition


def screen_set(*, competition: Competition, by, mode: str, message: str = "") -> Competition:
    """Switch the big screen to `mode`; an announcement needs its text. The reveal is
    started with `reveal_start`, but a started reveal may be shown again."""
    with _screen_write(competition, by) as w:
        competition = w.competition
        message = (message or "").strip()
        if mode not in ScreenMode.values:
            raise ValidationError({"mode": _("Choose what the big screen shows.")})
        if mode == ScreenMode.MESSAGE and not message:
            raise ValidationError({"message": _("Write the announcement for the big screen.")})
        if mode == ScreenMode.REVEAL and competition.reveal_at is None:
            raise _not_started()
        before = _screen(competition)
        competition.screen_mode = mode
        if mode == ScreenMode.MESSAGE:
            competition.screen_message = message
        _saved(w, SCREEN, before)
    return _fresh(competition)


def screen_hold(*, competition: Competition, by, hold: bool) -> Competition:
    """Hold the final order on public pages (leaderboard, API, results.csv, big screen)
    until the reveal is over; staff see it at once."""
    with _screen_write(competition, by) as w:
        competition = w.competition
        before = _screen(competition)
        competition.hold_results = bool(hold)
        _saved(w, SCREEN_HOLD, before)
    return _fresh(competition)


def reveal_start(*, competition: Competition, by, from_place: int) -> Competition:
    """After final: the reveal starts from place `from_place` (nothing shown yet); each
    `reveal_next` shows one place more, up to 1. Starting again starts over."""
    with _screen_write(competition, by) as w:
        competition = w.competition
        if competition.finalised_at is None:
            raise Refusal(
                "not_final", _("The reveal starts when the results are final: finalise them first.")
            )
        competing = competition.teams.filter(withdrawn=False, disqualified=False).count()
        if not 1 <= from_place <= max(competing, 1):
            raise ValidationError(
                {
                    "from_place": _("Choose a place from 1 to %(n)d, the number of ranked teams.")
                    % {"n": competing}
                }
            )
        before = _screen(competition)
        competition.reveal_from = from_place
        competition.reveal_at = from_place + 1
        competition.screen_mode = ScreenMode.REVEAL
        _saved(w, REVEAL_START, before)
    return _fresh(competition)


def reveal_next(*, competition: Competition, by, places: Sequence[int]) -> Competition:
    """Show the next place on the big screen ("Vis næste placering"): the next of `places`,
    the ranks of the final standings (`rules.next_place`: shared ranks 1, 1, 3 step from 3
    to both teams of place 1, never to an empty place 2)."""
    with _screen_write(competition, by) as w:
        competition = w.competition
        if competition.reveal_at is None:
            raise _not_started()
        if competition.reveal_at <= 1:
            raise Refusal("reveal_over", _("Every place is revealed."))
        before = _screen(competition)
        competition.reveal_at = rules.next_place(places, competition.reveal_at)
        competition.screen_mode = ScreenMode.REVEAL
        _saved(w, REVEAL_NEXT, before)
    return _fresh(competition)
