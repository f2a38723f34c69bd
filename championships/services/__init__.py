"""Writes of a championship: advancing entrants from earlier rounds, and taking it back."""

from championships.services.advance import advance, advance_undo

__all__ = ["advance", "advance_undo"]
