"""The import's sentences that speak of a team (the registration sheet, its check, its
example): the team's text -> (an individual's, a pair's, a team's); competition/words/ says
how."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = ["TEXTS"]

TEXTS: dict[str, tuple[Promise, Promise, Promise]] = {
    # --- the import ---------------------------------------------------------------------------
    "Import teams": (_("Import entrants"), _("Import pairs"), _("Import teams")),
    "Import teams from the sign-up spreadsheet": (
        _("Import entrants from the sign-up spreadsheet"),
        _("Import pairs from the sign-up spreadsheet"),
        _("Import teams from the sign-up spreadsheet"),
    ),
    "Teams to be created: %(n)s. Nothing is saved until you confirm.": (
        _("Entrants to be created: %(n)s. Nothing is saved until you confirm."),
        _("Pairs to be created: %(n)s. Nothing is saved until you confirm."),
        _("Teams to be created: %(n)s. Nothing is saved until you confirm."),
    ),
    "Or import the teams without problems now (the button below the table) and the others when "
    "they are fixed.": (
        _(
            "Or import the entrants without problems now (the button below the table) and the "
            "others when they are fixed."
        ),
        _(
            "Or import the pairs without problems now (the button below the table) and the "
            "others when they are fixed."
        ),
        _(
            "Or import the teams without problems now (the button below the table) and the "
            "others when they are fixed."
        ),
    ),
    "Import the teams (%(n)s)": (
        _("Import the entrants (%(n)s)"),
        _("Import the pairs (%(n)s)"),
        _("Import the teams (%(n)s)"),
    ),
    # Not "the 1 teams ..., leave out the 1 ...": no count stands before the word it counts.
    "Import only the teams without problems (%(n)s of %(total)s)": (
        _("Import only the entrants without problems (%(n)s of %(total)s)"),
        _("Import only the pairs without problems (%(n)s of %(total)s)"),
        _("Import only the teams without problems (%(n)s of %(total)s)"),
    ),
    "The first row names the columns; the order does not matter. Each further row is a team.": (
        _(
            "The first row names the columns; the order does not matter. Each further row is "
            "an entrant."
        ),
        _(
            "The first row names the columns; the order does not matter. Each further row is "
            "a pair."
        ),
        _(
            "The first row names the columns; the order does not matter. Each further row is "
            "a team."
        ),
    ),
    "the team's name (required)": (
        _("the entrant's name (required)"),
        _("the pair's name (required)"),
        _("the team's name (required)"),
    ),
    "the table number; without this column every team gets the next free table": (
        _("the table number; without this column every entrant gets the next free table"),
        _("the table number; without this column every pair gets the next free table"),
        _("the table number; without this column every team gets the next free table"),
    ),
    "the adult who accompanies the team's under-15s (rule 3)": (
        _("the adult who accompanies the entrant (rule 3)"),
        _("the adult who accompanies the pair's under-15s (rule 3)"),
        _("the adult who accompanies the team's under-15s (rule 3)"),
    ),
    "The file has no column for the team's name: name the first row's cell “hold”.": (
        _("The file has no column for the entrant's name: name the first row's cell “navn”."),
        _("The file has no column for the pair's name: name the first row's cell “par”."),
        _("The file has no column for the team's name: name the first row's cell “hold”."),
    ),
    "The file has no teams.": (
        _("The file has no entrants."),
        _("The file has no pairs."),
        _("The file has no teams."),
    ),
    "The team has no name.": (
        _("The entrant has no name."),
        _("The pair has no name."),
        _("The team has no name."),
    ),
    "The team name is longer than 120 characters.": (
        _("The name is longer than 120 characters."),
        _("The pair's name is longer than 120 characters."),
        _("The team name is longer than 120 characters."),
    ),
    "A team with this name already exists.": (
        _("An entrant with this name already exists."),
        _("A pair with this name already exists."),
        _("A team with this name already exists."),
    ),
    "The same team name is also in row %(row)s.": (
        _("The same name is also in row %(row)s."),
        _("The same pair name is also in row %(row)s."),
        _("The same team name is also in row %(row)s."),
    ),
    "Table %(table)s is already taken by a registered team.": (
        _("Table %(table)s is already taken by a registered entrant."),
        _("Table %(table)s is already taken by a registered pair."),
        _("Table %(table)s is already taken by a registered team."),
    ),
    "The team has no members: write at least one member's name.": (
        _("The entrant has no puzzler: write the puzzler's name."),
        _("The pair has no puzzlers: write at least one puzzler's name."),
        _("The team has no members: write at least one member's name."),
    ),
    # --- the preview's choice of how a column is read (imports.mapping_choices) -------------
    "Members, all in one cell": (
        _("The puzzler's name"),
        _("Both puzzlers in one cell"),
        _("Members, all in one cell"),
    ),
    "Member (one row per member)": (
        _("Puzzler (one row per puzzler)"),
        _("Puzzler (one row per puzzler)"),
        _("Member (one row per member)"),
    ),
    "Member %(n)d": (_("Puzzler"), _("Puzzler %(n)d"), _("Member %(n)d")),
    "Member %(n)d under 15": (
        _("Puzzler under 15"),
        _("Puzzler %(n)d under 15"),
        _("Member %(n)d under 15"),
    ),
    "Member %(n)d age": (_("The puzzler's age"), _("Puzzler %(n)d age"), _("Member %(n)d age")),
    "Member %(n)d accompanying adult": (
        _("The puzzler's accompanying adult"),
        _("Puzzler %(n)d accompanying adult"),
        _("Member %(n)d accompanying adult"),
    ),
    "Ages, one per member": (_("Age"), _("Ages, one per puzzler"), _("Ages, one per member")),
}
