"""Run each case's public tests, one pytest at a time, and summarise (passed, failed, names of failures).

    /work/main/.venv/bin/python check_public_tests.py [CASE ...]      (default: every case in corpus.yaml)
--noconftest keeps a conftest.py above this folder from deselecting the copied tests.
"""
import re
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PY = "/work/main/.venv/bin/python"

names = sys.argv[1:] or [c["name"] for c in yaml.safe_load((HERE / "corpus.yaml").read_text())]
for name in names:
    r = subprocess.run([PY, "-m", "pytest", "-q", "-rf", "--noconftest", "-p", "no:cacheprovider", "-c", "/dev/null",
                        "tests/"], cwd=HERE / name, capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    summary = out.strip().splitlines()[-1] if out.strip() else "?"
    failed = sorted({m.split("::")[1].split("[")[0] + ("[" + m.split("[")[1].split("]")[0] + "]" if "[" in m else "")
                     for m in re.findall(r"^FAILED (\S+)", out, re.M)})
    imp = subprocess.run([PY, "-c", "import linear_attention"], cwd=HERE / name, capture_output=True, text=True)
    print(f"{name}: {summary} | import {'ok' if imp.returncode == 0 else 'FAILED'}")
    for f in failed:
        print(f"    {f}")
