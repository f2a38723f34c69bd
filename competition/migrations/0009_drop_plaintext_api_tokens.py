"""API tokens move to django-rest-knox, which stores only a hash of each key.

DRF's authtoken table kept every key in plain text; a hash cannot be made of it without
keeping the plain key, so the old tokens are dropped, not converted: each program asks for
a new one with `create_staff USERNAME --role …` (it prints `token: KEY` once). The tablets
log in with a session and are not affected."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("competition", "0008_audit_log")]

    operations = [
        migrations.RunSQL(
            [
                "DROP TABLE IF EXISTS authtoken_token",
                "DELETE FROM django_migrations WHERE app = 'authtoken'",
            ],
            reverse_sql=migrations.RunSQL.noop,
        )
    ]
