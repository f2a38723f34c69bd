"""Finishes, counts, warnings, disqualification (R5, R7, R8, R9, R10, R14, R18)."""
__all__: list[str] = []
