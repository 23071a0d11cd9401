"""Posting the admin's change forms as a browser would (main form and inlines)."""

import datetime

from django.forms import MultiWidget
from django.urls import reverse


def form_data(response) -> dict:
    """The change form as the browser would send it back unchanged (main form and inlines)."""

    def value(bound):
        v = bound.value()
        if v is None:
            return ""
        if isinstance(v, bool):
            return "on" if v else ""
        return v.isoformat() if isinstance(v, datetime.date) else v

    form = response.context["adminform"].form
    data = {name: value(form[name]) for name in form.fields}
    data = {k: v for k, v in data.items() if v != ""}
    for name, field in form.fields.items():
        if isinstance(field.widget, MultiWidget):  # one input per part (the tie-break choices)
            data.pop(name, None)
            parts = field.widget.decompress(form[name].value())
            data.update({f"{name}_{i}": part for i, part in enumerate(parts) if part})
    for inline in response.context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        data.update({management.add_prefix(n): value(management[n]) for n in management.fields})
        for sub in formset.forms:
            data.update({sub.add_prefix(n): value(sub[n]) for n in sub.fields if value(sub[n]) != ""})
    return data


def change(admin_client, model: str, obj, **changes):
    url = reverse(f"admin:tournaments_{model}_change", args=[obj.pk])
    data = form_data(admin_client.get(url))
    data.update(changes)
    return admin_client.post(url, data)
