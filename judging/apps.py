from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JudgingConfig(AppConfig):
    name = "judging"
    verbose_name = _("Judging")

    def ready(self):
        from django.core.signals import request_finished

        from competition import audit
        from competition.services.privacy import personal_data_erased
        from judging import backups

        # Backups while the day runs (judging/backups/): periodic after a response has
        # been sent, and once a clock stop or finalise has committed (audit_record calls it
        # on commit for the actions with a `snapshot`, competition/audit_actions.py).
        request_finished.connect(backups.after_request, dispatch_uid="backups.after_request")
        audit.snapshot_after_commit(backups.after_commit)
        # erase_personal_data reaches judging's texts, the database file and the snapshots.
        personal_data_erased.connect(backups.after_erase, dispatch_uid="backups.erase")
