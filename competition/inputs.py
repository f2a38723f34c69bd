"""Reading what a request sends: whole numbers from URLs and query strings, JSON bodies, the
`next` address.

Python's own checks accept far more than a person types: `"²".isdigit()` is True and then
`int("²")` fails (a 500), `int("٣")` is 3, `int(" 1_000 ")` is 1000, and 30 digits overflow
every database column. docs/contracts.md ("The HTTP API"): a number that is not a plain whole number
in range is a 400 on the API; a page ignores it (or says so); nothing answers 500.
"""

import json
import re

from django.conf import settings
from django.http import HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import parsers, serializers, status
from rest_framework.exceptions import APIException, ParseError

# The database columns' upper bounds (PostgreSQL's; SQLite takes whatever fits 64 bits).
SMALLINT_MAX = 32_767  # PositiveSmallIntegerField: a puzzle's position, max at a table
INT_MAX = 2_147_483_647  # PositiveIntegerField: a table, pieces, seconds
ID_MAX = 9_223_372_036_854_775_807  # BigAutoField: every id

_DIGITS = re.compile(r"[0-9]{1,19}")  # ASCII only: `\d` is any script's digits


def whole_number(text, *, low: int = 0, high: int = ID_MAX) -> int | None:
    """`text` as a whole number when it is plain ASCII digits within [low, high], else None."""
    if not isinstance(text, str) or not _DIGITS.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None


def query_number(params, name: str, *, low: int = 0, high: int = ID_MAX) -> int | None:
    """For the API: the query parameter `name` as a whole number, None when it is absent;
    400 (`{name: [...]}`) when it is not a plain whole number from `low` to `high`."""
    raw = params.get(name)
    if raw is None:
        return None
    value = whole_number(raw, low=low, high=high)
    if value is None:
        raise serializers.ValidationError(
            {
                name: [
                    _("A whole number from %(low)d to %(high)d, in plain digits.")
                    % {"low": low, "high": high}
                ]
            }
        )
    return value


class DateTimeField(serializers.DateTimeField):
    """DRF's, but a moment the time zone cannot hold (`0001-01-01T00:00`, year 9999 with an
    offset) is a 400: DRF's own lets Python's OverflowError through (a 500)."""

    def enforce_timezone(self, value):
        try:
            return super().enforce_timezone(value)
        except OverflowError:
            self.fail("invalid", format="YYYY-MM-DDThh:mm[:ss][+HH:MM|-HH:MM|Z]")


class IdConverter:
    """`<id:pk>` in a URL: an id that fits its column, else the URL does not match (404)."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = whole_number(value, low=1)
        if number is None:
            raise ValueError(value)  # Django: not this URL
        return number

    def to_url(self, value) -> str:
        return str(value)


def redirect_next(request, default: str) -> HttpResponseRedirect:
    """After an action: back to the form's `next` when it is an address on this site, else
    to `default`. Never a view name (Django's `redirect()` would try to reverse one and fail)
    and never another site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return HttpResponseRedirect(target)
    return HttpResponseRedirect(default)


# --- JSON bodies (docs/contracts.md: over 64 KB -> 413; too deep, not Unicode -> 400) -------
MAX_JSON_BYTES = 64 * 1024
MAX_JSON_DEPTH = 8  # the deepest real body: {"members": [{"name": ...}]} is 3


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request body is larger than 64 KB.")
    default_code = "too_large"


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def _check_json(data) -> None:
    """Nested no deeper than MAX_JSON_DEPTH, and every string (keys too) valid Unicode:
    `"\\ud800"` is JSON that decodes to a lone surrogate, which no database or page can
    hold. Iterative, so a deep body cannot exhaust the stack here."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= MAX_JSON_DEPTH:
                raise ParseError(_("The JSON is nested deeper than any request to this API."))
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                stack.append((key, depth + 1))
                stack.append((item, depth + 1))
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise ParseError(_("A text in the JSON is not valid Unicode.")) from exc


def _too_deep(text: str) -> bool:
    """Brackets nested deeper than MAX_JSON_DEPTH, counted before decoding: json.loads on a
    deep body raises RecursionError, which on CPython 3.11 can leave the interpreter's
    recursion counter broken for the next `compile` (gh-106905)."""
    depth = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_JSON_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser with the limits of docs/contracts.md "The HTTP API"; the API's default
    (settings.REST_FRAMEWORK)."""

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        raw = stream.read(MAX_JSON_BYTES + 1)  # never more, whatever the body claims
        if len(raw) > MAX_JSON_BYTES:
            raise PayloadTooLarge()
        try:
            text = raw.decode(parser_context.get("encoding", settings.DEFAULT_CHARSET))
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(_("The body is not valid UTF-8.")) from exc
        if _too_deep(text):
            raise ParseError(_("The JSON is nested deeper than any request to this API."))
        try:
            data = json.loads(text, parse_constant=_reject_constant if self.strict else None)
        except RecursionError as exc:
            raise ParseError(_("The JSON is nested deeper than any request to this API.")) from exc
        except ValueError as exc:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from exc
        _check_json(data)
        return data
