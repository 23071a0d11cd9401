import datetime

import pytest
from django.db import IntegrityError, transaction

from ratings.models import PRESET_NAMES, PeriodReopening, RatingPeriod, RatingRecord
from ratings.rules.presets import PRESETS
from tests.factories import GameFactory
from tests.ratings.factories import make_pool


def test_pool_rule_choices_are_the_engine_presets():
    assert PRESET_NAMES == list(PRESETS)


@pytest.mark.django_db
def test_one_open_period_per_pool():
    pool = make_pool()
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingPeriod.objects.create(
            pool=pool, start=datetime.date(2025, 7, 1), end=datetime.date(2025, 12, 31)
        )


@pytest.mark.django_db
def test_one_record_per_game_member_and_pool():
    pool = make_pool()
    game = GameFactory()
    fields = dict(
        pool=pool,
        game=game,
        member=game.white,
        opponent=game.black,
        white=True,
        played_on=datetime.date(2025, 3, 1),
        score=1.0,
    )
    RatingRecord.objects.create(**fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingRecord.objects.create(**fields)
    with pytest.raises(IntegrityError), transaction.atomic():
        RatingRecord.objects.create(**{**fields, "game": GameFactory(), "score": 0.25})


@pytest.mark.django_db
def test_reopening_needs_a_reason():
    period = make_pool().periods.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        PeriodReopening.objects.create(period=period, reason="")
