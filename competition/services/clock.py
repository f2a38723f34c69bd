"""The clock (R4, R10): start, stop early; the automatic end is start + duration."""
__all__: list[str] = []
