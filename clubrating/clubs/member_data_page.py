"""The member's copy of his data as a page for people: each value under its translated label,
dates and times in the reader's format (no microseconds), numbers such as the birth year
without digit grouping, yes and no for flags, his games from his side (his colour and his
result). The JSON file keeps the plain values (``clubrating.clubs.member_data``)."""

from __future__ import annotations

import datetime

from django.contrib.auth.models import User
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from .models import Member

# Keys of the copy that are not the model's own field names.
_MEMBER_FIELDS = {"title": "fide_title"}


def _label(model, key: str) -> str:
    try:
        field = model._meta.get_field(_MEMBER_FIELDS.get(key, key) if model is Member else key)
    except FieldDoesNotExist:
        return {"id": _("Record number"), "groups": _("Groups")}.get(key, key)
    return str(field.verbose_name)[:1].upper() + str(field.verbose_name)[1:]


def display(value, field: models.Field | None = None) -> str:
    """One value of the copy as the page shows it."""
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if field is not None and field.choices:
        return str(dict(field.flatchoices).get(value, value))
    if isinstance(field, models.DateTimeField) or (isinstance(value, str) and "T" in value and field is None):
        moment = datetime.datetime.fromisoformat(value).replace(microsecond=0)
        return formats.date_format(timezone.localtime(moment), "SHORT_DATETIME_FORMAT")
    if isinstance(field, models.DateField):
        return formats.date_format(datetime.date.fromisoformat(value), "SHORT_DATE_FORMAT")
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) or "—"
    return str(value)  # numbers as they are: IDs and years are not grouped


def _rows(model, section: dict, skip=()) -> list[tuple[str, str]]:
    rows = []
    for key, value in section.items():
        if key in skip:
            continue
        try:
            field = model._meta.get_field(_MEMBER_FIELDS.get(key, key) if model is Member else key)
        except FieldDoesNotExist:
            field = None
        rows.append((_label(model, key), display(value, field)))
    return rows


def member_data_page(data: dict) -> dict:
    """The page's sections from the copy (``member_data_export``)."""
    colours = {"white": _("White"), "black": _("Black")}
    tournaments = data["tournaments"]
    games = [{
        "tournament": game["tournament"], "round": str(game["round"]),
        "date": display(game["date"], models.DateField()), "colour": colours[game["colour"]],
        "opponent": game["opponent"], "result": game["own_result"] or "–",
        "corrections": str(len(game["result_changes"])),
    } for game in tournaments["games"]]
    account = data["account"]
    return {
        "member": _rows(Member, data["member"]),
        "account": _rows(User, account, skip={"logins"}) if account else None,
        "logins": [{"kind": _("log-in") if login["kind"] == "login" else _("failed log-in"),
                    "at": display(login["at"], models.DateTimeField()), "address": login["address"]}
                   for login in account["logins"]] if account else [],
        "games": games,
    }
