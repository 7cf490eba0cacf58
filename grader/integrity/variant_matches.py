"""Answers right for someone else's numbers, for `grade similarity`: the class of a batch output handed to the
one rule (grader/batch/variants.py, which `grade batch` uses for the class summary too)."""
from __future__ import annotations

from typing import Sequence

from grader.batch import variants as class_variants
from grader.batch.variants import DEFAULT
from grader.config import AssignmentConfig
from grader.integrity.classlist import Member
from grader.results import VariantMatch

__all__ = ["DEFAULT", "VariantMatch", "variant_matches", "without_id"]


def variant_matches(members: Sequence[Member], key: dict, config: AssignmentConfig) -> tuple[VariantMatch, ...]:
    """Every member's wrong answers that the default numbers or a classmate's make right, by submission."""
    return class_variants.class_matches({m.folder: m.report.variant for m in members}, key, config)


def without_id(members: Sequence[Member], config: AssignmentConfig) -> tuple[str, ...]:
    """Members graded with the default numbers because no student id was found."""
    return class_variants.without_id({m.folder: m.report.variant for m in members}, config)
