"""Teams and members: register, edit, entry fee, check-in (R2, R3, R15, R17, P2); the
withdrawal is in `withdrawal.py`."""

from collections.abc import Iterable, Sequence

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.audit_actions import (
    TEAM_CHECK_IN,
    TEAM_CHECK_IN_UNDO,
    TEAM_CREATE,
    TEAM_FEE_PAID,
    TEAM_FEE_UNPAID,
    TEAM_LABELS,
    TEAM_UPDATE,
    Action,
)
from competition.models import Competition, Discipline, Member, Team
from competition.services.table_plan import (
    clash_text,
    lock_championship,
    table_clash,
    tables_beside,
)
from competition.words import entrant_text, member_limit, member_limit_text
from competition.writes import write

__all__ = [
    "labels_clean",
    "team_labels_set",
    "team_create",
    "team_update",
    "team_fee_set",
    "team_check_in",
    "team_check_in_undo",
    "next_free_table",
    "members_clean",
    "team_fields_problems",
]

TEAM_FIELDS = (
    "name",
    "table",
    "fee_paid",
    "contact_name",
    "contact_email",
    "contact_phone",
    "notes",
)


# --- snapshot for the audit trail ------------------------------------------------------------
def _team_snapshot(team: Team, members: Iterable[Member] | None = None) -> dict:
    data = {f: getattr(team, f) for f in TEAM_FIELDS}
    data["checked_in_at"] = team.checked_in_at
    data["withdrawn"] = team.withdrawn
    if members is None:
        members = team.members.all()
    data["members"] = [
        {"name": m.name, "under_15": m.under_15, "guardian": m.guardian} for m in members
    ]
    return data


def team_fields_problems(**fields) -> dict[str, list[str]]:
    """The entrant's own fields (`TEAM_FIELDS` but the table) as the model validates them: an
    e-mail address ("søren@…" is not one: the validator takes no ø before the @), the
    lengths. No query: the one check that `team_create` and the import's preview both run,
    so a sheet's every bad row is named before anything is written. Each message names the
    field and the value."""
    given = {f: fields[f] for f in TEAM_FIELDS if f in fields and f != "table"}
    try:
        Team(table=1, **given).full_clean(
            exclude=["competition", "table"], validate_unique=False, validate_constraints=False
        )
    except ValidationError as e:
        return {
            field: [
                _("%(field)s “%(value)s”: %(error)s")
                % {
                    "field": str(Team._meta.get_field(field).verbose_name).capitalize(),
                    "value": str(given.get(field, ""))[:60],
                    "error": message,
                }
                for message in messages
            ]
            for field, messages in e.message_dict.items()
        }
    return {}


def next_free_table(competition: Competition, taken: Iterable[int] = ()) -> int:
    """The lowest table number no team of `competition` (nor `taken`) has, nor an entrant of
    another competition of its championship at the same time (the table plan)."""
    used = set(Team.objects.filter(competition=competition).values_list("table", flat=True))
    used |= set(taken) | tables_beside(competition)
    table = 1
    while table in used:
        table += 1
    return table


def members_clean(members: Iterable[dict], discipline: str = Discipline.TEAM) -> list[dict]:
    """Plain member dicts, blank rows dropped; R3: an under-15 member needs an adult; an
    individual entrant is one puzzler and a pair two at most (competition/words/).

    Raises ValidationError({"members": [...]}) naming every member that breaks a rule.
    """
    cleaned, errors = [], []
    for number, raw in enumerate(members, start=1):
        name = (raw.get("name") or "").strip()
        under_15 = bool(raw.get("under_15"))
        guardian = (raw.get("guardian") or "").strip()
        if not name:
            if under_15 or guardian:
                errors.append(_("Member %(n)s has no name.") % {"n": number})
            continue
        if len(name) > 120 or len(guardian) > 120:
            errors.append(_("Member %(n)s: names can be at most 120 characters.") % {"n": number})
        if under_15 and not guardian:
            errors.append(
                _("%(name)s is under 15 and needs the name of the accompanying adult (rule 3).")
                % {"name": name}
            )
        cleaned.append({"name": name, "under_15": under_15, "guardian": guardian})
    most = member_limit(discipline)
    if most is not None and len(cleaned) > most:
        errors.append(member_limit_text(discipline))
    if errors:
        raise ValidationError({"members": errors})
    return cleaned


LABELS_MAX, LABEL_LENGTH = 10, 30


def labels_clean(labels: Iterable[str]) -> list[str]:
    """An entrant's labels as stored: trimmed, in small letters, each once, in the order
    given; blanks dropped. Raises ValidationError({"labels": ...}) for too many or too long."""
    cleaned: list[str] = []
    for raw in labels:
        label = str(raw).strip().lower()
        if label and label not in cleaned:
            cleaned.append(label)
    if len(cleaned) > LABELS_MAX or any(len(label) > LABEL_LENGTH for label in cleaned):
        raise ValidationError(
            {
                "labels": [
                    _("At most %(n)s labels, each of at most %(length)s characters.")
                    % {"n": LABELS_MAX, "length": LABEL_LENGTH}
                ]
            }
        )
    return cleaned


def team_labels_set(*, team: Team, by, labels: Iterable[str]) -> Team:
    """Give the entrant these labels (replacing its labels); audited; a label's ranking
    follows (the standings version is bumped)."""
    labels = labels_clean(labels)
    with write(team=team, by=by) as w:
        _labels_set(w, w.team, labels)
        return w.team


def _labels_set(w, team: Team, labels: list[str]) -> None:
    """Inside a write: the entrant's labels (cleaned) replaced and audited, if they change."""
    if team.labels == labels:
        return
    before = {"labels": team.labels}
    team.labels = labels
    team.save(update_fields=["labels"])
    w.audit(TEAM_LABELS, team=team, before=before, after={"labels": labels})


def _check_name_and_table(
    competition: Competition, name: str, table, exclude_pk=None, *, table_plan: bool = True
) -> None:
    """The name and the table are free in `competition`; `table_plan`: the table is also
    free in the championship's other competitions at the same time (checked under the
    championship's lock: a new team, a changed table)."""
    errors: dict[str, list[str]] = {}
    others = Team.objects.filter(competition=competition)
    if exclude_pk is not None:
        others = others.exclude(pk=exclude_pk)
    if not name:
        errors["name"] = [entrant_text(competition, "The team needs a name.")]
    else:
        # Casefold in Python: SQLite's lower() knows only ASCII (Ø, Æ, Å).
        folded = name.casefold()
        if any(n.casefold() == folded for n in others.values_list("name", flat=True)):
            errors["name"] = [entrant_text(competition, "A team with this name already exists.")]
    if table is None or table == "":
        errors["table"] = [
            entrant_text(
                competition,
                "The team needs a table number; the next free is %(table)s.",
                table=next_free_table(competition),
            )
        ]
    else:
        try:
            table = int(table)
        except (TypeError, ValueError):
            table = 0
        if table < 1:
            errors["table"] = [_("The table number must be a whole number from 1.")]
        elif others.filter(table=table).exists():
            holder = others.get(table=table)
            errors["table"] = [
                _("Table %(table)s is taken by “%(team)s”; the next free is %(free)s.")
                % {"table": table, "team": holder.name, "free": next_free_table(competition)}
            ]
        elif table_plan:
            lock_championship(competition)
            clash = table_clash(competition, table)
            if clash is not None:
                errors["table"] = [clash_text(clash, free=next_free_table(competition))]
    if errors:
        raise ValidationError(errors)


def _int_or_none(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _set_members(team: Team, members: list[dict]) -> list[Member]:
    team.members.all().delete()
    rows = [Member(team=team, **m) for m in members]
    for row in rows:
        row.full_clean(exclude=["team"])
    return Member.objects.bulk_create(rows)


def team_create(
    *,
    competition: Competition,
    by,
    name: str,
    table: int,
    members: Sequence[dict] = (),
    fee_paid: bool = False,
    contact_name: str = "",
    contact_email: str = "",
    contact_phone: str = "",
    notes: str = "",
    check_in: bool = False,
    labels: Iterable[str] = (),
) -> Team:
    """Register a team with its members (R3; R17: more members than the table limit is fine);
    `check_in`: the team is here (a walk-in at the desk on the day), checked in now;
    `labels`: its labels (ung, senior, gæst), in the same write, audited apart."""
    with write(competition=competition, by=by) as w:
        competition = w.competition
        name = (name or "").strip()
        errors = {}
        try:
            _check_name_and_table(competition, name, table)
        except ValidationError as e:
            errors.update(e.message_dict)
        try:
            members = members_clean(members, competition.discipline)
        except ValidationError as e:
            errors.update(e.message_dict)
        try:
            labels = labels_clean(labels)
        except ValidationError as e:
            errors.update(e.message_dict)
        fields = team_fields_problems(
            name=name,
            contact_name=contact_name,
            contact_email=contact_email,
            contact_phone=contact_phone,
            notes=notes,
        )
        for field, messages in fields.items():
            errors[field] = [*errors.get(field, []), *messages]
        if errors:
            raise ValidationError(errors)
        team = Team(
            competition=competition,
            name=name,
            table=int(table),
            fee_paid=fee_paid,
            contact_name=contact_name,
            contact_email=contact_email,
            contact_phone=contact_phone,
            notes=notes,
            checked_in_at=timezone.now() if check_in else None,
        )
        team.full_clean(validate_constraints=False)
        team.save()
        saved = _set_members(team, members)
        w.audit(TEAM_CREATE, team=team, after=_team_snapshot(team, saved))
        if labels:
            _labels_set(w, team, labels)
        return team


def team_update(
    *,
    team: Team,
    by,
    members: Sequence[dict] | None = None,
    labels: Iterable[str] | None = None,
    **fields,
) -> Team:
    """Edit a team; `members`, when given, replaces the whole list; `labels`, when given,
    replace its labels (audited apart, in the same write)."""
    unknown = set(fields) - set(TEAM_FIELDS)
    if unknown:
        raise TypeError(f"unknown fields: {', '.join(sorted(unknown))}")
    with write(team=team, by=by) as w:
        team, competition = w.team, w.competition
        before = _team_snapshot(team)
        if "name" in fields:
            fields["name"] = (fields["name"] or "").strip()
        errors = {}
        if "name" in fields or "table" in fields:
            try:
                _check_name_and_table(
                    competition,
                    fields.get("name", team.name),
                    fields.get("table", team.table),
                    exclude_pk=team.pk,
                    table_plan="table" in fields and _int_or_none(fields["table"]) != team.table,
                )
            except ValidationError as e:
                errors.update(e.message_dict)
        if members is not None:
            try:
                members = members_clean(members, competition.discipline)
            except ValidationError as e:
                errors.update(e.message_dict)
        if labels is not None:
            try:
                labels = labels_clean(labels)
            except ValidationError as e:
                errors.update(e.message_dict)
        if errors:
            raise ValidationError(errors)
        if labels is not None:
            _labels_set(w, team, labels)
        for f, v in fields.items():
            setattr(team, f, int(v) if f == "table" else v)
        team.full_clean(validate_constraints=False)
        team.save()
        if members is not None:
            _set_members(team, members)
        after = _team_snapshot(team)
        if after != before:
            # The standings show the team's name and table, not its members or contact.
            shown = before["name"] != after["name"] or before["table"] != after["table"]
            w.audit(TEAM_UPDATE, before=before, after=after, standings=shown)
        return team


def _team_flag(team: Team, by, action: Action, reason: str = "", **changes) -> Team:
    """A flag the desk sets (the fee, the check-in): audited, not in the standings."""
    with write(team=team, by=by) as w:
        team = w.team
        before = {f: getattr(team, f) for f in changes}
        if before == changes:
            return team  # already so: nothing to write (a second tap)
        for f, v in changes.items():
            setattr(team, f, v)
        team.save(update_fields=list(changes))
        w.audit(action, before=before, after=changes, reason=reason, standings=False)
        return team


def team_fee_set(*, team: Team, by, paid: bool) -> Team:
    """P2: the entry fee is paid (only paid fees are refunded on a cancellation)."""
    return _team_flag(team, by, TEAM_FEE_PAID if paid else TEAM_FEE_UNPAID, fee_paid=paid)


def team_check_in(*, team: Team, by) -> Team:
    """R2: the team is present (check-in is the desk's information; it never gates judging)."""
    with write(team=team, by=by) as w:
        locked, competition = w.team, w.competition
        if locked.checked_in_at is not None:
            return locked
        now = timezone.now()
        late = ""
        if now > competition.check_in_deadline:  # R2: the desk let a late team in; it shows
            late = _("Checked in after the deadline (%(time)s).") % {
                "time": timezone.localtime(competition.check_in_deadline).strftime("%H:%M")
            }
        return _team_flag(locked, by, TEAM_CHECK_IN, reason=late, checked_in_at=now)


def team_check_in_undo(*, team: Team, by) -> Team:
    return _team_flag(team, by, TEAM_CHECK_IN_UNDO, checked_in_at=None)
