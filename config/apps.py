from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    """The Django admin with the project's site (read-only, the admin role: config.admin)."""

    default_site = "config.admin.Site"
