"""The desk's sentences that speak of a team (`TEXTS`), and the services' sentences on its form
(`FORM`): the team's text -> (an individual's, a pair's, a team's); competition/words/ says
how."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

__all__ = ["FORM", "TEXTS"]

TEXTS: dict[str, tuple[Promise, Promise, Promise]] = {
    # --- the desk -----------------------------------------------------------------------------
    "Register team": (_("Register entrant"), _("Register pair"), _("Register team")),
    "All teams": (_("All entrants"), _("All pairs"), _("All teams")),
    "Search team, member or table": (
        _("Search entrant or table"),
        _("Search pair, puzzler or table"),
        _("Search team, member or table"),
    ),
    "“%(name)s” is at the top of the list. Its table card:": (
        pgettext_lazy("individual", "“%(name)s” is at the top of the list. Its table card:"),
        pgettext_lazy("pair", "“%(name)s” is at the top of the list. Its table card:"),
        _("“%(name)s” is at the top of the list. Its table card:"),
    ),
    "Print its table card": (
        pgettext_lazy("individual", "Print its table card"),
        pgettext_lazy("pair", "Print its table card"),
        _("Print its table card"),
    ),
    "The check-in deadline has passed: %(n)s team is missing (at the top, with the contact's "
    "phone).": (
        ngettext_lazy(
            "The check-in deadline has passed: %(n)s entrant is missing (at the top, with the "
            "contact's phone).",
            "The check-in deadline has passed: %(n)s entrants are missing (at the top, with "
            "the contact's phone).",
            "n",
        ),
        ngettext_lazy(
            "The check-in deadline has passed: %(n)s pair is missing (at the top, with the "
            "contact's phone).",
            "The check-in deadline has passed: %(n)s pairs are missing (at the top, with the "
            "contact's phone).",
            "n",
        ),
        ngettext_lazy(
            "The check-in deadline has passed: %(n)s team is missing (at the top, with the "
            "contact's phone).",
            "The check-in deadline has passed: %(n)s teams are missing (at the top, with the "
            "contact's phone).",
            "n",
        ),
    ),
    "Teams shown: %(n)s": (
        _("Entrants shown: %(n)s"),
        _("Pairs shown: %(n)s"),
        _("Teams shown: %(n)s"),
    ),
    "No teams yet: register one or import the sign-up spreadsheet.": (
        _("No entrants yet: register one or import the sign-up spreadsheet."),
        _("No pairs yet: register one or import the sign-up spreadsheet."),
        _("No teams yet: register one or import the sign-up spreadsheet."),
    ),
    "no members registered": (
        _("no puzzler registered"),
        _("no puzzlers registered"),
        _("no members registered"),
    ),
    "Missing at check-in: %(n)s team": (
        ngettext_lazy(
            "Missing at check-in: %(n)s entrant", "Missing at check-in: %(n)s entrants", "n"
        ),
        ngettext_lazy("Missing at check-in: %(n)s pair", "Missing at check-in: %(n)s pairs", "n"),
        ngettext_lazy("Missing at check-in: %(n)s team", "Missing at check-in: %(n)s teams", "n"),
    ),
    "Every team is checked in.": (
        _("Every entrant is checked in."),
        _("Every pair is checked in."),
        _("Every team is checked in."),
    ),
    "Teams that have paid: %(n)s": (
        _("Entrants who have paid: %(n)s"),
        _("Pairs that have paid: %(n)s"),
        _("Teams that have paid: %(n)s"),
    ),
    "No team has paid yet.": (
        _("No entrant has paid yet."),
        _("No pair has paid yet."),
        _("No team has paid yet."),
    ),
    "Tell the team before you register it.": (
        _("Tell the entrant before you register them."),
        _("Tell the pair before you register it."),
        _("Tell the team before you register it."),
    ),
    "At most %(n)s puzzler at the table at a time, but a team may register more members and "
    "swap (rule 17). A member under 15 needs an accompanying adult (rule 3).": (
        _(
            "An individual entrant puzzles alone: the name above is the puzzler's. A puzzler "
            "under 15 needs an accompanying adult (rule 3)."
        ),
        _("A pair is two puzzlers. A puzzler under 15 needs an accompanying adult (rule 3)."),
        ngettext_lazy(
            "At most %(n)s puzzler at the table at a time, but a team may register more "
            "members and swap (rule 17). A member under 15 needs an accompanying adult (rule 3).",
            "At most %(n)s puzzlers at the table at a time, but a team may register more "
            "members and swap (rule 17). A member under 15 needs an accompanying adult (rule 3).",
            "n",
        ),
    ),
    "The team is here: check it in now": (
        _("The entrant is here: check them in now"),
        _("The pair is here: check it in now"),
        _("The team is here: check it in now"),
    ),
    "The team is withdrawn and not on the leaderboard.": (
        _("The entrant is withdrawn and not on the leaderboard."),
        _("The pair is withdrawn and not on the leaderboard."),
        _("The team is withdrawn and not on the leaderboard."),
    ),
    "The clock has started: only the head judge can withdraw a team or undo a withdrawal now, "
    "with a reason, in the control room.": (
        _(
            "The clock has started: only the head judge can withdraw an entrant or undo a "
            "withdrawal now, with a reason, in the control room."
        ),
        _(
            "The clock has started: only the head judge can withdraw a pair or undo a "
            "withdrawal now, with a reason, in the control room."
        ),
        _(
            "The clock has started: only the head judge can withdraw a team or undo a "
            "withdrawal now, with a reason, in the control room."
        ),
    ),
    "Open the team in the control room": (
        _("Open the entrant in the control room"),
        _("Open the pair in the control room"),
        _("Open the team in the control room"),
    ),
    "Withdraw a team that does not come (a no-show) or cancels: it leaves the leaderboard. It "
    "can be undone.": (
        _(
            "Withdraw an entrant who does not come (a no-show) or cancels: the entrant leaves "
            "the leaderboard. It can be undone."
        ),
        _(
            "Withdraw a pair that does not come (a no-show) or cancels: it leaves the "
            "leaderboard. It can be undone."
        ),
        _(
            "Withdraw a team that does not come (a no-show) or cancels: it leaves the "
            "leaderboard. It can be undone."
        ),
    ),
    "Withdraw team": (_("Withdraw entrant"), _("Withdraw pair"), _("Withdraw team")),
    "Print this team's table card": (
        _("Print this entrant's table card"),
        _("Print this pair's table card"),
        _("Print this team's table card"),
    ),
    "Teams imported: %(count)s.": (
        _("Entrants imported: %(count)s."),
        _("Pairs imported: %(count)s."),
        _("Teams imported: %(count)s."),
    ),
    # --- the setup page: a competition made by mistake, deleted ----------------------------
    "Delete “%(name)s” with its %(n)s team? This cannot be undone.": (
        ngettext_lazy(
            "Delete “%(name)s” with its %(n)s entrant? This cannot be undone.",
            "Delete “%(name)s” with its %(n)s entrants? This cannot be undone.",
            "n",
        ),
        ngettext_lazy(
            "Delete “%(name)s” with its %(n)s pair? This cannot be undone.",
            "Delete “%(name)s” with its %(n)s pairs? This cannot be undone.",
            "n",
        ),
        ngettext_lazy(
            "Delete “%(name)s” with its %(n)s team? This cannot be undone.",
            "Delete “%(name)s” with its %(n)s teams? This cannot be undone.",
            "n",
        ),
    ),
    "Made by mistake? Delete the competition with its %(n)s team. It cannot be undone.": (
        ngettext_lazy(
            "Made by mistake? Delete the competition with its %(n)s entrant. It cannot be undone.",
            "Made by mistake? Delete the competition with its %(n)s entrants. It cannot be undone.",
            "n",
        ),
        ngettext_lazy(
            "Made by mistake? Delete the competition with its %(n)s pair. It cannot be undone.",
            "Made by mistake? Delete the competition with its %(n)s pairs. It cannot be undone.",
            "n",
        ),
        ngettext_lazy(
            "Made by mistake? Delete the competition with its %(n)s team. It cannot be undone.",
            "Made by mistake? Delete the competition with its %(n)s teams. It cannot be undone.",
            "n",
        ),
    ),
    "“%(name)s” is deleted with its %(n)s team.": (
        ngettext_lazy(
            "“%(name)s” is deleted with its %(n)s entrant.",
            "“%(name)s” is deleted with its %(n)s entrants.",
            "n",
        ),
        ngettext_lazy(
            "“%(name)s” is deleted with its %(n)s pair.",
            "“%(name)s” is deleted with its %(n)s pairs.",
            "n",
        ),
        ngettext_lazy(
            "“%(name)s” is deleted with its %(n)s team.",
            "“%(name)s” is deleted with its %(n)s teams.",
            "n",
        ),
    ),
}


FORM: dict[str, tuple[Promise, Promise, Promise]] = {
    # --- the services' sentences on the desk's form ----------------------------------------
    "The team needs a name.": (
        _("The entrant needs a name."),
        _("The pair needs a name."),
        _("The team needs a name."),
    ),
    "The team needs a table number; the next free is %(table)s.": (
        _("The entrant needs a table number; the next free is %(table)s."),
        _("The pair needs a table number; the next free is %(table)s."),
        _("The team needs a table number; the next free is %(table)s."),
    ),
}
