"""docs/tags.md quotes the real error texts: each quoted line is produced here by the code, and
every message produced here is quoted. A change of wording fails this test until the docs follow."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from grader.authoring.build import BuildError, build_assignment
from grader.authoring.notebook_tags import split_notebook
from grader.authoring.tags import TagError, split_text

ROOT = Path(__file__).parents[2]
TOY = ROOT / "tests" / "fixtures" / "toy-root"

TEXTS = [  # (python source of assignments/x/x.py) -> one error each
    "x = 1\n\n# END SOLUTION\n",
    "def f():\n    # BEGIN SOLUTION\n    x = 1\n    # BEGIN HIDDEN\n",
    "x = 1\n# BEGIN SOLUTION\ny = 2\n",
    "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n# BEGIN STUB\n# END STUB\n",
    "x = 1\n# BEGIN SOLUTON\n",
    "x = 1\n# begin solution\n",
    'def f():\n    """Doc.\n\n    # BEGIN SOLUTION\n    """\n',
]

TOY_MISTAKES = [  # (file in the toy assignment, old, new)
    ("notes.txt", None, "Grading notes\n# BEGIN SOLUTION\nthe answer is 42\n"),
    ("rubric.yaml", "total: 5", "total: 6"),
    ("rubric.yaml", "checks: [cumsum_matches]", "checks: [cumsum_matchs]"),
    ("toy.ipynb", 1, "\nfrom hidden.verdicts import cumsum_matches"),
    ("toy.py", "    # BEGIN SOLUTION\n    return torch.cumsum(x, dim=-1)\n    # END SOLUTION",
     "    # BEGIN SOLUTION\n    if True:\n    # END SOLUTION\n        return torch.cumsum(x, dim=-1)"),
    ("toy.ipynb", 5, "your_trun"),
]


def notebook(sources: list[tuple[str, list[str]]]) -> str:
    cells = [{"cell_type": "code", "metadata": {"tags": tags}, "source": src, "outputs": [], "execution_count": None}
             for src, tags in sources]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def produced(tmp_path: Path) -> list[str]:
    messages = []
    for text in TEXTS:
        with pytest.raises(TagError, match=r":\d+: ") as info:
            split_text(text, "python", "assignments/x/x.py")
        messages.append(str(info.value))
    for nb in (notebook([("x = 1", []), ("y = 2", []), ("# BEGIN QUESTION\nname: q1", [])]),
               notebook([("x = 1", []), ("y = 2", []), ("z = 3", []), ("w = 4", ["soluton"])])):
        with pytest.raises(TagError, match="cell") as info:
            split_notebook(nb, "assignments/x/x.ipynb")
        messages.append(str(info.value))
    for n, (rel, old, new) in enumerate(TOY_MISTAKES):
        root = tmp_path / str(n)
        shutil.copytree(TOY, root)
        folder = root / "assignments" / "toy"
        path = folder / rel
        if rel.endswith(".ipynb"):
            nb = json.loads(path.read_text())
            source = "".join(nb["cells"][old]["source"])
            nb["cells"][old]["source"] = source.replace("your_turn:", f"{new}:") if old == 5 else source + new
            path.write_text(json.dumps(nb))
        else:
            path.write_text(new if old is None else path.read_text().replace(old, new))
        with pytest.raises(BuildError, match="assignments/") as info:
            build_assignment(folder, root)
        messages += [str(e) for e in info.value.errors]
    return messages


def quoted() -> list[str]:
    text = (ROOT / "docs" / "tags.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- errors:begin -->\n```\n(.*?)```\n<!-- errors:end -->", text, re.S)
    assert block, "docs/tags.md has no errors block"
    return block[1].strip().split("\n")


def test_docs_quote_exactly_the_messages_the_code_gives(tmp_path):
    code, docs = produced(tmp_path), quoted()
    missing = [m for m in code if m not in docs]
    stale = [d for d in docs if d not in code]
    assert not missing, "messages the code gives but docs/tags.md does not quote:\n" + "\n".join(missing)
    assert not stale, "lines quoted in docs/tags.md that the code no longer gives:\n" + "\n".join(stale)
