"""The audit log's actions: one registry of named actions, each with its label and its
sentence (as Sentry's `audit_log/register.py`). A service records an action by its named
object (`w.audit(FINISH_REGISTER, ...)`: a mistyped name is an import error); the entry
stores the action's `name` (`audit_record` refuses a name not registered here). The log
page, the CSV (`competition/audit_text.py`) and the backups (a snapshot once a clock stop
or finalise has committed) read it back from here. An action stays registered once rows
carry its name: stored entries keep rendering the same sentence.

A sentence is a function of the entry's facts in words (`audit_text.Facts`: `who`, the
puzzle `p`, the clock `time`, `record`, `before`, `after`, `missing`, `members`, `at(key)`).
A sentence or a label that speaks of a team is its team's text, a key of the discipline's
words (competition/words/audit.py): `f.say(key)` says it as the entry's competition does
("tjekkede deltageren ind", "parret", "holdet"); a label given as such a key, likewise.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["ACTIONS", "Action", "get", "register"]


@dataclass(frozen=True)
class Action:
    name: str
    label: Promise | str  # a word for the log's filter and the CSV (str: a team's text)
    sentence: Callable[[Any], str]  # the entry's facts (audit_text.Facts) -> a sentence
    snapshot: str = ""  # a backup's reason, taken once the write has committed


ACTIONS: dict[str, Action] = {}
CHANGE = _("Change")  # the label of an action without its own word


def register(
    name: str,
    label: Promise | str,
    sentence: Promise | Callable[[Any], str],
    snapshot: str = "",
) -> Action:
    """Register an action; a plain template is filled with `who`, `p` and `time`."""
    if name in ACTIONS:
        raise ValueError(f"audit action {name!r} is registered twice")
    if isinstance(sentence, Promise):
        template = sentence
        sentence = lambda f: str(template) % f.values  # noqa: E731
    action = Action(name, label, sentence, snapshot)
    ACTIONS[name] = action
    return action


def get(name: str) -> Action | None:
    return ACTIONS.get(name)


def _dash(value) -> Any:
    """A value the entry lacks reads "—", never "None"."""
    return "—" if value is None else value


def said(key: str) -> Callable[[Any], str]:
    """A sentence that speaks of a team, filled with `who`, `p` and `time`: `key` is the
    team's text, said in the words of the entry's discipline."""
    return lambda f: f.say(key) % f.values


MADE_A_CHANGE = _("%(who)s made a change")

# --- finishes and counts (judging) -----------------------------------------------------
FINISH_REGISTER = register(
    "finish_register",
    _("Finish registered"),
    lambda f: (
        _("%(who)s registered puzzle %(p)s finished after %(time)s, %(missing)s")
        % {**f.values, "missing": f.missing}
    ),
)
FINISH_CORRECT = register(
    "finish_correct", _("Finish corrected"), _("%(who)s corrected the finish of puzzle %(p)s")
)
FINISH_DELETE = register(
    "finish_delete",
    _("Finish deleted"),
    _("%(who)s deleted the finish of puzzle %(p)s (after %(time)s)"),
)
COUNT_RECORD = register(
    "count_record",
    _("Count registered"),
    lambda f: (
        _("%(who)s registered the count on puzzle %(p)s: %(pieces)s placed pieces")
        % {**f.values, "pieces": f.record.get("pieces")}
    ),
)
COUNT_CORRECT = register(
    "count_correct", _("Count corrected"), _("%(who)s corrected the count on puzzle %(p)s")
)
COUNT_DELETE = register(
    "count_delete",
    _("Count deleted"),
    lambda f: (
        _("%(who)s deleted the count on puzzle %(p)s (%(pieces)s placed pieces)")
        % {**f.values, "pieces": f.record.get("pieces")}
    ),
)
# The second, blind count (judging/services/second_count.py).
COUNT_CONFIRM = register(
    "count_confirm",
    _("Second count agrees"),
    lambda f: (
        _("%(who)s made the second count: %(second)s placed pieces, the same as the first")
        % {"who": f.who, "second": _dash(f.after.get("second"))}
    ),
)
COUNT_DIFFERS = register(
    "count_differs",
    _("The counts differ"),
    lambda f: (
        _(
            "%(who)s made the second count: %(second)s placed pieces against %(first)s in the "
            "first: the counts differ"
        )
        % {
            "who": f.who,
            "second": _dash(f.after.get("second")),
            "first": _dash(f.record.get("pieces")),
        }
    ),
)
COUNT_UNCONFIRM = register(
    "count_unconfirm",
    _("Second count undone"),
    _("%(who)s undid the second count on the tablet"),
)
WARNING_LOG = register("warning_log", _("Warning"), said("%(who)s gave the team a warning"))
WARNING_DELETE = register("warning_delete", _("Warning removed"), _("%(who)s removed a warning"))
REQUEST_CANCEL = register(
    "request_cancel",
    _("Tap undone on the tablet"),
    _("%(who)s undid a tap on the tablet before it arrived"),
)

# --- teams -------------------------------------------------------------------------------
TEAM_DISQUALIFY = register(
    "team_disqualify", _("Disqualified"), said("%(who)s disqualified the team")
)
TEAM_REINSTATE = register(
    "team_reinstate",
    _("Disqualification lifted"),
    said("%(who)s lifted the disqualification: the team competes again"),
)
TEAM_WITHDRAW = register("team_withdraw", _("Withdrawn"), said("%(who)s withdrew the team"))
TEAM_WITHDRAW_UNDO = register(
    "team_withdraw_undo",
    _("Withdrawal undone"),
    said("%(who)s undid the withdrawal: the team competes again"),
)
TEAM_CHECK_IN = register("team_check_in", _("Checked in"), said("%(who)s checked the team in"))
TEAM_CHECK_IN_UNDO = register(
    "team_check_in_undo", _("Check-in undone"), _("%(who)s undid the check-in")
)
TEAM_FEE_PAID = register("team_fee_paid", _("Fee paid"), _("%(who)s marked the entry fee paid"))
TEAM_FEE_UNPAID = register(
    "team_fee_unpaid", _("Fee not paid"), _("%(who)s marked the entry fee not paid")
)
TEAM_CREATE = register(
    "team_create",
    "Team registered",
    lambda f: f.say(
        "%(who)s registered the team at table %(table)s: %(members)s",
        who=f.who,
        table=f.record.get("table", "—"),
        members=f.members,
    ),
)
TEAM_UPDATE = register("team_update", "Team changed", said("%(who)s changed the team"))
TEAM_LABELS = register(
    "team_labels",
    _("Labels"),
    lambda f: f.say(
        "%(who)s gave the team the labels: %(labels)s",
        who=f.who,
        labels=", ".join(map(str, f.after.get("labels") or [])) or "—",
    ),
)


def _carried(after: dict) -> str:
    """What an entrant that went on carried from its earlier round besides its name: its
    check-in and its paid fee (championships/services/advance.py)."""
    checked_in, paid = bool(after.get("checked_in_at")), after.get("fee_paid") is True
    if checked_in and paid:
        return "; " + str(_("checked in and fee paid in the earlier round"))
    if checked_in:
        return "; " + str(_("checked in in the earlier round"))
    if paid:
        return "; " + str(_("fee paid in the earlier round"))
    return ""


TEAM_ADVANCE = register(
    "team_advance",
    _("Went on from an earlier round"),
    lambda f: (
        f.say(
            "%(who)s let the team go on from %(source)s at table %(table)s: %(members)s",
            who=f.who,
            source=f.after.get("from", "—"),
            table=f.record.get("table", "—"),
            members=f.members,
        )
        + _carried(f.after)
    ),
)
ADVANCE = register(
    "advance",
    "Teams went on",
    lambda f: f.say(
        "%(who)s let %(n)s team go on from %(sources)s",
        who=f.who,
        n=len(f.after.get("entrants", [])),
        sources=", ".join(f.after.get("from", [])),
    ),
)


def _taken_back(f) -> str:
    entrants = [e for e in f.before.get("entrants") or [] if isinstance(e, dict)]
    return f.say(
        "%(who)s took back the advance: %(n)s team removed (%(names)s)",
        who=f.who,
        n=len(entrants),
        names=", ".join(str(e.get("name", "—")) for e in entrants) or "—",
    )


ADVANCE_UNDO = register("advance_undo", _("Advance taken back"), _taken_back)

# --- the competition, its puzzle sequence and its clock ----------------------------------
COMPETITION_CREATE = register(
    "competition_create", _("Competition created"), _("%(who)s created the competition")
)
COMPETITION_UPDATE = register(
    "competition_update", _("Competition changed"), _("%(who)s changed the competition")
)
COMPETITION_RANKING = register(
    "competition_ranking",
    _("Ranking changed"),
    lambda f: (
        _("%(who)s changed the ranking to %(ranking)s")
        % {"who": f.who, "ranking": f.words("ranking")}
    ),
)


def _placement(f) -> str:
    """Moved into a championship, out of one, or its discipline or round changed."""
    before, after = f.before.get("championship"), f.after.get("championship")
    if before == after:
        return _("%(who)s changed the discipline or the round") % {"who": f.who}
    if after:
        return _("%(who)s moved the competition into the championship “%(name)s”") % {
            "who": f.who,
            "name": after,
        }
    return _("%(who)s took the competition out of “%(name)s”: it is on its own") % {
        "who": f.who,
        "name": before,
    }


COMPETITION_PLACEMENT = register("competition_placement", _("Championship or round"), _placement)
# Kept in the log of each competition left in the championship: the deleted one's is gone.
COMPETITION_DELETE = register(
    "competition_delete",
    _("Competition deleted"),
    lambda f: f.say(
        "%(who)s deleted the competition “%(name)s” of this championship, with %(n)s team",
        of=f.before.get("discipline"),  # the deleted one's, not this competition's
        who=f.who,
        name=f.before.get("name", "—"),
        n=f.before.get("entrants", 0),
    ),
)
SEQUENCE, SEQUENCE_CHANGED = _("Puzzle sequence"), _("%(who)s changed the puzzle sequence")
PUZZLE_ADD = register("puzzle_add", SEQUENCE, SEQUENCE_CHANGED)
PUZZLE_UPDATE = register("puzzle_update", SEQUENCE, SEQUENCE_CHANGED)
PUZZLE_DELETE = register("puzzle_delete", SEQUENCE, SEQUENCE_CHANGED)
PUZZLE_SEQUENCE_SET = register("puzzle_sequence_set", SEQUENCE, SEQUENCE_CHANGED)
CLOCK_START = register(
    "clock_start",
    _("Clock started"),
    lambda f: _("%(who)s started the clock at %(at)s") % {"who": f.who, "at": f.at("started_at")},
)
CLOCK_CORRECT = register(
    "clock_correct", _("Start corrected"), _("%(who)s corrected the start of the clock")
)
CLOCK_STOP = register(
    "clock_stop",
    _("Clock stopped"),
    lambda f: _("%(who)s stopped the clock at %(at)s") % {"who": f.who, "at": f.at("stopped_at")},
    snapshot="clock_stop",
)
CLOCK_STOP_UNDO = register(
    "clock_stop_undo", _("Stop undone"), _("%(who)s undid the stop: the clock runs on")
)
# The big screen and the prize-giving's reveal (competition/services/screen.py).
SCREEN = register(
    "screen",
    _("Big screen"),
    lambda f: (
        _("%(who)s set the big screen to show: %(mode)s")
        % {"who": f.who, "mode": f.words("screen_mode")}
    ),
)
SCREEN_HOLD = register(
    "screen_hold",
    _("Places held back"),
    lambda f: (
        (
            _("%(who)s held the places back until the reveal")
            if f.after.get("hold_results")
            else _("%(who)s showed the places again")
        )
        % {"who": f.who}
    ),
)
REVEAL_START = register(
    "reveal_start",
    _("Reveal started"),
    lambda f: (
        _("%(who)s started the reveal from place %(place)s")
        % {"who": f.who, "place": _dash(f.after.get("reveal_from"))}
    ),
)
REVEAL_NEXT = register(
    "reveal_next",
    _("Next place shown"),
    lambda f: (
        _("%(who)s showed place %(place)s on the big screen")
        % {"who": f.who, "place": _dash(f.after.get("reveal_at"))}
    ),
)

# --- objections and the final results ------------------------------------------------------
OBJECTION_FILE = register(
    "objection_file",
    _("Objection filed"),
    lambda f: (
        _("%(who)s filed objection no. %(id)s: “%(text)s”")
        % {"who": f.who, "id": f.record.get("id", "—"), "text": f.record.get("text", "")}
    ),
)
OBJECTION_RESOLVE = register(
    "objection_resolve",
    _("Objection decided"),
    lambda f: (
        _("%(who)s %(verb)s objection no. %(id)s")
        % {
            "who": f.who,
            "verb": _("upheld") if f.after.get("decision") == "upheld" else _("rejected"),
            "id": f.record.get("id", "—"),
        }
    ),
)
COMPETITION_FINALISE = register(
    "competition_finalise",
    _("Results made final"),
    _("%(who)s made the results final"),
    snapshot="final",
)


# --- people and data -----------------------------------------------------------------------
PERSONAL_DATA_ERASE = register(
    "personal_data_erase",
    _("Personal data erased"),
    lambda f: f.say(
        "%(who)s erased the personal data of %(n)s member", who=f.who, n=f.after.get("members", 0)
    ),
)
STAFF_CREATE = register(
    "staff_create",
    _("Judge login made"),
    lambda f: _("%(who)s made the judge login “%(name)s”") % f.staff,
)
STAFF_PASSWORD = register(
    "staff_password",
    _("New password for a judge"),
    lambda f: _("%(who)s made a new password for “%(name)s”") % f.staff,
)
STAFF_REVOKE = register(
    "staff_revoke",
    _("Login revoked (lost tablet)"),
    lambda f: _("%(who)s revoked “%(name)s” (lost tablet): logged out everywhere") % f.staff,
)
# The reason holds the backup's file name.
BACKUP_RESTORE = register(
    "backup_restore", _("Backup restored"), _("%(who)s restored a backup of the database")
)
