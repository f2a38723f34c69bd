"""Roles are Django groups: judge, desk, admin. An admin (or superuser) may do all."""

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.views.decorators.http import require_POST
from rest_framework.permissions import BasePermission

from competition.selectors import championship_get, competition_get

JUDGE, DESK, ADMIN = "judge", "desk", "admin"
ROLES = (JUDGE, DESK, ADMIN)


def user_roles(user) -> set[str]:
    if not getattr(user, "is_authenticated", False):
        return set()
    cached = getattr(user, "_roles_cache", None)
    if cached is None:
        if user.is_superuser:
            cached = set(ROLES)
        else:
            cached = set(user.groups.filter(name__in=ROLES).values_list("name", flat=True))
            if ADMIN in cached:
                cached = set(ROLES)
        user._roles_cache = cached
    return cached


def has_role(user, *roles: str) -> bool:
    """True when the user holds any of `roles` (admin holds them all)."""
    return bool(user_roles(user) & set(roles))


def staff_view(
    *roles: str,
    competition: bool = False,
    puzzles: bool = False,
    related: tuple[str, ...] = (),
    post: bool = False,
    championship=None,
):
    """The one decorator of a staff page, checked in this order: anonymous -> the login page;
    logged in without one of `roles` (admin holds them all) -> 403; with `post`, any other
    method -> 405; with `competition` (or `puzzles`: with its sequence prefetched, or
    `related`: these foreign keys joined), the competition of the URL's `slug` (404 if none)
    is passed to the view as `competition` instead of `slug`.

    Slugs of championships and competitions share one namespace (docs/contracts.md "A
    championship of several competitions"). With `championship` (a view), a slug that no
    competition has but a championship has is that championship's page on the same address:
    `championship(request, championship=..., ...)` answers, after the same checks (a
    competition's own championship has the competition's slug, so it never gets here)."""

    def decorator(view):
        def load(request, *args, **kwargs):
            if competition or puzzles or related:
                slug = kwargs.pop("slug")
                try:
                    found = competition_get(slug=slug, puzzles=puzzles, related=related)
                except Http404:
                    held = championship_get(slug=slug) if championship is not None else None
                    if held is None:
                        raise
                    return championship(request, *args, championship=held, **kwargs)
                kwargs["competition"] = found
            return view(request, *args, **kwargs)

        inner = require_POST(load) if post else load

        @wraps(view)
        def wrapper(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, *roles):
                raise PermissionDenied
            return inner(request, *args, **kwargs)

        return wrapper

    return decorator


def _permission(*roles: str) -> type[BasePermission]:
    class HasRole(BasePermission):
        message = "Your role may not do this."

        def has_permission(self, request, view):
            return has_role(request.user, *roles)

    HasRole.__name__ = "Is" + "Or".join(r.capitalize() for r in roles)
    return HasRole


IsJudge = _permission(JUDGE)
IsDesk = _permission(DESK)
IsAdmin = _permission(ADMIN)


def roles_context(request):
    """Templates: `roles` of the current user, for navigation links."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"roles": frozenset()}
    return {"roles": frozenset(user_roles(user))}
