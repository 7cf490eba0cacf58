"""Run every code cell of a case's notebook headless (LRKIT_GRADING=1), errors allowed; list failing cells.

    /work/main/.venv/bin/python run_nb.py CASE_DIR
"""
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def run(case_dir):
    case_dir = Path(case_dir).resolve()
    nb = nbformat.read(case_dir / "linear_attention.ipynb", as_version=4)
    os.environ["LRKIT_GRADING"] = "1"
    os.environ["MPLBACKEND"] = "Agg"
    NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(case_dir)}}).execute()
    failed = []
    for i, c in enumerate(nb.cells):
        if c.cell_type != "code":
            continue
        for o in c.get("outputs", []):
            if o.get("output_type") == "error":
                failed.append((i, c.metadata.get("tags", []), o.get("ename"), o.get("evalue", "")[:120]))
    return failed


if __name__ == "__main__":
    for d in sys.argv[1:]:
        f = run(d)
        print(Path(d).name, "OK" if not f else f)
