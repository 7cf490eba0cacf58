"""The authoring API for hidden checks: ``from grader.checks import Case, check`` (and `watched_memory`).

Kept at this path for assignments written against it; the implementation lives in
`grader.grading.checks`.
"""
from grader.grading.checks import (  # noqa: F401
    Case,
    CheckSpec,
    check,
    judge_case,
    load_checks,
    probe_names,
    watched_memory,
)

__all__ = ["Case", "CheckSpec", "check", "judge_case", "load_checks", "probe_names", "watched_memory"]
