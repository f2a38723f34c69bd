"""The preview: every row read and checked against the rules and the database; writes nothing."""

import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from competition.imports.files import clean_cell, read_dataset
from competition.imports.headers import classify, column_key, parse_key
from competition.imports.marks import age_under_15, mark, read_ages
from competition.inputs import INT_MAX, whole_number
from competition.models import Competition, Discipline, Team
from competition.services.table_plan import clash_text, clashes_of_rows, seats_beside
from competition.services.teams import labels_clean, team_fields_problems
from competition.words import entrant_text, member_limit, member_limit_text

# One cell of several members: on separate lines, or separated by commas or semicolons.
_NAMES = re.compile(r"\s*(?:\n|,|;)\s*")
_LINES = re.compile(r"\s*\n\s*")


@dataclass
class PlannedTeam:
    line: int  # the spreadsheet's row number (the header is row 1)
    name: str
    table: int | None
    table_text: str = ""
    members: list[dict] = field(default_factory=list)
    fee_paid: bool = False
    contact_name: str = ""
    contact_email: str = ""
    contact_phone: str = ""
    notes: str = ""
    problems: list[str] = field(default_factory=list)
    notes_for_desk: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)

    def service_kwargs(self) -> dict:
        return {
            "name": self.name,
            "table": self.table,
            "members": self.members,
            "fee_paid": self.fee_paid,
            "contact_name": self.contact_name,
            "contact_email": self.contact_email,
            "contact_phone": self.contact_phone,
            "notes": self.notes,
        }


@dataclass
class Preview:
    teams: list[PlannedTeam]
    ignored_columns: list[str]
    problems: list[str]  # problems of the whole file
    # Each column of the file as read: {"index", "header", "key"} ("member:2", "" = ignored).
    columns: list[dict] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and self.teams and not any(t.problems for t in self.teams)

    @property
    def good(self) -> list[PlannedTeam]:
        """The teams without problems (import these, leave out the rest)."""
        return [] if self.problems else [t for t in self.teams if not t.problems]

    @property
    def bad_count(self) -> int:
        return sum(1 for t in self.teams if t.problems)

    @property
    def remembered(self) -> bool:
        """A column is read as the desk chose for it in an earlier upload."""
        return any(c.get("remembered") for c in self.columns)

    @property
    def problem_count(self) -> int:
        return len(self.problems) + sum(len(t.problems) for t in self.teams)


def _row_members(
    values: dict[tuple[str, int], str],
    headers: dict[tuple[str, int], str],
    one_row_per_member: bool,
    age_known: bool,
    problems: list[str],
    notes: list[str],
) -> list[dict]:
    """The members one row names, with R3's under-15 marks and their adult.

    Numbered columns ("Medlem 2", "Medlem 2 under 15") first, then the names of one cell
    ("Deltagere": on separate lines or separated by commas; a one-row-per-member "Medlem" cell
    with several lines is several members). The row's own "Alder" ("55, 55, 44, 10"), "Under
    15" and "Ledsager" cells apply to those members in order; the adult goes on each member
    under 15 that has none of its own."""
    numbered: dict[int, dict] = {}
    for (kind, number), value in values.items():
        if number == 0 or kind not in ("member", "u15", "age", "adult"):
            continue
        m = numbered.setdefault(number, {})
        if kind == "member":
            m["name"] = value
        elif kind == "u15":
            m["under_15"] = mark(value, headers[kind, number], problems) or m.get("under_15")
        elif kind == "age":
            m["under_15"] = age_under_15(value, problems) or m.get("under_15")
        else:
            m["guardian"] = value
    members = []
    for number in sorted(numbered):
        m = numbered[number]
        if not (m.get("name") or "").strip():
            if m.get("under_15") or m.get("guardian"):
                problems.append(_("A member has an under-15 mark or an adult but no name."))
            continue
        members.append(m)
    names = _LINES.split(values.get(("member", 0), ""))
    names += _NAMES.split(values.get(("members", 0), ""))
    members += [{"name": name} for name in names if name.strip()]

    ages_text = values.get(("age", 0), "")
    if ages_text.strip():
        ages = read_ages(ages_text, problems)
        if len(ages) != len(members):
            problems.append(
                _(
                    "The “%(column)s” column gives %(ages)s for %(members)s: write one age per "
                    "member, in the same order as the names."
                )
                % {
                    "column": headers["age", 0],
                    "ages": ngettext("%(n)s age", "%(n)s ages", len(ages)) % {"n": len(ages)},
                    "members": ngettext("%(n)s member", "%(n)s members", len(members))
                    % {"n": len(members)},
                }
            )
        for m, age in zip(members, ages, strict=False):
            m["under_15"] = m.get("under_15") or (age is not None and age < 15)
    if ("u15", 0) in values and mark(values["u15", 0], headers["u15", 0], problems):
        if len(members) == 1:
            members[0]["under_15"] = True
        elif members:
            problems.append(
                _(
                    "“%(column)s” is marked, but the row has %(members)s members: say which "
                    "one is under 15 (one age per member in an age column)."
                )
                % {"column": headers["u15", 0], "members": len(members)}
            )
    adult = values.get(("adult", 0), "").strip()
    if adult:
        young = [m for m in members if m.get("under_15")]
        for m in young:
            if not (m.get("guardian") or "").strip():
                m["guardian"] = adult
        if not young and not one_row_per_member and not age_known:
            problems.append(
                _(
                    "%(adult)s is given as the accompanying adult, but the sheet does not say "
                    "who is under 15: add an age column (“Alder”: one age per member) or "
                    "choose it in the column choices above."
                )
                % {"adult": adult}
            )
        elif not young:
            notes.append(
                _("%(adult)s is not saved as an adult: nobody on the team is under 15.")
                % {"adult": adult}
            )
    return [
        {
            "name": m["name"].strip(),
            "under_15": bool(m.get("under_15")),
            "guardian": (m.get("guardian") or "").strip(),
        }
        for m in members
    ]


def preview(
    competition: Competition,
    content: bytes,
    filename: str,
    mapping: dict[int, str] | None = None,
    remembered: dict[str, str] | None = None,
) -> Preview:
    """Read the file and check every row against the rules and the database; writes nothing.

    `mapping` overrides how columns are read ({column index: "member:2"}, "" to ignore one),
    as the desk adjusted it in the preview; `remembered` ({header, casefolded: key}) is what
    the desk chose for a column of that name in an earlier upload (the corrected
    sheet keeps the choices)."""
    data = read_dataset(content, filename)
    headers = list(data.headers or [])
    columns: dict[int, tuple[str, int]] = {}
    ignored = []
    shown = []
    for index, header in enumerate(headers):
        kind = auto = classify(header, competition.discipline)
        again = False
        if mapping is not None and index in mapping:
            kind = parse_key(mapping[index])
        elif remembered and clean_cell(header).casefold() in remembered:
            kind = parse_key(remembered[clean_cell(header).casefold()])
            again = True
        if clean_cell(header) or kind is not None:
            shown.append(
                {
                    "index": index,
                    "header": clean_cell(header),
                    "key": column_key(kind),
                    "auto": column_key(auto),
                    "remembered": again,
                }
            )
        if kind is None:
            if clean_cell(header):
                ignored.append(clean_cell(header))
        else:
            columns[index] = kind
    kinds = {k for k, _n in columns.values()}
    file_problems = []
    # Individuals and pairs need no name column: the names under "Deltagere" ("Deltager 1",
    # "Navn", ...) are the entrant's name, an individual's own, a pair's two ("Anne & Bo").
    # A pair's two come from one cell or two numbered columns, not one name a row ("Navn").
    keys = set(columns.values())
    named_by_members = "name" not in kinds and (
        (competition.discipline == Discipline.INDIVIDUAL and bool(kinds & {"member", "members"}))
        or (
            competition.discipline == Discipline.PAIR
            and (("members", 0) in keys or any(k == "member" and n for k, n in keys))
        )
    )
    if "name" not in kinds and not named_by_members:
        file_problems.append(
            entrant_text(
                competition,
                "The file has no column for the team's name: name the first row's cell “hold”.",
            )
        )
        return Preview([], ignored, file_problems, shown)
    # An individual entrant is its one puzzler: without a member's column, the name is its.
    solo = competition.discipline == Discipline.INDIVIDUAL and not kinds & {"member", "members"}
    one_row_per_member = ("member", 0) in columns.values() and not named_by_members
    has_table_column = "table" in kinds
    age_known = bool(kinds & {"age", "u15"})
    headers_of: dict[tuple[str, int], str] = {}
    for index, kind in columns.items():
        headers_of.setdefault(kind, clean_cell(headers[index]) or column_key(kind))

    planned: list[PlannedTeam] = []
    by_name: dict[str, PlannedTeam] = {}
    for row_index, row in enumerate(data, start=2):
        cells = {i: clean_cell(v) for i, v in enumerate(row)}
        if not any(cells.values()):
            continue
        values: dict[tuple[str, int], str] = {}
        for i, key in columns.items():
            values[key] = cells.get(i, "")
        name = values.get(("name", 0), "")
        if solo:
            values["member", 0] = name
        problems: list[str] = []
        notes: list[str] = []
        labels = _labels(values.get(("labels", 0), ""), problems)
        member_list = _row_members(
            values, headers_of, one_row_per_member, age_known, problems, notes
        )
        if named_by_members:
            name = " & ".join(m["name"] for m in member_list)
        paid = mark(values.get(("paid", 0), ""), headers_of.get(("paid", 0), ""), problems)
        table_text = values.get(("table", 0), "")
        key = name.casefold()
        if one_row_per_member and name and key in by_name:
            team = by_name[key]
            team.members += member_list
            team.problems += problems
            team.notes_for_desk += notes
            team.labels += [label for label in labels if label not in team.labels]
            if table_text and team.table_text and table_text != team.table_text:
                team.problems.append(
                    _("Row %(row)s gives table %(table)s, another row of the team %(other)s.")
                    % {"row": row_index, "table": table_text, "other": team.table_text}
                )
            team.table_text = team.table_text or table_text
            continue
        team = PlannedTeam(
            line=row_index,
            name=name,
            table=None,
            table_text=table_text,
            members=member_list,
            fee_paid=paid,
            contact_name=values.get(("contact_name", 0), ""),
            contact_email=values.get(("contact_email", 0), ""),
            contact_phone=values.get(("contact_phone", 0), ""),
            notes=values.get(("notes", 0), ""),
            problems=problems,
            notes_for_desk=notes,
            labels=labels,
        )
        planned.append(team)
        if name:
            by_name.setdefault(key, team)

    _check(competition, planned, has_table_column)
    if not planned:
        file_problems.append(entrant_text(competition, "The file has no teams."))
    return Preview(planned, ignored, file_problems, shown)


def _labels(value: str, problems: list[str]) -> list[str]:
    """ "ung, senior" -> ["ung", "senior"] (the service's rule for labels)."""
    try:
        return labels_clean(_NAMES.split(value))
    except ValidationError as exc:
        problems.extend(exc.messages)
        return []


def _check(competition: Competition, planned: list[PlannedTeam], has_table_column: bool) -> None:
    def say(msgid: str, **values) -> str:
        return entrant_text(competition, msgid, **values)

    most = member_limit(competition.discipline)
    existing = list(Team.objects.filter(competition=competition).values_list("name", "table"))
    db_names = {n.casefold() for n, _t in existing}
    db_tables = {t for _n, t in existing}
    # one hall, one table plan: the tables other competitions use at the same time
    beside = seats_beside(competition)
    clash_at = clashes_of_rows(
        competition, [whole_number(t.table_text, low=1, high=INT_MAX) for t in planned], beside
    )
    seen_names: dict[str, int] = {}
    seen_tables: dict[int, int] = {}
    for team in planned:
        # The entrant's own fields as `team_create` checks them (an e-mail, the lengths).
        for column, messages in team_fields_problems(**team.service_kwargs()).items():
            if column != "name" or team.name:  # no name: said once, below
                team.problems.extend(messages)
        if not team.name:
            team.problems.append(say("The team has no name."))
        elif len(team.name) <= 120:
            key = team.name.casefold()
            if key in db_names:
                team.problems.append(say("A team with this name already exists."))
            elif key in seen_names:
                team.problems.append(
                    say("The same team name is also in row %(row)s.", row=seen_names[key])
                )
            seen_names.setdefault(key, team.line)
        table = whole_number(team.table_text, low=1, high=INT_MAX)
        if table is not None:
            team.table = table
            if table in db_tables:
                team.problems.append(
                    say("Table %(table)s is already taken by a registered team.", table=table)
                )
            elif table in seen_tables:
                team.problems.append(
                    _("Table %(table)s is also given in row %(row)s.")
                    % {"table": table, "row": seen_tables[table]}
                )
            elif table in clash_at:
                team.problems.append(clash_text(clash_at[table]))
            seen_tables.setdefault(table, team.line)
        if not team.members:
            team.problems.append(say("The team has no members: write at least one member's name."))
        elif most is not None and len(team.members) > most:
            team.problems.append(member_limit_text(competition.discipline))
        for m in team.members:
            if m["under_15"] and not m["guardian"]:
                team.problems.append(
                    _("%(name)s is under 15 and needs the name of the accompanying adult (rule 3).")
                    % {"name": m["name"]}
                )
            if len(m["name"]) > 120 or len(m["guardian"]) > 120:
                team.problems.append(_("A member's name is longer than 120 characters."))
    # Tables left empty or invalid: the lowest free ones (a gap left by an earlier import
    # first), never one another competition of the championship holds at the same time;
    # the rows without problems first, so a row that will not be imported (one registered
    # already) takes no table from one that will.
    taken = db_tables | set(seen_tables) | {seat.table for seat in beside}
    for team in sorted(planned, key=lambda t: bool(t.problems)):
        if team.table is not None:
            continue
        suggestion = 1
        while suggestion in taken:
            suggestion += 1
        taken.add(suggestion)
        if not has_table_column or not team.table_text:
            team.table = suggestion
            team.notes_for_desk.append(
                _("Gets table %(table)s (the next free).") % {"table": suggestion}
            )
        else:
            team.problems.append(
                _("“%(value)s” is not a table number; the next free is %(table)s.")
                % {"value": team.table_text, "table": suggestion}
            )
