"""The client's address, also behind the TLS proxy (docs/contracts.md "Running").

Behind `TRUSTED_PROXIES` proxies (`SECURE_PROXY=1`: default 1) the client's address is the
one the last of them appended to X-Forwarded-For, counted from the right: whatever a client
writes into the header itself stands further left and is ignored. Without a proxy the
header is not believed at all. Login throttling (django-axes) counts failures per username
and this address.
"""

import ipaddress

from django.conf import settings


def client_ip(request) -> str | None:
    remote = request.META.get("REMOTE_ADDR")
    hops = getattr(settings, "TRUSTED_PROXIES", 0)
    if hops > 0:
        header = request.META.get("HTTP_X_FORWARDED_FOR", "")
        forwarded = [part.strip() for part in header.split(",") if part.strip()]
        if len(forwarded) >= hops:
            try:
                return str(ipaddress.ip_address(forwarded[-hops]))
            except ValueError:
                pass
    return remote
