# A partial index on the games still without result (``selectors.finished_q``).

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('clubs', '0005_cold_member_search_name'),
        ('tournaments', '0007_entries'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('result', '')), fields=['round'], name='game_unplayed'),
        ),
    ]
