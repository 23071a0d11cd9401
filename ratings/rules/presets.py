"""Named rule sets: every parameter of a rating system in one frozen object.

Sources (docs/rules.md lists them): the Austrian national rating rules (ÖSB) and TUWO § 27, the
explanation of the 1990 German ELO list (DSB), the encyclopedia article "Elo-Zahl", the EGF/Elo
comparison, FIDE's Rating Regulations and the EGF rating system of 2021.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_RULES", "PRESETS", "Rules", "UnknownRules", "get_rules"]

DEFAULT_RULES = "oesb-classic"

EXPECTATIONS = ("polynomial", "table", "logistic", "normal", "egf-classic", "egf-2021")
FACTORS = ("oesb", "fide", "constant", "egf-classic", "egf-2021")
FIRST_RATINGS = ("oesb", "fide")
# Expectations that depend on both ratings, not only on their difference (the EGF's).
ABSOLUTE_EXPECTATIONS = ("egf-classic", "egf-2021")


@dataclass(frozen=True)
class Rules:
    name: str
    family: str  # "oesb", "fide", "dsb", "egf"
    expectation: str = "polynomial"  # one of EXPECTATIONS
    # |D| is capped here before the expectation (FIDE 400); None = no cap.
    difference_cap: int | None = None
    # A player rated this much or more counts the full difference on his own side (FIDE Rating
    # Regulations 8.3.1 as worded from 1 October 2025: 2650); his opponent keeps the cap.
    full_difference_from: int | None = None
    factor: str = "oesb"  # one of FACTORS
    # oesb factor reduction: F = min(F, reduction_numerator / games_count) (ÖSB, Faktorreduktion).
    factor_reduction: bool = False
    reduction_numerator: float = 850.0
    # K values of the FIDE family.
    k_new: float = 0.0  # for the first k_new_games games
    k_new_games: int = 30
    k_junior_age: int | None = None  # junior while year - birth_year <= this (None = no junior rule)
    k_junior_below: int = 2300
    k_standard: float = 0.0
    k_high: float = 0.0
    k_high_from: int = 2400  # K k_high once this rating was reached (ever: the peak rating)
    k_games_cap: float | None = None  # K x games per period <= this (FIDE 2024: 700)
    constant_factor: float = 0.0  # dsb: K 32
    floor: int | None = None
    # First rating of newcomers.
    first_rating: str = "oesb"  # one of FIRST_RATINGS
    min_games: int = 7
    start_scale: float = 700.0  # ÖSB start formula: avg + 700 (p - 1/2) n/(n+2)
    hypothetical_draws: int = 0  # fide 2024: two draws against 1800 join the first rating
    hypothetical_rating: int = 1800
    first_rating_cap: int | None = None
    # DSB 1990: blend progressive and performance below blend_games games (docs/rules.md §4.1).
    blend_games: int = 0
    # Decimals of published ratings: 0 for chess, 3 for EGF (EGF/Elo comparison).
    decimals: int = 0
    periods_per_year: int | None = 2  # None = one tournament per period (EGF)
    egf_epsilon: float = 0.0  # EGF/Elo comparison: anti-deflation constant "Null gesetzt"
    # What a pool of the rule set offers beyond the calculation (the services and pages ask these,
    # never the name):
    # classes are Go grades (kyu, dan) instead of chess classes
    go_grades: bool = False
    # FIDE ratings may be taken over as first ratings (chess, not Go)
    fide_takeover: bool = True
    # the Austrian expectation table is offered as an option of the pool (docs/rules.md §1.1)
    table_option: bool = False
    # the ÖSB's transformation of 1 September 2024, and FIDE ratings converted after it
    transformation_2024: bool = False
    # players without a rated game for this many years leave the list (ÖSB TUWO § 27 d): the
    # default of a new pool's setting; None = off
    inactivity_years: int | None = None

    def __post_init__(self) -> None:
        if self.expectation not in EXPECTATIONS:
            raise ValueError(f"unknown expectation {self.expectation!r}; valid: {', '.join(EXPECTATIONS)}")
        if self.factor not in FACTORS:
            raise ValueError(f"unknown factor method {self.factor!r}; valid: {', '.join(FACTORS)}")
        if self.first_rating not in FIRST_RATINGS:
            raise ValueError(f"unknown first rating method {self.first_rating!r}")

    @property
    def expectation_of_difference(self) -> bool:
        """E depends on the rating difference only (so it may be memoised per difference)."""
        return self.expectation not in ABSOLUTE_EXPECTATIONS and self.full_difference_from is None


class UnknownRules(ValueError):
    def __init__(self, name: str):
        self.name = name
        super().__init__(f"unknown rule set {name!r}; valid: {', '.join(PRESETS)}")


_FIDE_K = dict(k_new_games=30, k_high_from=2400)
# What the Austrian rule sets offer: the table option, the 2024 transformation, TUWO § 27 d.
_OESB = dict(table_option=True, transformation_2024=True, inactivity_years=7)
# Go: grades instead of classes, no FIDE ratings.
_EGF = dict(go_grades=True, fide_takeover=False)

PRESETS: dict[str, Rules] = {
    # ÖSB rules: polynomial, F = (3400 - R)^2 / 1e5 with reduction 850 / n, floor 1200, 7 games.
    "oesb-classic": Rules(
        name="oesb-classic", family="oesb", expectation="polynomial", factor="oesb",
        factor_reduction=True, floor=1200, min_games=7, periods_per_year=2, **_OESB,
    ),
    # ÖSB TUWO from 1.1.2012: quarters, no factor reduction, floor 800.
    "oesb-2012": Rules(
        name="oesb-2012", family="oesb", expectation="polynomial", factor="oesb",
        factor_reduction=False, floor=800, min_games=7, periods_per_year=4, **_OESB,
    ),
    # ÖSB TUWO from 1.9.2024: floor 1200 again.
    "oesb-2024": Rules(
        name="oesb-2024", family="oesb", expectation="polynomial", factor="oesb",
        factor_reduction=False, floor=1200, min_games=7, periods_per_year=4, **_OESB,
    ),
    # FIDE Rating Regulations 2024: table, D cap 400, K 40/20/10, K x n <= 700,
    # first rating >= 5 games with two hypothetical draws against 1800, cap 2200, floor 1400.
    "fide-2024": Rules(
        name="fide-2024", family="fide", expectation="table", difference_cap=400, factor="fide",
        k_new=40, k_junior_age=18, k_junior_below=2300, k_standard=20, k_high=10, k_games_cap=700,
        floor=1400, first_rating="fide", min_games=5, hypothetical_draws=2, hypothetical_rating=1800,
        first_rating_cap=2200, periods_per_year=12, **_FIDE_K,
    ),
    # (public) FIDE Rating Regulations 8.3.1 as worded from 1 October 2025: as fide-2024, but a
    # player rated 2650 or more counts the full rating difference on his own side.
    "fide-2025": Rules(
        name="fide-2025", family="fide", expectation="table", difference_cap=400,
        full_difference_from=2650, factor="fide",
        k_new=40, k_junior_age=18, k_junior_below=2300, k_standard=20, k_high=10, k_games_cap=700,
        floor=1400, first_rating="fide", min_games=5, hypothetical_draws=2, hypothetical_rating=1800,
        first_rating_cap=2200, periods_per_year=12, **_FIDE_K,
    ),
    # Encyclopedia article and EGF/Elo comparison: logistic, D cap 400, K 25 below 30 games, 15, 10 from 2400.
    # First rating (not in those sources; docs/rules.md §4 decides): FIDE method, 9 games, no draws, no cap.
    "fide-2005": Rules(
        name="fide-2005", family="fide", expectation="logistic", difference_cap=400, factor="fide",
        k_new=25, k_standard=15, k_high=10, first_rating="fide", min_games=9, periods_per_year=4,
        **_FIDE_K,
    ),
    # DSB 1990 explanation: normal distribution (sigma 200 sqrt 2), K 32, blend below 30 games, markers.
    # Newcomers (the explanation gives none): the ÖSB start formula with 5 games.
    "dsb-1990": Rules(
        name="dsb-1990", family="dsb", expectation="normal", factor="constant", constant_factor=32,
        min_games=5, blend_games=30, periods_per_year=4,
    ),
    # EGF/Elo comparison: EGF classic, con table, 3 decimals, each tournament a period.
    # Newcomers (EGF normally takes the declared grade): the start formula from 1 game.
    "egf-classic": Rules(
        name="egf-classic", family="egf", expectation="egf-classic", factor="egf-classic",
        min_games=1, decimals=3, periods_per_year=None, **_EGF,
    ),
    # EGF rating system 2021: beta(r) = -7 ln(3300 - r), con ((3300 - r)/200)^1.6 + bonus.
    "egf-2021": Rules(
        name="egf-2021", family="egf", expectation="egf-2021", factor="egf-2021",
        min_games=1, decimals=3, periods_per_year=None, **_EGF,
    ),
}


def get_rules(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownRules(name) from None
