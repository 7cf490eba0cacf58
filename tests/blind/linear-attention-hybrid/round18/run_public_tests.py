"""Run the template's public tests on every case in a scratch copy (/tmp/h18/pt/<case>), never in the corpus.

    python run_public_tests.py > public_tests.txt
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRATCH = Path("/tmp/h18/pt")
PY = "/work/main/.venv/bin/python"


def run(case):
    dst = SCRATCH / case
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(HERE / case, dst)
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", "tests"], cwd=dst, env=env,
                       capture_output=True, text=True, timeout=600)
    failed = sorted(set(re.findall(r"^FAILED tests/test_linear_attention.py::(?:\w+::)?(\w+)", p.stdout, re.M)))
    passed = re.search(r"(\d+) passed", p.stdout)
    return int(passed.group(1)) if passed else 0, failed


if __name__ == "__main__":
    cases = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "tests").is_dir())
    for case in cases:
        n, failed = run(case)
        short = [f.replace("test_", "") for f in failed]
        print(f"{case:44s} {n:2d} passed, {len(failed):2d} failed: {', '.join(short) or '-'}", flush=True)
