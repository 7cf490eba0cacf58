"""The public-test runner that `tasks.py check` and `grade --local` rely on."""
from grader.grading.public_tests import run_public_tests


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
