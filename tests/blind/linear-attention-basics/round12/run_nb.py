"""Run a case's notebook headless (LRKIT_GRADING=1, nbclient), cell by cell, and list the failing code cells.

    /work/main/.venv/bin/python run_nb.py CASE_DIR      # prints OK or the failing cells (index, tags, error)
Every code cell is run even after an error (allow_errors), so one broken cell does not hide the others.
"""
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

os.environ["LRKIT_GRADING"] = "1"
os.environ.setdefault("MPLBACKEND", "Agg")


def run(case_dir):
    case_dir = Path(case_dir).resolve()
    nb = nbformat.read(case_dir / "linear_attention.ipynb", as_version=4)
    client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(case_dir)}})
    client.execute()
    failures = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                tags = ",".join(cell.get("metadata", {}).get("tags", []))
                failures.append(f"cell {i} [{tags}]: {out['ename']}: {out['evalue'][:150]}")
    return failures


if __name__ == "__main__":
    fails = run(sys.argv[1])
    print("OK" if not fails else "FAIL\n" + "\n".join(fails))
