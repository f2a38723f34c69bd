"""The tablet's texts come from the JavaScript catalogue: static/js/judge/texts.mjs names
them (English msgids), locale/da/LC_MESSAGES/djangojs.po holds their Danish, complete and
compiled, and the judge's page carries them in the reader's language."""

import re

import polib
from django.utils import translation

from judging import judge_texts
from tests.project.test_translations import LC_MESSAGES, texts


def test_every_line_of_texts_mjs_is_read():
    source = judge_texts.SOURCE.read_text(encoding="utf-8")
    assert len(judge_texts.msgids()) == len(re.findall(r"gettext\(\"", source)) > 90


def test_the_js_catalogue_is_complete_compiled_and_holds_every_text():
    po = polib.pofile(str(LC_MESSAGES / "djangojs.po"))
    assert not po.untranslated_entries() and not po.fuzzy_entries()
    assert texts(po) == texts(polib.mofile(str(LC_MESSAGES / "djangojs.mo")))
    assert set(judge_texts.msgids().values()) == {e.msgid for e in po if not e.obsolete}


def test_the_texts_are_danish_and_english():
    with translation.override("da"):
        danish = judge_texts.texts()
    with translation.override("en"):
        english = judge_texts.texts()
    assert english == judge_texts.msgids()
    assert danish["all_sent"] == "Alt sendt ✓" and english["all_sent"] == "All sent ✓"
    same = [key for key in danish if danish[key] == english[key]]
    assert same == []  # every one has its Danish
    placeholders = re.compile(r"%\(\w+\)s")
    for key in danish:  # the script fills the same names in either language
        assert sorted(placeholders.findall(danish[key])) == sorted(
            placeholders.findall(english[key])
        ), key
