"""`{% entrant "No teams yet." %}`: a team competition's text in the words of the page's
competition's discipline (deltager, par, hold; competition/words/).

As `{% translate %}` and `{% blocktranslate %}` do: the translation is trusted, the values
put into it are escaped (`{% entrant "Teams shown: %(n)s" n=teams|length %}`); a count's
sentence takes the count as `n`; `as name` keeps the text in a variable. The discipline is
that of the context's `competition`."""

from django import template
from django.template.base import render_value_in_context
from django.utils.safestring import mark_safe

from competition.words import TEXTS, entrant_text

register = template.Library()


@register.simple_tag(takes_context=True)
def entrant(context, msgid: str, **values) -> str:
    if msgid not in TEXTS:
        raise template.TemplateSyntaxError(f"{msgid!r} is not in competition/words/ TEXTS")
    rendered = {name: render_value_in_context(value, context) for name, value in values.items()}
    for count in ("n", "total"):  # a count chooses the sentence's form by its number
        if isinstance(values.get(count), int):
            rendered[count] = values[count]
    return mark_safe(entrant_text(context["competition"], msgid, **rendered))
