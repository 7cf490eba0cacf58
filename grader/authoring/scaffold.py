"""`tasks.py new NAME`: the shortest path from nothing to a graded assignment.

It writes a minimal assignment that already works (a module with one solution region, a
notebook with one exercise and one numeric question, public tests, one hidden check with its
probe, a rubric, an answer key, example submissions and one mutant), builds it, and says what
to run next. `build`, `check` and `release` pass on it as generated, and its solution grades at
full automatic marks; docs/authoring.md walks through every file.
"""
from __future__ import annotations

import importlib.util
import json
import logging
import re
import shutil
from pathlib import Path

from grader.errors import UsageError

log = logging.getLogger(__name__)
NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")

ASSIGNMENT = """\
name: {name}
title: {title}
notebook: {module}.ipynb                # executed by the grader
student_files: [{module}.py, {module}.ipynb]   # the only files taken from a submission
modules: [{module}]                     # must import cleanly from the template
public_tests: tests/test_{module}.py
# On the untouched template: 1 public test passes (the provided check_gamma), 1 fails (the stub);
# graded, it earns no automatic points (score).
baseline: {{passed: 1, failed: 1, score: 0}}
limits: {{cell_timeout_s: 120, notebook_timeout_s: 300, checks_timeout_s: 180, case_timeout_s: 30, memory_mb: 2048}}
"""

RUBRIC = """\
items:
  - id: decayed_sum
    title: decayed_sum multiplies the state by γ before adding each token
    points: 4
    checks: [decayed_sum_matches]         # @check names in hidden/verdicts.py
    tests: [test_decayed_sum_small_example]   # public tests shown by `grade --local`
  - id: ex1_runs
    title: Exercise 1 runs and draws its plot
    points: 1
    cells: [ex1]                          # every cell tagged exercise:ex1 runs without error
    figures: 1
  - id: y3_at_half
    title: Question 1, y_3 for γ = 0.5
    points: 1
    answers: [y3_at_half]                 # ids in answer_key.yaml, asked in the notebook's answers cell
total: 6
"""

KEY = """\
# Entries inside BEGIN/END HIDDEN reach only the autograder bundle.
# BEGIN HIDDEN
y3_at_half:
  type: number
  value: 1.875
  rtol: 0.001
  distractors:
    - value: 4
      feedback: "4 is the plain running sum: every earlier token is multiplied by γ once per step since it arrived."
# END HIDDEN
"""

MODULE = '''\
"""{title}: a decayed running sum, the recurrence behind retention.

    y_t = γ · y_(t-1) + x_t,   y_0 = x_0
"""
import torch


def check_gamma(gamma):
    """Provided: the decay must lie in [0, 1]."""
    if not 0.0 <= gamma <= 1.0:
        raise ValueError(f"gamma must be in [0, 1], got {{gamma}}")
    return gamma


def decayed_sum(x, gamma):
    """y[..., t] = sum over s <= t of gamma**(t - s) * x[..., s], along the last dimension of x."""
    check_gamma(gamma)
    # BEGIN SOLUTION
    y = torch.empty_like(x)
    state = torch.zeros_like(x[..., 0])
    for t in range(x.shape[-1]):
        state = gamma * state + x[..., t]
        y[..., t] = state
    return y
    # END SOLUTION
'''

PUBLIC_TESTS = '''\
"""Public tests: students run them (pytest tests/); `grade --local` shows them per rubric item."""
import pytest
import torch
from {module} import check_gamma, decayed_sum


def test_gamma_out_of_range_raises():
    with pytest.raises(ValueError):
        check_gamma(1.5)


def test_decayed_sum_small_example():
    y = decayed_sum(torch.tensor([1.0, 1.0, 1.0]), 0.5)
    assert torch.allclose(y, torch.tensor([1.0, 1.5, 1.75]))
'''

PROBES = '''\
"""Student-side halves of the official checks. They run in the sandbox, beside the student's code:
each imports the student's module, calls it on the inputs a case sends (as keyword arguments, so
the parameters are named exactly as the case's inputs) and returns plain results. No expected
values here: students' code could read them."""
import torch


def decayed_sum(x, gamma):
    import {module} as student
    return {{"y": student.decayed_sum(torch.from_numpy(x), float(gamma))}}
'''

VERDICTS = '''\
"""Grader-side halves: the inputs (fixed seeds), an independent float64 reference, the judgement."""
import numpy as np

from grader.checks import Case, check


def reference(x, gamma):
    """y_t = sum over s <= t of gamma**(t - s) x_s, as one matrix product (not the students' loop)."""
    t = np.arange(x.shape[-1])
    lag = t[:, None] - t[None, :]
    weights = np.where(lag >= 0, float(gamma) ** np.maximum(lag, 0), 0.0)
    return x @ weights.T


@check(probe="decayed_sum")
def decayed_sum_matches():
    """decayed_sum multiplies the state by γ before adding each token."""
    rng = np.random.default_rng(0)
    for shape, gamma in [((4,), 0.5), ((2, 7), 0.9), ((3, 5), 0.25)]:
        x = rng.standard_normal(shape)
        yield Case(label=f"shape {{shape}}, γ = {{gamma}}", inputs={{"x": x, "gamma": gamma}},
                   expect={{"y": reference(x, gamma)}},
                   suspects={{"the state is never multiplied by γ": np.cumsum(x, axis=-1)}},
                   hint="Multiply the running state by γ, then add x_t: y_t = γ·y_(t-1) + x_t.")
'''

MUTANT = """\
kind: substitution
about: decayed_sum is the plain running sum (the state is never multiplied by gamma)
loses: [decayed_sum]
file: {module}.py
replace:
  - old: "state = gamma * state + x[..., t]"
    new: "state = state + x[..., t]"
"""

EXPECTED = """\
# Score range each example must get, and the rubric items it must lose (`tasks.py examples`).
solution: {min: 6, max: 6}
untouched_template: {min: 0, max: 0}
no_decay: {min: 2, max: 2, loses: [decayed_sum]}
"""


def _cell(kind: str, source: str, tags: tuple[str, ...] = ()) -> dict:
    cell = {"cell_type": kind, "metadata": {"tags": list(tags)} if tags else {}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def notebook(title: str, module: str) -> str:
    cells = [
        _cell("markdown", f"# {title}\n\nThe recurrence behind retention: $y_t = \\gamma\\, y_{{t-1}} + x_t$. "
                          f"Complete `decayed_sum` in `{module}.py` first (`pytest tests/` tells you when it works)."),
        _cell("code", f"import torch\nimport matplotlib.pyplot as plt\nfrom {module} import decayed_sum", ("locked",)),
        _cell("markdown", "**Exercise 1.** Plot `decayed_sum` of twenty ones for γ = 0.5 and γ = 0.9 in one "
                          "figure. Where does each curve level off, and why?", ("question",)),
        _cell("code", "x = torch.ones(20)\n# BEGIN SOLUTION\nfor gamma in (0.5, 0.9):\n"
                      "    plt.plot(decayed_sum(x, gamma).numpy(), label=f\"γ = {gamma}\")\n"
                      "plt.legend()\nplt.show()\n# END SOLUTION", ("exercise:ex1",)),
        _cell("markdown", "**Question 1.** With γ = 0.5 and x = (1, 1, 1, 1), what is $y_3$? Work it out by hand, "
                          "then write it in the answers cell below.", ("question",)),
        _cell("markdown", "**Your answers**\n\n```yaml\ny3_at_half: 1.875   # SOLUTION\n```", ("answers",)),
    ]
    nb = {"cells": cells, "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                                      "name": "python3"}, "language_info": {"name": "python"}},
          "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def sources(name: str, title: str) -> dict[str, str]:
    """Every file of a new assignment ``name``: path under assignments/<name>/ -> text."""
    module = name.replace("-", "_")
    fill = {"name": name, "title": title, "module": module}
    return {
        "assignment.yaml": ASSIGNMENT.format(**fill),
        "rubric.yaml": RUBRIC,
        "answer_key.yaml": KEY,
        f"{module}.py": MODULE.format(**fill),
        f"{module}.ipynb": notebook(title, module),
        f"tests/test_{module}.py": PUBLIC_TESTS.format(**fill),
        "hidden/probes.py": PROBES.format(**fill),
        "hidden/verdicts.py": VERDICTS.format(**fill),
    }


def new_assignment(root: Path, name: str, title: str = "") -> Path:
    """Write assignments/<name>/ and its examples and mutant, build it; return the folder."""
    from grader.authoring.build import build

    if not NAME.match(name):
        raise UsageError(f"{name!r} is not a usable assignment name: use lower-case letters, digits and single "
                         "dashes, starting with a letter (e.g. kv-cache)")
    module = name.replace("-", "_")
    if importlib.util.find_spec(module) is not None:
        raise UsageError(f"the module {module}.py would shadow the installed module {module!r}; choose another name")
    folder = root / "assignments" / name
    if folder.exists():
        raise UsageError(f"{folder.relative_to(root)} already exists; choose another name")
    title = title or name.replace("-", " ").capitalize()
    for rel, text in sources(name, title).items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if build(root, [name]) != 0:
        raise UsageError(f"the new assignment {name} does not build (see above); this is a bug of the kit")
    mutants = root / "tests" / "mutants" / name
    mutants.mkdir(parents=True, exist_ok=True)
    (mutants / "no_decay.yaml").write_text(MUTANT.format(module=module), encoding="utf-8")
    examples = root / "examples" / "submissions" / name
    for example, tree in (("solution", "solutions"), ("untouched_template", "student_template"),
                          ("no_decay", "solutions")):
        (examples / example).mkdir(parents=True, exist_ok=True)
        for rel in (f"{module}.py", f"{module}.ipynb"):
            shutil.copyfile(root / tree / name / rel, examples / example / rel)
    wrong = examples / "no_decay" / f"{module}.py"
    wrong.write_text(wrong.read_text().replace("state = gamma * state + x[..., t]", "state = state + x[..., t]"))
    (examples / "expected.yaml").write_text(EXPECTED, encoding="utf-8")
    log.info("wrote assignments/%s/ (%d files), examples/submissions/%s/ and tests/mutants/%s/no_decay.yaml",
             name, len(sources(name, title)), name, name)
    log.info("next: python tasks.py check %s   (grades its solution and template, ~1 min)", name)
    log.info("then: python tasks.py release %s && python tasks.py examples %s", name, name)
    return folder
