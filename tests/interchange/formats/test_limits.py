from datetime import date

import pytest

from clubrating.interchange.formats.limits import (
    FieldError,
    check_date,
    check_text,
    latest_date,
    parse_rating,
    parse_whole,
)


@pytest.mark.parametrize(("text", "expected"), [("", None), ("0", None), ("0,0", None), ("1500", 1500.0),
                                                ("1620,5", 1620.5), ("100", 100.0), ("3000", 3000.0)])
def test_ratings_in_range_and_unrated(text, expected):
    assert parse_rating(text, "rating") == expected


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1e308", "-1500", "99", "3001", "9999", "abc"])
def test_absurd_ratings_are_refused(text):
    with pytest.raises(FieldError) as error:
        parse_rating(text, "rating", line=4)
    assert (error.value.code, str(error.value)) == (
        "rating", f"line 4: rating “{text}” is not a rating: 0 (unrated) or 100 to 3000.")


@pytest.mark.parametrize(("text", "code"), [("-1", "range"), ("100001", "range"), ("1.5", "not_number"),
                                            ("٣", "not_number"), ("²", "not_number"), ("", "not_number")])
def test_whole_numbers_are_ascii_digits_in_range(text, code):
    with pytest.raises(FieldError) as error:
        parse_whole(text, "games", 0, 100_000)
    assert error.value.code == code
    assert parse_whole(" 42 ", "games", 0, 100_000) == 42


def test_dates_between_1850_and_a_year_from_today():
    assert check_date(date(1850, 1, 1), "d") == date(1850, 1, 1)
    assert check_date(latest_date(), "d") == latest_date()
    for day in (date(1849, 12, 31), date(1, 1, 1), latest_date().replace(year=latest_date().year + 1)):
        with pytest.raises(FieldError, match="is not between 1850-01-01 and"):
            check_date(day, "birth date")


@pytest.mark.parametrize(("text", "line", "column"), [
    ("a\x00", 1, 2), ("ab\r\ncd\x01", 2, 3), ("a\rb\rc\x7f", 3, 2), ("x\n\n\x9d", 3, 1)])
def test_control_characters_are_found_with_line_and_column(text, line, column):
    with pytest.raises(FieldError) as error:
        check_text(text)
    assert (error.value.line, error.value.params["column"]) == (line, column)
    check_text("tab\tand\r\nbreaks\rare text\n")


@pytest.mark.parametrize("text", ["0000/05/04", "2001/13/45", "0000.12.31"])
def test_impossible_trf_dates_are_value_errors(text):
    from clubrating.interchange.formats.trf import parse_date

    with pytest.raises(ValueError):
        parse_date(text)
