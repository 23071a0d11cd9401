from clubrating.tournaments.pairing.dutch2026.criteria.abstract.absolute_criterion import (
    AbsoluteCriterion,
)
from clubrating.tournaments.pairing.dutch2026.criteria.abstract.color_criterion import ColorCriterion
from clubrating.tournaments.pairing.dutch2026.criteria.abstract.quality_criteron import QualityCriterion

__all__ = ["AbsoluteCriterion", "ColorCriterion", "QualityCriterion"]
