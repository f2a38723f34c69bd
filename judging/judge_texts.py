"""The tablet's texts from the JavaScript translation catalogue.

static/js/judge/texts.mjs names every sentence the judge's page shows, each key with its
English msgid marked `gettext("…")`; `makemessages -d djangojs -e mjs` takes them into
locale/da/LC_MESSAGES/djangojs.po, where their Danish is. The page's config carries them
translated into the reader's language (`texts()`), so the tablet needs no second request
for its words and works offline from the first load.
"""

import json
import re
from functools import cache
from pathlib import Path

from django.conf import settings
from django.utils.translation import get_language
from django.utils.translation.trans_real import DjangoTranslation

SOURCE = Path(settings.BASE_DIR) / "static" / "js" / "judge" / "texts.mjs"
# One entry a line, as texts.mjs writes them:   all_sent: gettext("All sent ✓"),
ENTRY = re.compile(r'^ {2}(\w+): gettext\(("(?:[^"\\]|\\.)*")\),$', re.M)


@cache
def msgids() -> dict[str, str]:
    """key -> English msgid, in texts.mjs's order."""
    return {k: json.loads(v) for k, v in ENTRY.findall(SOURCE.read_text(encoding="utf-8"))}


@cache
def _catalogue(language: str) -> DjangoTranslation:
    return DjangoTranslation(language, domain="djangojs")


def texts(language: str | None = None) -> dict[str, str]:
    """Every text of the judge's page in `language` (default: the request's)."""
    catalogue = _catalogue(language or get_language() or settings.LANGUAGE_CODE)
    return {key: catalogue.gettext(msgid) for key, msgid in msgids().items()}
