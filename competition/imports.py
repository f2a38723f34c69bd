"""Import teams from a sign-up spreadsheet (CSV or XLSX) and export them as CSV.

The file's first row names the columns; upper/lower case, extra spaces and the order do
not matter, and Danish or English names work. Columns:

- ``hold`` / ``team`` (required): the team's name.
- ``bord`` / ``table`` (optional): the table number. Without this column every team gets
  the next free table; with it, an empty or invalid cell is a problem in the preview
  (which suggests the next free table).
- The members, in one of three ways:
  1. numbered columns ``medlem 1``, ``medlem 2``, ... (``member 1``...), each optionally
     with ``medlem 1 under 15`` and ``medlem 1 ledsagende voksen`` (``member 1 under 15``,
     ``member 1 adult``);
  2. one column ``medlemmer`` / ``members``: the names separated by commas (no under-15
     marks possible here);
  3. one row per member: columns ``medlem`` / ``member``, ``under 15`` and
     ``ledsagende voksen`` / ``adult``; the rows with the same team name are one team.
- ``under 15`` is marked with x, ja, j, yes, y, 1 or true; empty, nej, no, 0 or false is not.
- Optional: ``betalt`` / ``paid`` (same marks), ``kontaktperson`` / ``contact``,
  ``e-mail`` / ``email``, ``telefon`` / ``phone``, ``noter`` / ``notes``.
Other columns are ignored (the preview lists them).

CSV: separated by ``;`` or ``,``, UTF-8 with or without BOM (Excel's Windows-1252 is
accepted too). At most 1 MB and 2,000 rows (issue 11): a longer file is refused before its
rows are read. Nothing is written by `preview`; `confirm` creates every team in one
transaction through ``team_create`` or none at all. Between the two the file waits in an
``ImportPreview`` row of the desk user's (`preview_store`, `preview_take`).
"""

import csv
import io
import itertools
import re
import uuid
from dataclasses import dataclass, field

import tablib
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from competition.cells import safe_row, unescape_cell
from competition.inputs import INT_MAX, whole_number
from competition.models import Competition, ImportPreview, Team
from competition.services import team_create

MAX_BYTES = 1024 * 1024
MAX_ROWS = 2000  # below the header row; empty rows are not counted
YES = {"x", "ja", "j", "yes", "y", "1", "true", "sand"}
NO = {"", "nej", "n", "no", "0", "false", "falsk", "-"}

_WORDS = {
    "name": {
        "hold",
        "team",
        "holdnavn",
        "hold navn",
        "holdets navn",
        "team name",
        "teamnavn",
        "navn på hold",
        "navn på holdet",
    },
    "table": {"bord", "table", "bordnummer", "bord nr", "table number", "bordnr"},
    "members": {"medlemmer", "members", "holdmedlemmer", "team members"},
    "member": {
        "medlem",
        "member",
        "holdmedlem",
        "pusler",
        "navn",
        "name",
        "deltager",
        "spiller",
        "player",
        "participant",
        "puzzler",
    },
    "u15": {"under 15", "under 15 år", "u15", "under15", "under 15 years"},
    "age": {"alder", "age"},
    "adult": {
        "ledsagende voksen",
        "voksen",
        "adult",
        "guardian",
        "accompanying adult",
        "navn på ledsagende voksen",
        "ledsagende voksens navn",
        "ledsager",
        "name of the accompanying adult",
        "name of accompanying adult",
    },
    "paid": {
        "betalt",
        "paid",
        "fee paid",
        "gebyr betalt",
        "tilmeldingsgebyr betalt",
        "har i betalt",
        "har betalt",
        "have you paid",
        "has paid",
    },
    "contact_name": {"kontaktperson", "kontakt", "contact", "contact name"},
    "contact_email": {
        "email",
        "e-mail",
        "mail",
        "contact email",
        "e-mailadresse",
        "emailadresse",
        "mailadresse",
        "email address",
        "e-mail address",
    },
    "contact_phone": {
        "telefon",
        "tlf",
        "phone",
        "mobil",
        "contact phone",
        "telefonnummer",
        "tlf nr",
        "mobilnummer",
        "phone number",
    },
    "notes": {"noter", "notes", "bemærkninger", "note"},
}


def _norm(header) -> str:
    text = str(header or "").replace("\ufeff", "").strip().lower()
    text = re.sub(r"[._:#?()]", " ", text)
    text = re.sub(r"\s+", " ", text).strip()
    # Google Forms asks questions: "Er deltager 4 under 15 år?", "Is member 4 under 15?"
    return re.sub(r"^(er|is) ", "", text)


def classify(header) -> tuple[str, int] | None:
    """('name', 0), ('member', 2), ('u15', 2), ('adult', 0)... or None for an unknown column."""
    text = _norm(header)
    for kind, words in _WORDS.items():
        if text in words:
            return kind, 0
    # Numbered member columns: "medlem 2", "medlem 2 under 15", "under 15 2", "voksen 2" ...
    match = re.fullmatch(r"(.*?)\s*(\d+)\s*(.*)", text)
    if match and match.group(1) != "under":
        before, number, after = match.group(1), int(match.group(2)), match.group(3)
        if before in _WORDS["member"] and not after:
            return "member", number
        if before in _WORDS["member"] and after in _WORDS["u15"]:
            return "u15", number
        if before in _WORDS["member"] and after in _WORDS["adult"]:
            return "adult", number
        if before in _WORDS["member"] and after in _WORDS["age"]:
            return "age", number
        if not after and before in _WORDS["age"]:
            return "age", number
        first, _sep, rest = before.partition(" ")
        if not after and first in _WORDS["age"] and rest in _WORDS["member"]:
            return "age", number  # "alder deltager 2"
        if not after and before in _WORDS["u15"]:
            return "u15", number
        if not after and before in _WORDS["adult"]:
            return "adult", number
    # "under 15 2" has two numbers: "under 15" then the member's number.
    match = re.fullmatch(r"(under 15( år)?|u15)\s+(\d+)", text)
    if match:
        return "u15", int(match.group(3))
    return None


class ImportFileError(Exception):
    """The file cannot be read at all (wrong type, no header, not a spreadsheet)."""


def too_large_message() -> str:
    return _("The file is too large (at most 1 MB).")


def _check_rows(rows) -> None:
    """Refuse a file of more than MAX_ROWS rows, counting no further than that."""
    filled = (row for row in rows if any(str(c).strip() for c in row if c is not None))
    if sum(1 for _row in itertools.islice(filled, MAX_ROWS + 2)) > MAX_ROWS + 1:
        rows_text = number_format(MAX_ROWS, force_grouping=True)
        raise ImportFileError(
            _(
                "The file has more than %(rows)s rows: at most %(rows)s can be imported at "
                "once. Split it into several files."
            )
            % {"rows": rows_text}
        )


def _xlsx_rows(content: bytes):
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    try:
        yield from book.active.iter_rows(values_only=True)
    finally:
        book.close()


def read_dataset(content: bytes, filename: str) -> tablib.Dataset:
    if len(content) > MAX_BYTES:
        raise ImportFileError(too_large_message())
    lower = filename.lower()
    try:
        if lower.endswith(".xlsx"):
            _check_rows(_xlsx_rows(content))
            return tablib.Dataset().load(content, format="xlsx")
        if lower.endswith((".csv", ".txt")):
            try:
                text = content.decode("utf-8-sig")
            except UnicodeDecodeError:
                text = content.decode("cp1252")
            first = text.split("\n", 1)[0]
            delimiter = ";" if first.count(";") >= first.count(",") else ","
            _check_rows(csv.reader(io.StringIO(text), delimiter=delimiter))
            return tablib.Dataset().load(text, format="csv", delimiter=delimiter)
    except ImportFileError:
        raise
    except Exception as exc:  # tablib/openpyxl raise many kinds for a broken file
        raise ImportFileError(
            _("The file could not be read as a spreadsheet: %(error)s") % {"error": exc}
        ) from exc
    raise ImportFileError(_("Upload a CSV file (.csv) or an Excel file (.xlsx)."))


def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    # NUL (from a broken export) cannot be saved in PostgreSQL's text: it goes. An export's
    # `'` before `=`, `+`, ... (DESIGN.md) goes too.
    return unescape_cell(str(value).replace("\x00", "").strip())


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


def _key(kind: tuple[str, int] | None) -> str:
    return "" if kind is None else f"{kind[0]}:{kind[1]}"


def parse_key(key: str) -> tuple[str, int] | None:
    """ "member:2" -> ("member", 2); "" or anything unknown -> None (the column is ignored)."""
    kind, _sep, number = str(key or "").partition(":")
    if kind not in _WORDS or not number.isdigit() or int(number) > 50:
        return None
    return kind, int(number)


def mapping_choices(width: int = 6) -> list[tuple[str, str]]:
    """What a column can be read as, for the preview's selects."""
    choices = [
        ("", _("Not imported")),
        ("name:0", _("Team name")),
        ("table:0", _("Table")),
        ("members:0", _("Members, separated by commas")),
        ("member:0", _("Member (one row per member)")),
    ]
    for n in range(1, width + 1):
        choices += [
            (f"member:{n}", _("Member %(n)d") % {"n": n}),
            (f"u15:{n}", _("Member %(n)d under 15") % {"n": n}),
            (f"age:{n}", _("Member %(n)d age") % {"n": n}),
            (f"adult:{n}", _("Member %(n)d accompanying adult") % {"n": n}),
        ]
    choices += [
        ("u15:0", _("Under 15")),
        ("adult:0", _("Accompanying adult (of the under-15s)")),
        ("paid:0", _("Paid")),
        ("contact_name:0", _("Contact")),
        ("contact_email:0", _("E-mail")),
        ("contact_phone:0", _("Phone")),
        ("notes:0", _("Notes")),
    ]
    return choices


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
        if _cell(header) or kind is not None:
            shown.append({"index": index, "header": _cell(header), "key": _key(kind)})
        if kind is None:
            if _cell(header):
                ignored.append(_cell(header))
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
        cells = {i: _cell(v) for i, v in enumerate(row)}
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


class ImportRefused(Exception):
    def __init__(self, preview: Preview, message: str = ""):
        super().__init__(message)
        self.preview = preview
        self.message = message


@transaction.atomic
def confirm(
    competition: Competition,
    content: bytes,
    filename: str,
    *,
    by,
    mapping: dict[int, str] | None = None,
    skip_problems: bool = False,
) -> list[Team]:
    """Create every team of the file, or none: any problem refuses the whole import, unless
    `skip_problems` (the desk chose to leave out the rows with problems, issue 15)."""
    plan = preview(competition, content, filename, mapping)
    if skip_problems and plan.good:
        teams = plan.good
    elif not plan.ok:
        raise ImportRefused(plan, _("The file has problems; nothing was imported."))
    else:
        teams = plan.teams
    created = []
    for team in teams:
        try:
            created.append(team_create(competition=competition, by=by, **team.service_kwargs()))
        except ValidationError as exc:  # e.g. another desk registered the same name meanwhile
            transaction.set_rollback(True)
            message = "; ".join(exc.messages)
            raise ImportRefused(
                plan,
                _("Row %(row)s (%(team)s): %(error)s. Nothing was imported.")
                % {"row": team.line, "team": team.name, "error": message},
            ) from exc
    return created


# --- the file between preview and confirm ----------------------------------------------------
def _expired_before():
    return timezone.now() - ImportPreview.EXPIRY


def preview_cleanup() -> None:
    """Remove the files whose time ran out (nobody confirmed or cancelled them)."""
    ImportPreview.objects.filter(created_at__lt=_expired_before()).delete()


def preview_store(competition: Competition, content: bytes, filename: str, *, by) -> str:
    """Keep an uploaded file for its confirm by the same desk user; its token."""
    stored = ImportPreview.objects.create(
        competition=competition,
        user=by,
        filename=filename.replace("\x00", "")[-200:],
        content=content,
    )
    return str(stored.token)


def preview_find(competition: Competition, token, *, by) -> ImportPreview | None:
    """The file `by` uploaded under `token`; None once it expired (or for anyone else)."""
    try:
        token = uuid.UUID(str(token))
    except ValueError:
        return None
    return ImportPreview.objects.filter(
        competition=competition, user=by, token=token, created_at__gte=_expired_before()
    ).first()


def preview_discard(stored: ImportPreview) -> None:
    ImportPreview.objects.filter(pk=stored.pk).delete()


def export_csv(competition: Competition) -> str:
    """The teams with members and contacts, for the desk (personal data: desk only).

    Same columns as the import reads, so the file can be edited and imported elsewhere.
    Danish Excel: `;` between fields; the caller adds the BOM.
    """
    teams = list(
        Team.objects.filter(competition=competition).prefetch_related("members").order_by("table")
    )
    width = max((len(t.members.all()) for t in teams), default=0)
    headers = ["bord", "hold", "betalt", "tjekket ind", "trukket"]
    for n in range(1, width + 1):
        headers += [f"medlem {n}", f"medlem {n} under 15", f"medlem {n} ledsagende voksen"]
    headers += ["kontaktperson", "e-mail", "telefon", "noter"]
    data = tablib.Dataset(headers=safe_row(headers))
    for t in teams:
        row = [
            t.table,
            t.name,
            "ja" if t.fee_paid else "",
            timezone.localtime(t.checked_in_at).strftime("%H:%M") if t.checked_in_at else "",
            "ja" if t.withdrawn else "",
        ]
        members = list(t.members.all())
        for n in range(width):
            if n < len(members):
                m = members[n]
                row += [m.name, "x" if m.under_15 else "", m.guardian]
            else:
                row += ["", "", ""]
        row += [t.contact_name, t.contact_email, t.contact_phone, t.notes]
        data.append(safe_row(row))
    return data.export("csv", delimiter=";")
