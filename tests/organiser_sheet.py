"""The organiser's own sign-up sheet as it was walked (R3), for the import's tests and the
desk's browser test: "Deltagere" holds the members (on separate lines of one cell, or with
commas), "Alder" one age per member, "Ledsager" the adult of the team's under-15s, "Betalt"
what people write ("Betalt", "ja (MobilePay)", ✓)."""

import csv
import io

import tablib

HEADERS = ["Tidsstempel", "Holdnavn", "Deltagere", "Alder", "Ledsager", "Telefon", "Betalt"]
ROWS = [
    [
        "02-11-2026 21:14",
        "Familien Kristensen",
        "Line Kristensen\nMorten Kristensen\nHanne Kristensen\nOskar Kristensen",
        "55, 55, 44, 10",
        "Line Kristensen",
        "20 30 40 50",
        "ja (MobilePay)",
    ],
    [
        "03-11-2026 08:01",
        "Brikkebanden",
        "Søren Nielsen, Karen Nielsen",
        "34, 12",
        "",
        "",
        "Betalt",
    ],
    ["03-11-2026 10:22", "Kantsøgerne", "Anne Jensen\r\nBo Jensen", "40 år, 41 år", "", "", "✓"],
    ["04-11-2026 19:40", "Tusindfryd", "Mads Berg", "67", "", "", "ikke betalt"],
]


def with_adult(rows, index, adult):
    """The sheet corrected: the team in row `index` names `adult` as its under-15s' adult."""
    return [[*row[:4], adult, *row[5:]] if i == index else row for i, row in enumerate(rows)]


def as_csv(rows=ROWS, headers=HEADERS) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";")
    writer.writerow(headers)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8-sig")


def as_xlsx(rows=ROWS, headers=HEADERS) -> bytes:
    data = tablib.Dataset(headers=headers)
    for row in rows:
        data.append(row)
    return data.export("xlsx")
