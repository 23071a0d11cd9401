from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from .member_data import register_parts

        register_parts()  # the ratings' part of a member's data (``clubrating.clubs.member_data``)
        from clubrating.tournaments.recording import result_rater_register

        from .services.results import ResultRater

        result_rater_register(ResultRater())  # every recorded result is rated
        from clubrating.clubs.register import (
            member_born_register,
            member_removed_register,
            member_renamed_register,
        )

        from .services.live_ranks import live_ranks_member_renamed, live_ranks_members_removed

        member_renamed_register(live_ranks_member_renamed)  # his place among his ties on live lists
        member_removed_register(live_ranks_members_removed)  # the ranks below a deleted member
        from .services.member_born import live_values_member_born

        member_born_register(live_values_member_born)  # a junior's factor (FIDE rules)
