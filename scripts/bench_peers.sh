#!/usr/bin/env bash
# lrkit against otter-grader and nbgrader on the same tiny assignment, each tool in its own venv.
#
#   bash scripts/bench_peers.sh [RUNS]        (default 5; medians; run from the repository root)
#
# The assignment: the toy of tests/fixtures/toy-root ported to each tool - `running_sum(x)` (a
# causal cumulative sum over the last dim, with torch), a cell that plots it, three 1-point
# hidden tests (shapes (1,), (5,), (2, 7)). lrkit grades its own build of the toy
# (`grade submission`, warm and cold); otter v7 runs `otter run` on its autograder zip;
# nbgrader 0.9.6 runs `nbgrader autograde`. The floor is nbclient running a notebook whose
# only cell is `import torch`. Packages come from the configured index (PyPI, or a mirror:
# pip's own configuration, PIP_INDEX_URL / PIP_FIND_LINKS, is used as it is); torch from the
# same place (a local wheel in PIP_FIND_LINKS is picked up). Results: out/bench-peers.txt.
set -euo pipefail
RUNS=${1:-5}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null || PY=python3
W=${BENCH_PEERS_DIR:-/tmp/lrkit-bench-peers}
mkdir -p "$W" "$ROOT/out"
OUT="$ROOT/out/bench-peers.txt"
TORCH=$("$ROOT/.venv/bin/python" -c "import torch; print(torch.__version__.split('+')[0])")

venv() {  # venv NAME PACKAGES...: a venv of its own per tool (kept between runs)
  local dir="$W/$1-venv"; shift
  [ -x "$dir/bin/python" ] || "$PY" -m venv "$dir"
  "$dir/bin/pip" install -q "$@" "torch==$TORCH" matplotlib ipykernel 2>&1 | grep -v "WARNING: Location" || true
}
venv otter "otter-grader==7.0.0"
venv nbgrader "nbgrader==0.9.6"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
timed() {  # timed LABEL CMD...: RUNS runs, the median wall time in seconds
  local label=$1; shift
  : >"$W/times"
  for _ in $(seq "$RUNS"); do
    if ! /usr/bin/time -f "%e" -o "$W/t" "$@" >"$W/last.log" 2>&1; then
      echo "$label failed:"; tail -20 "$W/last.log"; exit 1
    fi
    tail -1 "$W/t" >>"$W/times"
  done
  median <"$W/times" | xargs printf "%-44s %6.2f s\n" "$label" | tee -a "$OUT"
}

# ---------------------------------------------------------------- the notebooks (solution filled in)
"$ROOT/.venv/bin/python" - "$W" <<'EOF'
import json, sys
from pathlib import Path
w = Path(sys.argv[1])
def cell(kind, src, meta=None):
    c = {"cell_type": kind, "metadata": meta or {}, "source": src}
    return {**c, "outputs": [], "execution_count": None} if kind == "code" else c
def nb(cells):
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
            "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
imports = "import torch\nimport matplotlib.pyplot as plt"
solution = "def running_sum(x):\n    return torch.cumsum(x, dim=-1)"
plot = "y = running_sum(torch.arange(4.0))\nplt.plot(y.numpy()); plt.show()"
shapes = ["(1,)", "(5,)", "(2, 7)"]
check = "x = torch.randn({s}, generator=torch.Generator().manual_seed(0))\ntorch.allclose(running_sum(x), torch.cumsum(x, -1))"
# otter v7: assign format
otter = [cell("raw", "# ASSIGNMENT CONFIG\nrequirements: null\nexport_cell: false\ngenerate: true\nfiles: []"),
         cell("code", imports), cell("raw", "# BEGIN QUESTION\nname: running_sum\npoints: 3"),
         cell("raw", "# BEGIN SOLUTION"), cell("code", solution + "  # SOLUTION"),
         cell("raw", "# END SOLUTION"), cell("raw", "# BEGIN TESTS")]
otter += [cell("code", f'""" # BEGIN TEST CONFIG\npoints: 1\nhidden: true\n""" # END TEST CONFIG\n'
                       + check.format(s=s).replace("\ntorch.allclose", "\nassert torch.allclose")) for s in shapes]
otter += [cell("raw", "# END TESTS"), cell("raw", "# END QUESTION"), cell("code", plot)]
(w / "otter").mkdir(exist_ok=True)
(w / "otter" / "toy.ipynb").write_text(json.dumps(nb(otter)))
# nbgrader: source notebook with cell metadata
def ng(grade_id, **kw):
    return {"nbgrader": {"grade_id": grade_id, "schema_version": 3, "locked": False, "solution": False,
                         "grade": False, **kw}}
nbg = [cell("code", imports, ng("imports", locked=True)),
       cell("code", "def running_sum(x):\n    ### BEGIN SOLUTION\n    return torch.cumsum(x, dim=-1)\n    ### END SOLUTION",
            ng("running_sum", solution=True)),
       cell("code", plot, ng("plot", locked=True))]
nbg += [cell("code", "### BEGIN HIDDEN TESTS\n" + check.format(s=s).replace("\ntorch.allclose", "\nassert torch.allclose")
             + "\n### END HIDDEN TESTS", ng(f"test{n}", grade=True, points=1, locked=True))
        for n, s in enumerate(shapes)]
course = w / "nbgrader"
(course / "source" / "ps1").mkdir(parents=True, exist_ok=True)
(course / "source" / "ps1" / "ps1.ipynb").write_text(json.dumps(nb(nbg)))
(course / "nbgrader_config.py").write_text("c = get_config()\nc.CourseDirectory.root = %r\n" % str(course))
floor = nb([cell("code", "import torch")])
(w / "floor.ipynb").write_text(json.dumps(floor))
EOF

echo "# $(date -u +%FT%TZ) $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); medians of $RUNS" | tee "$OUT"

# ---------------------------------------------------------------- floor
timed "floor: nbclient, one cell 'import torch'" "$ROOT/.venv/bin/python" -c \
  "import sys, nbformat; from nbclient import NotebookClient; NotebookClient(nbformat.read(sys.argv[1], 4)).execute()" \
  "$W/floor.ipynb"

# ---------------------------------------------------------------- lrkit
rm -rf "$W/lrkit" && cp -r "$ROOT/tests/fixtures/toy-root" "$W/lrkit"
"$ROOT/.venv/bin/python" -c "import sys; from pathlib import Path
from grader.authoring.build import build; from grader.authoring.release import release_assignment
r = Path(sys.argv[1]); assert build(r) == 0; release_assignment(r, 'toy', r / 'dist')" "$W/lrkit"
mkdir -p "$W/lrkit/sub" && cp "$W/lrkit/solutions/toy/toy.py" "$W/lrkit/solutions/toy/toy.ipynb" "$W/lrkit/sub/"
GRADE=("$ROOT/.venv/bin/grade" submission "$W/lrkit/sub" --autograder "$W/lrkit/dist/toy-autograder.zip" --out "$W/lrkit/out")
LRKIT_WARM=1 timed "lrkit grade submission (warm, default)" "${GRADE[@]}"
LRKIT_WARM=0 timed "lrkit grade submission (cold)" "${GRADE[@]}"

# ---------------------------------------------------------------- otter
(cd "$W/otter" && rm -rf dist && "$W/otter-venv/bin/otter" assign toy.ipynb dist >/dev/null)
cp "$W/otter/toy.ipynb" "$W/otter/submission.ipynb"
AUTOGRADER=$(ls "$W"/otter/dist/autograder/*.zip | head -1)
(cd "$W/otter" && mkdir -p run && timed "otter run" "$W/otter-venv/bin/otter" run -a "$AUTOGRADER" -o run submission.ipynb)
grep -o '"score": [0-9.]*' "$W/otter/run/results.json" | head -1 | sed 's/^/  otter /' | tee -a "$OUT"

# ---------------------------------------------------------------- nbgrader
cd "$W/nbgrader"
"$W/nbgrader-venv/bin/nbgrader" generate_assignment ps1 --force >"$W/last.log" 2>&1 || { tail -20 "$W/last.log"; exit 1; }
"$W/nbgrader-venv/bin/nbgrader" db student add alice >/dev/null 2>&1 || true
mkdir -p submitted/alice/ps1 && cp source/ps1/ps1.ipynb submitted/alice/ps1/ps1.ipynb
timed "nbgrader autograde" "$W/nbgrader-venv/bin/nbgrader" autograde ps1 --create --force
"$W/nbgrader-venv/bin/python" -c "import sqlite3; print('  nbgrader score', sqlite3.connect('gradebook.db').execute('select sum(auto_score) from grade').fetchone()[0])" | tee -a "$OUT"
echo "wrote $OUT"
