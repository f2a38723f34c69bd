"""Reading the uploaded file: CSV or XLSX, its size and row limits, its cells."""

import csv
import io
import itertools

import tablib
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from competition.cells import unescape_cell

MAX_BYTES = 1024 * 1024
MAX_ROWS = 2000  # below the header row; empty rows are not counted


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


def clean_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    # NUL (from a broken export) cannot be saved in PostgreSQL's text: it goes. An export's
    # `'` before `=`, `+`, ... (docs/contracts.md) goes too.
    return unescape_cell(str(value).replace("\x00", "").strip())
