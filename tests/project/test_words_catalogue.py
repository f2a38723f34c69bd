"""Walks over the words themselves (GLOSSARY.md), a class of defect each, not one instance:
one Danish word for the prize-giving, and no rule code ("R11", "P1") in a text a volunteer
reads.

The catalogues are everything a page shows in words: locale/da/LC_MESSAGES/django.po (pages,
messages, refusals: Danish in msgstr, English in msgid) and djangojs.po (the judge's tablet).
The rules page (/rules/) numbers the rules, but from scoring/rules_text.py, outside the
catalogues; so here no entry is excepted. Code comments, docstrings and docs/ may cite the
codes; a volunteer's text says "rule 9" / "regel 9" (the number the rules page shows).
"""

import re
from pathlib import Path

import polib

from tests.project.test_translations import LC_MESSAGES

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = ("django.po", "djangojs.po")


def entries():
    for name in CATALOGUES:
        for entry in polib.pofile(str(LC_MESSAGES / name)):
            if not entry.obsolete and entry.msgid:
                yield name, entry


def danish(entry) -> list[str]:
    return [entry.msgstr, *entry.msgstr_plural.values()]


def english(entry) -> list[str]:
    return [entry.msgid, entry.msgid_plural or ""]


# --- one word for the prize-giving ---------------------------------------------------------
# GLOSSARY.md: prize-giving = "præmieoverrækkelse". Not "prisoverrækkelse", "præmieuddeling",
# "prisuddeling" or "kåring". (R20's own words, "inden præmierne uddeles", are a verb.)
PRIZE_WORD = re.compile(r"\w*(?:overrækkelse|uddeling|kåring)\w*", re.IGNORECASE)
ENGLISH_OTHERS = re.compile(r"award ceremony|prize ceremony|prizegiving|prize giving", re.I)


def test_the_prize_giving_has_one_danish_word_in_every_catalogue_and_doc():
    texts = [(f"{name}: {e.msgid[:50]}", t) for name, e in entries() for t in danish(e)]
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    texts += [(path.name, path.read_text(encoding="utf-8")) for path in docs]
    wrong = [
        (where, word)
        for where, text in texts
        for word in PRIZE_WORD.findall(text)
        if not word.lower().startswith("præmieoverrækkelse")
    ]
    assert not wrong, f"the prize-giving is “præmieoverrækkelse(n)” (GLOSSARY.md): {wrong}"
    said = [t for _where, t in texts if "præmieoverrækkelse" in t.lower()]
    assert len(said) >= 5  # the word is there: the walk reads what the pages say


def test_the_prize_giving_has_one_english_word():
    wrong = [e.msgid for _name, e in entries() for t in english(e) if ENGLISH_OTHERS.search(t)]
    assert not wrong


# --- no rule codes on a volunteer's page ---------------------------------------------------
RULE_CODE = re.compile(r"\b[RP]\d{1,2}\b")
COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)


def test_no_text_of_the_catalogues_names_a_rule_by_its_code():
    coded = [
        (name, text)
        for name, entry in entries()
        for text in english(entry) + danish(entry)
        if RULE_CODE.search(text)
    ]
    assert not coded, f"a rule code in a text a volunteer reads (write “rule 9”): {coded}"


def test_no_template_names_a_rule_by_its_code_outside_its_comments():
    coded = []
    for path in sorted((ROOT / "templates").rglob("*.html")):
        text = COMMENT.sub("", path.read_text(encoding="utf-8"))
        coded += [(path.name, m.group(0)) for m in RULE_CODE.finditer(text)]
    assert not coded


def test_the_pages_say_rule_n_in_danish_and_english():
    texts = {e.msgid: e.msgstr for _name, e in entries()}
    assert texts["New warning (rule 14)"] == "Ny advarsel (regel 14)"
    assert texts["At the latest 15 minutes before the start"] == "Senest 15 minutter før start"
