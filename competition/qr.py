"""Addresses phones and tablets can open, and their QR codes (segno, drawn as inline SVG).

The one place for absolute addresses: every QR code and shared link (the table
cards, the team page's share link, the judges' join sheet, the big screen) is `absolute_url`;
a print page warns when `only_here` says its address is the laptop's own."""

import ipaddress
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.utils.safestring import SafeString, mark_safe


def absolute_url(request, path: str) -> str:
    """`path` on PUBLIC_URL (the hall's address, set by `make hall`), else on the address
    the request came to."""
    if settings.PUBLIC_URL:
        return settings.PUBLIC_URL + path
    return request.build_absolute_uri(path)


def only_here(url: str) -> bool:
    """True for an address that works only on this machine (localhost, 127.0.0.1, ::1)."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def qr_svg(url: str, *, scale: int = 4) -> SafeString:
    """The QR code of `url` as inline SVG (as the desk's table cards draw them)."""
    svg = segno.make(url, error="m").svg_inline(scale=scale, border=2, omitsize=True)
    return mark_safe(svg)  # noqa: S308 - segno's own SVG of an escaped URL
