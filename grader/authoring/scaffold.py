"""`tasks.py new NAME`: the shortest path from nothing to a graded assignment.

It writes a minimal assignment that already works (a module with one solution region, a
notebook with one exercise and one numeric question, public tests, one hidden check with its
probe and its reference, a rubric, an answer key, example submissions and one mutant), builds it, and
says what to run next. `build`, `check` and `release` pass on it as generated, and its solution grades
at full automatic marks; docs/authoring.md walks through every file.

It cannot half-fail: everything is written into temporary folders beside their targets and renamed into
place only once the new assignment builds; any failure leaves nothing behind. Whatever the title, it is
quoted (YAML, Python, JSON) where it is written. The example mutant and the example wrong submission are
marked `scaffold: true`, so `check` reminds the author to replace them (`leftovers`).
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import secrets
import shutil
from pathlib import Path

import yaml

from grader.errors import UsageError

log = logging.getLogger(__name__)
NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
MAX_TITLE = 200

ASSIGNMENT = """\
name: {name}
title: {title_yaml}
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
"""{title_py}: a decayed running sum, the recurrence behind retention.

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
values here: students' code could read them. Every call of the student's code goes through the
harness's `call` (one thread, the same stack above it in every probe: docs/authoring.md, "One call
path")."""
import torch
from lrkit_harness import call


def decayed_sum(x, gamma):
    import {module} as student
    return {{"y": call(student.decayed_sum, torch.from_numpy(x), float(gamma))}}
'''

VERDICTS = '''\
"""Grader-side halves: the inputs (from seeds drawn for each submission: `drawn`), what a right answer is, and how
to talk about a wrong one."""
import numpy as np

from grader.checks import Case, check, drawn

from . import reference as ref


@check(probe="decayed_sum")
def decayed_sum_matches():
    """decayed_sum multiplies the state by γ before adding each token."""
    rng = np.random.default_rng(drawn(0))  # the grader's secret and the submission's code: no list of inputs
    for shape, gamma in [((4,), 0.5), ((2, 7), 0.9), ((3, 5), 0.25)]:
        x = rng.standard_normal(shape)
        yield Case(label=f"shape {{shape}}, γ = {{gamma}}", inputs={{"x": x, "gamma": gamma}},
                   expect={{"y": ref.decayed_sum(x, gamma)}},
                   suspects={{"the state is never multiplied by γ": np.cumsum(x, axis=-1)}},
                   hint="Multiply the running state by γ, then add x_t: y_t = γ·y_(t-1) + x_t.")
'''

REFERENCE = '''\
"""The independent reference (numpy, float64) the checks compare with: written differently from the
solution (a matrix product, not the students' loop), so that one mistake cannot hide in both."""
import numpy as np


def decayed_sum(x, gamma):
    """y_t = sum over s <= t of gamma**(t - s) x_s, along the last axis of x."""
    t = np.arange(x.shape[-1])
    lag = t[:, None] - t[None, :]
    weights = np.where(lag >= 0, float(gamma) ** np.maximum(lag, 0), 0.0)
    return x @ weights.T
'''

MUTANT = """\
# scaffold: true marks the example 'tasks.py new' wrote; 'tasks.py check' reminds you to replace it with a
# mistake your students make (then delete the line).
scaffold: true
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
# no_decay is the example 'tasks.py new' wrote (scaffold: true): replace it with a wrong submission of your own.
no_decay: {min: 2, max: 2, loses: [decayed_sum], scaffold: true}
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
    fill = {"name": name, "module": module, "title_yaml": quoted_yaml(title), "title_py": docstring_text(title)}
    return {
        "assignment.yaml": ASSIGNMENT.format(**fill),
        "rubric.yaml": RUBRIC,
        "answer_key.yaml": KEY,
        f"{module}.py": MODULE.format(**fill),
        f"{module}.ipynb": notebook(title, module),
        f"tests/test_{module}.py": PUBLIC_TESTS.format(**fill),
        "hidden/probes.py": PROBES.format(**fill),
        "hidden/verdicts.py": VERDICTS.format(**fill),
        "hidden/reference.py": REFERENCE,
    }


def quoted_yaml(text: str) -> str:
    """``text`` as one YAML scalar that reads back as exactly ``text`` (colons, quotes, '#', unicode)."""
    dumped = yaml.safe_dump(text, default_style='"', allow_unicode=True, width=10**6)
    return dumped.removesuffix("\n...\n").rstrip("\n")


def docstring_text(text: str) -> str:
    """``text`` safe inside a triple-quoted Python docstring."""
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def check_title(title: str) -> str:
    title = " ".join(title.split()) if title.strip() else ""
    if len(title) > MAX_TITLE:
        raise UsageError(f"the title is {len(title)} characters long; keep it under {MAX_TITLE} (one line)")
    return title


def _staged(target: Path, files: dict[str, bytes]) -> Path:
    """``files`` written into a temporary folder beside ``target`` (renamed into place later)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    stage = target.parent / f".new-{target.name}-{os.getpid()}-{secrets.token_hex(4)}"
    stage.mkdir()  # (not mkdtemp: its 0700 would become the new folder's mode)
    for rel, data in files.items():
        path = stage / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return stage


def new_assignment(root: Path, name: str, title: str = "") -> Path:
    """Write assignments/<name>/, its examples and its mutant, and build it; return the folder. Nothing
    is left behind when any step fails."""
    from grader.authoring.build import BuildError, build_assignment, write_trees

    module, title = _usable(root, name), check_title(title) or name.replace("-", " ").capitalize()
    folder = root / "assignments" / name
    texts = sources(name, title)
    placed: list[Path] = []
    stage = _staged(folder, {rel: text.encode() for rel, text in texts.items()})
    try:
        os.rename(stage, folder)
        placed.append(folder)
        try:
            built = build_assignment(folder, root)
        except BuildError as exc:
            raise UsageError(f"the new assignment {name} does not build, a bug of the kit: {exc}") from None
        extras = _examples(root, name, module, built)
        for target, files in extras.items():
            stage = _staged(target, files)
            os.rename(stage, target)
            placed.append(target)
        write_trees(root, [built])
    except BaseException:
        for path in placed:
            shutil.rmtree(path, ignore_errors=True)
        for stale in [*root.glob(f"assignments/.new-{name}-*"), *root.glob(f"tests/mutants/.new-{name}-*"),
                      *root.glob(f"examples/submissions/.new-{name}-*")]:
            shutil.rmtree(stale, ignore_errors=True)
        raise
    log.info("wrote assignments/%s/ (%d files), examples/submissions/%s/ and tests/mutants/%s/no_decay.yaml",
             name, len(texts), name, name)
    log.info("next: python tasks.py check %s   (grades its solution and template, ~1 min)", name)
    log.info("then: python tasks.py release %s && python tasks.py examples %s", name, name)
    return folder


def _usable(root: Path, name: str) -> str:
    """The module name of a new assignment ``name``, or UsageError saying why the name cannot be used."""
    if not NAME.match(name):
        raise UsageError(f"{name!r} is not a usable assignment name: use lower-case letters, digits and single "
                         "dashes, starting with a letter (e.g. kv-cache)")
    module = name.replace("-", "_")
    if importlib.util.find_spec(module) is not None:
        raise UsageError(f"the module {module}.py would shadow the installed module {module!r}; choose another name")
    for target in (root / "assignments" / name, root / "examples" / "submissions" / name,
                   root / "tests" / "mutants" / name):
        if target.exists():
            raise UsageError(f"{target.relative_to(root)} already exists; choose another name")
    return module


def _examples(root: Path, name: str, module: str, built) -> dict[Path, dict[str, bytes]]:
    """The example submissions and the example mutant, from the built trees: folder -> its files."""
    examples: dict[str, bytes] = {"expected.yaml": EXPECTED.encode()}
    for example, tree in (("solution", built.solution), ("untouched_template", built.student),
                          ("no_decay", built.solution)):
        for rel in (f"{module}.py", f"{module}.ipynb"):
            examples[f"{example}/{rel}"] = tree[rel]
    wrong = examples[f"no_decay/{module}.py"].decode()
    examples[f"no_decay/{module}.py"] = wrong.replace("state = gamma * state + x[..., t]",
                                                      "state = state + x[..., t]").encode()
    return {root / "examples" / "submissions" / name: examples,
            root / "tests" / "mutants" / name: {"no_decay.yaml": MUTANT.format(module=module).encode()}}


def leftovers(root: Path, name: str) -> list[str]:
    """What `tasks.py new` wrote as an example and is still marked `scaffold: true`: one line each."""
    found = []
    for path in sorted((root / "tests" / "mutants" / name).glob("*.yaml")):
        data = _yaml_file(path)
        if isinstance(data, dict) and data.get("scaffold") is True:
            found.append(f"{path.relative_to(root).as_posix()}: still the example mutant 'tasks.py new' wrote: "
                         "replace it with a mistake your students make (then delete 'scaffold: true')")
    found += _example_text_left(root, name)
    expected = root / "examples" / "submissions" / name / "expected.yaml"
    for example, want in (_yaml_file(expected) or {}).items() if expected.is_file() else []:
        if isinstance(want, dict) and want.get("scaffold") is True:
            found.append(f"{expected.relative_to(root).as_posix()}: {example!r} is still the example submission "
                         f"'tasks.py new' wrote (examples/submissions/{name}/{example}/): replace it with a wrong "
                         "submission of your own (then delete 'scaffold: true')")
    return found


SCAFFOLD_PHRASES = {  # words only the scaffold's example writes, each with what it is
    "a decayed running sum, the recurrence behind retention": "the example module's docstring",
    "The recurrence behind retention: $y_t": "the example notebook's introduction",
    "def decayed_sum(": "the example function decayed_sum",
}


def _example_text_left(root: Path, name: str) -> list[str]:
    """The scaffold's example text still in the assignment's module and notebook (one line per file)."""
    source, module = root / "assignments" / name, name.replace("-", "_")
    found = []
    for rel in (f"{module}.py", f"{module}.ipynb"):
        try:
            text = (source / rel).read_text(encoding="utf-8")
        except OSError:
            continue
        left = [what for phrase, what in SCAFFOLD_PHRASES.items() if phrase in text]
        if left:
            found.append(f"assignments/{name}/{rel}: still has {', '.join(left)} that 'tasks.py new' wrote: "
                         "replace it with your assignment's own")
    return found


def _yaml_file(path: Path):
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None
