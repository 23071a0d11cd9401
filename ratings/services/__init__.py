"""Services: the only place ratings change. Each public function is one transaction."""

from ratings.services.errors import RatingsError
from ratings.services.fide import fide_conversion_applies, fide_converted, pool_take_over_fide
from ratings.services.imports import ImportReport, ratings_import_list
from ratings.services.periods import period_close, period_reopen
from ratings.services.pools import pool_create, pool_get, tournament_pools, tournament_rate_in_pool
from ratings.services.recalc import pool_recalculate
from ratings.services.redate import game_date_change, games_redate
from ratings.services.results import game_record_result, tournament_ratings_update
from ratings.services.transform import pool_transform_2024

__all__ = [
    "ImportReport",
    "RatingsError",
    "fide_conversion_applies",
    "fide_converted",
    "game_date_change",
    "game_record_result",
    "games_redate",
    "period_close",
    "period_reopen",
    "pool_create",
    "pool_get",
    "pool_recalculate",
    "pool_take_over_fide",
    "pool_transform_2024",
    "ratings_import_list",
    "tournament_pools",
    "tournament_rate_in_pool",
    "tournament_ratings_update",
]
