"""For every case folder (or those named): notebook cells that fail (run_nb.py in a copy under /tmp) and the
answers / written-answer cells that differ from base's; with --tests also the public tests in that copy.

    /work/main/.venv/bin/python check_cases.py [--tests] [CASE ...]
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PYTHON = "/work/main/.venv/bin/python"
ENV = dict(os.environ, OMP_NUM_THREADS="1")
ANSWER_CELLS = ["markdown-008", "markdown-030", "ex1-why-035", "ex2-gamma0-040", "ex3-selectivity-045"]


def cells(folder):
    nb = json.loads((folder / "linear_attention.ipynb").read_text())
    return {c.get("id"): "".join(c["source"]) for c in nb["cells"]}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    names = args or [e["name"] for e in yaml.safe_load((HERE / "corpus.yaml").read_text())]
    base_cells = cells(HERE / "base")
    for name in names:
        src = HERE / name
        tmp = Path("/tmp/r18_check") / name
        if tmp.exists():
            shutil.rmtree(tmp)
        shutil.copytree(src, tmp)
        nb = subprocess.run([PYTHON, str(HERE / "run_nb.py"), str(tmp)], capture_output=True, text=True, env=ENV,
                            timeout=300)
        fails = [ln for ln in nb.stdout.splitlines() if ln.startswith("FAILS")]
        diff = [c for c in ANSWER_CELLS if cells(src).get(c) != base_cells.get(c)]
        line = f"{name}: nb {fails[-1] if fails else nb.stderr[-200:]} | answer cells differing: {diff}"
        if "--tests" in sys.argv:
            t = subprocess.run([PYTHON, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=tmp,
                               capture_output=True, text=True, env=ENV, timeout=300)
            line += " | tests: " + (t.stdout.strip().splitlines() or ["?"])[-1]
        print(line, flush=True)


if __name__ == "__main__":
    main()
