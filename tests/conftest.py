"""The suite's own collection rules.

tests/adversarial/, tests/mutants/, tests/blind/ and tests/fixtures/ hold *data*: hostile submissions (one of them
ships a conftest.py that marks every test passed and exits 0), planted bugs and small kits. The
pyproject's `norecursedirs` keeps them out of `pytest` from the root; this keeps them out when one
of them is named on the command line too (`pytest tests/adversarial` collects nothing; naming one entry
itself still loads its conftest).
"""
import os

collect_ignore_glob = ["adversarial/*", "mutants/*", "fixtures/*", "blind/*"]

# `grade --local` keeps a warm template between runs (grader/sandbox/kept.py), a process that outlives the grader
# by design. The suite's own graders start their own, so that no test leaves a process behind or finds one another
# test left; tests/sandbox/test_kept.py and the "kept" mode of tests/sandbox/test_warm.py turn keeping on.
os.environ.setdefault("LRKIT_KEEP_WARM", "0")
