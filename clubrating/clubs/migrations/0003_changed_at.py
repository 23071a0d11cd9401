# The time a club or member was last saved, for the cache keys of pages that show them.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0002_member_federation'),
    ]

    operations = [
        migrations.AddField(
            model_name='club',
            name='changed_at',
            field=models.DateTimeField(auto_now=True, db_index=True, verbose_name='changed'),
        ),
        migrations.AddField(
            model_name='member',
            name='changed_at',
            field=models.DateTimeField(auto_now=True, db_index=True, verbose_name='changed'),
        ),
    ]
