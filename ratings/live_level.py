"""The live list's ranks as levels: a row per distinct live rating of a pool, holding how many
rows are rated above it (``above``) and how many hold it (``size``). A row's rank on the live
list is its level's ``above`` plus its place among the rows tied with it (``PoolMember.live_place``,
in the order of ``ratings.lists.order``).

Why levels: a result save moves its two players past the hundreds of members rated between
their old and new ratings. With a rank stored in every row, each of those rows was rewritten
(most of a save's database time); with levels, only the levels between the old and the new
rating (one per rating point passed) and the places of the ties the players leave and join are.
The list pages still read a row's rank by one index seek (``live_rank_expression``). Kept by
``ratings.services.live_ranks`` and ``live_places``.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, OuterRef, Subquery
from django.utils.translation import gettext_lazy as _


class LiveLevel(models.Model):
    pool = models.ForeignKey("ratings.RatingPool", verbose_name=_("rating pool"), on_delete=models.CASCADE,
                             related_name="+", db_index=False)
    rating = models.FloatField(_("live rating"))
    above = models.PositiveIntegerField(_("members rated above"))
    size = models.PositiveIntegerField(_("members with this rating"))

    class Meta:
        app_label = "ratings"
        verbose_name = _("live rating level")
        verbose_name_plural = _("live rating levels")
        constraints = [models.UniqueConstraint(fields=["pool", "rating"], name="live_level_once")]

    def __str__(self) -> str:
        return f"{self.pool_id}: {self.rating:g}"


def live_rank_expression(pool_field: str = "pool_id", rating_field: str = "live_rating",
                         place_field: str = "live_place"):
    """The row's rank on the live list (None off it), for a PoolMember query: its level's
    ``above`` (one seek on the level's unique index) plus its place among its ties."""
    level = LiveLevel.objects.filter(pool_id=OuterRef(pool_field), rating=OuterRef(rating_field))
    above = level.values("above")
    return Subquery(above[:1], output_field=models.IntegerField()) + F(place_field)
