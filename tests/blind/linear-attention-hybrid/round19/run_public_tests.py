"""Run the template's public tests against every round-19 case, each in a scratch copy under /tmp/h19/pt.

    OMP_NUM_THREADS=1 python run_public_tests.py > public_tests.txt
"""
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
SCRATCH = Path("/tmp/h19/pt")
names = sys.argv[1:] or [e["name"] for e in yaml.safe_load((HERE / "corpus.yaml").read_text())]
for n in names:
    dst = SCRATCH / n
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(HERE / n, dst, ignore=shutil.ignore_patterns("*.ipynb"))
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_linear_attention.py"],
                       cwd=dst, capture_output=True, text=True, timeout=300)
    failed = sorted({l.split(" ")[1].split("::", 1)[1] for l in r.stdout.splitlines() if l.startswith("FAILED")})
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
    print(f"{n:42s} {summary}")
    for f in failed:
        print(f"    FAILED {f}")
    sys.stdout.flush()
