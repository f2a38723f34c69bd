"""The control room's sentences that speak of a team (`TEXTS`), and the tablet's refusals
(`TABLET`, judging/services/finishes.py): the team's text -> (an individual's, a pair's, a
team's); competition/words/ says how."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

__all__ = ["TABLET", "TEXTS"]

TEXTS: dict[str, tuple[Promise, Promise, Promise]] = {
    # --- the control room ---------------------------------------------------------------------
    "Stop the clock now? Time is up for every team.": (
        _("Stop the clock now? Time is up for every entrant."),
        _("Stop the clock now? Time is up for every pair."),
        _("Stop the clock now? Time is up for every team."),
    ),
    "%(n)s of %(total)s team matches.": (  # counted by `total` ("of 1 team")
        ngettext_lazy(
            "%(n)s of %(total)s entrant matches.", "%(n)s of %(total)s entrants match.", "total"
        ),
        ngettext_lazy(
            "%(n)s of %(total)s pair matches.", "%(n)s of %(total)s pairs match.", "total"
        ),
        ngettext_lazy(
            "%(n)s of %(total)s team matches.", "%(n)s of %(total)s teams match.", "total"
        ),
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
    "After repeated warnings (rule 14) or help from others than the team (rule 18).": (
        _("After repeated warnings (rule 14) or help from others (rule 18)."),
        _("After repeated warnings (rule 14) or help from others than the pair (rule 18)."),
        _("After repeated warnings (rule 14) or help from others than the team (rule 18)."),
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
}


TABLET: dict[str, tuple[Promise, Promise, Promise]] = {
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
