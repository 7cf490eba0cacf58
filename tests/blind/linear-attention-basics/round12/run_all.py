"""Run the public tests and the headless notebook for every case, one at a time; write public_tests.txt.

    PYTHONDONTWRITEBYTECODE=1 /work/main/.venv/bin/python run_all.py [CASE ...]
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PY = "/work/main/.venv/bin/python"
env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", LRKIT_GRADING="1", MPLBACKEND="Agg")


def one(name):
    d = HERE / name
    p = subprocess.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--noconftest", "-c", "/dev/null",
                        "-rfE", "tests"], cwd=d, env=env, capture_output=True, text=True, timeout=600)
    out = p.stdout
    summary = out.strip().splitlines()[-1] if out.strip() else p.stderr[-300:]
    failed = sorted(set(re.findall(r"^FAILED tests/test_linear_attention.py::(\S+)", out, re.M)))
    n = subprocess.run([PY, str(HERE / "run_nb.py"), str(d)], env=env, capture_output=True, text=True, timeout=600)
    nb = n.stdout.strip()
    return summary, failed, nb


if __name__ == "__main__":
    names = sys.argv[1:] or [e["name"] for e in yaml.safe_load((HERE / "corpus.yaml").read_text())]
    lines = []
    for name in names:
        summary, failed, nb = one(name)
        short = sorted({re.sub(r"\[.*\]$", "", f) for f in failed})
        block = [f"{name}: public tests: {summary}"]
        if failed:
            block.append(f"  failing ({len(failed)}): " + ", ".join(failed))
        block.append("  notebook (LRKIT_GRADING=1, nbclient): " + nb.replace("\n", "\n    "))
        print("\n".join(block), flush=True)
        lines += block
    if not sys.argv[1:]:
        (HERE / "public_tests.txt").write_text(
            "# Public tests (pytest tests, one case at a time) and the headless notebook run, per case.\n"
            + "\n".join(lines) + "\n")
