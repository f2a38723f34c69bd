"""Fuzz test of the staff pages' query strings and forms: no 500 for any string.

The API has its schema fuzzed (test_api_fuzz.py); the HTML pages have no schema, so this
test finds their inputs itself: it opens every staff page of a competition whose time is up
(finishes, counts, a warning, an open objection) and of one still in setup, reads every
<form> on it (fields and their values as the browser would send them), and records every
key a view reads from `request.GET` or `request.POST` (`next`, `token`, `correct`, `t`,
...). Then each of those parameters in turn gets odd strings, the others keeping their
ordinary values: Unicode digits (`²`, `٣`), 30 digits, out-of-range numbers, NUL, a lone
surrogate (sent as its UTF-8-style bytes, as a broken client would), formulas, markup, very
long text, impossible dates. Any answer of 500 (or an exception) fails.

Every request runs in a savepoint that is rolled back, so a write that a nasty value lets
through (a withdrawal, a finalise) does not change the day for the next request.
"""

from __future__ import annotations

import html.parser
import re
import urllib.parse
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from unittest import mock

import pytest
from django.db import transaction
from django.http import QueryDict
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from competition.services import championship_create, competition_create
from judging.services import count_record, finish_register, objection_file, warning_log
from tests.championships.conftest import heat
from tests.factories import CompetitionFactory, MemberFactory, PuzzleFactory, TeamFactory

pytestmark = pytest.mark.django_db

# Every parameter gets each of these (the matrix below); the property test draws from these,
# ODD_MORE and random text.
NASTY = [
    "",
    "-1",
    "²",
    "٣",
    "9" * 30,
    "2147483648",
    "1-" + "9" * 30,
    "\x00",
    "\ud800",
    "0001-01-01T00:00",
]
ODD_MORE = [
    "x" * 5000,
    "25:61:61",
    "9999-12-31T23:59:59",
    " ",
    "0",
    "+1",
    "1.5",
    "1e9",
    "𝟗",
    "1²",
    "Ⅻ",
    "9223372036854775808",
    "32768",
    "a\x00b",
    "x\udfffy",
    "\ufeff1",
    '=HYPERLINK("http://evil.example/","klik")',
    "<script>alert(1)</script>",
    "' OR '1'='1",
    "%",
    "\r\n",
    "😀",
    "99999999:59:59",
    "2026-02-30T12:00",
]
# Random strings for the property test: any code point (surrogates too), digits of any
# script, and numbers far beyond any column.
ODD_TEXT = st.one_of(
    st.text(st.characters(codec=None), max_size=40),
    st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=30),
    st.integers(min_value=-(10**40), max_value=10**40).map(str),
    st.sampled_from(NASTY + ODD_MORE),
)


def _quote(value: str) -> str:
    # A lone surrogate cannot be UTF-8; a broken client sends its bytes anyway.
    return urllib.parse.quote(value.encode("utf-8", "surrogatepass"), safe="")


def _encode(pairs: list[tuple[str, str]]) -> str:
    return "&".join(f"{_quote(k)}={_quote(v)}" for k, v in pairs)


@dataclass
class Form:
    method: str
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)


class _FormParser(html.parser.HTMLParser):
    """The <form>s of a page with the values a browser would submit (files left out)."""

    def __init__(self, url: str):
        super().__init__(convert_charrefs=True)
        self.url = url
        self.forms: list[Form] = []
        self.by_id: dict[str, Form] = {}
        self.stack: list[Form] = []
        self.select: tuple[Form, str] | None = None
        self.select_value: str | None = None
        self.textarea: tuple[Form, str] | None = None
        self.text = ""
        self.buttons: set[int] = set()

    def _form_for(self, attrs: dict) -> Form | None:
        if attrs.get("form"):
            return self.by_id.get(attrs["form"])
        return self.stack[-1] if self.stack else None

    def handle_starttag(self, tag, attrs_list):
        attrs = {k: v or "" for k, v in attrs_list}
        if tag == "form":
            form = Form(
                (attrs.get("method") or "get").lower(),
                urllib.parse.urljoin(self.url, attrs.get("action") or self.url),
            )
            self.forms.append(form)
            self.stack.append(form)
            if attrs.get("id"):
                self.by_id[attrs["id"]] = form
            return
        form = self._form_for(attrs)
        name = attrs.get("name")
        if form is None or not name or "disabled" in attrs:
            return
        if tag == "input":
            kind = attrs.get("type", "text").lower()
            if kind in ("checkbox", "radio") and "checked" not in attrs:
                return
            if kind == "file":
                return
            if kind in ("submit", "image"):
                if id(form) in self.buttons:
                    return
                self.buttons.add(id(form))
            form.fields.append((name, attrs.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "button":
            if attrs.get("type", "submit") == "submit" and id(form) not in self.buttons:
                self.buttons.add(id(form))
                form.fields.append((name, attrs.get("value", "")))
        elif tag == "select":
            self.select, self.select_value = (form, name), None
        elif tag == "option" and self.select:
            if self.select_value is None or "selected" in attrs:
                self.select_value = attrs.get("value", "")
        elif tag == "textarea":
            self.textarea, self.text = (form, name), ""

    def handle_data(self, data):
        if self.textarea:
            self.text += data

    def handle_endtag(self, tag):
        if tag == "form" and self.stack:
            self.stack.pop()
        elif tag == "select" and self.select:
            form, name = self.select
            form.fields.append((name, self.select_value or ""))
            self.select = None
        elif tag == "textarea" and self.textarea:
            form, name = self.textarea
            form.fields.append((name, self.text.lstrip("\n")))
            self.textarea = None


def forms_on(url: str, page: str) -> list[Form]:
    parser = _FormParser(url)
    parser.feed(page)
    return parser.forms


@contextmanager
def keys_read():
    """Every key a view reads from a QueryDict (request.GET or request.POST)."""
    seen: set[str] = set()
    originals = {n: getattr(QueryDict, n) for n in ("get", "getlist", "__getitem__")}

    def spy(name):
        def read(self, key, *args, **kwargs):
            seen.add(key)
            return originals[name](self, key, *args, **kwargs)

        return read

    def contains(self, key):
        seen.add(key)
        return dict.__contains__(self, key)

    with (
        mock.patch.object(QueryDict, "get", spy("get")),
        mock.patch.object(QueryDict, "getlist", spy("getlist")),
        mock.patch.object(QueryDict, "__getitem__", spy("__getitem__")),
        mock.patch.object(QueryDict, "__contains__", contains, create=True),
    ):
        yield seen


@dataclass(frozen=True)
class Target:
    """One parameter of one request: the request with its ordinary values, and the key."""

    method: str
    path: str
    pairs: tuple[tuple[str, str], ...]
    key: str
    htmx: bool = False

    def __str__(self):
        return f"{self.method.upper()} {self.path} [{self.key}]"


def send(client, target: Target, value: str):
    pairs = [(k, value if k == target.key else v) for k, v in target.pairs]
    if target.key and target.key not in dict(target.pairs):
        pairs.append((target.key, value))
    headers = {"HTTP_HX_REQUEST": "true"} if target.htmx else {}
    with transaction.atomic():
        if target.method == "get":
            response = client.get(f"{target.path}?{_encode(pairs)}", **headers)
        else:
            response = client.post(
                target.path,
                _encode(pairs),
                content_type="application/x-www-form-urlencoded",
                **headers,
            )
        transaction.set_rollback(True)
    return response


# Every staff page of a competition whose time is up (`{s}`) and of one in setup (`{o}`).
PAGES = [
    "/desk/{s}/",
    "/desk/{s}/teams/new/",
    "/desk/{s}/teams/{t1}/",
    "/desk/{s}/refunds/",
    "/desk/{s}/missing/",
    "/desk/{s}/import/",
    "/desk/{s}/cards/",
    "/desk/{o}/",
    "/desk/{o}/setup/",
    "/desk/new/",
    "/control/{s}/",
    "/control/{s}/audit/",
    "/control/{s}/teams/{t1}/",
    "/control/{s}/teams/{t2}/",
    "/control/{s}/teams/{t3}/",
    "/control/{o}/",
    "/judge/{s}/",
    "/judge/{s}/board/",
    "/judge/{o}/",
    "/desk/{s}/objections/",
    "/control/{s}/objections/{objection}/resolve/",
    "/control/{s}/objections/{count_objection}/resolve/",
    "/control/{s}/finalise/",
    "/desk/{s}/official/",
    # A round of a championship: its advance page with a tie at the cut in the preview.
    "/control/{f}/advance/?from=runde-a&best=2&per=each",
]


@pytest.fixture
def day(client, admin_user, judge, desk, start_clock) -> dict:
    """`dm-2026`: time is up, with finishes, counts, a warning, open objections and members;
    `opsaetning`: in setup, with puzzles and a team. The admin (who may do all) is logged in."""
    competition = CompetitionFactory(slug="dm-2026")
    for position, pieces in enumerate((500, 1000, 1000), start=1):
        PuzzleFactory(competition=competition, position=position, pieces=pieces)
    teams = [
        TeamFactory(competition=competition, name=f"Hold {i}", table=i, contact_name="Kontakt")
        for i in (1, 2, 3, 4)
    ]
    for team in teams:
        MemberFactory(team=team)
    start_clock(competition, ago=timedelta(hours=4))
    finish = finish_register(team=teams[0], position=1, by=judge, elapsed_seconds=40 * 60)
    finish_register(team=teams[1], position=1, by=judge, elapsed_seconds=50 * 60, missing=[1])
    count_record(team=teams[0], by=judge, pieces=300)
    count = count_record(team=teams[2], by=judge, pieces=200)
    warning_log(team=teams[1], by=judge, reason="Larm")
    objection = objection_file(team=teams[0], by=desk, text="Tiden er forkert", finish=finish)
    count_objection = objection_file(team=teams[2], by=desk, text="Vi lagde flere", count=count)

    setup = CompetitionFactory(slug="opsaetning")
    for position in (1, 2):
        PuzzleFactory(competition=setup, position=position, pieces=500)
    TeamFactory(competition=setup, name="Forberedt", table=1)

    rounds = championship_create(by=None, slug="dm-runder", name="DM i runder")
    ties = [("Anna", 1000, None, False), ("Bo", None, 300, False), ("Cille", None, 300, False)]
    heat(rounds, "runde-a", "Indledende runde A", ties)
    final = competition_create(
        by=None,
        slug="runde-finale",
        name="Finale",
        starts_at=timezone.now() + timedelta(days=1),
        championship=rounds,
        discipline="individual",
        round="Finale",
    )
    client.force_login(admin_user)
    return {
        "s": competition.slug,
        "o": setup.slug,
        "f": final.slug,
        "t1": teams[0].pk,
        "t2": teams[1].pk,
        "t3": teams[2].pk,
        "objection": objection.pk,
        "count_objection": count_objection.pk,
    }


def discover(client, pages: list[str]) -> list[Target]:
    """Each page's query keys and each form's fields (plus the keys its view reads)."""
    targets: dict[tuple, Target] = {}

    def add(method, path, pairs, keys, htmx=False):
        for key in sorted(keys | {k for k, _v in pairs}):
            # A formset's second, third ... form has the first one's fields: the first will do;
            # so does one team's (one finish's) form for the others'.
            if key in ("csrfmiddlewaretoken", "language") or re.search(
                r"-([1-9]\d*|__prefix__)-", key
            ):
                continue
            shape = (method, re.sub(r"/\d+/", "/N/", path), key, htmx)
            targets.setdefault(shape, Target(method, path, pairs, key, htmx))

    for page in pages:
        for htmx in (True, False):  # the full page last: its forms are read below
            headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
            with keys_read() as seen, transaction.atomic():
                response = client.get(page, **headers)
                transaction.set_rollback(True)
            assert response.status_code < 400, page
            add("get", page, (), seen, htmx)
        if "html" not in response.get("Content-Type", ""):
            continue
        for form in forms_on("http://testserver" + page, response.content.decode()):
            path = urllib.parse.urlsplit(form.action).path
            if path.startswith(("/accounts/logout", "/i18n/")):
                continue
            pairs = tuple(form.fields)
            target = Target(form.method, path, pairs, "")
            with keys_read() as seen:
                assert send(client, target, "").status_code < 500, target
            add(form.method, path, pairs, seen)
    return sorted(targets.values(), key=str)


@pytest.fixture
def targets(client, day) -> list[Target]:
    return discover(client, [page.format(**day) for page in PAGES])


def test_the_fuzzing_reaches_every_kind_of_input(targets):
    """A page that lost its forms (or a view that stopped reading a key) would hide inputs."""
    keys = {(t.path.split("/")[1], t.key) for t in targets}
    for expected in [
        ("desk", "q"),
        ("desk", "f"),
        ("desk", "team"),
        ("desk", "next"),
        ("desk", "name"),
        ("desk", "table"),
        ("desk", "members-0-name"),
        ("desk", "members-TOTAL_FORMS"),
        ("desk", "token"),
        ("desk", "puzzles-0-pieces"),
        ("desk", "puzzles-0-id"),
        ("desk", "duration_minutes"),
        ("desk", "starts_at"),
        ("control", "team"),
        ("control", "user"),
        ("control", "action"),
        ("control", "started_at"),
        ("control", "correct"),
        ("control", "count-pieces"),
        ("control", "dq-reason"),
        ("judge", "t"),
        ("control", "confirm"),  # finalise
        ("control", "best"),  # a round's advance
        ("control", "choose"),
        ("control", "tie"),
    ]:
        assert expected in keys, f"{expected}: {sorted(k[1] for k in keys if k[0] == expected[0])}"
    # The objection pages: the desk's (/desk/<slug>/objections/) and the control room's
    # resolve page (/control/<slug>/objections/<id>/resolve/).
    objection_keys = {t.key for t in targets if "/objections/" in t.path}
    for expected_key in ("team", "about", "elapsed", "missing", "pieces"):
        assert expected_key in objection_keys, f"{expected_key}: {sorted(objection_keys)}"


@pytest.mark.parametrize("url", PAGES)
def test_no_page_answers_500_to_any_odd_string_in_any_parameter(client, day, url):
    failures = []
    for target in discover(client, [url.format(**day)]):
        for value in NASTY:
            try:
                status = send(client, target, value).status_code
            except Exception as exc:  # the test client re-raises a view's exception
                status = repr(exc)[:200]
            if not isinstance(status, int) or status >= 500:
                failures.append((str(target), value[:40], status))
    assert not failures, "\n".join(map(str, failures))


@settings(
    max_examples=80,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_no_page_answers_500_to_random_strings(client, targets, data):
    target = data.draw(st.sampled_from(targets), label="target")
    value = data.draw(ODD_TEXT, label="value")
    assert send(client, target, value).status_code < 500, (str(target), value)


def _xlsx(rows) -> bytes:
    import tablib

    data = tablib.Dataset(headers=rows[0])
    for row in rows[1:]:
        data.append(row)
    return data.export("xlsx")


ODD_FILES = [
    ("empty.csv", b""),
    ("nul.csv", b"\x00\x00\x00"),
    ("bytes.csv", bytes(range(256))),
    ("broken.xlsx", b"PK\x03\x04" + b"\x00" * 100),
    ("text.xlsx", b"hold;bord\nA;1\n"),
    ("cr.csv", b"hold;bord\rA;1\rB;2\r"),
    ("wide.csv", b";" * 100_000 + b"\nA\n"),
    ("nul-name.csv", b"hold;bord;medlem 1\nA\x00B;1;Anne\x00\n"),
    ("surrogate.csv", b"hold;bord\n\xed\xa0\x80;1\n"),
    ("tables.csv", "hold;bord\nA;²\nB;٣\nC;{}\nD;-1\nE;0\n".format("9" * 30).encode()),
    ("big-table.csv", b"hold;bord\nA;2147483648\n"),
    (
        "long.csv",
        ("hold;medlem 1;noter\n" + "A" * 500 + ";" + "B" * 500 + ";" + "C" * 100_000).encode(),
    ),
    ("formula.csv", b"hold;bord;kontaktperson\n=1+1;1;@SUM(A1)\n'=2;2;'+45\n"),
    ("marks.csv", "hold;bord;medlem 1;medlem 1 under 15;betalt\nA;1;Anne;²;\x00\n".encode()),
    ("odd.xlsx", _xlsx([["Hold", "Bord", "Medlem 1"], [None, 1.5, True], ["=1+1", -3, 10**20]])),
]


@pytest.mark.parametrize(("name", "content"), ODD_FILES, ids=[n for n, _c in ODD_FILES])
def test_the_import_answers_an_odd_file_without_500(client, desk, competition, name, content):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(desk)
    url = f"/desk/{competition.slug}/import/"
    response = client.post(url, {"file": SimpleUploadedFile(name, content)})
    assert response.status_code == 200
    preview = response.context.get("preview")
    if preview is not None and preview.ok:  # and its confirm, when there is one
        assert client.post(url, {"token": response.context["token"]}).status_code < 500
