"""Fill Danish translations into locale/da/LC_MESSAGES/django.po and compile it.

Usage: python tools/po_fill.py locale/da/*.tsv   (each line: English msgid<TAB>Danish msgstr;
for a plural (ngettext, blocktranslate count): English singular<TAB>Danish singular<TAB>plural)
The .tsv files are the source of the Danish texts, one file per area of the app.
Lines for msgids not in the .po are reported (run `make messages` first to extract them).
The English catalogue needs no strings: msgids are English.
"""

import sys
from pathlib import Path

import polib

PO = Path(__file__).resolve().parent.parent / "locale" / "da" / "LC_MESSAGES" / "django.po"


def main() -> int:
    po = polib.pofile(str(PO))
    by_id = {e.msgid: e for e in po}
    missing = []
    lines = []
    for name in sys.argv[1:]:
        lines += Path(name).read_text(encoding="utf-8").splitlines()
    for line in lines:
        if not line.strip() or "\t" not in line:
            continue
        msgid, msgstr = line.split("\t", 1)
        msgid = msgid.replace("\\n", "\n")
        msgstr = msgstr.replace("\\n", "\n")
        entry = by_id.get(msgid)
        if entry is None:
            missing.append(msgid)
            continue
        if entry.msgid_plural:
            one, _tab, many = msgstr.partition("\t")
            entry.msgstr_plural = {0: one, 1: many or one}
        else:
            entry.msgstr = msgstr
        if "fuzzy" in entry.flags:
            entry.flags.remove("fuzzy")
    po.save()
    po.save_as_mofile(str(PO.with_suffix(".mo")))
    for msgid in missing:
        print(f"not in the catalogue: {msgid!r}", file=sys.stderr)
    untranslated = [e.msgid for e in po.untranslated_entries()]
    print(f"{po.percent_translated()}% translated; untranslated: {len(untranslated)}")
    for msgid in untranslated[:50]:
        print(f"  {msgid!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
