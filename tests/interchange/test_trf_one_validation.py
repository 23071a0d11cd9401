"""``rate_trf`` and ``import_trf`` read a TRF file through the same checks: they refuse the same
files, each with the line, and accept the same files."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

HEAD = "012 Test\n042 2025/03/01\n"


def player(rank, name, rating, birth, results):
    """A TRF16 player line: every field at its columns."""
    line = list("001" + " " * 88)
    for start, text in ((4, f"{rank:>4}"), (9, "w"), (14, name), (48, f"{rating:>4}"), (53, "AUT"),
                        (69, birth), (80, " 1.0"), (85, f"{rank:>4}")):
        line[start:start + len(text)] = text
    return "".join(line) + "".join(results) + "\n"


GOOD = player(1, "Huber, Anna", 2100, "0000/00/00", ["     2 w 1"]) + player(
    2, "Gruber, Bernd", 1900, "", ["     1 b 0"])
BAD = {
    "against himself": (player(1, "Huber, Anna", 2100, "", ["     1 w 1"])
                        + player(2, "Gruber, Bernd", 1900, "", []),
                        "Line 3: round 1: the player plays against himself."),
    "rating 9999": (GOOD.replace("2100", "9999"),
                    "Line 3: rating “9999” is not a rating: 0 (unrated) or 100 to 3000."),
    "impossible birth date": (GOOD.replace("0000/00/00", "2001/13/45"),
                              "Line 3: birth date “2001/13/45” is not a date."),
    "year 0": (GOOD.replace("0000/00/00", "0000/05/04"), "Line 3: birth date “0000/05/04” is not a date."),
    "FIDE ID of 12 digits": (GOOD.replace("AUT             0000/00/00", "AUT 123456789012 0000/00/00"),
                             "Line 3: column 69 between FIDE ID (columns 58–68) and birth date (columns "
                             "70–79) must be blank, but “123456789012” runs over it: the fields are "
                             "shifted."),
    "no player lines": ("", "Cannot read the TRF file: the file has no player lines (001)."),
    "XXR": ("XXR 99999999999999999999\n" + GOOD,
            "Line 3: XXR 99999999999999999999 is not between 1 and 999."),
    "round beyond XXR": ("XXR 1\n" + GOOD.replace("     1 b 0", "     1 b 0  0000 - H"),
                         "Line 5: round 2 is beyond the 1 rounds of the tournament."),
    "NUL byte": (GOOD.replace("Anna", "An\x00a"), "Line 3: column 24 holds a control character (U+0000)."),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(BAD))
def test_both_commands_refuse_the_same_files(case, tmp_path):
    text, message = BAD[case]
    path = tmp_path / "bad.trf"
    path.write_text(HEAD + text, encoding="utf-8")
    for command in ("rate_trf", "import_trf"):
        with pytest.raises(CommandError) as error:
            call_command(command, str(path), stdout=StringIO())
        assert message in str(error.value), command


@pytest.mark.django_db
def test_both_commands_accept_an_all_zero_birth_date(tmp_path):
    path = tmp_path / "good.trf"
    path.write_text(HEAD + GOOD, encoding="utf-8")
    out = StringIO()
    call_command("rate_trf", str(path), "--json", stdout=out)
    assert '"name": "Huber, Anna"' in out.getvalue()
    call_command("import_trf", str(path), stdout=StringIO())
