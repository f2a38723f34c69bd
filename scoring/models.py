"""The public mirror's own record (docs/contracts.md "The public mirror"): on a mirror, which
snapshot of each competition it holds and when the hall last reached it. Empty on the hall."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from competition.models import Competition


class MirrorState(models.Model):
    competition = models.OneToOneField(
        Competition, on_delete=models.CASCADE, related_name="mirror_state"
    )
    version = models.PositiveBigIntegerField(_("standings version"))
    digest = models.CharField(max_length=64)  # sha256 of the snapshot held
    heard_at = models.DateTimeField(_("last push from the hall"))

    class Meta:
        verbose_name = _("mirrored snapshot")
        verbose_name_plural = _("mirrored snapshots")

    def __str__(self) -> str:
        return f"{self.competition_id} v{self.version}"
