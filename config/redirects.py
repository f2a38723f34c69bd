"""Old addresses that moved: a GET or HEAD answers 301 to the new address, any
other method 308, so that a form posted from a page loaded before the move still lands (308
keeps the method and the body). The query string goes along."""

from django.http import HttpResponsePermanentRedirect
from django.urls import path, reverse


class HttpResponsePermanentRedirectKeepMethod(HttpResponsePermanentRedirect):
    status_code = 308


def moved(route: str, name: str):
    """`route` (the old pattern) now answers from the URL named `name`, same arguments."""

    def view(request, **kwargs):
        url = reverse(name, kwargs=kwargs)
        # Re-encoded from the parsed query: raw UTF-8 (?id=²) stays itself, not mojibake.
        if query := request.GET.urlencode(safe="/"):
            url = f"{url}?{query}"
        if request.method in ("GET", "HEAD"):
            return HttpResponsePermanentRedirect(url)
        return HttpResponsePermanentRedirectKeepMethod(url)

    return path(route, view)


# /objections/ mixed the desk's filing, the head judge's resolving and finalising, the audit
# CSV and the official results; each now lives with its audience.
urlpatterns = [
    moved("objections/<slug:slug>/new/", "desk:objection_new"),
    moved("objections/<slug:slug>/<id:pk>/resolve/", "control:objection_resolve"),
    moved("objections/<slug:slug>/finalise/", "control:finalise"),
    moved("objections/<slug:slug>/official/", "desk:official"),
    moved("objections/<slug:slug>/audit.csv", "control:audit_csv"),
]
