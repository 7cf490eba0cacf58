"""Run a case's notebook code cells in one namespace, without a kernel (magics skipped, Agg backend,
LRKIT_GRADING=1), going on after a failing cell; prints the failing cell ids (and the cells' stdout with -v).

    /work/main/.venv/bin/python run_nb.py CASE_FOLDER [-v]
"""
import contextlib
import io
import json
import os
import sys
from pathlib import Path


def run(folder, verbose=False):
    folder = Path(folder).resolve()
    os.environ["LRKIT_GRADING"] = "1"
    os.environ["MPLBACKEND"] = "Agg"
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    plt.show = lambda *a, **k: plt.close("all")
    sys.modules.pop("linear_attention", None)
    sys.path.insert(0, str(folder))
    cwd = os.getcwd()
    os.chdir(folder)
    nb = json.loads((folder / "linear_attention.ipynb").read_text())
    ns = {"__name__": "__main__"}
    failed, outs = [], {}
    try:
        for cell in nb["cells"]:
            if cell["cell_type"] != "code":
                continue
            src = "".join(cell["source"])
            src = "\n".join(ln for ln in src.split("\n") if not ln.lstrip().startswith("%"))
            buf = io.StringIO()
            try:
                with contextlib.redirect_stdout(buf):
                    exec(compile(src, cell["id"], "exec"), ns)
            except Exception as e:  # noqa: BLE001
                failed.append(f"{cell['id']}: {type(e).__name__}: {str(e)[:120]}")
            outs[cell["id"]] = buf.getvalue()
            plt.close("all")
    finally:
        os.chdir(cwd)
        sys.path.remove(str(folder))
        sys.modules.pop("linear_attention", None)
    if verbose:
        for k, v in outs.items():
            if v.strip():
                print(f"--- {k}\n{v.rstrip()}")
    return failed


if __name__ == "__main__":
    f = run(sys.argv[1], "-v" in sys.argv)
    print("failing cells:", f or "none")
