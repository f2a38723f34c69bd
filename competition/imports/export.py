"""The teams as CSV for the desk, in the columns the import reads."""

import tablib
from django.utils import timezone

from competition import selectors
from competition.cells import safe_row
from competition.imports.headers import COLUMNS
from competition.models import Competition, Discipline


def export_csv(competition: Competition) -> str:
    """The teams with members and contacts, for the desk (personal data: desk only).

    Same columns as the import reads, so the file can be edited and imported elsewhere, in
    the words of the competition's discipline (headers.py `COLUMNS`: "hold", "par", "navn";
    an individual's one puzzler is the entrant, so only its under-15 mark and adult); the
    labels ("kategorier") when an entrant has any. Danish Excel: `;` between fields; the
    caller adds the BOM.
    """
    teams = selectors.team_list(competition=competition)
    words = COLUMNS[competition.discipline]
    solo = competition.discipline == Discipline.INDIVIDUAL
    width = max((len(t.members.all()) for t in teams), default=0)
    labelled = any(t.labels for t in teams)
    headers = ["bord", words["name"], "betalt", "tjekket ind", "trukket"]
    if solo:
        headers += ["under 15", "ledsagende voksen"]
    else:
        for n in range(1, width + 1):
            member = f"{words['member']} {n}"
            headers += [member, f"{member} under 15", f"{member} ledsagende voksen"]
    headers += ["kontaktperson", "e-mail", "telefon", "noter"]
    if labelled:
        headers.append("kategorier")
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
        if solo:
            m = members[0] if members else None
            row += ["x" if m and m.under_15 else "", m.guardian if m else ""]
        else:
            for n in range(width):
                if n < len(members):
                    m = members[n]
                    row += [m.name, "x" if m.under_15 else "", m.guardian]
                else:
                    row += ["", "", ""]
        row += [t.contact_name, t.contact_email, t.contact_phone, t.notes]
        if labelled:
            row.append(", ".join(t.labels or []))
        data.append(safe_row(row))
    return data.export("csv", delimiter=";")
