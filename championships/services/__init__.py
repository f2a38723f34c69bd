"""Writes of a championship: advancing entrants from earlier rounds."""

from championships.services.advance import advance

__all__ = ["advance"]
