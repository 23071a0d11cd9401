from django.urls import path

from ratings.views import calculators, lists, officer, pools

app_name = "ratings"

urlpatterns = [
    path("", lists.pool_list, name="pool_list"),
    path("pools/<int:pk>/live/", lists.live_list, name="live"),
    path("pools/<int:pk>/live/print/", lists.live_print, name="live_print"),
    path("pools/<int:pk>/live/pdf/", lists.live_pdf, name="live_pdf"),
    path("lists/<int:pk>/", lists.published_list, name="list"),
    path("lists/<int:pk>/print/", lists.published_print, name="list_print"),
    path("lists/<int:pk>/pdf/", lists.published_pdf, name="list_pdf"),
    path("calculators/", calculators.calculators, name="calculators"),
    path("calculators/rating-change/", calculators.rating_change, name="calc_change"),
    path("calculators/team-forecast/", calculators.team_forecast, name="calc_forecast"),
    path("calculators/newcomer/", calculators.newcomer, name="calc_newcomer"),
    path("officer/", officer.officer_home, name="officer"),
    path("officer/periods/<int:pk>/close/", officer.period_close_view, name="period_close"),
    path("officer/periods/<int:pk>/reopen/", officer.period_reopen_view, name="period_reopen"),
    path("officer/pools/<int:pk>/import/", officer.pool_import, name="import"),
    path("officer/pools/<int:pk>/recalculate/", officer.pool_recalculate_view, name="recalculate"),
    path("officer/pools/new/", pools.pool_create_view, name="pool_create"),
    path("officer/pools/<int:pk>/transform-2024/", pools.pool_transform_view, name="transform"),
    path("officer/pools/<int:pk>/fide/", pools.pool_fide_view, name="fide"),
]
