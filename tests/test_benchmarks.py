"""The benchmarks (`tasks.py bench ...`) are not timed tests, but they must at least load and parse their
arguments: a renamed helper in `grader` once broke `bench grade` without any test noticing."""
from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("name", ["grade", "scale", "loop", "klass"])
def test_every_benchmark_loads_and_parses_its_arguments(name, capsys):
    module = importlib.import_module(f"benchmarks.{name}")
    with pytest.raises(SystemExit, match="0") as exit_:
        module.main(["--help"])
    assert exit_.value.code == 0 and "usage: tasks.py bench" in capsys.readouterr().out
