"""One definition of a plausible value for the forms and the models, the one the importers use
(``clubrating.interchange.formats.limits``): what a page stores, the site's own TRF and CSV
exports write and read back. A value outside it is refused with the importers' message, in the
page's language."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubrating.interchange.formats.limits import (
    FIDE_ID_MAX,
    FieldError,
    check_name,
    check_year,
    parse_rating,
)

RATING = gettext_noop("Rating")
FIDE_ID = gettext_noop("FIDE ID")
BIRTH_YEAR = gettext_noop("Birth year")
NAME = gettext_noop("Name")
NATIONAL_ID = gettext_noop("national ID (ÖSB)")


def _checked(check, value) -> None:
    if value is None or value == "":
        return
    try:
        check(value)
    except FieldError as problem:
        raise ValidationError(problem.render(_)) from None


def _fide_id(value: int, field: str) -> None:
    if not 1 <= value <= FIDE_ID_MAX:
        raise FieldError("range", field=field, value=value, low=1, high=FIDE_ID_MAX)


# Validators of the model fields (module functions: migrations name them).
def validate_rating(value) -> None:
    """0 (unrated) or a rating the rating lists and TRF files carry."""
    _checked(lambda v: parse_rating(int(v), RATING), value)


def validate_fide_id(value) -> None:
    _checked(lambda v: _fide_id(int(v), FIDE_ID), value)


def validate_birth_year(value) -> None:
    _checked(lambda v: check_year(int(v), BIRTH_YEAR), value)


def validate_name(value) -> None:
    _checked(lambda v: check_name(v, NAME), value)


def validate_national_id(value) -> None:
    _checked(lambda v: check_name(v, NATIONAL_ID), value)


# Form fields: the same checks, the message naming the field by its label.
def rating_field(label, **kwargs) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, validators=[
        lambda value: _checked(lambda v: parse_rating(v, str(label)), value)], **kwargs)


def fide_id_field(label, **kwargs) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, validators=[
        lambda value: _checked(lambda v: _fide_id(v, str(label)), value)], **kwargs)


def birth_year_field(label, **kwargs) -> forms.IntegerField:
    return forms.IntegerField(label=label, required=False, validators=[
        lambda value: _checked(lambda v: check_year(v, str(label)), value)], **kwargs)


def name_field(label, max_length: int, **kwargs) -> forms.CharField:
    return forms.CharField(label=label, max_length=max_length, validators=[
        lambda value: _checked(lambda v: check_name(v, str(label)), value)], **kwargs)
