"""The thresholds come from assignment.yaml `integrity:`, checked once at load time with the key named."""
from __future__ import annotations

import shutil

import pytest
from conftest import ASSIGNMENT, REPO

from grader.config import ConfigError, IntegrityPolicy, load_assignment


def assignment_with(tmp_path, extra: str):
    folder = tmp_path / ASSIGNMENT
    folder.mkdir()
    shutil.copy(REPO / "solutions" / ASSIGNMENT / "assignment.yaml", folder / "assignment.yaml")
    with (folder / "assignment.yaml").open("a", encoding="utf-8") as fh:
        fh.write(extra)
    return folder


def test_without_the_key_the_defaults_hold():
    assert load_assignment(REPO / "solutions" / ASSIGNMENT).integrity == IntegrityPolicy()


def test_thresholds_can_be_set(tmp_path):
    folder = assignment_with(tmp_path, "integrity: {flag: 0.75, noise: 40, guarantee: 48, common: 8}\n")
    policy = load_assignment(folder).integrity
    assert (policy.flag, policy.noise, policy.guarantee, policy.common) == (0.75, 40, 48, 8)


@pytest.mark.parametrize("extra, match", [
    ("integrity: {flag: 1.5}\n", r"integrity\.flag: expected 0 to 1, got 1.5"),
    ("integrity: {noise: 40, guarantee: 30}\n", r"integrity\.guarantee: expected 40 \(the noise\) to 1000"),
    ("integrity: {common: 1}\n", r"integrity\.common: expected 2 or more"),
    ("integrity: {flagg: 0.5}\n", r"unknown key 'flagg'"),
])
def test_a_wrong_threshold_names_its_key(tmp_path, extra, match):
    with pytest.raises(ConfigError, match=match):
        load_assignment(assignment_with(tmp_path, extra))
