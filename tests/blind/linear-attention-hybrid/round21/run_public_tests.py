"""Run the template's public tests once per case, each on a scratch copy under /tmp/r21_blind/pt.

    OMP_NUM_THREADS=1 python run_public_tests.py > public_tests.txt
"""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCRATCH = Path("/tmp/r21_blind/pt")
PY = "/work/main/.venv/bin/python"


def main():
    cases = sorted(d.name for d in HERE.iterdir() if (d / "g2c").is_dir())
    cases.remove("base")
    cases.insert(0, "base")
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
    for case in cases:
        dst = SCRATCH / case
        if dst.exists():
            shutil.rmtree(dst)
        shutil.copytree(HERE / case, dst)
        r = subprocess.run([PY, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider"], cwd=dst, env=env,
                           capture_output=True, text=True, timeout=600)
        tail = [ln for ln in r.stdout.splitlines() if re.search(r"passed|failed", ln)]
        failed = sorted(set(re.findall(r"FAILED \S+::(\S+)", r.stdout)))
        print(f"{case:42s} {tail[-1] if tail else r.stdout[-200:]}", flush=True)
        for f in failed:
            print(f"{'':44s}FAILED {f}")
    shutil.rmtree(SCRATCH)


if __name__ == "__main__":
    sys.exit(main())
