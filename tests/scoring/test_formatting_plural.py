"""puzzle_rules.formatting.plural_count: the number a setting's sentence chooses its form by."""

import pytest

from puzzle_rules.formatting import plural_count


@pytest.mark.parametrize(
    ("value", "count"), [(1, 1), ("1", 1), (5, 5), ("5", 5), (0.5, 2), ("0.5", 2), ("x", 2)]
)
def test_a_whole_value_is_itself_anything_else_many(value, count):
    assert plural_count(value) == count
