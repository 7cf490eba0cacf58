"""Run one case's notebook the way a grading-mode kernel would, in a scratch copy, without the grader.

    OMP_NUM_THREADS=1 python run_notebook.py <case> [<case> ...]

For each case: copies the folder to /tmp/r16_nb/<case>, executes every code cell in one namespace with
LRKIT_GRADING=1 and the Agg backend (cwd = the copy, the copy first on sys.path), and prints the cells that
raised (cell id: exception) and the figures shown per exercise. The id cell's `from grader.variants import
show_parameters` is replaced by `raise ImportError(...)`, so the default Exercise 5 numbers are used.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHILD = r'''
import io, os, sys, json, contextlib, traceback
os.environ["LRKIT_GRADING"] = "1"
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
import nbformat
sys.path.insert(0, os.getcwd())
nb = nbformat.read("linear_attention_hybrid.ipynb", as_version=4)
figs, current = {}, [None]
def show(*a, **k):
    figs[current[0]] = figs.get(current[0], 0) + len(plt.get_fignums())
    plt.close("all")
plt.show = show
ns = {"__name__": "__main__"}
failed, out = [], {}
for cell in nb.cells:
    if cell.cell_type != "code":
        continue
    src = cell.source.replace("from grader.variants import show_parameters",
                              "raise ImportError('grader not used in these runs')")
    current[0] = cell.get("id")
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(src, cell.get("id"), "exec"), ns)
    except BaseException as exc:
        failed.append(f"{cell.get('id')}: {type(exc).__name__}: {str(exc).splitlines()[0][:100] if str(exc) else ''}")
    out[cell.get("id")] = buf.getvalue()[-1500:]
print(json.dumps({"failed": failed, "figures": figs, "out": out}))
'''


def main():
    for case in sys.argv[1:]:
        dst = Path("/tmp/r16_nb") / case
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(HERE / case, dst)
        env = dict(os.environ, OMP_NUM_THREADS="1", MPLBACKEND="Agg")
        p = subprocess.run([sys.executable, "-c", CHILD], cwd=dst, env=env, capture_output=True, text=True,
                           timeout=900)
        try:
            r = json.loads(p.stdout.strip().splitlines()[-1])
        except Exception:  # noqa: BLE001
            print(case, "runner failed:", p.stderr[-800:])
            continue
        print(f"{case}: failed cells {r['failed'] or 'none'}; figures {r['figures']}")
        if os.environ.get("SHOW_OUT"):
            for cid, text in r["out"].items():
                if text.strip():
                    print(f"  --- {cid}\n" + "\n".join("    " + ln for ln in text.strip().splitlines()))


if __name__ == "__main__":
    main()
