"""The result control and its keyboard legend (clubrating.tournaments.forms)."""

from django.utils import translation

from clubrating.tournaments.forms import RESULT_CONTROLS, result_key_legend


def test_the_legend_is_built_from_the_controls_in_the_pages_language():
    with translation.override("de-at"):
        german = result_key_legend()
    with translation.override("en"):
        english = result_key_legend()
    assert german == [
        (["1", "w"], "1-0", ""), (["=", "5", "r"], "½-½", ""), (["0", "s"], "0-1", ""),
        (["+"], "+/−", "Weiß gewinnt kampflos"), (["-"], "−/+", "Schwarz gewinnt kampflos"),
        (["x", "*"], "−/−", "beide kampflos verloren"), (["⌫", "Del"], "", "nicht gespielt"),
    ]
    assert [keys for keys, _label, _meaning in english][:3] == [["1", "w"], ["=", "5", "d"], ["0", "b"]]
    # Every control is in the legend with its own label, in the controls' order.
    assert [label for _keys, label, _meaning in english] == [label if value else ""
                                                              for value, label, _keys in RESULT_CONTROLS]
