"""Game results as written by FIDE, German texts, pairing programs and TRF."""

import pytest

from ratings.rules.results import UnreadableResult, parse_score


@pytest.mark.parametrize(
    ("text", "score"),
    [
        ("1", 1.0), ("1.0", 1.0), ("1.00", 1.0), ("1,0", 1.0), ("1,00", 1.0), ("1-0", 1.0), ("+", 1.0),
        (" 1.00 ", 1.0), ("0.5", 0.5), ("0.50", 0.5), ("0,5", 0.5), ("0,50", 0.5), (".5", 0.5),
        ("½", 0.5), ("1/2", 0.5), ("=", 0.5), ("½-½", 0.5), ("1/2-1/2", 0.5),
        ("0", 0.0), ("0.0", 0.0), ("0.00", 0.0), ("0,0", 0.0), ("0-1", 0.0), ("-", 0.0),
    ],
)
def test_accepted(text, score):
    assert parse_score(text) == score


@pytest.mark.parametrize("text", ["", "2", "0.25", "1.5", "0,51", "-1", "1,,0", "1.0.0", "x", "½½", "1:0"])
def test_refused(text):
    with pytest.raises(UnreadableResult) as caught:
        parse_score(text)
    assert caught.value.text == text
