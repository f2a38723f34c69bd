"""The pure core of the house, below every app: the rules (R7-R11), the formatting of times,
pace and projections, the championship's choices and the table plan's comparison. Plain data
in, plain data out: no Django, no module of the project (import-linter keeps it so; see
docs/architecture.md "Floors"). `rules.py` is the one entry to the rules (DESIGN.md)."""
