"""The public mirror (docs/contracts.md "The public mirror"): the push endpoint, the mirror
serving the public pages from the snapshot and nothing else, the age sentence, and the
snapshot's schema. One database plays both sides here: the hall's rows are built, the
snapshot taken, then the mirror's push rebuilds the rows from the snapshot alone (the
members and contacts are gone after it); tests/project/test_mirror_processes.py runs two.
"""

import json
import re
import threading
import time
from datetime import date, timedelta

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone, translation

from competition.models import Championship, Competition, Member, Team
from judging.models import Count, Finish, Objection
from scoring import mirror
from scoring.models import MirrorState
from scoring.selectors import memo_clear
from tests.factories import MemberFactory, TeamFactory

pytestmark = pytest.mark.django_db

TOKEN = "mirror-test-token-0123456789"
ON_MIRROR = override_settings(MIRROR_TOKEN=TOKEN, MIRROR_URL="")
PUSH = "/api/v1/mirror/push"


def _push(client, snapshot, token=TOKEN, path=PUSH):
    return client.post(
        path,
        json.dumps(snapshot),
        content_type="application/json",
        headers={"Authorization": f"Mirror {token}"} if token else {},
    )


@pytest.fixture
def day(competition, teams):
    """The clock has run 50 minutes: Hold 1 finished two puzzles (one lone piece missing),
    Hold 2 one and is under review, Hold 3 is disqualified, a fourth team withdrew."""
    Competition.objects.filter(pk=competition.pk).update(
        started_at=timezone.now() - timedelta(minutes=50), venue="Hallen i Ry"
    )
    p1, p2 = competition.puzzles.get(position=1), competition.puzzles.get(position=2)
    Finish.objects.create(team=teams[0], puzzle=p1, elapsed_seconds=1500, missing=[1])
    Finish.objects.create(team=teams[0], puzzle=p2, elapsed_seconds=2900)
    Finish.objects.create(team=teams[1], puzzle=p1, elapsed_seconds=1700)
    Objection.objects.create(team=teams[1], text="Tiden er forkert")
    Team.objects.filter(pk=teams[2].pk).update(disqualified=True, disqualified_reason="Snyd")
    TeamFactory(competition=competition, name="Trukket", table=9, withdrawn=True)
    MemberFactory(team=teams[0], name="Pusler Personsen")
    competition.bump_standings()
    competition.refresh_from_db()
    return competition


def test_a_wrong_or_missing_token_is_403_and_writes_nothing(client, day):
    snapshot = mirror.build(day)
    with ON_MIRROR:
        for token in ("wrong-token", None):
            answer = _push(client, snapshot, token=token)
            assert answer.status_code == 403
            assert answer.json()["code"] == "wrong_token"
    assert not MirrorState.objects.exists()
    assert Member.objects.count() == 1  # the hall's rows untouched


def test_the_hall_takes_no_push(client, day):
    assert _push(client, mirror.build(day)).status_code == 404


def test_an_older_version_is_409_and_a_newer_one_is_taken(client, day):
    old = mirror.build(day)
    day.bump_standings()
    new = mirror.build(day)
    assert new["version"] == old["version"] + 1
    with ON_MIRROR:
        taken = _push(client, new)
        assert taken.status_code == 200, taken.content
        assert taken.json() == {"applied": True, "version": new["version"]}
        refused = _push(client, old)
        assert refused.status_code == 409
        assert refused.json()["code"] == "older_version"
        again = _push(client, new)  # the same snapshot again: only heard
        assert again.json() == {"applied": False, "version": new["version"]}
    assert Competition.objects.get(pk=day.pk).standings_version == new["version"]


def test_a_body_outside_the_schema_is_400(client, day):
    snapshot = mirror.build(day)
    snapshot["teams"][0]["members"] = ["Pusler Personsen"]
    with ON_MIRROR:
        answer = _push(client, snapshot)
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_snapshot"
    with pytest.raises(mirror.SnapshotError):
        mirror.validate({**mirror.build(day), "contact_email": "a@b.dk"})


def _public(client, slug, team_id):
    """What the public reads: the API and the live parts of the pages (the parts the hall
    and the mirror share; the page around them differs by the mirror's age line)."""
    cache.clear()
    memo_clear()
    out = {}
    for name, path in {
        "standings": f"/api/v1/competitions/{slug}/standings",
        "competition": f"/api/v1/competitions/{slug}/",
    }.items():
        data = client.get(path).json()
        if name == "competition":
            data["clock"].pop("elapsed_seconds")
            data["clock"].pop("remaining_seconds")
        out[name] = data
    for name, path in {
        "leaderboard": f"/{slug}/",
        "screen": f"/{slug}/screen/",
        "feed": f"/{slug}/feed/",
        "overlay": f"/{slug}/overlay/?top=3",
    }.items():
        answer = client.get(path, headers={"HX-Request": "true"})
        assert answer.status_code == 200, (path, answer.status_code)
        out[name] = answer.content.decode()
    page = client.get(f"/{slug}/teams/{team_id}/").content.decode()
    out["team"] = re.search(r"<main.*</main>", page, re.S).group(0)
    return out


def test_the_mirror_serves_the_public_pages_from_the_snapshot(client, day, teams):
    hall = _public(client, day.slug, teams[0].pk)
    snapshot = mirror.build(day)
    with ON_MIRROR:
        assert _push(client, snapshot).status_code == 200
        assert Member.objects.count() == 0  # the rows are the snapshot's, nothing more
        assert not Team.objects.filter(withdrawn=True).exists()
        assert Team.objects.get(pk=teams[0].pk).contact_phone == ""
        served = _public(client, day.slug, teams[0].pk)
    assert served == hall
    assert "Hold 1" in served["leaderboard"] and "Hold 1" in served["team"]
    assert [r["team"]["name"] for r in served["standings"]["standings"]] == [
        "Hold 1",
        "Hold 2",
        "Hold 3",
    ]
    assert served["standings"]["standings"][1]["under_review"] is True


def test_a_waiting_count_is_not_pushed_and_waits_on_the_mirror_too(client, day, teams):
    Competition.objects.filter(pk=day.pk).update(
        second_count=True, started_at=timezone.now() - timedelta(hours=4)
    )
    Count.objects.create(team=teams[1], puzzle=day.puzzles.get(position=2), pieces=417)
    day.bump_standings()
    day.refresh_from_db()
    hall = _public(client, day.slug, teams[1].pk)
    snapshot = mirror.build(day)
    assert "417" not in json.dumps(snapshot)
    row = next(t for t in snapshot["teams"] if t["id"] == teams[1].pk)
    assert (row["counted"], row["counting"]) == (None, True)
    with ON_MIRROR:
        assert _push(client, snapshot).status_code == 200
        served = _public(client, day.slug, teams[1].pk)
    assert served == hall


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("da", "Sidste nyt fra hallen for 14 sek. siden"), ("en", "Latest from the hall 14 sec. ago")],
)
def test_the_age_of_the_newest_snapshot(client, day, language, sentence):
    with ON_MIRROR:
        _push(client, mirror.build(day))
        MirrorState.objects.update(heard_at=timezone.now() - timedelta(seconds=14))
        with translation.override(language):
            answer = client.get(
                f"/api/v1/competitions/{day.slug}/mirror", headers={"Accept-Language": language}
            )
        assert answer.status_code == 200
        assert answer.json()["sentence"] == sentence
        assert answer.json()["age_seconds"] == 14
        page = client.get(f"/{day.slug}/").content.decode()
        assert f'data-mirror-age="/api/v1/competitions/{day.slug}/mirror"' in page
        assert "/accounts/login/" not in page  # a mirror has no login
    cache.clear()  # (one process plays both here; each caches its own page)
    memo_clear()
    page = client.get(f"/{day.slug}/").content.decode()
    assert "data-mirror-age" not in page  # the hall's own pages say nothing of a mirror
    assert client.get(f"/api/v1/competitions/{day.slug}/mirror").status_code == 404


def test_a_mirror_takes_no_other_write_and_serves_no_staff_page(client, day, admin_user):
    from tests.project.test_privacy import every_path

    client.force_login(admin_user)
    with ON_MIRROR:
        for path in every_path():
            answer = client.post(path, {})
            if path in (PUSH, "/api/v1/mirror/held"):
                assert answer.status_code == 403  # no token
            elif path == "/i18n/setlang/":
                assert answer.status_code == 302  # only the reader's language cookie
            else:
                assert answer.status_code == 403, path
                assert answer.json()["code"] == "mirror_read_only"
            for method in ("put", "patch", "delete"):
                assert getattr(client, method)(path).status_code == 403, (method, path)
        for path in (
            "/accounts/login/",
            f"/desk/{day.slug}/",
            f"/judge/{day.slug}/",
            f"/control/{day.slug}/",
            "/admin/",
            "/api/docs/",
            f"/api/v1/competitions/{day.slug}/finishes/",
            f"/api/v1/competitions/{day.slug}/teams/",
        ):
            assert client.get(path).status_code == 404, path
    assert Competition.objects.get(pk=day.pk).standings_version == day.standings_version


def test_a_workers_memo_never_shows_an_older_version_than_any_worker_served(day, tmp_path):
    """Two workers' 1 s memos could show a reader an older snapshot after a newer one (the
    two-process test saw 10, 30, 10): on a mirror a worker reuses its memo only while no
    worker of the host served a newer version (scoring/mirror_stamp.py)."""
    from scoring import mirror_stamp
    from scoring.selectors import competition_state

    memo_clear()
    first = competition_state(day.slug)
    day.bump_standings()
    assert competition_state(day.slug).standings_version == first.standings_version  # hall
    with ON_MIRROR, override_settings(VAR_DIR=tmp_path):
        memo_clear()
        state = competition_state(day.slug)  # this worker's memo
        assert mirror_stamp.seen(day.slug) == state.standings_version
        day.bump_standings()
        assert competition_state(day.slug) is state  # within its second: the memo
        mirror_stamp.raise_to(day.slug, state.standings_version + 1)  # another worker's read
        assert competition_state(day.slug).standings_version == state.standings_version + 1
        mirror_stamp.raise_to(day.slug, 1)  # never lowered
        assert mirror_stamp.seen(day.slug) == state.standings_version + 1


def test_a_mirrors_programme_keeps_its_memo_but_never_goes_back_a_version(
    day, tmp_path, django_assert_num_queries
):
    """A championship's programme on a mirror is read once a second per worker like the
    hall's (it was read on every request there: 1.8 ms against 0.35), and reused only while
    no worker of the host served a newer version of one of its competitions."""
    from scoring import mirror_stamp
    from scoring.selectors import programme

    dm = Championship.objects.create(slug="dm-2027", name="DM i puslespil 2027")
    Competition.objects.filter(pk=day.pk).update(championship=dm)
    with ON_MIRROR, override_settings(VAR_DIR=tmp_path):
        memo_clear()
        found = programme("dm-2027", fresh=False)
        (read,) = found[1]
        assert mirror_stamp.seen(day.slug) == read.standings_version  # raised as it is served
        with django_assert_num_queries(0):
            assert programme("dm-2027", fresh=False) is found  # within its second: the memo
        mirror_stamp.raise_to(day.slug, read.standings_version + 1)  # another worker's read
        day.bump_standings()
        again = programme("dm-2027", fresh=False)
        assert again is not found and again[1][0].standings_version > read.standings_version


@pytest.mark.parametrize("length", ["x", "²", "1e9", ""])
def test_a_content_length_that_is_no_number_is_a_400_not_a_500(client, day, length):
    with ON_MIRROR:
        answer = client.post(
            PUSH,
            json.dumps(mirror.build(day)),
            content_type="application/json",
            headers={"Authorization": f"Mirror {TOKEN}"},
            CONTENT_LENGTH=length,
        )
    assert answer.status_code == 400
    assert answer.json()["code"] == "bad_snapshot"
    assert not MirrorState.objects.exists()


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="row locks and concurrent transactions need PostgreSQL (SQLite serialises all)",
)
@pytest.mark.django_db(transaction=True)
def test_two_pushes_at_once_to_an_empty_mirror_never_go_back_a_version(day):
    """Two pushers (an old one still running beside its restart) send v+1 and v at once to a
    mirror that has never seen the competition: the older push waits and is refused, and
    the mirror holds the newer version (it used to find no row to lock, insert behind the
    newer one and overwrite it)."""
    newer = mirror.build(day)
    older = {**newer, "version": newer["version"] - 1}
    Finish.objects.all().delete()  # (a puzzle is protected by its finishes)
    Competition.objects.all().delete()  # an empty mirror
    answers: list = []
    pids: list = []

    def push_older():
        try:
            connection.ensure_connection()
            pids.append(connection.connection.info.backend_pid)
            answers.append(mirror.apply(older))
        finally:
            connection.close()

    with ON_MIRROR:
        with transaction.atomic():
            assert mirror.apply(newer)[0] == 200  # not committed yet
            thread = threading.Thread(target=push_older)
            thread.start()
            with connection.cursor() as cursor:
                deadline = time.monotonic() + 20
                while not answers:
                    if pids:
                        cursor.execute("SELECT cardinality(pg_blocking_pids(%s))", [pids[0]])
                        if cursor.fetchone()[0]:
                            break  # the older push waits on the newer one's transaction
                    assert time.monotonic() < deadline, "the older push never waited"
                    time.sleep(0.02)
        thread.join(timeout=30)
    assert answers and answers[0][0] == 409, answers
    assert answers[0][1]["code"] == "older_version"
    assert (
        Competition.objects.get(slug=newer["competition"]["slug"]).standings_version
        == (newer["version"])
    )
    assert MirrorState.objects.get().version == newer["version"]


def test_a_round_of_a_championship_is_mirrored_with_its_championship_discipline_and_round(
    client, day
):
    own = day.championship
    dm = Championship.objects.create(
        slug="dm-2027", name="DM i puslespil 2027", venue="Ry", starts_on=date(2027, 3, 6)
    )
    Competition.objects.filter(pk=day.pk).update(championship=dm, discipline="pair", round="Finale")
    own.delete()
    day.refresh_from_db()
    day.bump_standings()

    def public_api():
        cache.clear()
        memo_clear()
        competition = client.get(f"/api/v1/competitions/{day.slug}/").json()
        competition["clock"].pop("elapsed_seconds")
        competition["clock"].pop("remaining_seconds")
        return competition, client.get("/api/v1/championships/dm-2027/").json()

    hall = public_api()
    assert hall[0]["discipline"] == "pair" and hall[0]["round"] == "Finale"
    snapshot = mirror.build(day)
    assert snapshot["championship"]["slug"] == "dm-2027"
    Objection.objects.all().delete()
    Finish.objects.all().delete()
    Competition.objects.all().delete()
    Championship.objects.all().delete()  # a mirror that never saw the championship
    with ON_MIRROR:
        assert _push(client, snapshot).status_code == 200
        assert public_api() == hall


def test_a_labels_ranking_is_the_same_on_the_mirror(client, day, teams):
    """Rankings by label: the entrants' labels are pushed, so `?label=` answers on the mirror
    as in the hall (the standings, the leaderboard's and the big screen's live parts)."""
    Team.objects.filter(pk__in=[teams[1].pk, teams[2].pk]).update(labels=["ung"])
    day.bump_standings()

    def labelled():
        cache.clear()
        memo_clear()
        api = client.get(f"/api/v1/competitions/{day.slug}/standings", {"label": "ung"}).json()
        pages = [
            client.get(path, {"label": "ung"}, headers={"HX-Request": "true"}).content.decode()
            for path in (f"/{day.slug}/", f"/{day.slug}/screen/")
        ]
        return api, pages

    hall = labelled()
    assert [(r["team"]["name"], r["rank"]) for r in hall[0]["standings"]] == [
        ("Hold 2", 1),
        ("Hold 3", None),
    ]
    assert "Særskilt placering: ung" in hall[1][0]
    snapshot = mirror.build(day)
    assert [t["labels"] for t in snapshot["teams"]] == [[], ["ung"], ["ung"]]
    with ON_MIRROR:
        assert _push(client, snapshot).status_code == 200
        assert labelled() == hall
