"""`tasks.py check` grades through the real pipeline, and `release` ships only what check passed.

One toy root carries three mistakes that only running can find (issue 12, mistake 2): the solution
notebook raises, the solution's answer is 8x off the key, and the solution module is wrong. One
check run must name each of them in `assignments/`, never in the generated trees."""
from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest

from grader.authoring.build import build, build_all
from grader.authoring.check import check_assignment
from grader.authoring.gate import RECORD, has_passed, record_pass
from grader.authoring.release import release
from grader.errors import ReleaseError

TOY = Path(__file__).parents[1] / "fixtures" / "toy-root"


def toy_root(tmp_path: Path) -> Path:
    """The toy root, with time limits that a busy machine cannot run into (the test is about messages)."""
    root = tmp_path / "root"
    shutil.copytree(TOY, root)
    edit(root / "assignments/toy/assignment.yaml", "cell_timeout_s: 30, notebook_timeout_s: 60",
         "cell_timeout_s: 300, notebook_timeout_s: 600")
    return root


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_check_names_what_only_running_finds(tmp_path):
    root = toy_root(tmp_path)
    toy = root / "assignments" / "toy"
    nb = json.loads((toy / "toy.ipynb").read_text())
    nb["cells"][2]["source"] = "".join(nb["cells"][2]["source"]) + "\n1 / 0"
    nb["cells"][5]["source"] = "".join(nb["cells"][5]["source"]).replace("[1.5, 2.5]", "[12, 20]")
    (toy / "toy.ipynb").write_text(json.dumps(nb, indent=1))
    edit(toy / "toy.py", "return torch.cumsum(x, dim=-1)", "return torch.cumsum(x, dim=-1) * 1.5")
    assert build(root) == 0  # nothing static is wrong
    problems = check_assignment(root, build_all(root)[0])
    text = "\n".join(problems)
    assert "solutions/" not in text and "student_template/" not in text
    expected = [
        "assignments/toy/tests/test_toy.py: the solution fails 1 public test(s): test_cumsum",
        "assignments/toy/toy.ipynb: cell 2: the solution notebook raised ZeroDivisionError: division by zero",
        "assignments/toy/rubric.yaml:7: item 'notebook_runs' (cells): the solution gets 0 of 1 points",
        "assignments/toy/toy.ipynb: cell 5: the solution's answer 'your_turn' does not match answer_key.yaml",
        "assignments/toy/rubric.yaml:2: item 'cumsum' (checks): the solution gets 0 of 2 points (the solution, or "
        "the check at assignments/toy/hidden/verdicts.py:7, is wrong): running_sum is a causal cumulative sum.",
    ]
    for start in expected:
        assert any(p.startswith(start) for p in problems), (start, problems)
    assert len(problems) == len(expected), problems


def test_release_refuses_what_check_rejects_and_ships_what_it_passed(tmp_path, caplog):
    """A release runs the static validation, then requires a passing check for exactly these trees:
    it runs check itself when none is recorded, and refuses when check fails."""
    root = toy_root(tmp_path)
    assert build(root) == 0
    record_pass(root, "toy", "not-these-trees")
    edit(root / "assignments/toy/hidden/verdicts.py", 'inputs={"x": x}', 'inputs={"xs": x}')
    assert build(root) == 0  # static validation cannot see the case inputs; check can, without grading
    with caplog.at_level(logging.INFO), pytest.raises(ReleaseError, match="refusing to release toy: 'python tasks.py "
                                                                          "check toy' fails"):
        release(root, ["toy"])
    assert "assignments/toy/hidden/verdicts.py: check 'cumsum_matches', case 'shape (1,)': the inputs (xs)" \
        in caplog.text
    assert not (root / "dist").exists()
    edit(root / "assignments/toy/rubric.yaml", "total: 5", "total: 4")  # a static mistake: refused at once
    with pytest.raises(Exception, match="rubric.yaml:19: total is 4"):
        release(root, ["toy"])
    assert not has_passed(root, "toy") and (root / RECORD).is_file()


def test_a_check_that_cannot_make_its_cases_is_named_once_at_its_line(tmp_path):
    """An exception while a check builds its cases: one message, the source folder said once, the line its own."""
    root = toy_root(tmp_path)
    edit(root / "assignments/toy/hidden/verdicts.py", "    rng = np.random.default_rng(0)\n",
         "    rng = np.random.default_rng(0)\n    rng.no_such_method()\n")
    assert build(root) == 0
    problems = check_assignment(root, build_all(root)[0])
    assert problems == ["assignments/toy/hidden/verdicts.py: check 'cumsum_matches' cannot make its cases: "
                        "assignments/toy/hidden/verdicts.py:10: AttributeError: 'numpy.random._generator.Generator' "
                        "object has no attribute 'no_such_method'"], problems


def test_an_edited_mutant_needs_a_new_check(tmp_path):
    """check measures the mutants too: a pass recorded before a mutant changed does not let release ship."""
    from grader.authoring.gate import fingerprint

    root = toy_root(tmp_path)
    assert build(root) == 0
    folder = root / "tests" / "mutants" / "toy"
    folder.mkdir(parents=True, exist_ok=True)
    mutant = folder / "typo.yaml"
    mutant.write_text("kind: bug\nloses: [cumsum]\nreplace:\n  - {old: 'dim=-1', new: 'dim=0'}\n")
    record_pass(root, "toy", fingerprint(root, "toy"))
    assert has_passed(root, "toy")
    mutant.write_text("kind: bug\nloses: [cumsun]\nreplace:\n  - {old: 'dim=-1', new: 'dim=0'}\n")
    assert not has_passed(root, "toy")
