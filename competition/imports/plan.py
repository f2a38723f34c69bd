"""The preview: every row read and checked against the rules and the database; writes nothing."""

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from competition.imports.files import clean_cell, read_dataset
from competition.imports.headers import classify, column_key, parse_key
from competition.inputs import INT_MAX, whole_number
from competition.models import Competition, Team

YES = {"x", "ja", "j", "yes", "y", "1", "true", "sand"}
NO = {"", "nej", "n", "no", "0", "false", "falsk", "-"}


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
        """The teams without problems (issue 15: import these, leave out the rest)."""
        return [] if self.problems else [t for t in self.teams if not t.problems]

    @property
    def bad_count(self) -> int:
        return sum(1 for t in self.teams if t.problems)

    @property
    def problem_count(self) -> int:
        return len(self.problems) + sum(len(t.problems) for t in self.teams)


def _mark(value: str, what: str, problems: list[str]) -> bool:
    text = value.strip().lower()
    if text in YES:
        return True
    if text not in NO:
        problems.append(
            _("“%(value)s” in %(column)s is not understood: write x or ja, or leave it empty.")
            % {"value": value, "column": what}
        )
    return False


def _age_under_15(value: str, problems: list[str]) -> bool:
    text = value.strip().lower().removesuffix("år").strip()
    if not text:
        return False
    age = whole_number(text, low=0, high=150)
    if age is None:
        problems.append(_("“%(value)s” is not an age in years.") % {"value": value})
        return False
    return age < 15


def preview(
    competition: Competition,
    content: bytes,
    filename: str,
    mapping: dict[int, str] | None = None,
) -> Preview:
    """Read the file and check every row against the rules and the database; writes nothing.

    `mapping` overrides how columns are read ({column index: "member:2"}, "" to ignore one),
    as the desk adjusted it in the preview."""
    data = read_dataset(content, filename)
    headers = list(data.headers or [])
    columns: dict[int, tuple[str, int]] = {}
    ignored = []
    shown = []
    for index, header in enumerate(headers):
        kind = classify(header)
        if mapping is not None and index in mapping:
            kind = parse_key(mapping[index])
        if clean_cell(header) or kind is not None:
            shown.append({"index": index, "header": clean_cell(header), "key": column_key(kind)})
        if kind is None:
            if clean_cell(header):
                ignored.append(clean_cell(header))
        else:
            columns[index] = kind
    kinds = {k for k, _n in columns.values()}
    file_problems = []
    if "name" not in kinds:
        file_problems.append(
            _("The file has no column for the team's name: name the first row's cell “hold”.")
        )
        return Preview([], ignored, file_problems, shown)
    one_row_per_member = ("member", 0) in columns.values()
    has_table_column = "table" in kinds

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
        problems: list[str] = []
        members: dict[int, dict] = {}
        shared_adult = ""
        for (kind, number), value in values.items():
            if kind == "adult" and number == 0 and not one_row_per_member:
                shared_adult = value  # one adult column for the under-15s (Google Forms)
            elif kind == "member":
                members.setdefault(number, {})["name"] = value
            elif kind == "u15":
                label = _("“under 15”")
                under = _mark(value, label, problems)
                members.setdefault(number, {})["under_15"] = (
                    members.get(number, {}).get("under_15") or under
                )
            elif kind == "age":
                under = _age_under_15(value, problems)
                members.setdefault(number, {})["under_15"] = (
                    members.get(number, {}).get("under_15") or under
                )
            elif kind == "adult":
                members.setdefault(number, {})["guardian"] = value
        if shared_adult:
            for m in members.values():
                if m.get("under_15") and not m.get("guardian"):
                    m["guardian"] = shared_adult
        if ("members", 0) in values:
            for n, part in enumerate(values[("members", 0)].split(","), start=1):
                if part.strip():
                    members.setdefault(1000 + n, {})["name"] = part.strip()
        member_list = []
        for number in sorted(members):
            m = members[number]
            m_name = (m.get("name") or "").strip()
            if not m_name:
                if m.get("under_15") or m.get("guardian"):
                    problems.append(_("A member has an under-15 mark or an adult but no name."))
                continue
            member_list.append(
                {
                    "name": m_name,
                    "under_15": bool(m.get("under_15")),
                    "guardian": (m.get("guardian") or "").strip(),
                }
            )
        paid = _mark(values.get(("paid", 0), ""), _("“paid”"), problems)
        table_text = values.get(("table", 0), "")
        key = name.casefold()
        if one_row_per_member and name and key in by_name:
            team = by_name[key]
            team.members += member_list
            team.problems += problems
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
        )
        planned.append(team)
        if name:
            by_name.setdefault(key, team)

    _check(competition, planned, has_table_column)
    if not planned:
        file_problems.append(_("The file has no teams."))
    return Preview(planned, ignored, file_problems, shown)


def _check(competition: Competition, planned: list[PlannedTeam], has_table_column: bool) -> None:
    existing = list(Team.objects.filter(competition=competition).values_list("name", "table"))
    db_names = {n.casefold() for n, _t in existing}
    db_tables = {t for _n, t in existing}
    seen_names: dict[str, int] = {}
    seen_tables: dict[int, int] = {}
    for team in planned:
        if not team.name:
            team.problems.append(_("The team has no name."))
        elif len(team.name) > 120:
            team.problems.append(_("The team name is longer than 120 characters."))
        else:
            key = team.name.casefold()
            if key in db_names:
                team.problems.append(_("A team with this name already exists."))
            elif key in seen_names:
                team.problems.append(
                    _("The same team name is also in row %(row)s.") % {"row": seen_names[key]}
                )
            seen_names.setdefault(key, team.line)
        table = whole_number(team.table_text, low=1, high=INT_MAX)
        if table is not None:
            team.table = table
            if table in db_tables:
                team.problems.append(
                    _("Table %(table)s is already taken by a registered team.") % {"table": table}
                )
            elif table in seen_tables:
                team.problems.append(
                    _("Table %(table)s is also given in row %(row)s.")
                    % {"table": table, "row": seen_tables[table]}
                )
            seen_tables.setdefault(table, team.line)
        if not team.members:
            team.problems.append(_("The team has no members: write at least one member's name."))
        for m in team.members:
            if m["under_15"] and not m["guardian"]:
                team.problems.append(
                    _("%(name)s is under 15 and needs the name of the accompanying adult (R3).")
                    % {"name": m["name"]}
                )
            if len(m["name"]) > 120 or len(m["guardian"]) > 120:
                team.problems.append(_("A member's name is longer than 120 characters."))
    # Tables left empty or invalid: the next free ones, after every table already used.
    taken = db_tables | set(seen_tables)
    for team in planned:
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
