"""Competition setup, puzzle sequence, teams and members, check-in (R2, R3, R15, R17, P2)."""
__all__: list[str] = []
