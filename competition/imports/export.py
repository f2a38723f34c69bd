"""The teams as CSV for the desk, in the columns the import reads."""

import tablib
from django.utils import timezone

from competition import selectors
from competition.cells import safe_row
from competition.models import Competition


def export_csv(competition: Competition) -> str:
    """The teams with members and contacts, for the desk (personal data: desk only).

    Same columns as the import reads, so the file can be edited and imported elsewhere.
    Danish Excel: `;` between fields; the caller adds the BOM.
    """
    teams = selectors.team_list(competition=competition)
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
