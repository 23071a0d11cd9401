"""The TRF-2026 settings records (152, 192, 202) and JaVaFo's XXC line, read and written."""

from clubrating.interchange.formats.trf.settings import TrfSettings, settings_lines, trf_settings


def test_settings_are_written_and_read_back():
    settings = TrfSettings("b", "FIDE_DUTCH_2025", "BH/C1,BH,SB,TPN")
    lines = settings_lines(settings)
    assert lines == ["192 FIDE_DUTCH_2025", "202 BH/C1,BH,SB,TPN", "152 B", "XXC black1"]
    assert trf_settings(lines) == settings


def test_javafo_xxc_alone_and_a_202_list_with_blanks():
    assert trf_settings(["XXR 9", "XXC rank white1", "202 bh/c1, sb ,DE"]) == TrfSettings(
        "w", "", "BH/C1,SB,DE")
    assert trf_settings(["152 B"]) == TrfSettings("b")
    assert trf_settings([]) == TrfSettings()
    assert settings_lines(TrfSettings()) == []
