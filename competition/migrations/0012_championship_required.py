# Its own migration: on PostgreSQL the column becomes NOT NULL in a transaction of its own,
# after the rows that 0011 wrote (no ALTER TABLE with pending trigger events).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("competition", "0011_championships"),
    ]

    operations = [
        migrations.AlterField(
            model_name='competition',
            name='championship',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='competitions', to='competition.championship', verbose_name='championship'),
        ),
    ]
