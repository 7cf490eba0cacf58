"""Run a case folder's notebook without a kernel: every code cell in one namespace, in order.

    /work/main/.venv/bin/python run_nb.py CASE_DIR        # prints one line per failing cell, then a summary

IPython magics (lines starting with % or !) are skipped, matplotlib uses the Agg backend and
LRKIT_GRADING=1 is set, as when the grader runs the notebook headless. A failing cell is reported and
the run goes on with the next cell. Cells are named by their tags (exercise:ex1, ...) or their index.
"""
import contextlib
import io
import json
import os
import sys
import traceback
from pathlib import Path


def run(case_dir, quiet=True):
    case_dir = Path(case_dir).resolve()
    os.environ["LRKIT_GRADING"] = "1"
    os.environ.setdefault("MPLBACKEND", "Agg")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    nb = json.loads((case_dir / "linear_attention.ipynb").read_text())
    old_cwd, old_path = os.getcwd(), list(sys.path)
    os.chdir(case_dir)
    sys.path.insert(0, str(case_dir))
    for mod in [m for m in sys.modules if m == "linear_attention"]:
        del sys.modules[mod]
    ns = {"__name__": "__main__"}
    failures, outputs = [], {}
    try:
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            src = "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in src.split("\n"))
            tags = cell.get("metadata", {}).get("tags", [])
            name = f"cell {i}" + (f" {tags}" if tags else "")
            buf = io.StringIO()
            try:
                with contextlib.redirect_stdout(buf):
                    exec(compile(src, f"<{name}>", "exec"), ns)
            except BaseException as exc:                       # noqa: BLE001
                failures.append((i, tags, f"{type(exc).__name__}: {exc}"))
                if not quiet:
                    traceback.print_exc()
            outputs[i] = buf.getvalue()
            plt.close("all")
    finally:
        os.chdir(old_cwd)
        sys.path[:] = old_path
        sys.modules.pop("linear_attention", None)
    return failures, outputs


if __name__ == "__main__":
    fails, outs = run(sys.argv[1], quiet="-v" not in sys.argv)
    if "-o" in sys.argv:
        for i, o in outs.items():
            if o:
                print(f"--- cell {i}\n{o}", end="")
    for i, tags, msg in fails:
        print(f"FAIL cell {i} {tags}: {msg[:300]}")
    print("failing cells:", len(fails))
