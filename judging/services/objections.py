"""Objections and finalising the results (R20)."""
__all__: list[str] = []
