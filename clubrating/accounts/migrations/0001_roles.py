"""The roles the site knows exist from `migrate` on: nobody types a group name by hand."""

from django.conf import settings
from django.db import migrations


def roles_create(apps, schema_editor):
    group = apps.get_model("auth", "Group")
    for name in (settings.OFFICIALS_GROUP, settings.RATING_OFFICERS_GROUP, settings.CLUB_ADMINS_GROUP):
        group.objects.get_or_create(name=name)


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]

    operations = [migrations.RunPython(roles_create, migrations.RunPython.noop)]
