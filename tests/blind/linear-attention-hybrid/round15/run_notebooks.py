"""Run every case's notebook in grading mode (run_notebook.py, one case at a time) and summarise.

    python run_notebooks.py [CASE ...] > notebook_results.txt

One line per case: the code cells that fail, and the figures made by Exercises 1-4's cells.
"""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
cases = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "linear_attention_hybrid.ipynb").is_file())
for case in cases:
    out = subprocess.run([sys.executable, str(HERE / "run_notebook.py"), str(HERE / case), "--quiet"],
                         capture_output=True, text=True, timeout=900).stdout
    fails, figs = [], {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        cid, status = parts[0], parts[1]
        if status == "FAIL":
            fails.append(f"{cid} ({parts[2].rstrip(':')})")
        fig = [p for p in parts if p.startswith("figs=")]
        if fig and cid[:3] in ("ex1", "ex2", "ex3", "ex4"):
            figs[cid[:3]] = figs.get(cid[:3], 0) + int(fig[0][5:])
    print(f"{case:40s} fails: {', '.join(fails) or '—'}   figures: "
          + " ".join(f"{k}={v}" for k, v in sorted(figs.items())), flush=True)
