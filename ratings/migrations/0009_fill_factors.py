from django.db import migrations

# PostgreSQL: free room on each page, so that rewriting columns no index holds stays on the page
# and touches no index (a "heap-only tuple" update): a record's calculation (closing a period
# after a reopening rewrites 200,000 of them, every save a few), a member's published values.
FILL = {"RatingRecord": 50, "PoolMember": 70}


def fill_factors_set(apps, schema_editor):
    """Set the fill factors and rewrite the stored pages once, so the room exists already.
    Not in a transaction: VACUUM cannot run in one."""
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for model, percent in FILL.items():
            table = apps.get_model("ratings", model)._meta.db_table
            cursor.execute(f"ALTER TABLE {table} SET (fillfactor = {percent})")
            cursor.execute(f"VACUUM FULL {table}")


def fill_factors_reset(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        for model in FILL:
            cursor.execute(f"ALTER TABLE {apps.get_model('ratings', model)._meta.db_table} RESET (fillfactor)")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ('ratings', '0008_period_waiting'),
    ]

    operations = [
        migrations.RunPython(fill_factors_set, fill_factors_reset, atomic=False),
    ]
