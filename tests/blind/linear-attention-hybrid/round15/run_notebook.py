"""Run a case's notebook code cells in one namespace, grading mode, Agg backend (no outputs saved).

    python run_notebook.py CASE_DIR [--quiet]

Copies CASE_DIR to a scratch folder under /tmp, runs there with LRKIT_GRADING=1 and one thread; the id
cell's `from grader.variants import show_parameters` is replaced by an ImportError, so the default
Exercise 5 numbers are used. Prints one line per code cell: id, status, figures made, last output line.
"""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path

os.environ["LRKIT_GRADING"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["MPLBACKEND"] = "Agg"

case = Path(sys.argv[1]).resolve()
work = Path(tempfile.mkdtemp(prefix="r15nb_")) / case.name
shutil.copytree(case, work, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
os.chdir(work)
sys.path.insert(0, str(work))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)
nb = json.loads((work / "linear_attention_hybrid.ipynb").read_text())
ns = {"__name__": "__main__"}
for cell in nb["cells"]:
    if cell["cell_type"] != "code":
        continue
    src = "".join(cell["source"])
    src = src.replace("from grader.variants import show_parameters",
                      "raise ImportError('no grader here')")
    before = set(plt.get_fignums())
    out = io.StringIO()
    start = time.time()
    status = "ok"
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(src, cell["id"], "exec"), ns)
        except Exception as exc:  # noqa: BLE001
            status = f"FAIL {type(exc).__name__}: {str(exc).splitlines()[0][:150] if str(exc) else ''}"
    figs = len(set(plt.get_fignums()) - before)
    plt.close("all")
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    print(f"{cell['id']:>14}  {status:<10} figs={figs} {time.time() - start:5.1f}s  | "
          + (" / ".join(lines[-3:]) if "--quiet" not in sys.argv else (lines[-1] if lines else ""))[:400])
shutil.rmtree(work.parent)
