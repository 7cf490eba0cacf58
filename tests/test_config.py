"""rubric.yaml and assignment.yaml on real fixture files (tests/fixtures/config/), one fault per file."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from grader.config import (
    AssignmentConfig,
    AssignmentLimits,
    Baseline,
    ConfigError,
    Rubric,
    RubricItem,
    load_assignment,
    load_rubric,
)

FIXTURES = Path(__file__).parent / "fixtures" / "config"


def place(tmp_path: Path, fixture: str, as_name: str, folder: str = "demo") -> Path:
    """Copy a fixture to <tmp>/<folder>/<as_name> and return the folder."""
    target = tmp_path / folder
    target.mkdir(exist_ok=True)
    shutil.copy(FIXTURES / fixture, target / as_name)
    return target


def test_valid_rubric_loads_into_dataclasses(tmp_path):
    """Does a correct rubric load into frozen dataclasses with every value, default and kind right?"""
    rubric = load_rubric(place(tmp_path, "valid_rubric.yaml", "rubric.yaml"))
    assert isinstance(rubric, Rubric) and rubric.total == 9.0
    assert [i.id for i in rubric.items] == ["normalizer", "notebook_runs", "your_turn", "ex1_why", "public_only"]
    assert rubric.item("normalizer") == RubricItem(
        id="normalizer", title="Linear attention divides by φ(q)·z", points=3,
        checks=("normalizer_parallel", "normalizer_recurrent"), tests=("test_normalizer",))
    assert rubric.item("notebook_runs").cells == ("ex1", "ex2") and rubric.item("notebook_runs").figures == 1
    assert rubric.item("your_turn").partial is True and rubric.item("your_turn").points == 1.5
    assert rubric.item("normalizer").partial is False
    assert [i.kind for i in rubric.items] == ["checks", "cells", "answers", "manual", "tests"]
    with pytest.raises(AttributeError, match="cannot assign"):
        rubric.items[0].points = 100  # type: ignore[misc]


def test_valid_assignment_loads_into_dataclasses(tmp_path):
    """Does a correct assignment.yaml load with its values, nested baseline/limits and limit defaults?"""
    config = load_assignment(place(tmp_path, "valid_assignment.yaml", "assignment.yaml"))
    assert config == AssignmentConfig(
        name="demo", title="Linear & Recurrent Attention", notebook="linear_attention.ipynb",
        student_files=("linear_attention.py", "linear_attention.ipynb"), modules=("linear_attention",),
        public_tests="tests/test_linear_attention.py", baseline=Baseline(passed=3, failed=12),
        limits=AssignmentLimits(cell_timeout_s=60, notebook_timeout_s=600.0, checks_timeout_s=180.0, memory_mb=2048))
    with pytest.raises(AttributeError, match="cannot assign"):
        config.name = "other"  # type: ignore[misc]


def test_limits_default_when_absent(tmp_path):
    """Without a `limits:` block, are the documented defaults used?"""
    folder = place(tmp_path, "valid_assignment.yaml", "assignment.yaml")
    path = folder / "assignment.yaml"
    path.write_text(path.read_text().split("limits:")[0])
    assert load_assignment(folder).limits == AssignmentLimits()


RUBRIC_FAULTS = [
    ("unknown_key_in_rubric.yaml", ": unknown key 'passing' (known: items, total)"),
    ("unknown_key_in_item.yaml", ": items[1]: unknown key 'pionts'"),
    ("points_do_not_add_up.yaml", ": total is 40 but the items add up to 5"),
    ("missing_total.yaml", ": missing key 'total' (the items add up to 3)"),
    ("total_not_a_number.yaml", ": total: expected a number, got 'three'"),
    ("duplicate_id.yaml", ": item 'normalizer': duplicate id"),
    ("two_kinds_in_one_item.yaml", ": item 'mixed': has checks and cells; an item grades one kind of thing"),
    ("nothing_to_grade.yaml", ": item 'empty': names nothing to grade"),
    ("id_with_capitals.yaml", ": item 'Normalizer': id must be lower-case letters, digits and _"),
    ("points_not_positive.yaml", ": item 'free': points must be positive"),
    ("points_not_a_number.yaml", ": items[0].points: expected a number, got '3'"),
    ("checks_not_a_list.yaml", ": items[0].checks: expected a list"),
    ("partial_not_a_bool.yaml", ": items[0].partial: expected true or false, got 'yes'"),
    ("missing_title.yaml", ": items[0]: missing key 'title'"),
    ("no_items.yaml", ": 'items' must be a non-empty list"),
    ("invalid_yaml.yaml", ":4: not valid YAML"),
    ("not_a_mapping.yaml", ": expected a mapping at the top level"),
]


@pytest.mark.parametrize("fixture, message", RUBRIC_FAULTS, ids=[f for f, _ in RUBRIC_FAULTS])
def test_rubric_fault_is_rejected_naming_file_and_key(tmp_path, fixture, message):
    """Is each rubric mistake a ConfigError that starts with the rubric's path and names the key?"""
    folder = place(tmp_path, fixture, "rubric.yaml")
    with pytest.raises(ConfigError, match=re.escape(message)) as info:
        load_rubric(folder)
    assert str(info.value).startswith(f"{folder / 'rubric.yaml'}{message}")


ASSIGNMENT_FAULTS = [
    ("name_differs_from_folder.yaml", ": name 'linear-attention-basics' differs from the folder name 'demo'"),
    ("unknown_key_in_assignment.yaml", ": unknown key 'deadline'"),
    ("unknown_key_in_limits.yaml", ": limits: unknown key 'cell_timeout'"),
    ("missing_notebook.yaml", ": missing key 'notebook'"),
    ("student_files_not_a_list.yaml", ": student_files: expected a list"),
    ("baseline_not_a_number.yaml", ": baseline.passed: expected a number, got 'three'"),
    ("missing_baseline.yaml", ": missing key 'baseline'"),
    ("not_a_mapping.yaml", ": expected a mapping at the top level"),
]


@pytest.mark.parametrize("fixture, message", ASSIGNMENT_FAULTS, ids=[f for f, _ in ASSIGNMENT_FAULTS])
def test_assignment_fault_is_rejected_naming_file_and_key(tmp_path, fixture, message):
    """Is each assignment.yaml mistake a ConfigError that starts with the file's path and names the key?"""
    folder = place(tmp_path, fixture, "assignment.yaml")
    with pytest.raises(ConfigError, match=re.escape(message)) as info:
        load_assignment(folder)
    assert str(info.value).startswith(f"{folder / 'assignment.yaml'}{message}")


@pytest.mark.parametrize("loader, name", [(load_rubric, "rubric.yaml"), (load_assignment, "assignment.yaml")])
def test_missing_file_is_named(tmp_path, loader, name):
    """Is a missing config file a ConfigError naming the path, not a bare FileNotFoundError?"""
    with pytest.raises(ConfigError, match=rf"{name}: file not found"):
        loader(tmp_path)


def test_config_errors_carry_their_location_as_fields(tmp_path):
    """Does a ConfigError say where it is in fields (key path, item, fix), not only in its wording?"""
    folder = place(tmp_path, "points_do_not_add_up.yaml", "rubric.yaml")
    with pytest.raises(ConfigError, match="but the items add up to") as info:
        load_rubric(folder)
    assert info.value.key == ("total",) and info.value.path == str(folder / "rubric.yaml")
    assert info.value.fix.startswith("write 'total: ")
    (tmp_path / "b").mkdir()
    folder = place(tmp_path / "b", "duplicate_id.yaml", "rubric.yaml")
    with pytest.raises(ConfigError, match="duplicate id") as info:
        load_rubric(folder)
    assert info.value.item and info.value.key[:2] == ("items", info.value.item)


def write_variants(tmp_path: Path, variants: str) -> Path:
    folder = tmp_path / "demo"
    folder.mkdir(parents=True)
    (folder / "assignment.yaml").write_text(
        "name: demo\ntitle: Demo\nnotebook: demo.ipynb\nstudent_files: [demo.ipynb]\nmodules: []\n"
        "public_tests: tests/test_demo.py\nbaseline: {passed: 0, failed: 0}\n" + variants, encoding="utf-8")
    return folder


def test_variants_load_into_parameters_with_defaults(tmp_path):
    """Do `variants:` choices and ranges load into typed parameters, defaults first?"""
    config = load_assignment(write_variants(tmp_path, "variants:\n  T: {default: 1000, choices: [500, 1000]}\n"
                                                      "  D: {default: 64, range: [32, 128, 32]}\n"))
    assert config.variants.defaults == {"T": 1000, "D": 64}
    assert config.variants.parameters[1].values == (32, 64, 96, 128)


def test_an_assignment_without_variants_has_none(tmp_path):
    assert not load_assignment(write_variants(tmp_path, "")).variants


@pytest.mark.parametrize("variants, where", [
    ("variants: [T]\n", "variants"),
    ("variants:\n  T: {default: 3, choices: [1, 2]}\n", "variants.T.default"),
    ("variants:\n  T: {default: 1, choices: [1, 1]}\n", "variants.T.choices"),
    ("variants:\n  T: {default: 1, choices: []}\n", "variants.T.choices"),
    ("variants:\n  T: {default: 1, choices: [1, two]}\n", "variants.T.choices"),
    ("variants:\n  T: {default: 1, range: [1, 10]}\n", "variants.T.range"),
    ("variants:\n  T: {default: 1, range: [10, 1, 1]}\n", "variants.T.range"),
    ("variants:\n  T: {default: 1, choices: [1], range: [1, 2, 1]}\n", "variants.T"),
    ("variants:\n  T: {choices: [1, 2]}\n", "variants.T"),
    ("variants:\n  T: {default: 1, choices: [1], step: 2}\n", "variants.T.step"),
    ("variants:\n  2T: {default: 1, choices: [1]}\n", "variants.2T"),
])
def test_a_bad_variants_entry_is_refused_with_its_key(tmp_path, variants, where):
    """Is every fault of `variants:` a ConfigError naming the file and the key to fix?"""
    with pytest.raises(ConfigError, match=re.escape(f"assignment.yaml: {where}:")) as info:
        load_assignment(write_variants(tmp_path, variants))
    assert info.value.where == where and info.value.key[0] == "variants"


def test_preloads_load_as_module_names(tmp_path):
    config = load_assignment(write_variants(tmp_path, "preload: [torch._dynamo, wave]\n"))
    assert config.preload == ("torch._dynamo", "wave")
    assert load_assignment(write_variants(tmp_path / "none", "")).preload == ()


@pytest.mark.parametrize("preload, where", [
    ("preload: torch._dynamo\n", "preload"),  # not a list
    ("preload: [torch._dynamo, 'os; import x']\n", "preload[1]"),
    ("preload: [torch..x]\n", "preload[0]"),
    ("preload: [1torch]\n", "preload[0]"),
    ("preload: [" + ", ".join(f"m{n}" for n in range(17)) + "]\n", "preload"),
])
def test_a_bad_preload_is_refused_with_its_key(tmp_path, preload, where):
    """Is every fault of `preload:` a ConfigError naming the file and the entry to fix?"""
    with pytest.raises(ConfigError, match=re.escape(f"assignment.yaml: {where}:")) as info:
        load_assignment(write_variants(tmp_path, preload))
    assert info.value.where == where
