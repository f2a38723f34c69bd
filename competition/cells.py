"""Cells of the exports a spreadsheet opens (CSV, XLSX): no formula injection (docs/contracts.md).

A text that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to
Excel and LibreOffice (`=HYPERLINK(...)` as a team name would send a click, with the cells
next to it, elsewhere). Every export writes its cells through `safe_cell` (`csv_writer`,
`safe_row`): a `'` in front, shown as text. The import reads them through `unescape_cell`
(the `'` taken off), so an export imports again unchanged.
"""

import csv

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value):
    """`value` for a spreadsheet: a text that starts like a formula gets a leading `'`."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def safe_row(values) -> list:
    return [safe_cell(value) for value in values]


class _SafeWriter:
    def __init__(self, writer):
        self._writer = writer

    def writerow(self, row):
        return self._writer.writerow(safe_row(row))


def csv_writer(out, **kwargs) -> _SafeWriter:
    """`csv.writer(out, **kwargs)` that writes every cell through `safe_cell`."""
    return _SafeWriter(csv.writer(out, **kwargs))


def unescape_cell(text: str) -> str:
    """The import's inverse of `safe_cell`: "'=SUM(1)" -> "=SUM(1)"; "'t Hoekje" stays."""
    if text.startswith("'") and text[1:].startswith(FORMULA_STARTS):
        return text[1:]
    return text
