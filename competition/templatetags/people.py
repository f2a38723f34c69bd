"""`{{ user|judge_name }}`: the person who did something, as a page names them: the full name,
else the username; a login deleted since (the record keeps None) reads "en slettet dommer"."""

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def judge_name(user) -> str:
    if user is None:
        return _("a deleted judge")
    return user.get_full_name() or user.get_username()
