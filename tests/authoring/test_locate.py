"""A configuration error is located from its fields: rewording a message cannot move its line."""
from __future__ import annotations

from grader.authoring.validate import locate
from grader.config import ConfigError

RUBRIC = """items:
  - id: first
    title: First
    points: 2
    checks: [a]
  - id: second
    title: Second
    points: 3
    checks: [b]
total: 5
"""


def test_an_item_field_is_found_by_key_not_by_wording():
    exc = ConfigError("rubric.yaml", "any words at all", where="item 'second'", key=("items", "second", "points"),
                      item="second")
    assert locate(exc, RUBRIC) == 8


def test_a_list_index_and_a_top_level_key_are_found():
    assert locate(ConfigError("rubric.yaml", "reworded", key=("items", 1, "checks")), RUBRIC) == 9
    assert locate(ConfigError("rubric.yaml", "reworded", key=("items", 0)), RUBRIC) == 2
    assert locate(ConfigError("rubric.yaml", "reworded", key=("total",)), RUBRIC) == 10


def test_a_parser_line_wins_and_an_unplaced_error_points_at_the_top():
    assert locate(ConfigError("rubric.yaml", "not valid YAML", line=4), RUBRIC) == 4
    assert locate(ConfigError("rubric.yaml", "reworded"), RUBRIC) == 1
    assert locate(ConfigError("rubric.yaml", "reworded"), "") is None
