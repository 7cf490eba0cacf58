"""Per-student numbers: which values of an assignment's `variants:` a student gets, and the key's formulas.

The rule is public and deterministic: each parameter's value is picked from its list by a SHA-256 of the
assignment's name, the student id (trimmed, case-folded) and the parameter's name. Knowing it gives a
student their numbers, not the answers: those come from the answer key's formulas (hidden), evaluated by
`evaluate` for the default parameters (the key's `value`s) and for every student alike.

    student id + assignment -> parameters_for -> {"T": 2000000, "D": 3072, ...} -> evaluate(formula, params)

A notebook shows a student their numbers with one cell: ``show_parameters(STUDENT_ID)``.
"""
from __future__ import annotations

import ast
import hashlib
import operator
import unicodedata
from pathlib import Path

from grader.config import Variants, load_assignment

MAX_STUDENT_CHARS = 100
MAX_FORMULA_CHARS = 500


class FormulaError(ValueError):
    """An answer-key formula that cannot be evaluated (an instructor's error; the message says why)."""


def student_key(student: str) -> str:
    """A student id as the rule reads it: Unicode-normalised, trimmed, case-folded ("  Ada1 " -> "ada1")."""
    return unicodedata.normalize("NFKC", str(student)).strip().casefold()[:MAX_STUDENT_CHARS]


def parameters_for(variants: Variants, assignment: str, student: str) -> dict[str, int | float]:
    """The student's values of every parameter; the defaults when there is no student id (or no variants)."""
    who = student_key(student)
    if not who:
        return variants.defaults
    chosen = {}
    for p in variants.parameters:
        digest = hashlib.sha256(f"lrkit-variant\0{assignment}\0{who}\0{p.name}".encode()).digest()
        chosen[p.name] = p.values[int.from_bytes(digest[:8], "big") % len(p.values)]
    return chosen


def describe(parameters: dict[str, int | float]) -> str:
    """"T = 2,000,000, D = 3072, H = 64" (numbers of five digits and more grouped by thousands)."""
    return ", ".join(f"{name} = {value:,}" if abs(value) >= 10_000 else f"{name} = {value}"
                     for name, value in parameters.items())


def show_parameters(student_id: str, folder: Path | str = ".") -> dict[str, int | float]:
    """The notebook's one cell: print and return this student's parameters (assignment.yaml in ``folder``)."""
    config = load_assignment(Path(folder), check_name=False)
    parameters = parameters_for(config.variants, config.name, student_id)
    if not config.variants:
        print("This assignment gives everyone the same numbers.")
    elif not student_key(student_id):
        print(f"STUDENT_ID is not set: these are the default numbers ({describe(parameters)}), which are not yours. "
              "Set STUDENT_ID to your student id and run this cell again.")
    else:
        print(f"Your numbers (student id {student_key(student_id)!r}): {describe(parameters)}")
    return parameters


_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod, ast.Pow: operator.pow}


def evaluate(formula: str, parameters: dict[str, int | float]) -> int | float:
    """The value of an arithmetic ``formula`` (numbers, parameter names, + - * / // % ** and brackets).
    Whole numbers stay exact; anything else (a call, an unknown name, a division by zero) is a FormulaError."""
    if len(formula) > MAX_FORMULA_CHARS:
        raise FormulaError(f"a formula is at most {MAX_FORMULA_CHARS} characters")
    try:
        tree = ast.parse(formula, mode="eval")
    except SyntaxError:
        raise FormulaError(f"{formula!r} is not an arithmetic expression") from None
    return _value(tree.body, formula, parameters)


def _value(node: ast.AST, formula: str, parameters: dict[str, int | float]) -> int | float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in parameters:
            known = ", ".join(parameters) or "none"
            raise FormulaError(f"{formula!r} names {node.id!r}, which is not a parameter (known: {known})")
        return parameters[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _value(node.operand, formula, parameters)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _value(node.left, formula, parameters), _value(node.right, formula, parameters)
        if isinstance(node.op, ast.Pow) and abs(right) > 64:
            raise FormulaError(f"{formula!r}: an exponent above 64")
        try:
            return _BINARY[type(node.op)](left, right)
        except (ZeroDivisionError, OverflowError) as exc:
            raise FormulaError(f"{formula!r}: {exc} with {describe(parameters)}") from None
    raise FormulaError(f"{formula!r}: only numbers, parameter names, + - * / // % ** and brackets are allowed")
