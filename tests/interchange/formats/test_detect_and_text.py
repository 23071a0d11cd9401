import pytest

from clubrating.interchange.formats.detect import CSV, TRF, sniff_format
from clubrating.interchange.formats.text import decode_text, read_text


@pytest.mark.parametrize(("text", "expected"), [
    ("012 Open\n001    1 m ...\n", TRF),
    ("\ufeff\n\n001    1 m    Huber, Anna\n", TRF),
    ("XXR 9\n", TRF),
    ("id,rating\n1,1500\n", CSV),
    ("name;rating\n", CSV),
    ("", CSV),
])
def test_sniff_format(text, expected):
    assert sniff_format(text) == expected


@pytest.mark.parametrize(("raw", "text"), [
    ("Müller".encode(), "Müller"),
    ("\ufeffMüller".encode(), "Müller"),
    ("Müller €".encode("cp1252"), "Müller €"),
    (b"M\xfcller \x81", "Müller \x81"),  # 0x81 is no Windows-1252 character: Latin-1
])
def test_decode_text(raw, text):
    assert decode_text(raw) == text


def test_read_text(tmp_path):
    path = tmp_path / "x.csv"
    path.write_bytes("Jörg".encode("latin-1"))
    assert read_text(path) == "Jörg"
    with pytest.raises(OSError):
        read_text(tmp_path / "missing.csv")
