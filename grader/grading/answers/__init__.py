"""Structured answers: read the student's YAML answers cell, load the answer key, judge.

A notebook's answers cell holds one ```yaml block of ``id: value`` lines. Each value is
kept as the student typed it (``"16.384 GiB"``, ``"[1.5, 2.5]"``) and judged against a
typed `KeyEntry`. Numbers are compared within the key's tolerances or, with a
significant-figure floor (`sigfigs`), at the precision the student states
(`precision.py`). A wrong answer is named only by what it matches: a distractor of the
key, or a unit slip (GB vs GiB, bits vs bytes, one head for the layer); no message for
a wrong answer contains the expected value, and none says "too large/small" unless the
assignment opts in (`hints`).
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
