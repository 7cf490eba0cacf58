"""Run the template's public tests on a scratch copy of every case folder (never inside the repository).

    OMP_NUM_THREADS=1 python run_public_tests.py > public_tests.txt
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRATCH = Path("/tmp/r20_blind/pt")


def main():
    cases = sorted(p.name for p in HERE.iterdir() if (p / "g2c/linear_attention/attention.py").exists())
    cases.remove("base")
    cases.insert(0, "base")
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    for case in cases:
        dst = SCRATCH / case
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(HERE / case, dst)
        p = subprocess.run([sys.executable, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider", "-rf"],
                           cwd=dst, env=env, capture_output=True, text=True)
        summary = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else p.stderr[-200:]
        failed = sorted(set(re.findall(r"^FAILED \S+::(?:\w+::)?(\w+)", p.stdout, re.M)))
        print(f"{case:40s} {summary}")
        for name in failed:
            print(f"{'':40s}   failed: {name}")


if __name__ == "__main__":
    main()
