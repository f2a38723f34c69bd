"""A count reads right at 1: "Alle 1 puslespil færdige" and "udelad de 1 med problemer" were
what a page said. A sentence of a count is a plural entry (ngettext, `{% blocktranslate
count %}`), or has its own sentence for 1 ("1 piece deducted" beside "%(n)s pieces
deducted"; the tablet's `key_one` beside `key`).

The walk reads both catalogues for an English text with a count placeholder before a plural
noun ("%(n)s puzzles", "%(total)s teams", "the %(m)s with problems") that is not a plural
entry, and fails on it unless the count can never be 1 (ALLOWED, each with its reason)."""

import re
from types import SimpleNamespace

import polib
import pytest
from django.urls import reverse
from django.utils import translation

from competition.audit_text import sentence
from competition.models import Competition
from competition.words import entrant_text
from judging import judge_texts
from judging.models import Finish
from tests.project.test_translations import LC_MESSAGES

NOUNS = (
    "pieces|puzzles|entrants|teams|pairs|members|puzzlers|rows|ages|minutes|seconds|hours|days|"
    "sessions|tokens|registrations|labels|places|problems|competitions|tablets|slips|sheets|"
    "judges|objections|counts|finishes|warnings|spots|characters"
)
COUNT = r"%\((\w+)\)[sd]"
# "%(n)s adjacent missing pieces": the words a count may have before its noun.
BETWEEN = r"(?:(?:adjacent|missing|lone|placed|unplaced|competing|API|more|whole) ){0,2}"
BEFORE_NOUN = re.compile(COUNT + " " + BETWEEN + "(" + NOUNS + r")\b")
NOUN_ELIDED = re.compile(r"\b(?:[Tt]he|[Aa]ll) " + COUNT + " (?!" + BETWEEN + NOUNS + r"\b)")

# A count that is never 1, so its plural always reads right: each pattern covers the count.
NEVER_ONE = {
    "a puzzle's size (hundreds of pieces)": re.compile(
        r"%\(pieces\)[sd] pieces|^%\(n\)s pieces$|%\(pace\)s pieces per minute"
    ),
    "a count is 0 or at least 3 (R9)": re.compile(
        r"[Cc]ount(?:s|ed)?\b[^.]*?%\(\w+\)[sd] (?:placed )?pieces|%\(\w+\)[sd] pieces count|"
        r"%\(\w+\)[sd] placed pieces"
    ),
    "a spot of adjacent missing pieces is 2 or more (R8)": re.compile(
        r"%\(n\)[sd] adjacent missing pieces|Production fault[^:]*: %\(n\)s pieces"
    ),
    "a limit of the app (constants far above 1)": re.compile(
        r"more than %\(rows\)s rows|At most %\(n\)s labels|at most %\(length\)s characters"
    ),
    "a row marked for one of several members (one member needs no choice)": re.compile(
        r"the row has %\(members\)s members"
    ),
}


def _texts():
    for name in ("django.po", "djangojs.po"):
        for entry in polib.pofile(str(LC_MESSAGES / name)):
            if not entry.obsolete and entry.msgid:
                yield name, entry


def _singular_sibling(msgid: str, match: re.Match, singulars: set[str]) -> bool:
    """ "%(n)s pieces deducted" beside "1 piece deducted": the page picks the one for 1."""
    one = msgid[: match.start()] + "1" + msgid[match.end(1) + 2 : match.start(2)]
    return one + match.group(2)[:-1] + msgid[match.end(2) :] in singulars


def _tablet_pairs() -> set[str]:
    """The tablet's sentences with a sentence of their own for 1 (`key` and `key_one`)."""
    keys = judge_texts.msgids()
    stems = {k.removesuffix("_one") for k in keys if k.endswith("_one")}
    return {
        msgid
        for key, msgid in keys.items()
        if key in stems or any(key == f"{s}_{n}" for s in stems for n in ("many", "two"))
    }


def _never_one(msgid: str, hit: re.Match) -> bool:
    return any(
        span.start() <= hit.start(1) - 2 < span.end()
        for rule in NEVER_ONE.values()
        for span in rule.finditer(msgid)
    )


def offenders() -> list[str]:
    entries = list(_texts())
    singulars = {e.msgid for _name, e in entries if not e.msgid_plural}
    paired = _tablet_pairs()
    found = []
    for name, entry in entries:
        if entry.msgid_plural or (name == "djangojs.po" and entry.msgid in paired):
            continue
        msgid = entry.msgid
        hits = [
            m for m in BEFORE_NOUN.finditer(msgid) if not _singular_sibling(msgid, m, singulars)
        ]
        hits += list(NOUN_ELIDED.finditer(msgid))
        if any(not _never_one(msgid, hit) for hit in hits):
            found.append(msgid)
    return sorted(set(found))


def test_every_sentence_of_a_count_is_a_plural_entry():
    assert offenders() == []


def test_the_walk_finds_what_it_is_for():
    assert BEFORE_NOUN.search("All %(total)s puzzles finished ✓")
    assert NOUN_ELIDED.search("leave out the %(m)s with problems")
    assert not NOUN_ELIDED.search("the %(n)s teams")  # the noun is there: BEFORE_NOUN's
    assert not BEFORE_NOUN.search("%(name)s takes no entrants from earlier rounds")
    assert len(NEVER_ONE) <= 5  # a small list, each entry a reason


@pytest.mark.parametrize(
    ("discipline", "danish", "english"),
    [
        ("team", "Importér kun holdene uden problemer", "Import only the teams without problems"),
        ("pair", "Importér kun parrene uden problemer", "Import only the pairs without problems"),
        (
            "individual",
            "Importér kun deltagerne uden problemer",
            "Import only the entrants without problems",
        ),
    ],
)
def test_the_import_button_reads_right_at_1_and_2(discipline, danish, english):
    """Was "Importér de 1 hold uden problemer, udelad de 1 med problemer"."""
    key = "Import only the teams without problems (%(n)s of %(total)s)"
    for lang, said in (("da", danish), ("en", english)):
        with translation.override(lang):
            one = entrant_text(discipline, key, n=1, total=2)
            two = entrant_text(discipline, key, n=2, total=3)
        of = "af" if lang == "da" else "of"
        assert (one, two) == (f"{said} (1 {of} 2)", f"{said} (2 {of} 3)")


@pytest.mark.django_db
def test_the_judge_card_says_the_puzzle_is_finished_when_there_is_one(
    client, competition, teams, judge
):
    """Was "Alle 1 puslespil færdige ✓"; the tablet's own copy of the card says it too."""
    from tests.judging.test_judge_page_views import HX, finish, start

    board = reverse("judge:board_fragment", args=[competition.slug])
    start(competition, minutes_ago=60)
    for position in (1, 2, 3):
        finish(teams[0], position, 600 * position)
    client.force_login(judge)
    assert "Alle 3 puslespil færdige ✓" in client.get(board, headers=HX).content.decode()
    Finish.objects.filter(puzzle__position__gt=1).delete()
    competition.puzzles.filter(position__gt=1).delete()
    html = client.get(board, headers=HX).content.decode()
    assert "Puslespillet er færdigt ✓" in html and "Alle 1" not in html
    da = judge_texts.texts("da")
    assert da["all_finished_one"] == "Puslespillet er færdigt ✓"
    assert da["all_finished"] == "Alle %(total)s puslespil færdige ✓"


@pytest.mark.django_db
def test_the_control_room_says_1_minute(client, admin_user, competition):
    client.force_login(admin_user)
    for minutes, said in ((1, "· 1 minut\n"), (2, "· 2 minutter\n")):
        Competition.objects.filter(pk=competition.pk).update(duration_minutes=minutes)
        room = client.get(reverse("control:room", args=[competition.slug])).content.decode()
        assert said in room


@pytest.mark.parametrize(
    ("action", "discipline", "after", "one", "two"),
    [
        (
            "personal_data_erase",
            "team",
            lambda n: {"members": n},
            "for 1 holdmedlem",
            "for 2 holdmedlemmer",
        ),
        (
            "personal_data_erase",
            "pair",
            lambda n: {"members": n},
            "for 1 pusler",
            "for 2 puslere",
        ),
        (
            "advance",
            "individual",
            lambda n: {"entrants": ["x"] * n},
            "lod 1 deltager gå",
            "lod 2 deltagere gå",
        ),
        ("advance", "team", lambda n: {"entrants": ["x"] * n}, "lod 1 hold gå", "lod 2 hold gå"),
    ],
)
def test_the_audit_log_counts_in_danish_at_1_and_2(action, discipline, after, one, two):
    def said(n):
        entry = SimpleNamespace(user=None, before={}, after=after(n), action=action)
        with translation.override("da"):
            return sentence(entry, discipline)

    assert one in said(1) and two in said(2)
