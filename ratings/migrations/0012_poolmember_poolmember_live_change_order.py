"""The live list by change, biggest gains first, as ``ratings.lists.table`` orders it (a change
shown only for members who played, NULLs last; ties by live rating, then rank): on PostgreSQL an
index in exactly that order, so a page reads its own rows instead of sorting the pool. Not over
the rank (``PoolMember.live_rank`` stays unindexed so that renumbering updates in place). SQLite
cannot index NULLS LAST; it sorts."""

from django.db import migrations

INDEX = "poolmember_live_change_order"


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{INDEX}" ON "ratings_poolmember" ("pool_id", '
            '(CASE WHEN "live_games" > 0 THEN "live_change" ELSE NULL END) DESC NULLS LAST, "live_rating" DESC)'
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{INDEX}"')


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0011_pool_member_live_rank"),
    ]

    operations = [migrations.RunPython(create, drop)]
