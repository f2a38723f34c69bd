"""Objections (desk files, admin resolves), finalise and the official results pages."""

from django.urls import path  # noqa: F401

app_name = "objections"
urlpatterns: list = []
