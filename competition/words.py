"""The words a page uses for an entrant, by its competition's discipline (docs/contracts.md
"A championship of several competitions", GLOSSARY.md): an individual entrant is a
"deltager" (entrant), a pair a "par" (pair), a team a "hold" (team).

One place for them: `TEXTS` holds each sentence that speaks of a team, keyed by the team's
own text (the msgid a team competition's page has always used, so its pages stay as they
were), with the sentence an individual's and a pair's pages say instead. Danish grammar
differs by the word's gender ("Intet hold", "Ingen deltager", "Intet par"), so every
sentence is whole, never a word put into a sentence; where the English is the same for
every discipline and only the Danish differs, the message has the discipline as its context
(pgettext "individual", "pair").

Templates: `{% load entrant %}{% entrant "No teams yet." %}` (competition/templatetags);
code: `entrant_text(competition, "Team")`. A sentence of a count ("%(n)s teams") is an
`ngettext_lazy` entry taking the count as `n`.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from competition.models import Discipline

__all__ = ["TEXTS", "entrant_text", "member_limit", "member_limit_text"]

_INDEX = {Discipline.INDIVIDUAL: 0, Discipline.PAIR: 1, Discipline.TEAM: 2}

# How many puzzlers an entrant of each discipline registers: an individual is one puzzler,
# a pair two; a team may register more members than sit at its table (R17): no limit.
MEMBERS = {Discipline.INDIVIDUAL: 1, Discipline.PAIR: 2}


def member_limit(discipline: str) -> int | None:
    """The most puzzlers an entrant of `discipline` registers (None: a team, no limit)."""
    return MEMBERS.get(discipline)


def member_limit_text(discipline: str) -> str:
    """What an entrant of `discipline` with more puzzlers than `member_limit` is told."""
    if discipline == Discipline.INDIVIDUAL:
        return str(_("An individual entrant is one puzzler: write one name."))
    return str(_("A pair is two puzzlers: write at most two names."))


# The team's text -> (an individual's, a pair's, a team's). The team's is the key again,
# written out so that `make messages` finds it (tests/competition/test_words.py checks).
TEXTS: dict[str, tuple[Promise, Promise, Promise]] = {
    # --- the words alone ---------------------------------------------------------------------
    "Team": (_("Entrant"), _("Pair"), _("Team")),
    "Teams": (_("Entrants"), _("Pairs"), _("Teams")),
    "teams": (_("entrants"), _("pairs"), _("teams")),
    "Team name": (_("Name"), _("Pair name"), _("Team name")),
    "Member": (_("Puzzler"), _("Puzzler"), _("Member")),
    "Members": (_("Puzzler"), _("Puzzlers"), _("Members")),
    # --- the public pages --------------------------------------------------------------------
    "Find a team": (_("Find an entrant"), _("Find a pair"), _("Find a team")),
    "No team matches.": (_("No entrant matches."), _("No pair matches."), _("No team matches.")),
    "No teams yet.": (_("No entrants yet."), _("No pairs yet."), _("No teams yet.")),
    "No teams.": (_("No entrants."), _("No pairs."), _("No teams.")),
    "No team has this label.": (
        _("No entrant has this label."),
        _("No pair has this label."),
        _("No team has this label."),
    ),
    "Follow this team: its row stays at the top": (
        _("Follow this entrant: the row stays at the top"),
        _("Follow this pair: its row stays at the top"),
        _("Follow this team: its row stays at the top"),
    ),
    "Pieces over time for the leading teams": (
        _("Pieces over time for the leading entrants"),
        _("Pieces over time for the leading pairs"),
        _("Pieces over time for the leading teams"),
    ),
    "Pieces over time, with the leading teams": (
        _("Pieces over time, with the leading entrants"),
        _("Pieces over time, with the leading pairs"),
        _("Pieces over time, with the leading teams"),
    ),
    "Follow this team": (_("Follow this entrant"), _("Follow this pair"), _("Follow this team")),
    "On the leaderboard, tap “Follow” on the team's row: it stays at the top on this phone.": (
        _(
            "On the leaderboard, tap “Follow” on the entrant's row: it stays at the top on "
            "this phone."
        ),
        _("On the leaderboard, tap “Follow” on the pair's row: it stays at the top on this phone."),
        _("On the leaderboard, tap “Follow” on the team's row: it stays at the top on this phone."),
    ),
    "expected to finish about %(time)s (projected from its pace)": (
        pgettext_lazy("individual", "expected to finish about %(time)s (projected from its pace)"),
        pgettext_lazy("pair", "expected to finish about %(time)s (projected from its pace)"),
        _("expected to finish about %(time)s (projected from its pace)"),
    ),
    "Follow the team live": (
        _("Follow the entrant live"),
        _("Follow the pair live"),
        _("Follow the team live"),
    ),
    "No teams to print.": (
        _("No entrants to print."),
        _("No pairs to print."),
        _("No teams to print."),
    ),
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
    "Tell the team before you register it (P1).": (
        _("Tell the entrant before you register them (P1)."),
        _("Tell the pair before you register it (P1)."),
        _("Tell the team before you register it (P1)."),
    ),
    "At most %(n)s puzzlers at the table at a time, but a team may register more members and "
    "swap (R17). A member under 15 needs an accompanying adult (R3).": (
        _(
            "An individual entrant puzzles alone: the name above is the puzzler's. A puzzler "
            "under 15 needs an accompanying adult (R3)."
        ),
        _("A pair is two puzzlers. A puzzler under 15 needs an accompanying adult (R3)."),
        _(
            "At most %(n)s puzzlers at the table at a time, but a team may register more "
            "members and swap (R17). A member under 15 needs an accompanying adult (R3)."
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
    "Import the %(n)s teams without problems, leave out the %(m)s with problems": (
        _("Import the %(n)s entrants without problems, leave out the %(m)s with problems"),
        _("Import the %(n)s pairs without problems, leave out the %(m)s with problems"),
        _("Import the %(n)s teams without problems, leave out the %(m)s with problems"),
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
    "the adult who accompanies the team's under-15s (R3)": (
        _("the adult who accompanies the entrant (R3)"),
        _("the adult who accompanies the pair's under-15s (R3)"),
        _("the adult who accompanies the team's under-15s (R3)"),
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
    # --- the control room ---------------------------------------------------------------------
    "Stop the clock now? Time is up for every team.": (
        _("Stop the clock now? Time is up for every entrant."),
        _("Stop the clock now? Time is up for every pair."),
        _("Stop the clock now? Time is up for every team."),
    ),
    "%(n)s of %(total)s teams match.": (
        _("%(n)s of %(total)s entrants match."),
        _("%(n)s of %(total)s pairs match."),
        _("%(n)s of %(total)s teams match."),
    ),
    "No team matches the search.": (
        _("No entrant matches the search."),
        _("No pair matches the search."),
        _("No team matches the search."),
    ),
    "%(n)s team is not checked in. Withdraw it if it has not come: otherwise it waits for a "
    "count on every tablet, and the results cannot be made final without it.": (
        ngettext_lazy(
            "%(n)s entrant is not checked in. Withdraw them if they have not come: otherwise "
            "they wait for a count on every tablet, and the results cannot be made final "
            "without them.",
            "%(n)s entrants are not checked in. Withdraw those that have not come: otherwise "
            "they wait for a count on every tablet, and the results cannot be made final "
            "without them.",
            "n",
        ),
        ngettext_lazy(
            "%(n)s pair is not checked in. Withdraw it if it has not come: otherwise it waits "
            "for a count on every tablet, and the results cannot be made final without it.",
            "%(n)s pairs are not checked in. Withdraw those that have not come: otherwise "
            "they wait for a count on every tablet, and the results cannot be made final "
            "without them.",
            "n",
        ),
        ngettext_lazy(
            "%(n)s team is not checked in. Withdraw it if it has not come: otherwise it waits "
            "for a count on every tablet, and the results cannot be made final without it.",
            "%(n)s teams are not checked in. Withdraw those that have not come: otherwise "
            "they wait for a count on every tablet, and the results cannot be made final "
            "without them.",
            "n",
        ),
    ),
    "You settle it as head judge: have a judge count the table again with the team, then "
    "correct the count here.": (
        _(
            "You settle it as head judge: have a judge count the table again with the entrant, "
            "then correct the count here."
        ),
        _(
            "You settle it as head judge: have a judge count the table again with the pair, "
            "then correct the count here."
        ),
        _(
            "You settle it as head judge: have a judge count the table again with the team, "
            "then correct the count here."
        ),
    ),
    "First count by %(who)s. You settle it as head judge: have a judge count the table again "
    "with the team, then correct the count on the team's page.": (
        _(
            "First count by %(who)s. You settle it as head judge: have a judge count the table "
            "again with the entrant, then correct the count on the entrant's page."
        ),
        _(
            "First count by %(who)s. You settle it as head judge: have a judge count the table "
            "again with the pair, then correct the count on the pair's page."
        ),
        _(
            "First count by %(who)s. You settle it as head judge: have a judge count the table "
            "again with the team, then correct the count on the team's page."
        ),
    ),
    "Reason for reinstating": (
        pgettext_lazy("individual", "Reason for reinstating"),
        pgettext_lazy("pair", "Reason for reinstating"),
        _("Reason for reinstating"),
    ),
    "Reinstate the team": (
        _("Reinstate the entrant"),
        _("Reinstate the pair"),
        _("Reinstate the team"),
    ),
    "After repeated warnings (R14) or help from others than the team (R18).": (
        _("After repeated warnings (R14) or help from others (R18)."),
        _("After repeated warnings (R14) or help from others than the pair (R18)."),
        _("After repeated warnings (R14) or help from others than the team (R18)."),
    ),
    "A team that leaves the competition (illness, gives up): it leaves the leaderboard. It can "
    "be undone.": (
        _(
            "An entrant who leaves the competition (illness, gives up): the entrant leaves the "
            "leaderboard. It can be undone."
        ),
        _(
            "A pair that leaves the competition (illness, gives up): it leaves the "
            "leaderboard. It can be undone."
        ),
        _(
            "A team that leaves the competition (illness, gives up): it leaves the "
            "leaderboard. It can be undone."
        ),
    ),
    "Reason for withdrawing": (
        pgettext_lazy("individual", "Reason for withdrawing"),
        pgettext_lazy("pair", "Reason for withdrawing"),
        _("Reason for withdrawing"),
    ),
    "Audit log for this team": (
        _("Audit log for this entrant"),
        _("Audit log for this pair"),
        _("Audit log for this team"),
    ),
    "The team's record": (
        _("The entrant's record"),
        _("The pair's record"),
        _("The team's record"),
    ),
    "Changes to this team": (
        _("Changes to this entrant"),
        _("Changes to this pair"),
        _("Changes to this team"),
    ),
    "Choose the team": (_("Choose the entrant"), _("Choose the pair"), _("Choose the team")),
    "The finish or the count the team objects to, if any.": (
        _("The finish or the count the entrant objects to, if any."),
        _("The finish or the count the pair objects to, if any."),
        _("The finish or the count the team objects to, if any."),
    ),
    "In the team's words: what they think is wrong and why.": (
        _("In the entrant's words: what they think is wrong and why."),
        _("In the pair's words: what they think is wrong and why."),
        _("In the team's words: what they think is wrong and why."),
    ),
    # --- the tablet's refusals (judging/services/finishes.py) ----------------------------------
    "%(time)s is earlier than the team's previous finish at %(previous)s.": (
        _("%(time)s is earlier than the entrant's previous finish at %(previous)s."),
        _("%(time)s is earlier than the pair's previous finish at %(previous)s."),
        _("%(time)s is earlier than the team's previous finish at %(previous)s."),
    ),
    "%(time)s does not lie between the team's finishes before and after it.": (
        _("%(time)s does not lie between the entrant's finishes before and after it."),
        _("%(time)s does not lie between the pair's finishes before and after it."),
        _("%(time)s does not lie between the team's finishes before and after it."),
    ),
    "Only the team's latest finish can be deleted; puzzle %(position)s is not.": (
        _("Only the entrant's latest finish can be deleted; puzzle %(position)s is not."),
        _("Only the pair's latest finish can be deleted; puzzle %(position)s is not."),
        _("Only the team's latest finish can be deleted; puzzle %(position)s is not."),
    ),
}


def _entry(of, msgid: str) -> Promise:
    discipline = getattr(of, "discipline", of)
    return TEXTS[msgid][_INDEX[discipline]]


def entrant_text(of, msgid: str, /, **values) -> str:
    """`msgid` (a team competition's text, a key of `TEXTS`) as a competition of `of`'s
    discipline (a Competition, or a discipline) says it, in the active language, filled in
    with `values` (a count's sentence takes the count as `n`)."""
    entry = _entry(of, msgid)
    return str(entry % values) if values else str(entry)
