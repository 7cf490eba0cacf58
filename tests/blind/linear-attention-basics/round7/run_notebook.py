"""Execute a case's notebook headless (LRKIT_GRADING=1) and report, per cell, whether it raised.

Usage: python run_notebook.py CASE [CASE ...]     (nothing is written back: outputs are discarded)
"""
import json
import os
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).resolve().parent
os.environ["LRKIT_GRADING"] = "1"
os.environ["MPLBACKEND"] = "Agg"


def run(case):
    folder = HERE / case
    nb = nbformat.read(folder / "linear_attention.ipynb", as_version=4)
    client = NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": str(folder)}})
    client.execute()
    failed = []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                tags = cell.get("metadata", {}).get("tags", [])
                failed.append((i, tags, f"{out['ename']}: {out['evalue'][:120]}"))
    texts = {}
    for i, cell in enumerate(nb.cells):
        tags = cell.get("metadata", {}).get("tags", [])
        if any(t.startswith("exercise:") for t in tags):
            s = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
            texts[i] = s.strip()
    return failed, texts


if __name__ == "__main__":
    for case in sys.argv[1:]:
        failed, texts = run(case)
        print(f"== {case}: {len(failed)} failing cells")
        for i, tags, msg in failed:
            print(f"   cell {i} {tags}: {msg}")
        if os.environ.get("SHOW"):
            for i, t in texts.items():
                print(f"   [{i}] {t}")
