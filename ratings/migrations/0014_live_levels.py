from django.db import migrations, models
from django.db.models import Count, F, Window
from django.db.models.functions import RowNumber


def levels_fill(apps, schema_editor):
    """The stored ranks become places among ties and each pool's levels (``ratings.live_level``)."""
    PoolMember = apps.get_model("ratings", "PoolMember")
    LiveLevel = apps.get_model("ratings", "LiveLevel")
    rated = PoolMember.objects.filter(live_rating__isnull=False).order_by()
    places = rated.annotate(place=Window(RowNumber(), partition_by=[F("pool_id"), F("live_rating")],
                                         order_by=F("live_place").asc())).values_list("id", "place")
    PoolMember.objects.bulk_update([PoolMember(id=pk, live_place=place) for pk, place in places],
                                   ["live_place"], batch_size=2000)
    levels = []
    above: dict[int, int] = {}
    for pool_id, rating, size in (rated.values("pool_id", "live_rating").annotate(n=Count("id"))
                                  .order_by("pool_id", "-live_rating").values_list("pool_id", "live_rating", "n")):
        levels.append(LiveLevel(pool_id=pool_id, rating=rating, above=above.get(pool_id, 0), size=size))
        above[pool_id] = above.get(pool_id, 0) + size
    LiveLevel.objects.bulk_create(levels, batch_size=2000)


def levels_drop(apps, schema_editor):
    """Back to a rank in every row: its level's count above plus its place."""
    PoolMember = apps.get_model("ratings", "PoolMember")
    LiveLevel = apps.get_model("ratings", "LiveLevel")
    above = {(level.pool_id, level.rating): level.above for level in LiveLevel.objects.all()}
    rows = PoolMember.objects.filter(live_rating__isnull=False).values_list("id", "pool_id", "live_rating",
                                                                             "live_place")
    PoolMember.objects.bulk_update([PoolMember(id=pk, live_place=above[(pool, rating)] + place)
                                    for pk, pool, rating, place in rows], ["live_place"], batch_size=2000)


class Migration(migrations.Migration):

    dependencies = [
        ("ratings", "0013_merge_20261129_0937"),
    ]

    operations = [
        migrations.RenameField(model_name="poolmember", old_name="live_rank", new_name="live_place"),
        migrations.AlterField(
            model_name="poolmember",
            name="live_place",
            field=models.PositiveIntegerField(blank=True, null=True, verbose_name="place among equal live ratings"),
        ),
        migrations.CreateModel(
            name="LiveLevel",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("rating", models.FloatField(verbose_name="live rating")),
                ("above", models.PositiveIntegerField(verbose_name="members rated above")),
                ("size", models.PositiveIntegerField(verbose_name="members with this rating")),
                ("pool", models.ForeignKey(db_index=False, on_delete=models.deletion.CASCADE, related_name="+",
                                           to="ratings.ratingpool", verbose_name="rating pool")),
            ],
            options={
                "verbose_name": "live rating level",
                "verbose_name_plural": "live rating levels",
                "constraints": [models.UniqueConstraint(fields=("pool", "rating"), name="live_level_once")],
            },
        ),
        migrations.RunPython(levels_fill, levels_drop),
    ]
