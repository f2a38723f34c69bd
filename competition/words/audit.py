"""The audit log's sentences and labels that speak of a team (competition/audit_actions.py):
the team's text -> (an individual's, a pair's, a team's); competition/words/ says how. The
log of a competition of individuals says "tjekkede deltageren ind", of pairs "parret"."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

__all__ = ["TEXTS"]

TEXTS: dict[str, tuple[Promise, Promise, Promise]] = {
    # --- the labels of the log's filter and the CSV -------------------------------------------
    "Team registered": (_("Entrant registered"), _("Pair registered"), _("Team registered")),
    "Team changed": (_("Entrant changed"), _("Pair changed"), _("Team changed")),
    "Teams went on": (_("Entrants went on"), _("Pairs went on"), _("Teams went on")),
    # --- the sentences ------------------------------------------------------------------------
    "%(who)s gave the team a warning": (
        _("%(who)s gave the entrant a warning"),
        _("%(who)s gave the pair a warning"),
        _("%(who)s gave the team a warning"),
    ),
    "%(who)s disqualified the team": (
        _("%(who)s disqualified the entrant"),
        _("%(who)s disqualified the pair"),
        _("%(who)s disqualified the team"),
    ),
    "%(who)s lifted the disqualification: the team competes again": (
        _("%(who)s lifted the disqualification: the entrant competes again"),
        _("%(who)s lifted the disqualification: the pair competes again"),
        _("%(who)s lifted the disqualification: the team competes again"),
    ),
    "%(who)s withdrew the team": (
        _("%(who)s withdrew the entrant"),
        _("%(who)s withdrew the pair"),
        _("%(who)s withdrew the team"),
    ),
    "%(who)s undid the withdrawal: the team competes again": (
        _("%(who)s undid the withdrawal: the entrant competes again"),
        _("%(who)s undid the withdrawal: the pair competes again"),
        _("%(who)s undid the withdrawal: the team competes again"),
    ),
    "%(who)s checked the team in": (
        _("%(who)s checked the entrant in"),
        _("%(who)s checked the pair in"),
        _("%(who)s checked the team in"),
    ),
    "%(who)s registered the team at table %(table)s: %(members)s": (
        _("%(who)s registered the entrant at table %(table)s: %(members)s"),
        _("%(who)s registered the pair at table %(table)s: %(members)s"),
        _("%(who)s registered the team at table %(table)s: %(members)s"),
    ),
    "%(who)s changed the team": (
        _("%(who)s changed the entrant's details"),
        _("%(who)s changed the pair's details"),
        _("%(who)s changed the team"),
    ),
    "%(who)s gave the team the labels: %(labels)s": (
        _("%(who)s gave the entrant the labels: %(labels)s"),
        _("%(who)s gave the pair the labels: %(labels)s"),
        _("%(who)s gave the team the labels: %(labels)s"),
    ),
    "%(who)s let the team go on from %(source)s at table %(table)s: %(members)s": (
        _("%(who)s let the entrant go on from %(source)s at table %(table)s: %(members)s"),
        _("%(who)s let the pair go on from %(source)s at table %(table)s: %(members)s"),
        _("%(who)s let the team go on from %(source)s at table %(table)s: %(members)s"),
    ),
    "%(who)s let %(n)s team go on from %(sources)s": (
        ngettext_lazy(
            "%(who)s let %(n)s entrant go on from %(sources)s",
            "%(who)s let %(n)s entrants go on from %(sources)s",
            "n",
        ),
        ngettext_lazy(
            "%(who)s let %(n)s pair go on from %(sources)s",
            "%(who)s let %(n)s pairs go on from %(sources)s",
            "n",
        ),
        ngettext_lazy(
            "%(who)s let %(n)s team go on from %(sources)s",
            "%(who)s let %(n)s teams go on from %(sources)s",
            "n",
        ),
    ),
    "%(who)s took back the advance: %(n)s team removed (%(names)s)": (
        ngettext_lazy(
            "%(who)s took back the advance: %(n)s entrant removed (%(names)s)",
            "%(who)s took back the advance: %(n)s entrants removed (%(names)s)",
            "n",
        ),
        ngettext_lazy(
            "%(who)s took back the advance: %(n)s pair removed (%(names)s)",
            "%(who)s took back the advance: %(n)s pairs removed (%(names)s)",
            "n",
        ),
        ngettext_lazy(
            "%(who)s took back the advance: %(n)s team removed (%(names)s)",
            "%(who)s took back the advance: %(n)s teams removed (%(names)s)",
            "n",
        ),
    ),
    "%(who)s deleted the competition “%(name)s” of this championship, with %(n)s team": (
        ngettext_lazy(
            "%(who)s deleted the competition “%(name)s” of this championship, with %(n)s entrant",
            "%(who)s deleted the competition “%(name)s” of this championship, with %(n)s entrants",
            "n",
        ),
        ngettext_lazy(
            "%(who)s deleted the competition “%(name)s” of this championship, with %(n)s pair",
            "%(who)s deleted the competition “%(name)s” of this championship, with %(n)s pairs",
            "n",
        ),
        ngettext_lazy(
            "%(who)s deleted the competition “%(name)s” of this championship, with %(n)s team",
            "%(who)s deleted the competition “%(name)s” of this championship, with %(n)s teams",
            "n",
        ),
    ),
    "%(who)s erased the personal data of %(n)s member": (
        ngettext_lazy(
            "%(who)s erased the personal data of %(n)s entrant",
            "%(who)s erased the personal data of %(n)s entrants",
            "n",
        ),
        ngettext_lazy(
            "%(who)s erased the personal data of %(n)s puzzler",
            "%(who)s erased the personal data of %(n)s puzzlers",
            "n",
        ),
        ngettext_lazy(
            "%(who)s erased the personal data of %(n)s member",
            "%(who)s erased the personal data of %(n)s members",
            "n",
        ),
    ),
}
