"""Run every code cell of a case's notebook in one namespace, without a kernel.

IPython magics (lines starting with % or !) are skipped, matplotlib uses the Agg backend and
LRKIT_GRADING=1 is set, as for a headless run. Prints each failing cell (index, tags, error).

    /work/main/.venv/bin/python run_nb.py CASE_FOLDER [CASE_FOLDER ...]
"""
import io
import json
import os
import sys
import traceback
from contextlib import redirect_stdout
from pathlib import Path


def run(folder):
    folder = Path(folder).resolve()
    os.environ["LRKIT_GRADING"] = "1"
    os.environ["MPLBACKEND"] = "Agg"
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for name in [m for m in sys.modules if m == "linear_attention"]:
        del sys.modules[name]
    sys.path.insert(0, str(folder))
    cwd = os.getcwd()
    os.chdir(folder)
    ns = {"__name__": "__main__"}
    failures, outputs = [], []
    try:
        nb = json.loads((folder / "linear_attention.ipynb").read_text())
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] != "code":
                continue
            code = "".join(l for l in "".join(cell["source"]).splitlines(True) if not l.lstrip().startswith(("%", "!")))
            buf = io.StringIO()
            try:
                with redirect_stdout(buf):
                    exec(compile(code, f"<cell {i}>", "exec"), ns)
            except Exception as e:  # noqa: BLE001
                failures.append((i, cell.get("metadata", {}).get("tags", []), f"{type(e).__name__}: {e}"))
            outputs.append((i, buf.getvalue()))
            plt.close("all")
    finally:
        os.chdir(cwd)
        sys.path.remove(str(folder))
        sys.modules.pop("linear_attention", None)
    return failures, outputs


if __name__ == "__main__":
    verbose = "-v" in sys.argv
    for f in [a for a in sys.argv[1:] if a != "-v"]:
        fails, outs = run(f)
        print(f"== {f}: {len(fails)} failing cell(s)")
        for i, tags, err in fails:
            print(f"   cell {i} {tags}: {err[:200]}")
        if verbose:
            for i, o in outs:
                if o.strip():
                    print(f"--- cell {i}\n{o.rstrip()}")
