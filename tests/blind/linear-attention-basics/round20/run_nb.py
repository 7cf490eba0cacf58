"""Run the code cells of each case's notebook in one namespace (magics skipped, Agg backend, LRKIT_GRADING=1),
going on after failures. Prints, per case: the cells that raised, the three locked checks' status, the answers
cells' yaml, and which written answers differ from base's.

    OMP_NUM_THREADS=1 /work/main/.venv/bin/python run_nb.py [case ...]
"""
import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path

os.environ["LRKIT_GRADING"] = "1"
os.environ["MPLBACKEND"] = "Agg"
HERE = Path(__file__).resolve().parent


def run(name):
    folder = HERE / name
    nb = json.loads((folder / "linear_attention.ipynb").read_text())
    old = os.getcwd()
    os.chdir(folder)
    sys.path.insert(0, str(folder))
    for mod in [m for m in sys.modules if m == "linear_attention"]:
        del sys.modules[mod]
    ns = {"__name__": "__main__"}
    failed, checks = [], {}
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for c in nb["cells"]:
        if c["cell_type"] != "code":
            continue
        src = "".join(c["source"])
        src = "\n".join(ln for ln in src.split("\n") if not ln.lstrip().startswith("%"))
        buf = io.StringIO()
        try:
            with contextlib.redirect_stdout(buf):
                exec(compile(src, c["id"], "exec"), ns)
        except BaseException as e:  # noqa: BLE001
            failed.append(f"{c['id']}: {type(e).__name__}: {str(e)[:80]}")
        plt.close("all")
        if "locked" in c.get("metadata", {}).get("tags", []):
            checks[c["id"]] = "ok" if "Exercise" in buf.getvalue() else "FAIL"
    sys.path.remove(str(folder))
    os.chdir(old)
    answers = []
    written = {}
    for c in nb["cells"]:
        tags = c.get("metadata", {}).get("tags", [])
        if "answers" in tags:
            m = re.search(r"```yaml\n(.*?)```", "".join(c["source"]), re.S)
            answers.append(m.group(1).strip().replace("\n", "; ") if m else "?")
        for t in tags:
            if t.startswith("answer:"):
                written[t[7:]] = "".join(c["source"])
    return failed, checks, answers, written


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "linear_attention.ipynb").exists())
    base_written = run("base")[3]
    for n in names:
        failed, checks, answers, written = run(n)
        wd = [k for k in written if written[k] != base_written.get(k)]
        print(f"{n}: checks {checks}; failed cells {failed or 'none'}; answers {answers}; written answers "
              f"differing from base {wd or 'none'}", flush=True)
