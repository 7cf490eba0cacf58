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
    """A configuration file is wrong. The fields say where and what, so nothing parses the text again:
    ``path`` the file, ``line`` its line when the YAML parser knows it, ``key`` the path of keys to the
    value (``("items", 3, "points")``), ``item`` the rubric item's id, ``fix`` what to write instead."""

    def __init__(self, path: Path | str, message: str, *, where: str = "", key: tuple = (), item: str = "",
                 line: int | None = None, fix: str = ""):
        self.path, self.message, self.key, self.item, self.line, self.fix = str(path), message, key, item, line, fix
        self.where = where  # the location as the message shows it after the path ("items[3].points")
        super().__init__(f"{self.path}{f':{line}' if line else ''}{f': {where}' if where else ''}: {message}")


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


@dataclass(frozen=True)
class IntegrityPolicy:
    """Thresholds of `grade similarity` (assignment.yaml `integrity:`): evidence for staff, never a grade."""

    flag: float = 0.6  # code similarity (0-1) from which a pair is flagged: a side-by-side page, clusters
    answers_flag: float = 0.6  # the same for one free-text answer
    noise: int = 50  # shared runs shorter than this many normalised characters never count (copydetect's k;
    #                  about 23 tokens, Dolos' default k): shorter ones are idioms everyone writes
    guarantee: int = 50  # shared runs this long are always found; above `noise` it winnows (fewer hashes)
    min_chars: int = 80  # a text with less of its own (the template's taken away) is too short to judge
    listed: int = 500  # pairs listed in similarity.json besides the flagged ones, most similar first
    common: int = 5  # students sharing one wrong output from whom it reads as a common mistake, not copying


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
class VariantParameter:
    """One parameter of the numeric questions that differs per student: its default (the numbers the notebook
    shows before a student id is set, and the answer key's `value`s) and the values a student may get."""

    name: str
    default: int | float
    values: tuple[int | float, ...]


@dataclass(frozen=True)
class Variants:
    """assignment.yaml `variants:`, one entry per parameter (`T: {default: 1000000, choices: [...]}` or
    `D: {default: 4096, range: [2048, 4096, 1024]}`); empty: every student answers the same numbers.
    Which student gets which values is one rule, `grader.variants.parameters_for`."""

    parameters: tuple[VariantParameter, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.parameters)

    @property
    def defaults(self) -> dict[str, int | float]:
        return {p.name: p.default for p in self.parameters}


MAX_VARIANT_VALUES = 1000


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
    integrity: IntegrityPolicy = IntegrityPolicy()
    variants: Variants = Variants()
    # modules the notebook's kernel would import at a first use, which the warm-start template imports once
    # instead (`grader.sandbox.warm.preload`): torch.optim's first optimizer imports torch._dynamo (~0.6 s a run)
    preload: tuple[str, ...] = ()


MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")
MAX_PRELOAD = 16


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
    evidence: tuple[str, ...] = ()  # checks of which at least one must hold (the forms that work); see score.py
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
        raise ConfigError(path, "file not found") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(path, f"not valid YAML ({getattr(exc, 'problem', exc)})",
                          line=mark.line + 1 if mark else None) from None
    if not isinstance(data, dict):
        raise ConfigError(path, "expected a mapping at the top level")
    return data


def _build(cls, data: Any, path: Path, key: tuple = (), item: str = ""):
    """Construct dataclass ``cls`` from ``data`` (found at ``key`` in ``path``), rejecting unknown or missing
    keys and values of the wrong type."""
    where = key_text(key)

    def fail(message: str, name: str = "", fix: str = "") -> ConfigError:
        full = key + ((name,) if name else ())
        return ConfigError(path, message, where=key_text(full), key=full, item=item, fix=fix)

    if not isinstance(data, dict):
        raise ConfigError(path, f"expected a mapping, got {type(data).__name__}", where=where, key=key, item=item)
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise ConfigError(path, f"unknown key {unknown[0]!r} (known: {', '.join(known)})", where=where,
                          key=key + (unknown[0],), item=item, fix="check its spelling and indentation")
    values = {}
    for name, f in known.items():
        if name not in data:
            if f.default is MISSING and f.default_factory is MISSING:
                raise ConfigError(path, f"missing key {name!r}", where=where, key=key, item=item)
            continue
        value = data[name]
        hint = str(f.type)
        if hint.startswith("tuple"):
            if isinstance(value, str) or not isinstance(value, list):
                raise fail("expected a list", name)
            value = tuple(str(v) for v in value)
        elif hint in ("float", "int"):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise fail(f"expected a number, got {value!r}", name)
            if hint == "int" and not float(value).is_integer():
                raise fail(f"expected a whole number, got {value!r}", name)
        elif hint == "bool" and not isinstance(value, bool):
            raise fail(f"expected true or false, got {value!r}", name)
        elif hint == "str" and not isinstance(value, str):
            raise fail(f"expected text, got {value!r}", name)
        values[name] = value
    return cls(**values)


def key_text(key: tuple) -> str:
    """A key path as messages show it: ("items", 3, "points") -> "items[3].points"."""
    out = ""
    for k in key:
        out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else str(k))
    return out


def load_assignment(folder: Path, check_name: bool = True) -> AssignmentConfig:
    path = folder / "assignment.yaml"
    data = dict(_read_yaml(path))
    if "baseline" not in data:
        raise ConfigError(path, "missing key 'baseline' (the public test counts on the untouched template, "
                          "e.g. baseline: {passed: 8, failed: 7})", fix="baseline: {passed: 8, failed: 7}")
    data["baseline"] = _build(Baseline, data["baseline"], path, ("baseline",))
    data["limits"] = _build(AssignmentLimits, data.get("limits", {}), path, ("limits",))
    data["answers"] = _build(AnswerPolicy, data.get("answers", {}), path, ("answers",))
    if data["answers"].feedback not in FEEDBACK_VISIBILITY:
        raise ConfigError(path, f"{data['answers'].feedback!r} is not one of {', '.join(FEEDBACK_VISIBILITY)}",
                          where="answers.feedback", key=("answers", "feedback"))
    if not 0 <= data["answers"].sigfigs <= 15:
        raise ConfigError(path, f"expected 0 (off) to 15, got {data['answers'].sigfigs}", where="answers.sigfigs",
                          key=("answers", "sigfigs"))
    data["integrity"] = _checked_integrity(_build(IntegrityPolicy, data.get("integrity", {}), path,
                                                  ("integrity",)), path)
    data["variants"] = load_variants(data.get("variants") or {}, path)
    config = _build(AssignmentConfig, data, path)
    _check_preload(config.preload, path)
    if check_name and config.name != folder.name:
        raise ConfigError(path, f"name {config.name!r} differs from the folder name {folder.name!r}", key=("name",),
                          fix=f"name: {folder.name}")
    return config


def _check_preload(names: tuple[str, ...], path: Path) -> None:
    if len(names) > MAX_PRELOAD:
        raise ConfigError(path, f"at most {MAX_PRELOAD} modules, got {len(names)}", where="preload", key=("preload",))
    for n, name in enumerate(names):
        if not MODULE_NAME.match(name) or len(name) > 200:
            raise ConfigError(path, f"{name[:80]!r} is not a module name", where=f"preload[{n}]", key=("preload", n),
                              fix="a dotted module name, e.g. torch._dynamo")


_PARAMETER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,31}$")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value and abs(value) < 1e300


def load_variants(data: Any, path: Path) -> Variants:
    """assignment.yaml `variants:` into `Variants`, every fault named with its key (`variants.D.range`)."""
    if not isinstance(data, dict):
        raise ConfigError(path, "expected a mapping of parameter names to {default, choices} or {default, range}",
                          where="variants", key=("variants",),
                          fix="variants: {T: {default: 1000, choices: [500, 1000]}}")
    return Variants(tuple(_variant_parameter(str(name), spec, path) for name, spec in data.items()))


def _variant_parameter(name: str, spec: Any, path: Path) -> VariantParameter:
    key = ("variants", name)

    def fail(message: str, field: str = "", fix: str = "") -> ConfigError:
        full = key + ((field,) if field else ())
        return ConfigError(path, message, where=key_text(full), key=full, fix=fix)

    if not _PARAMETER.match(name) or name.startswith("__"):
        raise fail("a parameter name is a short identifier (letters, digits, _), as the key's formulas write it")
    if not isinstance(spec, dict):
        raise fail("expected {default: N, choices: [...]} or {default: N, range: [low, high, step]}")
    unknown = sorted(set(spec) - {"default", "choices", "range"})
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} (known: default, choices, range)", unknown[0])
    if ("choices" in spec) == ("range" in spec):
        raise fail("give exactly one of 'choices' (a list of values) and 'range' ([low, high, step])")
    values = _choices(spec["choices"], fail) if "choices" in spec else _range(spec["range"], fail)
    if "default" not in spec:
        raise fail("missing key 'default' (the value the notebook shows before a student id is set)", "",
                   fix=f"default: {values[0]!r}")
    if not _number(spec["default"]) or spec["default"] not in values:
        raise fail(f"the default {spec['default']!r} is not one of the parameter's values", "default")
    return VariantParameter(name, spec["default"], values)


def _choices(raw: Any, fail) -> tuple:
    if not isinstance(raw, list) or not raw or not all(_number(v) for v in raw):
        raise fail("expected a non-empty list of numbers", "choices")
    if len(set(raw)) != len(raw) or len(raw) > MAX_VARIANT_VALUES:
        raise fail(f"expected distinct values, at most {MAX_VARIANT_VALUES}", "choices")
    return tuple(raw)


def _range(raw: Any, fail) -> tuple:
    if not (isinstance(raw, list) and len(raw) == 3 and all(isinstance(v, int) and not isinstance(v, bool)
                                                          for v in raw)):
        raise fail("expected [low, high, step], three whole numbers (high included)", "range")
    low, high, step = raw
    if step <= 0 or high < low or (high - low) // step + 1 > MAX_VARIANT_VALUES:
        raise fail(f"expected low <= high and a positive step giving at most {MAX_VARIANT_VALUES} values", "range")
    return tuple(range(low, high + 1, step))


def _checked_integrity(policy: IntegrityPolicy, path: Path) -> IntegrityPolicy:
    p = policy
    for name, ok, want in (("flag", 0 <= p.flag <= 1, "0 to 1"), ("answers_flag", 0 <= p.answers_flag <= 1, "0 to 1"),
                           ("noise", 5 <= p.noise <= 500, "5 to 500"),
                           ("guarantee", p.noise <= p.guarantee <= 1000, f"{p.noise} (the noise) to 1000"),
                           ("min_chars", p.min_chars >= 0, "0 or more"), ("listed", p.listed >= 0, "0 or more"),
                           ("common", p.common >= 2, "2 or more")):
        if not ok:
            raise ConfigError(path, f"expected {want}, got {getattr(p, name)}", where=f"integrity.{name}",
                              key=("integrity", name))
    return policy


def load_rubric(folder: Path) -> Rubric:
    path = folder / "rubric.yaml"
    data = _read_yaml(path)
    unknown = sorted(set(data) - {"items", "total"})
    if unknown:
        raise ConfigError(path, f"unknown key {unknown[0]!r} (known: items, total)", key=(unknown[0],),
                          fix="check its spelling and indentation")
    if not isinstance(data.get("items"), list) or not data["items"]:
        raise ConfigError(path, "'items' must be a non-empty list", key=("items",))
    items, seen = [], set()
    for n, raw in enumerate(data["items"]):
        item = _build(RubricItem, raw, path, ("items", n))
        items.append(_checked_item(item, seen, path))
    return Rubric(tuple(items), _checked_total(data, items, path))


def _checked_item(item: RubricItem, seen: set[str], path: Path) -> RubricItem:
    def fail(message: str, field: str = "", fix: str = "") -> ConfigError:
        key = ("items", item.id) + ((field,) if field else ())
        return ConfigError(path, message, where=f"item {item.id!r}", key=key, item=item.id, fix=fix)

    if not ID.match(item.id):
        raise fail("id must be lower-case letters, digits and _", "id")
    if item.id in seen:
        raise fail("duplicate id", "id")
    seen.add(item.id)
    kinds = [k.value for k in GRADED_KINDS if getattr(item, k.value)]
    if len(kinds) > 1:
        raise fail(f"has {' and '.join(kinds)}; an item grades one kind of thing", "",
                   fix=f"split it into two items, one with {kinds[0]}, one with {kinds[1]}")
    if not kinds and not item.tests:
        raise fail("names nothing to grade (add checks, tests, cells, answers or manual)")
    if item.points <= 0:
        raise fail("points must be positive", "points")
    for gate in ("requires", "evidence"):
        if getattr(item, gate) and item.kind not in (RubricKind.CHECKS, RubricKind.CELLS):
            raise fail(f"'{gate}' gates checks and cells items only", gate)
    return item


def _checked_total(data: dict, items: list[RubricItem], path: Path) -> float:
    total = sum(i.points for i in items)
    if "total" not in data:
        raise ConfigError(path, f"missing key 'total' (the items add up to {total:g})", key=(),
                          fix=f"total: {total:g}")
    if isinstance(data["total"], bool) or not isinstance(data["total"], (int, float)):
        raise ConfigError(path, f"expected a number, got {data['total']!r}", where="total", key=("total",))
    if abs(total - data["total"]) > 1e-9:
        raise ConfigError(path, f"total is {data['total']:g} but the items add up to {total:g}", key=("total",),
                          fix=f"write 'total: {total:g}', or change the items' points")
    return float(total)
