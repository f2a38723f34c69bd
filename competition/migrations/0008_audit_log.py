"""The audit log on the ground floor: the same table (`judging_auditentry`) and rows, now
owned by this app (judging/migrations/0007 hands it over). Nothing changes in the database.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("competition", "0007_second_count"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="AuditEntry",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "action",
                            models.CharField(db_index=True, max_length=40, verbose_name="action"),
                        ),
                        ("reason", models.TextField(blank=True, verbose_name="reason")),
                        (
                            "objection_id",
                            models.BigIntegerField(
                                blank=True, db_index=True, null=True, verbose_name="objection"
                            ),
                        ),
                        ("before", models.JSONField(blank=True, null=True, verbose_name="before")),
                        ("after", models.JSONField(blank=True, null=True, verbose_name="after")),
                        (
                            "competition",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="audit",
                                to="competition.competition",
                            ),
                        ),
                        (
                            "team",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="audit",
                                to="competition.team",
                            ),
                        ),
                        (
                            "user",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "verbose_name": "audit entry",
                        "verbose_name_plural": "audit log",
                        "db_table": "judging_auditentry",
                        "ordering": ["-at", "-id"],
                    },
                ),
            ],
        ),
    ]
