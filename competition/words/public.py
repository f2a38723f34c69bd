"""The words alone ("Team", "Members") and the public pages' sentences that speak of a team:
the team's text -> (an individual's, a pair's, a team's); competition/words/ says how."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

__all__ = ["TEXTS"]

WJPC_NOTE = (
    "Ranked by the World rules: a team that finished by its time, +10 sec. for each missing "
    "piece, before every team that did not."
)
NOT_FINISHED = "Not finished: ranked by its placed pieces, after every team that finished."

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
    # issue 34: the World rules (wjpc), on the leaderboard and a team's page
    WJPC_NOTE: (
        _(
            "Ranked by the World rules: an entrant that finished by its time, +10 sec. for "
            "each missing piece, before every entrant that did not."
        ),
        _(
            "Ranked by the World rules: a pair that finished by its time, +10 sec. for each "
            "missing piece, before every pair that did not."
        ),
        _(
            "Ranked by the World rules: a team that finished by its time, +10 sec. for each "
            "missing piece, before every team that did not."
        ),
    ),
    NOT_FINISHED: (
        _("Not finished: ranked by its placed pieces, after every entrant that finished."),
        _("Not finished: ranked by its placed pieces, after every pair that finished."),
        _("Not finished: ranked by its placed pieces, after every team that finished."),
    ),
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
}
