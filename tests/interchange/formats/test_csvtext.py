import pytest

from clubrating.interchange.formats.csvtext import CsvError, read_csv


def _rows(table):
    return [(row.line, row.values) for row in table.rows]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_line_endings_and_delimiters(newline, delimiter):
    text = newline.join([delimiter.join(["Name", " Rating "]), delimiter.join(["Huber", "1500"]), ""])
    table = read_csv("\ufeff" + text)
    assert (table.columns, table.delimiter) == (["name", "rating"], delimiter)
    assert _rows(table) == [(2, {"name": "Huber", "rating": "1500"})]


def test_rows_keep_their_file_lines_past_blank_lines_and_quoted_breaks():
    text = '\nid;name;rating\n1;"Huber,\nAnna";1500\n\n2;Maier;\n3;Gruber;1400;extra\n'
    table = read_csv(text)
    assert _rows(table) == [
        (3, {"id": "1", "name": "Huber,\nAnna", "rating": "1500"}),
        (6, {"id": "2", "name": "Maier", "rating": ""}),
        (7, {"id": "3", "name": "Gruber", "rating": "1400"}),
    ]
    assert table.rows[1].get("games") == ""


def test_a_header_without_delimiter_is_one_column():
    table = read_csv("rating\n1500\n")
    assert (table.columns, table.delimiter, _rows(table)) == (["rating"], ",", [(2, {"rating": "1500"})])


def test_errors_carry_the_line():
    with pytest.raises(CsvError) as empty:
        read_csv(" \n\n")
    assert (str(empty.value), empty.value.line) == ("the file is empty", 0)
    with pytest.raises(CsvError) as huge:
        read_csv("a,b\n1,2\n3," + "x" * 200_000 + "\n")
    assert str(huge.value) == "line 3: field larger than field limit (131072)"
    error = CsvError("bad quote", line=4, column=7)
    assert str(error) == "line 4, column 7: bad quote"
