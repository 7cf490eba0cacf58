"""Structured answers: read the student's YAML answers cell, load the answer key, judge.

A notebook's answers cell holds one ```yaml block of ``id: value`` lines. Each value is
kept as the student typed it (``"16.384 GiB"``, ``"[1.5, 2.5]"``) and judged against a
typed `KeyEntry`. Wrong quantities are checked for the usual confusions (GB vs GiB, a
missing factor 2 for K and V, bits vs bytes, one head instead of the layer) so the
message can name the likely mistake; no message for a wrong answer contains the
expected value.
"""
from __future__ import annotations

from grader.grading.answers.cells import (
                                        AnswerFormatError,
                                        extract_answer_block,
                                        parse_answers,
)
from grader.grading.answers.judge import check_answer, check_answers
from grader.grading.answers.key import (
                                        AnswerKeyError,
                                        ChoiceEntry,
                                        Distractor,
                                        KeyEntry,
                                        NumberEntry,
                                        QuantityEntry,
                                        TextEntry,
                                        VectorEntry,
                                        load_key,
)
from grader.grading.answers.units import QUANTITY_FORMS, QuantityError, parse_quantity  # noqa: F401

__all__ = ["AnswerFormatError", "AnswerKeyError", "ChoiceEntry", "Distractor", "KeyEntry", "NumberEntry",
           "QUANTITY_FORMS", "QuantityEntry", "QuantityError", "TextEntry", "VectorEntry", "check_answer",
           "check_answers", "extract_answer_block", "load_key", "parse_answers"]
