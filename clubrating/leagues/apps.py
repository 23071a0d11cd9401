from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "clubrating.leagues"
    label = "leagues"
    verbose_name = _("Team leagues")

    def ready(self) -> None:
        from clubrating.leagues.eligibility import ratings_reader_set

        from .member_data import register_parts

        register_parts()  # this app's part of a member's data (``clubrating.clubs.member_data``)
        ratings_reader_set(_match_day_ratings)


def _match_day_ratings(match, member_ids: list[int]) -> dict[int, int]:
    # The page module composes the leagues with the rating pools; imported when first needed.
    from clubrating.leagues.views import lineup_ratings

    return lineup_ratings(match, member_ids)
