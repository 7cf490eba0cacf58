"""assignment.yaml and rubric.yaml, loaded once into frozen dataclasses.

Unknown keys, wrong types, duplicate ids and points that do not add up are rejected
here, with the file and the key named, so nothing later has to second-guess them.
"""
from __future__ import annotations

import re
from dataclasses import MISSING, dataclass, fields
from enum import Enum
from pathlib import Path
from typing import Any

import yaml

from grader.errors import LrkitError

ID = re.compile(r"^[a-z0-9_]+$")


class ConfigError(LrkitError):
    """A configuration file is wrong; the message names the file and the key."""


@dataclass(frozen=True)
class AssignmentLimits:
    cell_timeout_s: float = 120.0
    notebook_timeout_s: float = 600.0
    checks_timeout_s: float = 180.0
    case_timeout_s: float = 30.0
    memory_mb: int = 4096


FEEDBACK_VISIBILITY = ("after_published", "after_due_date", "visible", "hidden")


@dataclass(frozen=True)
class AnswerPolicy:
    """How numeric answers are judged and when their feedback is shown (assignment.yaml `answers:`)."""

    sigfigs: int = 0  # floor of significant figures; 0 = tolerances only
    hints: bool = False  # "too large/small" for plain misses (lets students bisect a hidden key)
    feedback: str = "after_published"  # Gradescope visibility of feedback on hidden-key answers


class RubricKind(str, Enum):
    """What a rubric item grades: exactly one of checks, cells, answers, manual, or only public tests.
    A `str`: members compare equal to, and serialise as, their names ("checks", ...)."""

    CHECKS = "checks"
    CELLS = "cells"
    ANSWERS = "answers"
    MANUAL = "manual"
    TESTS = "tests"  # only public tests: scored by `grade --local`, never by the official grader

    __str__ = str.__str__
    __format__ = str.__format__


GRADED_KINDS = (RubricKind.CHECKS, RubricKind.CELLS, RubricKind.ANSWERS, RubricKind.MANUAL)


@dataclass(frozen=True)
class Baseline:
    passed: int
    failed: int
    score: float = 0.0  # automatic points the untouched template earns (`tasks.py check` grades it)


@dataclass(frozen=True)
class AssignmentConfig:
    name: str
    title: str
    notebook: str
    student_files: tuple[str, ...]
    modules: tuple[str, ...]
    public_tests: str
    baseline: Baseline
    limits: AssignmentLimits = AssignmentLimits()
    answers: AnswerPolicy = AnswerPolicy()


@dataclass(frozen=True)
class RubricItem:
    id: str
    title: str
    points: float
    checks: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    cells: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    manual: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()  # official checks that must pass in full before the item earns anything
    figures: int = 0
    partial: bool = False

    @property
    def kind(self) -> RubricKind:
        return next((kind for kind in GRADED_KINDS if getattr(self, kind.value)), RubricKind.TESTS)


@dataclass(frozen=True)
class Rubric:
    items: tuple[RubricItem, ...]
    total: float

    def item(self, item_id: str) -> RubricItem:
        return next(i for i in self.items if i.id == item_id)


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark else ""
        raise ConfigError(f"{path}{line}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return data


def _build(cls, data: Any, where: str):
    """Construct dataclass ``cls`` from ``data``, rejecting unknown or missing keys."""
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: expected a mapping, got {type(data).__name__}")
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(known)})")
    values = {}
    for name, f in known.items():
        if name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise ConfigError(f"{where}: missing key {name!r}")
            continue
        value = data[name]
        hint = str(f.type)
        if hint.startswith("tuple"):
            if isinstance(value, str) or not isinstance(value, list):
                raise ConfigError(f"{where}.{name}: expected a list")
            value = tuple(str(v) for v in value)
        elif hint in ("float", "int"):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError(f"{where}.{name}: expected a number, got {value!r}")
            if hint == "int" and not float(value).is_integer():
                raise ConfigError(f"{where}.{name}: expected a whole number, got {value!r}")
        elif hint == "bool" and not isinstance(value, bool):
            raise ConfigError(f"{where}.{name}: expected true or false, got {value!r}")
        elif hint == "str" and not isinstance(value, str):
            raise ConfigError(f"{where}.{name}: expected text, got {value!r}")
        values[name] = value
    return cls(**values)


def load_assignment(folder: Path, check_name: bool = True) -> AssignmentConfig:
    path = folder / "assignment.yaml"
    data = _read_yaml(path)
    where = str(path)
    data = dict(data)
    if "baseline" not in data:
        raise ConfigError(f"{where}: missing key 'baseline' (the public test counts on the untouched template, "
                          "e.g. baseline: {passed: 8, failed: 7})")
    data["baseline"] = _build(Baseline, data["baseline"], f"{where}: baseline")
    data["limits"] = _build(AssignmentLimits, data.get("limits", {}), f"{where}: limits")
    data["answers"] = _build(AnswerPolicy, data.get("answers", {}), f"{where}: answers")
    if data["answers"].feedback not in FEEDBACK_VISIBILITY:
        raise ConfigError(f"{where}: answers.feedback: {data['answers'].feedback!r} is not one of "
                          f"{', '.join(FEEDBACK_VISIBILITY)}")
    if not 0 <= data["answers"].sigfigs <= 15:
        raise ConfigError(f"{where}: answers.sigfigs: expected 0 (off) to 15, got {data['answers'].sigfigs}")
    config = _build(AssignmentConfig, data, where)
    if check_name and config.name != folder.name:
        raise ConfigError(f"{where}: name {config.name!r} differs from the folder name {folder.name!r}")
    return config


def load_rubric(folder: Path) -> Rubric:
    path = folder / "rubric.yaml"
    data = _read_yaml(path)
    where = str(path)
    unknown = sorted(set(data) - {"items", "total"})
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (known: items, total)")
    if not isinstance(data.get("items"), list) or not data["items"]:
        raise ConfigError(f"{where}: 'items' must be a non-empty list")
    items, seen = [], set()
    for n, raw in enumerate(data["items"]):
        item = _build(RubricItem, raw, f"{where}: items[{n}]")
        iw = f"{where}: item {item.id!r}"
        if not ID.match(item.id):
            raise ConfigError(f"{iw}: id must be lower-case letters, digits and _")
        if item.id in seen:
            raise ConfigError(f"{iw}: duplicate id")
        seen.add(item.id)
        kinds = [k.value for k in GRADED_KINDS if getattr(item, k.value)]
        if len(kinds) > 1:
            raise ConfigError(f"{iw}: has {' and '.join(kinds)}; an item grades one kind of thing")
        if not kinds and not item.tests:
            raise ConfigError(f"{iw}: names nothing to grade (add checks, tests, cells, answers or manual)")
        if item.points <= 0:
            raise ConfigError(f"{iw}: points must be positive")
        if item.requires and item.kind not in (RubricKind.CHECKS, RubricKind.CELLS):
            raise ConfigError(f"{iw}: 'requires' gates checks and cells items only")
        items.append(item)
    total = sum(i.points for i in items)
    if "total" not in data:
        raise ConfigError(f"{where}: missing key 'total' (the items add up to {total:g})")
    if isinstance(data["total"], bool) or not isinstance(data["total"], (int, float)):
        raise ConfigError(f"{where}: total: expected a number, got {data['total']!r}")
    if abs(total - data["total"]) > 1e-9:
        raise ConfigError(f"{where}: total is {data['total']:g} but the items add up to {total:g}")
    return Rubric(tuple(items), float(total))
