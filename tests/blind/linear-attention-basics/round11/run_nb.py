"""Run every code cell of <case>/linear_attention.ipynb headless (LRKIT_GRADING=1) and list failing cells.

    /work/main/.venv/bin/python run_nb.py <case> [<case> ...]     # one case at a time, sequentially

Writes <case>/notebook_run.txt: "OK" or one line per failing code cell (index, tags, error).
The notebook is executed in a temporary copy of the case folder, so the case folder itself is not changed.
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent


def run(case):
    src = HERE / case
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / case
        shutil.copytree(src, work, ignore=shutil.ignore_patterns("__pycache__", "notebook_run.txt",
                                                                  "public_tests.txt"))
        nb = nbformat.read(work / "linear_attention.ipynb", as_version=4)
        os.environ["LRKIT_GRADING"] = "1"
        client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                                resources={"metadata": {"path": str(work)}})
        client.execute()
    failures = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                tags = ",".join(cell.get("metadata", {}).get("tags", [])) or "-"
                failures.append(f"cell {i} [{tags}]: {out['ename']}: {out['evalue'][:200]}")
    text = "OK\n" if not failures else "\n".join(failures) + "\n"
    (src / "notebook_run.txt").write_text(text)
    return text


if __name__ == "__main__":
    for c in sys.argv[1:]:
        print(f"== {c}\n{run(c)}", end="", flush=True)
