"""Download names: readable parts in the page's language, an ASCII fallback and ``filename*``."""

from clubrating.core.downloads import attachment, download_name, download_stem, safe_filename


def test_download_names_are_ascii():
    assert safe_filename("Schnellschach Ü18-2026-07-01.pdf") == "Schnellschach_Ue18-2026-07-01.pdf"
    assert safe_filename('"\n') == "download"
    # German transliteration, not the accents dropped ("OSB_Standard" before).
    assert safe_filename("Wertungsliste_ÖSB_Standard_2026-07-01.xlsx") == (
        "Wertungsliste_OESB_Standard_2026-07-01.xlsx")
    assert safe_filename("Österreichische Meisterschaft Groß.pdf") == (
        "Oesterreichische_Meisterschaft_Gross.pdf")
    assert safe_filename("Café Zürich.csv") == "Cafe_Zuerich.csv"


def test_names_are_made_of_readable_parts():
    assert download_name("Wertungsliste", "ÖSB Standard", "2026-07-01", extension="xlsx") == (
        "Wertungsliste_ÖSB_Standard_2026-07-01.xlsx")
    assert download_name("Herbstturnier 2026", "Paarungen Runde 1", extension="pdf") == (
        "Herbstturnier_2026_Paarungen_Runde_1.pdf")
    assert download_stem("Open: A/B", "", " Rangliste ") == "Open_A_B_Rangliste"
    assert download_stem("", "") == "download"


def test_content_disposition_offers_the_real_name_and_an_ascii_one():
    assert attachment("Wertungsliste_ÖSB_Standard_2026-07-01.xlsx") == (
        'attachment; filename="Wertungsliste_OESB_Standard_2026-07-01.xlsx"; '
        "filename*=UTF-8''Wertungsliste_%C3%96SB_Standard_2026-07-01.xlsx"
    )
    assert attachment("Rating_list_Standard_2026-07-01.csv") == (
        'attachment; filename="Rating_list_Standard_2026-07-01.csv"')
