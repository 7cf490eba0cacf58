"""The suite's own collection rules.

tests/adversarial/, tests/mutants/, tests/blind/ and tests/fixtures/ hold *data*: hostile submissions (one of them
ships a conftest.py that marks every test passed and exits 0), planted bugs and small kits. The
pyproject's `norecursedirs` keeps them out of `pytest` from the root; this keeps them out when one
of them is named on the command line too (`pytest tests/adversarial` collects nothing; naming one entry
itself still loads its conftest).
"""
collect_ignore_glob = ["adversarial/*", "mutants/*", "fixtures/*", "blind/*"]
