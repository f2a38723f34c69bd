"""The audit log moves to the ground floor (competition.AuditEntry, docs/architecture.md "Floors").

The table and its rows stay as they are (`judging_auditentry`); only Django's idea of which
app owns the model changes. The link to an objection becomes a plain number: its database
constraint goes first (the ground floor knows nothing of judging's tables), the column and
its values stay.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("judging", "0006_count_confirmation"),
    ]

    operations = [
        migrations.AlterField(
            model_name="auditentry",
            name="objection",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="audit",
                to="judging.objection",
            ),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="AuditEntry")],
            database_operations=[],
        ),
    ]
