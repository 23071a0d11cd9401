"""The bracket matcher computes a pair's quality-criteria weight once per pair of criteria keys;
the key must hold everything of a player the quality criteria read."""

import inspect
import re

from clubrating.tournaments.pairing.dutch2026.bracket.bracket_matcher import BracketMatcher
from clubrating.tournaments.pairing.dutch2026.criteria import QUALITY_CRITERIA

READ = {"role", "points_with_acceleration", "float_1", "float_2", "color_preference", "color_difference",
        "color_double", "top_scorer", "bye_rank"}


def test_the_criteria_key_holds_every_player_attribute_the_criteria_read():
    read = set()
    for criterion in QUALITY_CRITERIA:
        read |= set(re.findall(r"\b(?:player_[12]|p)\.([a-z_0-9]+)", inspect.getsource(criterion)))
    assert read == READ
    key = inspect.getsource(BracketMatcher.criteria_key)
    keyed = set(re.findall(r"\bplayer\.([a-z_0-9]+)", key))
    assert "preference.side" in key and "preference.strength" in key  # the colour preference, whole
    assert read - {"color_preference"} <= keyed
