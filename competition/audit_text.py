"""The audit log in sentences (STYLE.md "Logs and histories in sentences and local
time"): one place that turns an AuditEntry into what a head judge reads, e.g. "Dommer mette
registrerede puslespil 1 færdigt efter 0:01:48, 1 enkelt manglende brik trukket fra", and its
changes before → after in words. Never a code name, a field name, a list, True/False or a UTC
ISO time, and only Danish in Danish: every field's label and every action's label is a msgid
with its Danish text (tests/judging/test_audit_words.py walks them). In the words of the entry's
competition's discipline: "tjekkede deltageren ind", "parret", "holdet" (competition/words/)."""

from datetime import datetime

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from competition import audit_actions
from competition.audit import ERASED
from competition.audit_actions import ACTIONS
from competition.inputs import whole_number
from competition.models import Discipline, Ranking, ScreenMode
from competition.roles import user_roles
from competition.words import entrant_text
from puzzle_rules.formatting import format_hms

# The action as a word for the filter and the CSV (unknown actions read "Ændring"): the
# registry's labels (competition/audit_actions.py), as a team competition says them.
ACTION_LABELS = {name: action.label for name, action in ACTIONS.items()}

# Field names in before/after, as words.
FIELD_LABELS = {
    "name": gettext_lazy("Name"),
    "table": gettext_lazy("Table"),
    "fee_paid": gettext_lazy("Fee"),
    "contact_name": gettext_lazy("Contact"),
    "contact_email": gettext_lazy("E-mail"),
    "contact_phone": gettext_lazy("Phone"),
    "notes": gettext_lazy("Notes"),
    "checked_in_at": gettext_lazy("Checked in"),
    "withdrawn": gettext_lazy("Withdrawn"),
    "disqualified": gettext_lazy("Disqualified"),
    "disqualified_reason": gettext_lazy("Reason for disqualification"),
    "members": gettext_lazy("Members"),
    "labels": gettext_lazy("Labels"),
    "slug": gettext_lazy("Short name"),
    "username": gettext_lazy("Username"),
    "tokens": gettext_lazy("API tokens revoked"),
    "sessions": gettext_lazy("Sessions logged out"),
    "venue": gettext_lazy("Venue"),
    "starts_at": gettext_lazy("Planned start"),
    "duration_minutes": gettext_lazy("Duration"),
    "max_at_table": gettext_lazy("Puzzlers at a table"),
    "hide_motifs": gettext_lazy("Motifs hidden until the start"),
    "puzzles": gettext_lazy("Puzzle sequence"),
    "elapsed_seconds": gettext_lazy("Time"),
    "missing": gettext_lazy("Missing pieces"),
    "pieces": gettext_lazy("Placed pieces"),
    "unplaced": gettext_lazy("Unplaced pieces"),
    "loose": gettext_lazy("Loose pieces and pairs"),
    "started_at": gettext_lazy("Started"),
    "stopped_at": gettext_lazy("Stopped early"),
    "decision": gettext_lazy("Decision"),
    "note": gettext_lazy("Note"),
    "text": gettext_lazy("Objection"),
    "finalised_at": gettext_lazy("Final"),
    "ranking": gettext_lazy("Ranking"),
    "championship": gettext_lazy("Championship"),
    "discipline": gettext_lazy("Discipline"),
    "round": gettext_lazy("Round"),
    "reason": gettext_lazy("Reason"),
    # the second, blind count
    "confirmed": gettext_lazy("Confirmed by a second count"),
    "confirmed_by": gettext_lazy("Second count by"),
    "second": gettext_lazy("Second count"),
    "second_pieces": gettext_lazy("Second count that differs"),
    # the big screen and the reveal
    "screen_mode": gettext_lazy("The big screen shows"),
    "screen_message": gettext_lazy("Announcement"),
    "reveal_from": gettext_lazy("The reveal starts from place"),
    "reveal_at": gettext_lazy("Place shown"),
    "hold_results": gettext_lazy("Places held back until the reveal"),
    # advancing
    "from": gettext_lazy("From"),
    "entrants": gettext_lazy("Entrants"),
}
# A field named by the discipline's word (competition/words/): its team's text.
ENTRANT_FIELDS = {"members": "Members"}
# Ids and derived values a person does not need to read.
HIDDEN = {
    "id",
    "team",
    "puzzle",
    "deducted",
    "ends_at",
    "finish",
    "count",
    "resolved_at",
    "advanced_from",
    "request_id",
}
DURATIONS = {"duration_minutes"}


def action_label(action: str, discipline: str = Discipline.TEAM) -> str:
    """The action as a word, in the words of `discipline` ("Deltager tilmeldt")."""
    registered = audit_actions.get(action)
    if registered is None:
        return str(audit_actions.CHANGE)
    if isinstance(registered.label, str):  # a team's text (competition/words/audit.py)
        return entrant_text(discipline, registered.label)
    return str(registered.label)


def field_label(key: str, discipline: str = Discipline.TEAM) -> str:
    """A field of before/after as a word; a field not named here, as its name (a test keeps
    every field the services write named: tests/judging/test_audit_words.py)."""
    if key in ENTRANT_FIELDS:
        return entrant_text(discipline, ENTRANT_FIELDS[key])
    return str(FIELD_LABELS.get(key, key.replace("_", " ").capitalize()))


def actor(user) -> str:
    """ "Dommer mette", "Overdommer anna", "lise ved skranken"; no user: "Systemet"."""
    if user is None:
        return _("The system")
    name = user.get_full_name() or user.get_username()
    roles = user_roles(user)
    if "admin" in roles:
        return _("Head judge %(name)s") % {"name": name}
    if "judge" in roles:
        return _("Judge %(name)s") % {"name": name}
    if "desk" in roles:
        return _("%(name)s at the desk") % {"name": name}
    return name


def _moment(value) -> str:
    """An ISO time from the JSON, in Danish local time: "1. december 2026 kl. 10:00:00"."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    if timezone.is_naive(moment):
        return date_format(moment, "j. F Y H:i:s")
    return date_format(timezone.localtime(moment), "j. F Y H:i:s")


def _clock_time(value) -> str:
    """Just the local time of day of an ISO moment: "10:00:30"."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    return timezone.localtime(moment).strftime("%H:%M:%S")


def missing_words(missing) -> str:
    """R8 in words: "1 enkelt manglende brik trukket fra", "3 sammenhængende manglende
    brikker: produktionsfejl, intet trukket fra", "ingen manglende brikker"."""
    spots = [n for n in (whole_number(str(s), low=1) for s in missing or []) if n]
    if not spots:
        return _("no missing pieces")
    lone = sum(1 for s in spots if s == 1)
    parts = []
    if lone:
        parts.append(
            ngettext(
                "%(n)d lone missing piece deducted",
                "%(n)d lone missing pieces deducted",
                lone,
            )
            % {"n": lone}
        )
    for size in (s for s in spots if s > 1):
        parts.append(
            _("%(n)d adjacent missing pieces: production fault, nothing deducted") % {"n": size}
        )
    return "; ".join(parts)


def _members(value) -> str:
    if value == ERASED or isinstance(value, str):  # erase_personal_data left its mark
        return _("erased")
    if not value:
        return _("no members")
    words = []
    for m in value:
        if not isinstance(m, dict):
            words.append(str(m))
            continue
        text = str(m.get("name", ""))
        if m.get("under_15"):
            text += " " + _("(under 15, accompanied by %(adult)s)") % {
                "adult": m.get("guardian") or "—"
            }
        words.append(text)
    return ", ".join(words)


def _puzzles(value) -> str:
    if not value:
        return _("no puzzles")
    return ", ".join(
        _("%(position)s. %(title)s (%(pieces)s pieces)")
        % {"position": p.get("position"), "title": p.get("title") or "—", "pieces": p.get("pieces")}
        for p in value
        if isinstance(p, dict)
    )


def value_words(key: str, value) -> str:
    """One before/after value in words."""
    if value == ERASED:
        return _("erased")
    if key == "members":
        return _members(value)
    if key == "puzzles":
        return _puzzles(value)
    if key == "missing":
        return missing_words(value)
    if value is None or value == "":
        if key == "checked_in_at":
            return _("not checked in")
        return "—"
    if isinstance(value, bool):
        if key == "fee_paid":
            return _("paid") if value else _("not paid")
        return _("yes") if value else _("no")
    if key == "elapsed_seconds" and isinstance(value, int):
        return format_hms(value)
    if key in DURATIONS and isinstance(value, int):
        return ngettext("%(n)d minute", "%(n)d minutes", value) % {"n": value}
    if key == "ranking":
        return str(dict(Ranking.choices).get(value, value))
    if key == "discipline":
        return str(dict(Discipline.choices).get(value, value))
    if key == "screen_mode":
        return str(dict(ScreenMode.choices).get(value, value))
    if key == "decision":
        return {
            "open": _("open"),
            "upheld": _("upheld"),
            "rejected": _("rejected"),
        }.get(value, str(value))
    if isinstance(value, str) and len(value) >= 19 and value[4] == "-" and value[10] == "T":
        return _moment(value)
    if isinstance(value, list | dict):
        return ", ".join(str(v) for v in (value.values() if isinstance(value, dict) else value))
    return str(value)


def changes(before, after, discipline: str = Discipline.TEAM) -> list[str]:
    """What changed, one line each: "Tid: 0:48:12 → 0:47:12"."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    lines = []
    for key in dict.fromkeys([*before, *after]):
        if key in HIDDEN or before.get(key) == after.get(key):
            continue
        if key not in before or key not in after:
            continue  # a value only on one side is said in the sentence
        label = field_label(key, discipline)
        lines.append(
            f"{label}: {value_words(key, before.get(key))} → {value_words(key, after.get(key))}"
        )
    return lines


class _OddCount(int):
    """An odd value where a sentence counts (an old entry's): the plural's form chooses by 2,
    the sentence says the value as it was stored."""

    def __new__(cls, value):
        count = super().__new__(cls, 2)
        count.value = value
        return count

    def __str__(self) -> str:
        return str(self.value)


class Facts:
    """An entry's facts in words, as its action's sentence uses them (audit_actions)."""

    def __init__(self, entry, discipline: str = Discipline.TEAM):
        self.discipline = discipline
        self.who = actor(entry.user)
        self.before = entry.before if isinstance(entry.before, dict) else {}
        self.after = entry.after if isinstance(entry.after, dict) else {}
        self.record = self.after or self.before
        elapsed = self.record.get("elapsed_seconds")
        time = format_hms(elapsed) if isinstance(elapsed, int) and elapsed >= 0 else "—"
        self.values = {"who": self.who, "p": self.record.get("puzzle"), "time": time}

    def say(self, key: str, /, of: str | None = None, **values) -> str:
        """The team's text `key` (competition/words/audit.py) in the words of the entry's
        discipline (or of `of`), filled with `values`."""
        discipline = of if of in Discipline.values else self.discipline
        if "n" in values and not isinstance(values["n"], int):
            values["n"] = _OddCount(values["n"])
        return entrant_text(discipline, key, **values)

    @property
    def missing(self) -> str:
        return missing_words(self.record.get("missing"))

    @property
    def members(self) -> str:
        return _members(self.record.get("members"))

    @property
    def staff(self) -> dict:
        return {"who": self.who, "name": self.after.get("username", "—")}

    def words(self, key: str) -> str:
        """A value of `after` in words, as the changes say it: "Danske regler (DM)"."""
        return value_words(key, self.after.get(key))

    def at(self, key: str) -> str:
        """The local time of day of a moment in `after`: "10:00:30"."""
        return _clock_time(self.after.get(key))


def discipline_of(entry) -> str:
    """The discipline of the entry's competition (a team's without one). Select the
    competition with the entries (`select_related("competition")`): one query for a log."""
    if entry.competition_id is None:
        return Discipline.TEAM
    return entry.competition.discipline


def sentence(entry, discipline: str | None = None) -> str:
    """What happened, as a Danish sentence, e.g. "Dommer mette registrerede puslespil 1
    færdigt efter 0:01:48, 1 enkelt manglende brik trukket fra": the sentence of its
    action in the registry; an action not registered "made a change"."""
    facts = Facts(entry, discipline or discipline_of(entry))
    registered = audit_actions.get(entry.action)
    if registered is None:
        return str(audit_actions.MADE_A_CHANGE) % facts.values
    return str(registered.sentence(facts))


def describe(entry) -> dict:
    """An entry for the log page and the CSV: {"label", "sentence", "changes"}, in the
    words of its competition's discipline."""
    discipline = discipline_of(entry)
    return {
        "label": action_label(entry.action, discipline),
        "sentence": sentence(entry, discipline),
        "changes": changes(entry.before, entry.after, discipline),
    }
