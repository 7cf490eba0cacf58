"""For every case folder listed in corpus.yaml: public tests (in a copy under /tmp), the probes of
ref_check.py that differ, the notebook cells that fail (run_nb.py), and the answer / written-answer cells
that differ from base. Alternatives must differ nowhere; bugs somewhere.

    /work/main/.venv/bin/python check_cases.py [CASE ...]
"""
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
PY = "/work/main/.venv/bin/python"
sys.path.insert(0, str(HERE))
import ref_check  # noqa: E402
import run_nb  # noqa: E402

ANSWER_CELLS = ["markdown-008", "markdown-030", "ex1-why-035", "ex2-gamma0-040", "ex3-selectivity-045"]


def cells(folder):
    nb = json.loads((folder / "linear_attention.ipynb").read_text())
    return {c.get("id"): "".join(c["source"]) for c in nb["cells"]}


def public_tests(folder):
    with tempfile.TemporaryDirectory() as tmp:
        dst = Path(tmp) / folder.name
        shutil.copytree(folder, dst, ignore=shutil.ignore_patterns("__pycache__"))
        r = subprocess.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_linear_attention.py"],
                           cwd=dst, capture_output=True, text=True, timeout=300)
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr[-200:]
    failed = re.findall(r"^FAILED tests/test_linear_attention.py::(\S+)", r.stdout, re.M)
    return last, failed


def main(names):
    corpus = yaml.safe_load((HERE / "corpus.yaml").read_text())
    base_cells = cells(HERE / "base")
    ok_all = True
    for e in corpus:
        if names and e["name"] not in names:
            continue
        folder = HERE / e["name"]
        summary, failed = public_tests(folder)
        P, errs = ref_check.check(folder)
        bad = [k for k, v in P.items() if not v]
        nb_fail = run_nb.run(folder)
        c = cells(folder)
        ans = [k for k in ANSWER_CELLS if c.get(k) != base_cells.get(k)]
        differs = bool(failed or bad or nb_fail or ans)
        verdict = "OK"
        if e["kind"] == "alternative" and differs:
            verdict = "ALTERNATIVE DIFFERS"
        if e["kind"] != "alternative" and not differs:
            verdict = "BUG INVISIBLE"
        ok_all &= verdict == "OK"
        print(f"[{verdict}] {e['name']} ({e['kind']}): tests {summary}; failed {failed[:6]}{'...' if len(failed) > 6 else ''}")
        print(f"    probes differ {len(bad)}/{len(P)}: {bad[:12]}{'...' if len(bad) > 12 else ''}")
        print(f"    notebook failing cells: {nb_fail}; answers changed: {ans}; should_lose {e['should_lose'] if e['kind'] != 'stub' else 'ALL'}")
        sys.stdout.flush()
    print("ALL OK" if ok_all else "SOME CASES NEED A LOOK")


if __name__ == "__main__":
    main(sys.argv[1:])
