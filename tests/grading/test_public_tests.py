"""The public-test runner that `tasks.py check` and `grade --local` rely on."""
from grader import sandbox
from grader.grading.public_tests import _counts, run_public_tests


def test_counts_follow_pytest_and_a_parametrized_test_fails_when_one_case_fails(tmp_path):
    """Do counts match pytest's (one per parametrization) while outcomes are per test function?"""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_demo.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.parametrize('x', [1, 2, 3])\n"
        "def test_small(x):\n    assert x < 3\n\n"
        "def test_ok():\n    assert True\n\n"
        "@pytest.mark.skip(reason='optional')\n"
        "def test_optional():\n    assert False\n")
    counts = run_public_tests(tmp_path, "tests/test_demo.py")
    assert (counts.passed, counts.failed) == (3, 1)
    assert counts.outcomes == {"test_small": False, "test_ok": True}


def _demo(tmp_path, body: str):
    (tmp_path / "tests").mkdir()
    (tmp_path / "mymod.py").write_text("def f():\n    return 2\n")
    (tmp_path / "tests" / "test_demo.py").write_text(body)
    return tmp_path


def test_tests_import_the_module_from_the_tree_root_in_the_sandbox_and_without_it(tmp_path, monkeypatch):
    """Do the tests see the tree's own module, sandboxed (warm or cold) and as a plain subprocess?"""
    tree = _demo(tmp_path, "from mymod import f\n\ndef test_f():\n    assert f() == 2\n\ndef test_g():\n"
                           "    assert f() == 3\n")
    seen = []
    for available in (True, False):
        if not available:
            monkeypatch.setattr(sandbox, "sandbox_available", lambda: False)
        seen.append(run_public_tests(tree, "tests/test_demo.py"))
    assert [(c.passed, c.failed, c.outcomes) for c in seen] == [(1, 1, {"test_f": True, "test_g": False})] * 2


def test_a_test_run_that_forges_or_floods_its_report_scores_nothing(tmp_path):
    """Tests that exit before pytest writes its XML, or print garbage where it goes: no outcome, no crash."""
    tree = _demo(tmp_path, "import os\n\ndef test_exit():\n    os._exit(0)\n")
    assert run_public_tests(tree, "tests/test_demo.py").outcomes == {}
    junks = (b"", b"<testsuite><testcase name='x'>", b"\x00" * 1000, b"<!DOCTYPE a [<!ENTITY a 'aaaa'>]><a>&a;</a>")
    for junk in junks:
        assert _counts(junk).outcomes == {}


def test_a_hanging_test_run_is_stopped_at_its_timeout(tmp_path):
    tree = _demo(tmp_path, "import time\n\ndef test_hang():\n    time.sleep(600)\n")
    counts = run_public_tests(tree, "tests/test_demo.py", timeout=5)
    assert counts.outcomes == {} and counts.passed == 0
    assert counts.notes and "stopped" in counts.notes[0]
