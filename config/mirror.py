"""A mirror serves the public and takes the hall's push, nothing else (docs/contracts.md "The public
mirror"). On a mirror (MIRROR_TOKEN set, MIRROR_URL unset) this middleware refuses every
unsafe method but the push (403 `mirror_read_only`) and answers 404 for every address that
is not public: no login, no desk, judge or control-room page, no staff API.
"""

from django.http import HttpResponseNotFound, JsonResponse

from scoring.mirror import is_mirror

SAFE = ("GET", "HEAD", "OPTIONS")
# The addresses a mirror serves besides the public pages (the `public` namespace).
SERVED = {
    "healthz",
    "readyz",
    "set_language",  # writes nothing but the reader's language cookie
    "api:competitions",
    "api:competition",
    "api:standings",
    "api:championships",
    "api:championship",
    "api:mirror-age",
    "api:mirror-push",
    "api:mirror-held",
}
WRITES = {"api:mirror-push", "api:mirror-held", "set_language"}


def context(request) -> dict:
    """`mirror_mode` for the templates: the age sentence instead of a login link."""
    return {"mirror_mode": is_mirror()}


class MirrorMiddleware:
    """Judged in process_view, on the route Django has already resolved (no second
    resolve per request); an address no route matches is Django's own 404."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        if not is_mirror():
            return None
        name = request.resolver_match.view_name
        served = name.startswith("public:") or name in SERVED
        if request.method not in SAFE and not (request.method == "POST" and name in WRITES):
            return JsonResponse(
                {"code": "mirror_read_only", "detail": "A mirror takes no writes."}, status=403
            )
        if not served:
            return HttpResponseNotFound("Not on the mirror: the hall serves this page.")
        return None
