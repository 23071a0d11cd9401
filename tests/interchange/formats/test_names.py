import pytest

from clubrating.interchange.formats.names import split_name


@pytest.mark.parametrize(("name", "parts"), [
    ("Huber, Anna", ("Huber", "Anna")),
    ("  van der  Berg ,\tJan  Pieter ", ("van der Berg", "Jan Pieter")),
    ("Aravindh, Chithambaram VR.", ("Aravindh", "Chithambaram VR.")),
    ("Praggnanandhaa R", ("Praggnanandhaa R", "")),
    ("Huber, Anna, Maria", ("Huber", "Anna, Maria")),
    (", Anna", ("", "Anna")),
])
def test_last_name_before_the_first_comma(name, parts):
    assert split_name(name) == parts
