"""Run every code cell of a case's notebook in one namespace, headless and without a kernel (light check).

    /work/main/.venv/bin/python run_nb.py CASE [CASE ...]     # prints the failing cells per case

IPython magics (`%matplotlib inline`) are skipped; matplotlib uses the Agg backend and LRKIT_GRADING=1.
Each case runs in its own subprocess with its folder as the working directory and on sys.path.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CHILD = r'''
import json, sys, traceback, io, contextlib
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
plt.show = lambda *a, **k: plt.close("all")
sys.path.insert(0, ".")
nb = json.load(open("linear_attention.ipynb"))
ns = {"__name__": "__main__"}
fails = []
for i, c in enumerate(nb["cells"]):
    if c["cell_type"] != "code":
        continue
    src = "".join(l for l in c["source"] if not l.lstrip().startswith("%"))
    tags = c.get("metadata", {}).get("tags", [])
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(src, f"cell{i}", "exec"), ns)
    except BaseException as e:
        fails.append((i, tags, f"{type(e).__name__}: {str(e)[:150]}"))
    if "--show" in sys.argv and any(t.startswith("exercise") for t in tags) or i in (7, 29):
        if "--show" in sys.argv:
            print(f"--- cell {i} {tags}\n{buf.getvalue()}", end="")
print(json.dumps(fails))
'''


def run(case, show=False):
    env = dict(os.environ, LRKIT_GRADING="1", MPLBACKEND="Agg")
    r = subprocess.run([sys.executable, "-c", CHILD] + (["--show"] if show else []), cwd=HERE / case,
                       env=env, capture_output=True, text=True, timeout=600)
    lines = r.stdout.strip().splitlines()
    if show:
        print("\n".join(lines[:-1]))
    try:
        return json.loads(lines[-1])
    except Exception:
        return [(-1, [], r.stderr[-500:])]


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--show"]
    for case in args:
        fails = run(case, show="--show" in sys.argv)
        print(case, "OK" if not fails else fails)
