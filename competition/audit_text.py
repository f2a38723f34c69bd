"""The audit log in sentences (issue 15, STYLE.md "Logs and histories in sentences and local
time"): one place that turns an AuditEntry into what a head judge reads, e.g. "Dommer mette
registrerede puslespil 1 færdigt efter 0:01:48, 1 enkelt manglende brik trukket fra", and its
changes before → after in words. Never a code name, a field name, a list, True/False or a UTC
ISO time."""

from datetime import datetime

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from competition.audit import ERASED
from competition.roles import user_roles
from scoring.formatting import format_hms

# The action as a word for the filter and the CSV (unknown actions read "Ændring").
ACTION_LABELS = {
    "finish_register": gettext_lazy("Finish registered"),
    "finish_correct": gettext_lazy("Finish corrected"),
    "finish_delete": gettext_lazy("Finish deleted"),
    "count_record": gettext_lazy("Count registered"),
    "count_correct": gettext_lazy("Count corrected"),
    "count_delete": gettext_lazy("Count deleted"),
    "warning_log": gettext_lazy("Warning"),
    "warning_delete": gettext_lazy("Warning removed"),
    "team_disqualify": gettext_lazy("Disqualified"),
    "team_reinstate": gettext_lazy("Disqualification lifted"),
    "team_withdraw": gettext_lazy("Withdrawn"),
    "team_withdraw_undo": gettext_lazy("Withdrawal undone"),
    "team_check_in": gettext_lazy("Checked in"),
    "team_check_in_undo": gettext_lazy("Check-in undone"),
    "team_fee_paid": gettext_lazy("Fee paid"),
    "team_fee_unpaid": gettext_lazy("Fee not paid"),
    "team_create": gettext_lazy("Team registered"),
    "team_update": gettext_lazy("Team changed"),
    "competition_create": gettext_lazy("Competition created"),
    "competition_update": gettext_lazy("Competition changed"),
    "puzzle_add": gettext_lazy("Puzzle sequence"),
    "puzzle_update": gettext_lazy("Puzzle sequence"),
    "puzzle_delete": gettext_lazy("Puzzle sequence"),
    "puzzle_sequence_set": gettext_lazy("Puzzle sequence"),
    "clock_start": gettext_lazy("Clock started"),
    "clock_correct": gettext_lazy("Start corrected"),
    "clock_stop": gettext_lazy("Clock stopped"),
    "clock_stop_undo": gettext_lazy("Stop undone"),
    "objection_file": gettext_lazy("Objection filed"),
    "objection_resolve": gettext_lazy("Objection decided"),
    "competition_finalise": gettext_lazy("Results made final"),
    "request_cancel": gettext_lazy("Tap undone on the tablet"),
    "personal_data_erase": gettext_lazy("Personal data erased"),
    "staff_create": gettext_lazy("Judge login made"),
    "staff_password": gettext_lazy("New password for a judge"),
    "staff_revoke": gettext_lazy("Login revoked (lost tablet)"),
}

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
}
# Ids and derived values a person does not need to read.
HIDDEN = {"id", "team", "puzzle", "deducted", "ends_at", "finish", "count", "resolved_at"}
DURATIONS = {"duration_minutes"}


def action_label(action: str) -> str:
    return str(ACTION_LABELS.get(action, _("Change")))


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
    spots = [int(s) for s in (missing or []) if str(s).isdigit() and int(s) > 0]
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


def changes(before, after) -> list[str]:
    """What changed, one line each: "Tid: 0:48:12 → 0:47:12"."""
    before = before if isinstance(before, dict) else {}
    after = after if isinstance(after, dict) else {}
    lines = []
    for key in dict.fromkeys([*before, *after]):
        if key in HIDDEN or before.get(key) == after.get(key):
            continue
        if key not in before or key not in after:
            continue  # a value only on one side is said in the sentence
        label = FIELD_LABELS.get(key, key.replace("_", " ").capitalize())
        lines.append(
            f"{label}: {value_words(key, before.get(key))} → {value_words(key, after.get(key))}"
        )
    return lines


def sentence(entry) -> str:
    """What happened, as a Danish sentence, e.g. "Dommer mette registrerede puslespil 1
    færdigt efter 0:01:48, 1 enkelt manglende brik trukket fra"."""
    who = actor(entry.user)
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    record = after or before
    a = entry.action
    position = record.get("puzzle")
    elapsed = record.get("elapsed_seconds")
    time = format_hms(elapsed) if isinstance(elapsed, int) and elapsed >= 0 else "—"
    values = {"who": who, "p": position, "time": time}
    if a == "finish_register":
        return _("%(who)s registered puzzle %(p)s finished after %(time)s, %(missing)s") % {
            **values,
            "missing": missing_words(record.get("missing")),
        }
    if a == "finish_correct":
        return _("%(who)s corrected the finish of puzzle %(p)s") % values
    if a == "finish_delete":
        return _("%(who)s deleted the finish of puzzle %(p)s (after %(time)s)") % values
    if a == "count_record":
        return _("%(who)s registered the count on puzzle %(p)s: %(pieces)s placed pieces") % {
            **values,
            "pieces": record.get("pieces"),
        }
    if a == "count_correct":
        return _("%(who)s corrected the count on puzzle %(p)s") % values
    if a == "count_delete":
        return _("%(who)s deleted the count on puzzle %(p)s (%(pieces)s placed pieces)") % {
            **values,
            "pieces": record.get("pieces"),
        }
    simple = {
        "warning_log": _("%(who)s gave the team a warning"),
        "warning_delete": _("%(who)s removed a warning"),
        "team_disqualify": _("%(who)s disqualified the team"),
        "team_reinstate": _("%(who)s lifted the disqualification: the team competes again"),
        "team_withdraw": _("%(who)s withdrew the team"),
        "team_withdraw_undo": _("%(who)s undid the withdrawal: the team competes again"),
        "team_check_in": _("%(who)s checked the team in"),
        "team_check_in_undo": _("%(who)s undid the check-in"),
        "team_fee_paid": _("%(who)s marked the entry fee paid"),
        "team_fee_unpaid": _("%(who)s marked the entry fee not paid"),
        "team_update": _("%(who)s changed the team"),
        "competition_create": _("%(who)s created the competition"),
        "competition_update": _("%(who)s changed the competition"),
        "puzzle_add": _("%(who)s changed the puzzle sequence"),
        "puzzle_update": _("%(who)s changed the puzzle sequence"),
        "puzzle_delete": _("%(who)s changed the puzzle sequence"),
        "puzzle_sequence_set": _("%(who)s changed the puzzle sequence"),
        "clock_stop_undo": _("%(who)s undid the stop: the clock runs on"),
        "competition_finalise": _("%(who)s made the results final"),
        "request_cancel": _("%(who)s undid a tap on the tablet before it arrived"),
    }
    if a in simple:
        return simple[a] % values
    if a == "team_create":
        return _("%(who)s registered the team at table %(table)s: %(members)s") % {
            "who": who,
            "table": record.get("table", "—"),
            "members": _members(record.get("members")),
        }
    if a == "clock_start":
        return _("%(who)s started the clock at %(at)s") % {
            "who": who,
            "at": _clock_time(after.get("started_at")),
        }
    if a == "clock_correct":
        return _("%(who)s corrected the start of the clock") % values
    if a == "clock_stop":
        return _("%(who)s stopped the clock at %(at)s") % {
            "who": who,
            "at": _clock_time(after.get("stopped_at")),
        }
    if a == "objection_file":
        return _("%(who)s filed objection no. %(id)s: “%(text)s”") % {
            "who": who,
            "id": record.get("id", "—"),
            "text": record.get("text", ""),
        }
    if a == "objection_resolve":
        decision = after.get("decision")
        verb = _("upheld") if decision == "upheld" else _("rejected")
        return _("%(who)s %(verb)s objection no. %(id)s") % {
            "who": who,
            "verb": verb,
            "id": record.get("id", "—"),
        }
    if a == "personal_data_erase":
        return _("%(who)s erased the personal data of %(n)s members") % {
            "who": who,
            "n": after.get("members", 0),
        }
    if a in ("staff_create", "staff_password", "staff_revoke"):
        return {
            "staff_create": _("%(who)s made the judge login “%(name)s”"),
            "staff_password": _("%(who)s made a new password for “%(name)s”"),
            "staff_revoke": _("%(who)s revoked “%(name)s” (lost tablet): logged out everywhere"),
        }[a] % {"who": who, "name": after.get("username", "—")}
    return _("%(who)s made a change") % values


def describe(entry) -> dict:
    """An entry for the log page and the CSV: {"label", "sentence", "changes"}."""
    return {
        "label": action_label(entry.action),
        "sentence": sentence(entry),
        "changes": changes(entry.before, entry.after),
    }
