import pytest

from clubrating.interchange.formats.csvtext import CsvError, read_csv
from clubrating.interchange.formats.limits import FieldError


def _rows(table):
    return [(row.line, row.values) for row in table.rows]


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_line_endings_and_delimiters(newline, delimiter):
    text = newline.join([delimiter.join(["Name", " Rating "]), delimiter.join(["Huber", "1500"]), ""])
    table = read_csv("\ufeff" + text)
    assert (table.columns, table.delimiter) == (["name", "rating"], delimiter)
    assert _rows(table) == [(2, {"name": "Huber", "rating": "1500"})]


def test_rows_keep_their_file_lines_past_blank_lines_and_empty_extra_cells():
    text = '\nid;name;rating\n1;"Huber, Anna";1500\n\n2;Maier;\n3;Gruber;1400;;\n'
    table = read_csv(text)
    assert _rows(table) == [
        (3, {"id": "1", "name": "Huber, Anna", "rating": "1500"}),
        (5, {"id": "2", "name": "Maier", "rating": ""}),
        (6, {"id": "3", "name": "Gruber", "rating": "1400"}),
    ]
    assert table.rows[1].get("games") == ""


def test_an_unbalanced_quote_is_refused_at_its_line_not_merged_with_the_rows_below():
    rows = "".join(f"{n};Name{n};1500\n" for n in range(2, 14))
    with pytest.raises(FieldError) as error:
        read_csv('id;name;rating\n1;"Huber, Anna;1500\n' + rows + '14;"x";1400\n')
    assert (error.value.code, error.value.line, str(error.value)) == (
        "line_break", 2, "line 2: a quoted field runs on to line 15; is a quote unbalanced?")
    assert error.value.params == {"end": 15}
    with pytest.raises(FieldError) as at_end:
        read_csv('id;name;rating\n1;"Huber, Anna;1500\n2;Maier;1400\n')
    assert (at_end.value.line, at_end.value.params) == (2, {"end": 3})
    with pytest.raises(CsvError) as on_one_line:
        read_csv('id;name;rating\n1;"Huber" Anna;1500\n')
    assert (on_one_line.value.code, on_one_line.value.line, str(on_one_line.value)) == (
        "csv_quote", 2, "line 2: a quoted field is followed by more text before the next “;”; a quote "
        "inside a field must be doubled.")


def test_more_fields_than_the_header_are_refused():
    with pytest.raises(FieldError) as error:
        read_csv("id;name;rating\n1;Huber;1500\n3;Gruber;1400;;extra;\n")
    assert str(error.value) == "line 3: the row has 5 fields, the header only 3."


def test_a_header_the_sniffer_gives_up_on_still_gives_its_delimiter():
    table = read_csv("a;b;c;d\n1;2;3;4\n")
    assert (table.delimiter, table.sniffed, table.columns) == (";", True, ["a", "b", "c", "d"])


def test_a_header_without_delimiter_is_one_column():
    table = read_csv("rating\n1500\n")
    assert (table.columns, table.delimiter, _rows(table)) == (["rating"], ",", [(2, {"rating": "1500"})])
    assert table.sniffed is False


def test_errors_carry_the_line():
    with pytest.raises(CsvError) as empty:
        read_csv(" \n\n")
    assert (empty.value.code, str(empty.value), empty.value.line) == ("empty", "the file is empty.", 0)
    with pytest.raises(CsvError) as huge:
        read_csv("a,b\n1,2\n3," + "x" * 200_000 + "\n")
    assert (huge.value.code, str(huge.value)) == (
        "csv_field_size", "line 3: a field is longer than 131072 characters.")
    with pytest.raises(CsvError) as open_at_end:
        read_csv('a\tb\n1\t"2\\')
    assert str(open_at_end.value) == "line 2: the file ends inside a quoted field; is a quote unbalanced?"


@pytest.mark.parametrize(("text", "line", "found", "delimiter"), [
    ("last_name;first_name;birth_date\nHuber;Anna;\nMaier,Karl,1970-01-01\n", 3, ",", ";"),
    ("last_name,first_name\nHuber,Anna\nMaier;Karl\n", 3, ";", ","),
    ("name\trating\nHuber, Anna\t1500\n\nMaier;1400\n", 4, ";", "tab"),
    ('id,name,rating\nAT1001;"Huber, Anna";1850\n', 2, ";", ","),
])
def test_a_row_with_another_delimiter_than_the_header_is_refused(text, line, found, delimiter):
    with pytest.raises(FieldError) as error:
        read_csv(text)
    assert (error.value.code, error.value.line, error.value.params) == (
        "csv_mixed", line, {"found": found, "delimiter": delimiter})
    assert str(error.value) == (
        f"line {line}: the row is separated by “{found}”, the header by “{delimiter}”; every row "
        "must use the header's delimiter.")


def test_fields_holding_another_delimiter_are_no_mixed_row():
    table = read_csv('name;rating;games\n"Huber, Anna"\nMaier;Karl, Franz\n')
    assert _rows(table) == [(2, {"name": "Huber, Anna"}), (3, {"name": "Maier", "rating": "Karl, Franz"})]
