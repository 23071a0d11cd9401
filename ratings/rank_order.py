"""The rank order's old place (migration 0011 fills the live ranks with it): ``ratings.lists.order``."""

from ratings.lists.order import LIVE_RANK_ORDER, rank_key, rank_order

__all__ = ["LIVE_RANK_ORDER", "rank_key", "rank_order"]
