"""A mutant record that is not one is named with its file, line and the key at fault."""
from __future__ import annotations

import pytest

from grader.authoring.mutants import MutantError, load_mutants


@pytest.mark.parametrize("text, words", [
    ("kind: bugg\nloses: [a]\nreplace:\n  - {old: x, new: y}\n", "m.yaml:1: kind 'bugg' is not one of bug, stub"),
    ("about: z\nkind: bug\nlose: [a]\nreplace:\n  - {old: x, new: y}\n", "m.yaml:3: unknown key 'lose'"),
    ("kind: bug\nloses: [a]\nreplace: []\n", "m.yaml:3: needs replace: "),
    ("- a list\n", "m.yaml:1: a mutant is a mapping"),
    ("kind: bug\nreplace:\n  - {old: x}\n", "every entry of replace needs 'old' and 'new'"),
])
def test_a_malformed_mutant_says_which_key_and_line(tmp_path, text, words):
    (tmp_path / "m.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(MutantError, match=words):
        load_mutants(tmp_path, "mod.py")


def test_a_good_record_loads_with_its_defaults(tmp_path):
    (tmp_path / "m.yaml").write_text("kind: bug\nloses: [a]\nshared: [f, g]\nreplace:\n  - {old: x, new: y}\n")
    (m,) = load_mutants(tmp_path, "mod.py")
    assert (m.kind, m.loses, m.file, m.shared, m.replace) == ("bug", ("a",), "mod.py", ("f", "g"), (("x", "y"),))
