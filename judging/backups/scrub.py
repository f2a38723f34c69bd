"""Erasing personal data reaches the files (docs/contracts.md "Personal data and the hall's
files"): judging's free texts in the erase's transaction; once it has committed, every SQLite
snapshot scrubbed, the logs scrubbed, the live database compacted, and the erase noted beside
the snapshots (`erased.json`) so that a restore refuses what still holds it."""

import json
import logging
import os
import sqlite3
import time
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction

from competition.private import private_dir, private_file, private_open
from competition.services.privacy import erase_values, scrub_audit, scrub_text
from judging.backups.snapshots import _locked, backup_dir

logger = logging.getLogger("judging.backups")  # one name for the backups' log


LEDGER = "erased.json"


def erased_ledger() -> dict[str, float]:
    """{slug: when its personal data was erased} (BACKUP_DIR/erased.json): kept beside
    the snapshots, so a restore of an old database still knows."""
    try:
        return {k: float(v) for k, v in json.loads((backup_dir() / LEDGER).read_text()).items()}
    except (OSError, ValueError, AttributeError):
        return {}


def _ledger_add(slug: str) -> None:
    ledger = erased_ledger()
    ledger[slug] = time.time()
    folder = private_dir(backup_dir())
    partial = folder / (LEDGER + ".partial")
    with private_open(partial, "w") as handle:
        handle.truncate()
        json.dump(ledger, handle)
    os.replace(partial, folder / LEDGER)


def _still_personal_sqlite(db: sqlite3.Connection) -> list[str]:
    """The erased competitions (ledger) a snapshot still holds personal data of."""
    found = []
    for slug in erased_ledger():
        try:
            row = db.execute(
                "SELECT EXISTS(SELECT 1 FROM competition_member m JOIN competition_team t "
                "ON m.team_id = t.id JOIN competition_competition c ON t.competition_id = c.id "
                "WHERE c.slug = ?) OR EXISTS(SELECT 1 FROM competition_team t "
                "JOIN competition_competition c ON t.competition_id = c.id WHERE c.slug = ? "
                "AND (t.contact_name != '' OR t.contact_email != '' OR t.contact_phone != '' "
                "OR t.notes != ''))",
                (slug, slug),
            ).fetchone()
        except sqlite3.DatabaseError:
            continue  # another schema: the table check refuses it
        if row and row[0]:
            found.append(slug)
    return found


def _scrub_sqlite_db(db: sqlite3.Connection, slug: str, values: frozenset[str]) -> bool:
    """erase_personal_data on a snapshot (plain SQL: its schema may be older)."""
    row = db.execute("SELECT id FROM competition_competition WHERE slug = ?", (slug,)).fetchone()
    if row is None:
        return False
    cid = (row[0],)
    teams = "SELECT id FROM competition_team WHERE competition_id = ?"
    rows = db.execute(
        f"SELECT name, guardian FROM competition_member WHERE team_id IN ({teams})", cid
    ).fetchall()
    rows += db.execute(
        "SELECT contact_name, contact_email, contact_phone, notes FROM competition_team "
        "WHERE competition_id = ?",
        cid,
    ).fetchall()
    audits = db.execute(
        "SELECT id, before, after, reason FROM judging_auditentry WHERE competition_id = ? "
        "AND action != 'personal_data_erase'",
        cid,
    ).fetchall()
    parsed = [(i, json.loads(b) if b else b, json.loads(a) if a else a, r) for i, b, a, r in audits]
    values = values | erase_values(rows, [(b, a) for _i, b, a, _r in parsed])
    db.execute(f"DELETE FROM competition_member WHERE team_id IN ({teams})", cid)
    db.execute(
        "UPDATE competition_team SET contact_name = '', contact_email = '', contact_phone = '', "
        "notes = '' WHERE competition_id = ?",
        cid,
    )
    db.execute("DELETE FROM competition_importpreview WHERE competition_id = ?", cid)
    for pk, before, after, reason in parsed:
        before, after, reason = scrub_audit(before, after, reason, values)
        db.execute(
            "UPDATE judging_auditentry SET before = ?, after = ?, reason = ? WHERE id = ?",
            (
                None if before is None else json.dumps(before),
                None if after is None else json.dumps(after),
                reason,
                pk,
            ),
        )
    for table, columns in (
        ("judging_warning", ("reason",)),
        ("judging_objection", ("text", "note")),
    ):
        for pk, *texts in db.execute(
            f"SELECT id, {', '.join(columns)} FROM {table} WHERE team_id IN ({teams})", cid
        ).fetchall():
            db.execute(
                f"UPDATE {table} SET {', '.join(c + ' = ?' for c in columns)} WHERE id = ?",
                (*(scrub_text(t or "", values) for t in texts), pk),
            )
    return True


def _scrub_sqlite_snapshot(path: Path, slug: str, values: frozenset[str]) -> None:
    """The snapshot is read into memory, scrubbed there and written anew (VACUUM INTO: no
    free page keeps an erased row), then put in the old one's place."""
    disk = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    memory = sqlite3.connect(":memory:")
    try:
        disk.backup(memory)
        disk.close()
        if not _scrub_sqlite_db(memory, slug, values):
            return
        memory.commit()
        partial = path.with_name(path.name + ".scrub")
        partial.unlink(missing_ok=True)
        memory.execute("VACUUM INTO ?", (str(partial),))
    finally:
        disk.close()
        memory.close()
    private_file(partial)
    os.replace(partial, path)


def _compact_live() -> None:
    """The live database keeps no erased row in a free page or in its write-ahead log."""
    if connection.vendor == "sqlite":
        if connection.is_in_memory_db():
            return
        with connection.cursor() as cursor:
            cursor.execute("VACUUM")
            for _attempt in range(20):
                cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                if cursor.fetchone()[0] == 0:
                    break
                time.sleep(0.1)
    elif connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "VACUUM FULL competition_member, competition_team, competition_importpreview, "
                "judging_auditentry, judging_warning, judging_objection"
            )


def _scrub_logs(values: frozenset[str]) -> int:
    """The logs in VAR_DIR (an access log written before query strings were left out held
    the desk's searches) rewritten in place without the values, plain or URL-encoded; in
    place, so gunicorn's open log (appending) goes on in the same file."""
    from urllib.parse import quote, quote_plus

    forms = set()
    for value in values:
        forms |= {value, quote(value), quote_plus(value), quote(value, safe="")}
    scrubbed = 0
    for path in sorted(Path(settings.VAR_DIR).glob("*.log")):
        with open(path, "r+b") as handle:
            data = handle.read()
            text = data.decode("utf-8", errors="surrogateescape")
            clean = scrub_text(text, forms)
            if clean != text:
                handle.seek(0)
                handle.write(clean.encode("utf-8", errors="surrogateescape"))
                handle.truncate()
                scrubbed += 1
    return scrubbed


def erase_from_files(slug: str, values: frozenset[str]) -> dict:
    """After an erase has committed: the live database compacted, every SQLite snapshot
    scrubbed, and the erase noted beside them (a restore refuses what still holds it)."""
    done = {"scrubbed": 0, "refused": 0}
    with _locked(blocking=True):
        _ledger_add(slug)
        for path in sorted(backup_dir().iterdir()):
            if path.suffix == ".sqlite3" and path.is_file():
                try:
                    _scrub_sqlite_snapshot(path, slug, values)
                    done["scrubbed"] += 1
                except sqlite3.DatabaseError:
                    logger.exception("could not scrub %s: a restore refuses it", path.name)
                    done["refused"] += 1
            elif path.suffix == ".pgdump":
                done["refused"] += 1
    try:
        done["logs"] = _scrub_logs(values)
    except OSError:
        logger.exception("could not scrub the logs after the erase")
    try:
        _compact_live()
    except Exception:
        logger.exception("the database could not be compacted after the erase")
    return done


def after_erase(sender, competition, values, **kwargs) -> None:
    """personal_data_erased (inside the erase's transaction): judging's free texts now, the
    files once it has committed."""
    from judging.models import Objection, Warning

    for warning in Warning.objects.filter(team__competition=competition):
        reason = scrub_text(warning.reason, values)
        if reason != warning.reason:
            Warning.objects.filter(pk=warning.pk).update(reason=reason)
    for objection in Objection.objects.filter(team__competition=competition):
        text, note = scrub_text(objection.text, values), scrub_text(objection.note, values)
        if (text, note) != (objection.text, objection.note):
            Objection.objects.filter(pk=objection.pk).update(text=text, note=note)
    slug = competition.slug
    transaction.on_commit(lambda: erase_from_files(slug, values))
