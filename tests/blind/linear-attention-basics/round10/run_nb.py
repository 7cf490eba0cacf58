"""Run every code cell of <case>/linear_attention.ipynb headless (LRKIT_GRADING=1), going on after errors.

Usage: python run_nb.py CASE [CASE ...]   prints, per case, the failing code cells (index, tags, error name).
"""
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

os.environ["LRKIT_GRADING"] = "1"
os.environ.setdefault("MPLBACKEND", "Agg")
HERE = Path(__file__).resolve().parent


def run(case):
    folder = HERE / case
    nb = nbformat.read(folder / "linear_attention.ipynb", as_version=4)
    client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(folder)}})
    client.execute()
    bad = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                bad.append((i, cell.metadata.get("tags", []), out["ename"], out["evalue"][:120]))
    return nb, bad


if __name__ == "__main__":
    for case in sys.argv[1:]:
        nb, bad = run(case)
        print(f"{case}: {'all code cells ran' if not bad else 'FAILING CELLS'}")
        for b in bad:
            print("   ", *b)
        if os.environ.get("SHOW"):
            for i, cell in enumerate(nb.cells):
                if cell.cell_type == "code" and i in {int(x) for x in os.environ["SHOW"].split(",")}:
                    for out in cell.outputs:
                        print(f"--- cell {i}:", out.get("text", out.get("evalue", "")))
