"""Public tests + headless notebook for every case folder, one at a time -> public_tests.txt."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PYX = "/work/main/.venv/bin/python"
names = ["base"] + sorted(p.name for p in HERE.iterdir() if p.is_dir() and p.name != "base" and (p / "tests").is_dir())
lines = []
for n in names:
    r = subprocess.run([PYX, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rf", "tests/test_linear_attention.py"],
                       cwd=HERE / n, capture_output=True, text=True, timeout=300)
    summary = (r.stdout.strip().splitlines() or ["?"])[-1]
    failed = sorted({ln.split("::")[1].split("[")[0] for ln in r.stdout.splitlines() if ln.startswith("FAILED")})
    nbr = subprocess.run([PYX, str(HERE / "run_nb.py"), str(HERE / n)], capture_output=True, text=True, timeout=600)
    nbline = (nbr.stdout.strip().splitlines() or ["?"])[-1]
    lines.append(f"{n}: {summary} | failing tests: {', '.join(failed) or '-'} | notebook: {nbline.split(' ', 1)[1] if ' ' in nbline else nbline}")
    print(lines[-1], flush=True)
(HERE / "public_tests.txt").write_text("\n".join(lines) + "\n")
