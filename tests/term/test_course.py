"""Does course.yaml load into typed records, and does every mistake name the file, the line and the fix?"""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.config import ConfigError
from grader.term.course import load_course

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "course" / "course.yaml"
GOOD = """course: C
timezone: Europe/Berlin
assignments:
  hw1:
    due: "2026-09-15 23:59"
    lock: "2026-09-20 23:59"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "course.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_course_loads_with_zoned_dates():
    course = load_course(EXAMPLE)
    basics = course.deadline("linear-attention-basics")
    assert basics.due.utcoffset().total_seconds() == -4 * 3600  # New York in September
    assert course.policy_for("linear-attention-basics").kind == "per_day"
    assert course.policy_for("linear-attention-hybrid").kind == "bank"
    assert course.ledger.resolve() == EXAMPLE.parents[2] / "out" / "course" / "term.sqlite"  # out/: not committed
    assert basics.inputs.submissions == EXAMPLE.parent / "canvas-download" / "linear-attention-basics"
    assert basics.inputs.times == EXAMPLE.parent / "times.csv" and basics.inputs.mapping is None
    assert basics.visibility == (("your_turn", "after_due_date"),)
    assert basics.lms_column == "" and course.deadline("linear-attention-hybrid").lms_column.endswith("(1235)")


def test_a_visibility_level_that_does_not_exist_names_the_levels(tmp_path):
    path = write(tmp_path, GOOD + "    visibility: {q1: later}\n")
    with pytest.raises(ConfigError, match=r":7: assignments.hw1.visibility.q1: 'later' is not one of .*visible"):
        load_course(path)


def test_the_moodle_example_course_loads_too():
    moodle = load_course(EXAMPLE.parent / "course-moodle.yaml")
    assert moodle.lms == "moodle" and moodle.roster.name == "moodle-roster.csv"
    assert [a.student for a in moodle.accommodations] == ["s1002", "s1004"]


def test_an_unknown_key_names_its_line_and_the_fix(tmp_path):
    path = write(tmp_path, GOOD + "    deu: x\n")
    with pytest.raises(ConfigError, match=r"course.yaml:7: assignments.hw1.deu: unknown key 'deu'.*spelling"):
        load_course(path)


def test_a_date_without_a_time_is_refused_with_the_format_to_write(tmp_path):
    path = write(tmp_path, GOOD.replace('"2026-09-15 23:59"', "2026-09-15"))
    with pytest.raises(ConfigError, match=r":5: assignments.hw1.due: .*not a date and time.*2026-09-15 23:59"):
        load_course(path)


def test_a_lock_before_the_due_date_is_refused(tmp_path):
    path = write(tmp_path, GOOD.replace("2026-09-20", "2026-09-10"))
    with pytest.raises(ConfigError, match=r":6: .*lock: is before the due date"):
        load_course(path)


def test_an_extension_for_an_unknown_assignment_lists_the_known_ones(tmp_path):
    path = write(tmp_path, GOOD + "extensions:\n  - {student: s1, assignment: hw9, days: 2}\n")
    with pytest.raises(ConfigError, match=r":8: extensions\[0\].assignment: 'hw9' is not under.*hw1"):
        load_course(path)


def test_a_multiplier_needs_an_opens_date(tmp_path):
    path = write(tmp_path, GOOD + "accommodations:\n  - {student: s1, multiplier: 1.5}\n")
    with pytest.raises(ConfigError, match=r"hw1 has no opens date.*add opens"):
        load_course(path)


def test_an_unknown_time_zone_suggests_iana_names(tmp_path):
    path = write(tmp_path, GOOD.replace("Europe/Berlin", "Mars/Olympus"))
    with pytest.raises(ConfigError, match=r":2: timezone: unknown time zone.*America/New_York"):
        load_course(path)


def test_per_day_without_a_percentage_is_refused(tmp_path):
    path = write(tmp_path, GOOD + "late_policy: {kind: per_day}\n")
    with pytest.raises(ConfigError, match=r"late_policy.percent: kind per_day needs the penalty"):
        load_course(path)
