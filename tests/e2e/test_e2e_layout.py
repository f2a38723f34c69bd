"""Every screen fits its screen: the layout check.

Every public page, the judge's page and the control room's pages are rendered in Chromium at
the sizes they are used at, for a championship of 60 teams with long names and long puzzle
titles, in the three states that matter (running with finishes; stopped with counts; final):

- the café TV (`/<slug>/screen/`): 1920x1080 and 1280x720;
- the judge's page and the control room: a tablet both ways, 768x1024 and 1024x768; the
  control room also on the head judge's laptop, 1280x800;
- the other public pages: a phone, 390x844; a championship's programme also a laptop, 1280x800;
- a championship's slug on a competition's addresses (CHAMPIONSHIP_PAGES): its big screen on
  the TV (a competition's board while one runs, else the programme), its control room and the
  desk across it on a laptop.

The pages are generated from the URL resolver: every route of the public, judge and control
namespaces is either rendered here (PAGES) or listed in NOT_RENDERED with the reason, so a
page added later fails this test until it is checked too.

The rule, measured in one evaluate() call after the page's state has rendered (its live
region, its cards), so no poll or swap can fall between finding an element and measuring it:

1. Sideways: the document may not be wider than the viewport
   (`documentElement.scrollWidth > clientWidth` fails), and no visible element's box may end
   right of the viewport (or start left of it). An element inside a deliberately scrollable
   container (an ancestor with `overflow-x: auto` or `scroll`, itself inside the viewport) is
   allowed past it: that is what the container is for; so is one clipped by an ancestor with
   `overflow-x: hidden` or `clip` that is inside the viewport (rule 2 judges that ancestor).
   Except the containers in MUST_FIT: the phone's leaderboard may scroll, but a board that
   needs it hides its pieces column, so it must fit.
   `<html>` and `<body>` never count as such an ancestor (the TV's body hides its overflow:
   what it hides is lost). Visually hidden elements (1x1 px, `visibility: hidden`) and
   elements without a box (`display: none`, `hidden`) are not measured.
2. Text in its box: a block-level element whose content is wider than its box
   (`scrollWidth > clientWidth`) fails, unless the box is a deliberate scroll container
   (`overflow-x: auto` or `scroll`), or it cuts the text off with an ellipsis
   (`overflow-x: hidden` or `clip` together with `text-overflow: ellipsis`): the reader sees
   that the text goes on. Text cut off without an ellipsis, or spilling over its box, fails.
   What counts is what the box's children draw (their boxes after transforms: the control
   room's preview of the TV is a 1920 px page drawn at 0.3). Form fields (input, textarea,
   select) scroll their own text and are not judged by rule 2.

One pixel of slack is allowed for sub-pixel rounding. Screenshots of every page, size and
state are kept in tests/e2e/screenshots/ (git-ignored): layout-<state>-<page>-<size>.png.
"""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django.utils.http import urlencode

from competition.models import Championship, Competition, Team
from judging.models import Count, Finish, Objection
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.measure import screenshot
from tests.factories import CompetitionFactory, PuzzleFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TV = {"tv-1920x1080": (1920, 1080), "tv-1280x720": (1280, 720)}
TABLET = {"tablet-768x1024": (768, 1024), "tablet-1024x768": (1024, 768)}
CONTROL = {**TABLET, "laptop-1280x800": (1280, 800)}
PHONE = {"phone-390x844": (390, 844)}

# URL name -> (who opens it, sizes, what must have rendered before measuring)
PAGES = {
    "public:home": (None, PHONE, ".card"),
    "public:rules": (None, PHONE, ".rule-list"),
    "public:leaderboard": (None, PHONE, "#live table.board tbody tr"),
    "public:programme": (None, {**PHONE, "laptop-1280x800": (1280, 800)}, ".programme-item"),
    "public:screen": (None, TV, ".screen-board tbody tr"),
    "public:team": (None, PHONE, ".team-head"),
    "public:feed": (None, PHONE, "#feed-live"),
    "public:overlay": (None, TV, "#overlay-live"),
    "judge:board": ("judge", TABLET, ".jcard"),
    # a championship's tablet: its competitions on now (none once final) and their cards
    "judge:championship": ("judge", TABLET, ".jcomps"),
    "control:room": ("admin", CONTROL, "#control-live"),
    "control:team": ("admin", CONTROL, "main h1"),
    "control:audit": ("admin", CONTROL, "main h1"),
    "control:logins": ("admin", CONTROL, "main h1"),
    "control:finalise": ("admin", CONTROL, "main h1"),
    "control:objection_resolve": ("admin", CONTROL, "main h1"),
    "control:screen": ("admin", CONTROL, "main h1"),
    "control:speaker": ("admin", CONTROL, "#feed-live"),
    "control:judges": ("admin", CONTROL, "main h1"),
    # A round's advance page, of the championship's final, previewing the best 8 of this
    # competition (not final yet while it runs: the refusal; final: who goes on).
    "control:advance": ("admin", CONTROL, "#advance-preview"),
}
# A label's own ranking (`?label=`), with its heading; the leaderboard also with its chips.
LABELLED = {
    "public:leaderboard": (None, PHONE, "#live .label-head"),
    "public:screen": (None, TV, ".screen-label"),
}
LABEL = "ungdom under 18 år"
# A championship's slug on a competition's addresses answers the championship's page (its big
# screen rotating between the running competitions, else the programme; its control room; the
# desk across it): the same URL names, checked at the sizes they are used at.
LAPTOP = {"laptop-1280x800": (1280, 800)}
DESK_LAPTOP = {**LAPTOP, "desk-laptop-1366x768": (1366, 768)}
CHAMPIONSHIP_PAGES = {
    "public:screen": (None, TV, "#stage-live .screen-board tbody tr, #stage-live .stage-item"),
    "control:room": ("admin", LAPTOP, "#championship-live .championship-competition"),
    "desk:teams": ("desk", DESK_LAPTOP, "#team-list .entrant-row"),
    "desk:team_new": ("desk", DESK_LAPTOP, ".walk-in-choice a"),
    "desk:missing": ("desk", DESK_LAPTOP, ".missing-table"),
    "desk:refunds": ("desk", DESK_LAPTOP, "main table"),
    "control:judges": ("admin", LAPTOP, "main h1"),
    "desk:import": ("desk", LAPTOP, "#import-competition"),
}
# Building a championship (the desk's namespace is not walked from the resolver; the head
# judge's laptop): a new championship, a new competition with a new championship's fields
# shown, and the competition's setup (where it belongs, read-only once started; deleting).
BUILD_PAGES = {
    "desk:championship_new": ("admin", DESK_LAPTOP, "main form .grid-2"),
    "desk:competition_new": ("admin", DESK_LAPTOP, "[data-new-championship]:not([hidden])"),
    "desk:setup": ("admin", DESK_LAPTOP, "#delete-competition"),
}
WRITE = "a POST-only write (answers a form on a page checked here)"
NOT_RENDERED = {
    "public:qr": "an SVG image (the QR code inside the screen and the team page)",
    "public:results_csv": "a CSV file, not a page",
    "judge:worker": "the service worker's script",
    "judge:board_fragment": "the judge page's cards, swapped into judge:board (checked there)",
    "judge:championship_board": "a championship tablet's cards, swapped into judge:championship",
    "judge:paper_sheets": "A4 paper sheets for the printer (print CSS), not a screen",
    "control:tablets": "the tablets panel, swapped into control:room (checked there)",
    "control:join": "the judges' A4 join sheet for the printer, not a screen",
    "control:audit_csv": "a CSV file, not a page",
    "control:judge_slips": "the judges' A4 login slips for the printer, not a screen",
    **{
        name: WRITE
        for name in (
            "control:clock_start",
            "control:clock_correct",
            "control:clock_stop",
            "control:clock_stop_undo",
            "control:start_withdraw",
            "control:unlock",
            "control:paper_finish",
            "control:paper_count",
            "control:warning",
            "control:disqualify",
            "control:reinstate",
            "control:withdraw",
            "control:withdraw_undo",
            "control:count_correct",
            "control:finish_correct",
            "control:finish_delete",
            "control:screen_mode",
            "control:screen_hold",
            "control:reveal_start",
            "control:reveal_next",
            "control:judge_password",
            "control:judge_revoke",
            "control:advance_undo",
        )
    },
}
# Scroll containers that must not need scrolling at the sizes checked: the phone's board hides
# columns so that the pieces stay in view, a board scrolled sideways hides them.
MUST_FIT = [".board-wrap"]
NAMESPACES = ("public", "judge", "control")

STATES = ("running", "stopped", "final")

# Long names as teams write them: several words, a long Danish compound, the 120 the form
# allows, and short ones between them.
NAMES = [
    "Brikkebanden fra Puslespilsforeningen i Nordvestjylland og Omegn",
    "Puslespilsentusiasternesfællesforening",
    "De Fire Musketerer og Deres Tante Fra Frederiksberg, Der Altid Finder Kantbrikkerne Først "
    "Og Aldrig Giver Op Før Sidste Brik",
    "Kantsøgerne",
    "Himmel og Hav – Det Blå Hold fra Aarhus Puslespilsklub",
    "Vi Der Altid Mangler Én Brik Til Sidst",
]
TITLES = [
    "Neuschwanstein om vinteren med julemarked, slæderejse og nordlys over Alperne",
    "Verdenskortet over alle verdens fyrtårne og deres historie fra 1700-tallet til i dag",
    "Tusindvis af farverige knapper, perler og spoler i bedstemors syskrin",
    "Impossible puzzle: helt hvid",
]


def labels(i: int) -> list[str]:
    """The organiser's labels, a long one among them: the leaderboard's chips."""
    return [
        label
        for label, every in ((LABEL, 3), ("senior", 4), ("gæst", 5), ("udenlandsk gæst", 7))
        if i % every == 0
    ]


def team_name(i: int) -> str:
    base = NAMES[i % len(NAMES)]
    return f"{base[: 120 - 3]} {i}"  # the 120 characters the form allows, unique


def championship(state: str, admin) -> Competition:
    """60 teams with long names; finishes (ties among them), an objection, a disqualified
    team; stopped: the unfinished teams counted; final: the results made final."""
    minutes = {"running": 100, "stopped": 200, "final": 200}[state]
    # Its championship (a slug of its own, so `/<slug>/` is the programme) also holds a final.
    held_in = Championship.objects.create(
        slug="dm-layout-2026",
        name="Danmarksmesterskaberne i Puslespil 2026 – Individuel, Par og Hold i Vejle",
        venue="Idrætscenteret, Vejle",
    )
    # The final of the teams (the heat's discipline), after the heat: its advance page takes
    # the heat as its earlier round.
    CompetitionFactory(
        slug="dm-layout-finale",
        championship=held_in,
        name="Finalen for de bedste fra de indledende runder – Hold",
        round="Finale",
        discipline="team",
        starts_at=timezone.now() + timedelta(days=2),
    )
    competition = CompetitionFactory(
        championship=held_in,
        round="Indledende runde A – Sportshallen, bord 1-60",
        slug="dm-layout",
        name="Danmarksmesterskabet i Puslespil for Hold 2026 – Sportshallen i Vejle",
        venue="Idrætscenteret, Vejle",
        started_at=timezone.now() - timedelta(minutes=minutes),
        duration_minutes=180,
    )
    puzzles = [
        PuzzleFactory(competition=competition, position=i, pieces=n, title=t)
        for i, (n, t) in enumerate(zip((500, 1000, 1000, 1500), TITLES, strict=True), start=1)
    ]
    teams = Team.objects.bulk_create(
        Team(competition=competition, name=team_name(i), table=i, labels=labels(i))
        for i in range(1, 61)
    )
    finishes = []
    for i, team in enumerate(teams, start=1):
        done = i % 5  # 0..4 puzzles: teams with the same number tie on pieces
        for k in range(done):
            finishes.append(
                Finish(
                    team=team,
                    puzzle=puzzles[k],
                    elapsed_seconds=1500 * (k + 1) + 37 * i,
                    missing=[1] if i % 9 == 0 else [],
                )
            )
    Finish.objects.bulk_create(finishes)
    Team.objects.filter(pk=teams[6].pk).update(
        disqualified=True, disqualified_reason="Brugte en billedskabelon"
    )
    objection = Objection.objects.create(
        team=teams[2],
        text="Vi mener, at puslespil 2 blev færdigt før, end der står.",
        filed_by=admin,
    )
    if state != "running":
        Count.objects.bulk_create(
            Count(
                team=team,
                puzzle=puzzles[i % 5],
                pieces=100 + 3 * i,
                registered_by=admin,
            )
            for i, team in enumerate(teams, start=1)
            if i % 5 != 4
        )
    if state == "final":
        objection.decision = "rejected"
        objection.note = "Tiden er som registreret."
        objection.resolved_by = admin
        objection.resolved_at = timezone.now()
        objection.save()
        Competition.objects.filter(pk=competition.pk).update(
            finalised_at=timezone.now(), finalised_by=admin
        )
    competition.refresh_from_db()
    competition.layout_team = teams[2]
    competition.layout_objection = objection
    return competition


def _routes(patterns, namespace=""):
    for p in patterns:
        if isinstance(p, URLResolver):
            yield from _routes(p.url_patterns, p.namespace or namespace)
        elif isinstance(p, URLPattern) and namespace in NAMESPACES and p.name:
            yield f"{namespace}:{p.name}"


def test_every_public_judge_and_control_route_is_checked_or_says_why_not():
    routes = set(_routes(get_resolver().url_patterns))
    assert routes - set(PAGES) - set(NOT_RENDERED) == set(), "a new page: add it to PAGES"
    assert set(PAGES) | set(NOT_RENDERED) <= routes, "a page listed here no longer exists"
    assert not set(PAGES) & set(NOT_RENDERED)


def _path(name: str, competition) -> str:
    if name in ("public:home", "public:rules"):
        return reverse(name)
    if name in ("public:programme", "judge:championship"):
        return reverse(name, args=[competition.championship.slug])
    if name == "control:advance":
        query = f"?from={competition.slug}&best=8&per=each"
        return reverse(name, args=["dm-layout-finale"]) + query
    kwargs = {"slug": competition.slug}
    if name == "public:team":
        kwargs["team_id"] = competition.layout_team.pk
    elif name == "control:team":
        kwargs["pk"] = competition.layout_team.pk
    elif name == "control:objection_resolve":
        kwargs["pk"] = competition.layout_objection.pk
    return reverse(name, kwargs=kwargs)


# One evaluate(): the whole page measured at one moment (the rule: the module's docstring).
MEASURE = (Path(__file__).resolve().parent / "layout.js").read_text()


@pytest.fixture
def layout_users(make_user):
    return {
        "admin": make_user("admin", "overdommer"),
        "judge": make_user("judge", "dommer"),
        "desk": make_user("desk", "skranken"),
    }


@pytest.mark.parametrize("state", STATES)
def test_every_page_fits_its_screen(browser, live_server, login, layout_users, state):
    competition = championship(state, layout_users["admin"])
    SCREENSHOTS.mkdir(exist_ok=True)
    failures = []
    pages = [(name, page, _path(name, competition), "") for name, page in PAGES.items()]
    pages += [
        (name, page, _path(name, competition) + f"?{urlencode({'label': LABEL})}", "label-")
        for name, page in LABELLED.items()
    ]
    pages += [
        (name, page, reverse(name, args=[competition.championship.slug]), "championship-")
        for name, page in CHAMPIONSHIP_PAGES.items()
    ]
    build = {
        "desk:championship_new": reverse("desk:championship_new"),
        "desk:competition_new": reverse("desk:competition_new") + "?championship=_new",
        "desk:setup": reverse("desk:setup", args=[competition.slug]),
    }
    pages += [(name, page, build[name], "build-") for name, page in BUILD_PAGES.items()]
    for name, (who, sizes, ready), path, prefix in pages:
        for size, (width, height) in sizes.items():
            context = browser.new_context(
                viewport={"width": width, "height": height},
                locale="da-DK",
                service_workers="block",
            )
            try:
                if who:
                    login(context, layout_users[who])
                page = context.new_page()
                response = page.goto(live_server.url + path)
                assert response.status == 200, f"{name} at {path}: {response.status}"
                page.evaluate("() => document.fonts.ready")
                # The screen: once the pager has laid out its first page (the championship's
                # shows a board while a competition runs, else the programme).
                stage = prefix == "championship-"
                pager = name == "public:screen" and (not stage or state == "running")
                arg = {"mustFit": MUST_FIT, "ready": ready, "pager": pager}
                problems = page.wait_for_function(MEASURE, arg=arg).json_value()
                slug = prefix + re.sub(r"\W+", "-", name)
                screenshot(page, SCREENSHOTS / f"layout-{state}-{slug}-{size}.png")
                failures += [f"{name} {size}: {p}" for p in problems]
            finally:
                context.close()
    assert not failures, f"{len(failures)} layout problems:\n" + "\n".join(failures[:80])


TV_PAGE = """() => {
  const info = document.querySelector("[data-pager-info]");
  if (!info || !info.textContent) return null;  // mid-swap: wait_for_function tries again
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const rows = [...document.querySelectorAll(".screen-board tbody tr")].filter((r) => !r.hidden);
  const foot = document.querySelector(".screen-foot").getBoundingClientRect();
  const last = document.querySelector(".screen-board th.col-last").getBoundingClientRect();
  const bars = [...document.querySelectorAll(".screen-board tr:not([hidden]) .bars")];
  return {
    rows: rows.length,
    info: document.querySelector("[data-pager-info]").textContent,
    cut: rows.filter((r) => r.getBoundingClientRect().bottom > foot.top + 1).length,
    lastColumn: [last.left, last.right, vw],
    barsOut: bars.filter((b) => b.getBoundingClientRect().right > vw).length,
    fontPx: parseFloat(getComputedStyle(rows[0].querySelector(".team-name")).fontSize),
    vh: vh,
  };
}"""


@pytest.mark.parametrize("size", TV)
def test_the_cafe_tv_shows_18_teams_a_page_with_every_column(
    browser, live_server, layout_users, size, shot
):
    """At 1920x1080 the bars ran off the right edge, "Sidst færdig" never
    showed and a page held 9 teams (60 teams: seven pages, a minute's wait for a family)."""
    width, height = TV[size]
    competition = championship("running", layout_users["admin"])
    context = browser.new_context(viewport={"width": width, "height": height}, locale="da-DK")
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/{competition.slug}/screen/")
        tv = page.wait_for_function(TV_PAGE).json_value()
        shot(page, size)
    finally:
        context.close()
    assert tv["rows"] >= 18, tv
    assert tv["info"] == "Side 1 af 4", tv  # 60 teams in four pages, not seven
    assert tv["cut"] == 0, tv  # no row half under the footer
    left, right, vw = tv["lastColumn"]
    assert 0 <= left < right <= vw, tv  # "Sidst færdig" on the screen
    assert tv["barsOut"] == 0, tv
    assert tv["fontPx"] >= 0.0165 * width, tv  # 32 px on a 1080p TV: read across the café
