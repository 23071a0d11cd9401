# The member search key (``clubrating.clubs.search``; its folding table is read when the column is
# created, so changing the table needs a migration that creates the column anew) and, on
# PostgreSQL only, the trigram index that serves ``LIKE '%word%'`` on it. SQLite scans, as before.

import clubrating.clubs.search
import django.db.models.functions.text
from django.db import migrations, models

INDEX = "clubs_member_search_name_trgm"


def create_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    schema_editor.execute(
        f"CREATE INDEX IF NOT EXISTS {INDEX} ON clubs_member USING gin (search_name gin_trgm_ops)"
    )


def drop_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0004_privacy'),
    ]

    operations = [
        migrations.AddField(
            model_name='member',
            name='search_name',
            field=models.GeneratedField(db_persist=True, expression=django.db.models.functions.text.Concat(clubrating.clubs.search.PlainFold(django.db.models.functions.text.Concat(models.F('last_name'), models.Value(' '), models.F('first_name'))), models.Value(' '), django.db.models.functions.text.Replace(django.db.models.functions.text.Replace(django.db.models.functions.text.Replace(clubrating.clubs.search.PlainFold(django.db.models.functions.text.Concat(models.F('last_name'), models.Value(' '), models.F('first_name'))), models.Value('ae'), models.Value('a')), models.Value('oe'), models.Value('o')), models.Value('ue'), models.Value('u')), output_field=models.TextField()), output_field=models.TextField()),
        ),
        migrations.RunPython(create_trigram_index, drop_trigram_index),
    ]
