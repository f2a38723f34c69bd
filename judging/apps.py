from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JudgingConfig(AppConfig):
    name = "judging"
    verbose_name = _("Judging")

    def ready(self):
        from django.core.signals import request_finished
        from django.db.models.signals import post_save

        from competition.models import AuditEntry
        from competition.services.privacy import personal_data_erased
        from judging import backups

        # Backups while the day runs (judging/backups.py): periodic after a response has
        # been sent, and after a clock stop or finalise has been committed.
        request_finished.connect(backups.after_request, dispatch_uid="backups.after_request")
        post_save.connect(backups.after_audit, sender=AuditEntry, dispatch_uid="backups.audit")
        # erase_personal_data reaches judging's texts, the database file and the snapshots.
        personal_data_erased.connect(backups.after_erase, dispatch_uid="backups.erase")
