"""The Danish catalogue is the one source of the Danish texts: complete and compiled.

Edit locale/da/LC_MESSAGES/django.po, then `make messages` (makemessages + compilemessages).
"""

from pathlib import Path

import polib

LC_MESSAGES = Path(__file__).resolve().parents[2] / "locale" / "da" / "LC_MESSAGES"


def texts(entries) -> dict:
    """(context, msgid, plural) -> the Danish text(s), header left out."""
    found = {}
    for entry in entries:
        if entry.obsolete or not entry.msgid:
            continue
        key = (entry.msgctxt, entry.msgid, entry.msgid_plural or None)
        if entry.msgid_plural:
            found[key] = tuple(entry.msgstr_plural[n] for n in sorted(entry.msgstr_plural))
        else:
            found[key] = entry.msgstr
    return found


def test_every_entry_is_translated_and_none_is_fuzzy():
    po = polib.pofile(str(LC_MESSAGES / "django.po"))
    empty = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert not empty, f"no Danish text in django.po for: {empty}"
    assert not fuzzy, f"fuzzy (unchecked) entries in django.po: {fuzzy}"
    assert len(po) > 0


def test_the_committed_mo_is_the_po_compiled():
    po = texts(polib.pofile(str(LC_MESSAGES / "django.po")))
    mo = texts(polib.mofile(str(LC_MESSAGES / "django.mo")))
    stale = sorted((key[1] for key in po.keys() | mo.keys() if po.get(key) != mo.get(key)), key=str)
    assert not stale, f"django.mo does not match django.po (run `make messages`): {stale[:20]}"
