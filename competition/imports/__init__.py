"""Import teams from a sign-up spreadsheet (CSV or XLSX) and export them as CSV.

The file's first row names the columns; upper/lower case, extra spaces and the order do
not matter, and Danish or English names work. Columns:

- ``hold`` / ``team`` (required): the team's name; in a competition of individuals also
  ``navn`` / ``deltager`` (the entrant, who is its one puzzler unless a member's column
  names one), of pairs ``par`` (headers.py ``_NAME_OF``).
- ``bord`` / ``table`` (optional): the table number. Without this column every team gets
  the next free table; with it, an empty or invalid cell is a problem in the preview
  (which suggests the next free table).
- The members, in one of three ways:
  1. numbered columns ``medlem 1``, ``medlem 2``, ... (``member 1``...), each optionally
     with ``medlem 1 under 15`` and ``medlem 1 ledsagende voksen`` (``member 1 under 15``,
     ``member 1 adult``);
  2. one column ``medlemmer`` / ``deltagere`` / ``members``: the names on separate lines of
     the cell or separated by commas, with optionally one column ``alder`` / ``age`` of one
     age per member in the same order ("55, 55, 44, 10": under 15 from the age) and one
     ``ledsager`` / ``ledsagende voksen`` for the team's under-15s (R3);
  3. one row per member: columns ``medlem`` / ``member``, ``under 15`` and
     ``ledsagende voksen`` / ``adult``; the rows with the same team name are one team.
- ``under 15`` and ``betalt`` are marked with x, ja, yes, ✓, "Betalt", "ja (MobilePay)"...;
  empty, nej, no, 0, "ikke betalt" is not (`marks.mark_value`).
- Optional: ``betalt`` / ``paid``, ``kontaktperson`` / ``contact``,
  ``e-mail`` / ``email``, ``telefon`` / ``phone``, ``noter`` / ``notes``, ``kategorier`` /
  ``mærker`` / ``labels`` (the entrant's labels, separated by commas: "ung, gæst").
Other columns are ignored (the preview lists them).

CSV: separated by ``;`` or ``,``, UTF-8 with or without BOM (Excel's Windows-1252 is
accepted too). At most 1 MB and 2,000 rows: a longer file is refused before its
rows are read. Nothing is written by `preview`; `confirm` creates every team in one
transaction through ``team_create`` or none at all. Between the two the file waits in an
``ImportPreview`` row of the desk user's (`preview_store`, `preview_find`); the desk's column
choices are remembered by column name for the championship's competitions of the same
discipline (`columns_remember`, an ``ImportColumnChoice`` row each).

Individuals and pairs need no name column: without one, the names under ``deltagere`` /
``deltager 1`` / ... are the entrant's name (an individual's own, a pair's two: "Anne & Bo").
The preview runs every check confirm runs (``team_fields_problems``: an e-mail, the lengths,
as ``team_create``), so every bad row is named before anything is written. Empty tables
take the lowest free ones, the rows without problems first.
"""

from competition.imports.apply import ImportRefused, confirm
from competition.imports.export import export_csv
from competition.imports.files import (
    MAX_BYTES,
    MAX_ROWS,
    ImportFileError,
    read_dataset,
    too_large_message,
)
from competition.imports.headers import COLUMNS, classify, mapping_choices, parse_key
from competition.imports.marks import NO, YES
from competition.imports.plan import PlannedTeam, Preview, preview
from competition.imports.stored import (
    columns_recall,
    columns_remember,
    preview_cleanup,
    preview_discard,
    preview_find,
    preview_held,
    preview_store,
)

__all__ = [
    "COLUMNS",
    "MAX_BYTES",
    "MAX_ROWS",
    "NO",
    "YES",
    "ImportFileError",
    "ImportRefused",
    "PlannedTeam",
    "Preview",
    "classify",
    "columns_recall",
    "columns_remember",
    "confirm",
    "export_csv",
    "mapping_choices",
    "parse_key",
    "preview",
    "preview_cleanup",
    "preview_discard",
    "preview_find",
    "preview_held",
    "preview_store",
    "read_dataset",
    "too_large_message",
]
