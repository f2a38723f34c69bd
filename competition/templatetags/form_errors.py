"""The error summary at the top of a form with errors (GOV.UK Design System, STYLE.md):
each problem as a link to its field; static/js/forms.mjs moves the focus to the box."""

from django import template
from django.forms.formsets import BaseFormSet
from django.utils.translation import gettext as _

register = template.Library()


def _field_id(bound_field) -> str:
    if bound_field.is_hidden:
        return ""
    if bound_field.widget_type in ("radioselect", "checkboxselectmultiple"):
        return f"{bound_field.auto_id}_0"  # the first choice: its group has no id of its own
    return bound_field.auto_id or ""


def _form_items(form, row: str = "") -> list[tuple[str, str]]:
    items = []
    for error in form.non_field_errors():
        items.append(("", f"{row}: {error}" if row else error))
    for name, errors in form.errors.items():
        if name == "__all__" or name not in form.fields:
            continue
        bound_field = form[name]
        label = f"{row}, {bound_field.label}" if row else bound_field.label
        for error in errors:
            items.append((_field_id(bound_field), f"{label}: {error}"))
    return items


@register.inclusion_tag("_error_summary.html")
def error_summary(*forms, row_label: str = "") -> dict:
    """`{% error_summary form formset row_label=word %}`: (field id, text) per problem, in the
    order of the page; a formset row is named "<row_label> <n>" ("Member 2")."""
    items: list[tuple[str, str]] = []
    for form in forms:
        if isinstance(form, BaseFormSet):
            if not form.is_bound:
                continue
            items += [("", str(error)) for error in form.non_form_errors()]
            for n, sub in enumerate(form.forms, start=1):
                if form.can_delete and form._should_delete_form(sub):
                    continue
                word = row_label or _("Row")
                items += _form_items(sub, row=f"{word} {n}")
        elif getattr(form, "is_bound", False):
            items += _form_items(form)
    return {"items": items}
