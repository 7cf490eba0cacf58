"""`dist/<name>-gradescope.zip`: what Gradescope's autograder expects, ready to upload.

    setup.sh                   run once when Gradescope builds the image: Python 3.11, the pinned
                               packages (CPU torch), bubblewrap, and the kit from its wheel, offline
    run_autograder             run per submission: grades /autograder/submission with the bundle,
                               writes /autograder/results/results.json (always, even on a refusal)
    <name>-autograder.zip      the bundle (hidden checks and key)
    requirements.txt, wheels/  the same pinned packages and wheel as the student zip

`LRKIT_AUTOGRADER_ROOT` moves `/autograder` (the kit's tests run `run_autograder` on a fake tree);
`LRKIT_PYTHON` picks the interpreter. Without a working sandbox in the container, grading runs
unsandboxed and the results say so, unless `LRKIT_REQUIRE_SANDBOX=1`.
"""
from __future__ import annotations

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this once per submission; it always leaves results/results.json behind.
set -uo pipefail
ROOT="${LRKIT_AUTOGRADER_ROOT:-/autograder}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SOURCE="$ROOT/source"
[ -f "$SOURCE/@BUNDLE@" ] || SOURCE="$HERE"
PYTHON="${LRKIT_PYTHON:-$ROOT/lrkit-venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
RESULTS="$ROOT/results"
mkdir -p "$RESULTS"
SUBMISSION="$ROOT/submission"
# a student who uploaded the zip from `grade pack` (and nothing else): grade the zip itself
shopt -s nullglob
entries=("$SUBMISSION"/*)
zips=("$SUBMISSION"/*.zip)
if [ "${#entries[@]}" -eq 1 ] && [ "${#zips[@]}" -eq 1 ]; then SUBMISSION="${zips[0]}"; fi
SANDBOX=(--allow-unsandboxed)
[ "${LRKIT_REQUIRE_SANDBOX:-0}" = 1 ] && SANDBOX=()
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
"$PYTHON" -m grader.cli submission "$SUBMISSION" --autograder "$SOURCE/@BUNDLE@" --out "$OUT/report" \
  "${SANDBOX[@]}" 2> "$OUT/stderr"
rc=$?
cat "$OUT/stderr" >&2
if [ -f "$OUT/report/results.json" ]; then
  cp "$OUT/report/results.json" "$RESULTS/results.json"
  cp "$OUT/report/report.html" "$RESULTS/report.html" 2>/dev/null || true
else
  "$PYTHON" - "$RESULTS/results.json" "$rc" "$OUT/stderr" <<'PY'
import json, sys
path, rc, stderr = sys.argv[1], sys.argv[2], open(sys.argv[3], errors="replace").read()[-2000:]
json.dump({"score": 0.0, "output_format": "text", "tests": [],
           "output": f"The autograder could not grade this submission (exit {rc}); tell the course staff.\n{stderr}"},
          open(path, "w"), indent=2)
PY
fi
exit 0
"""

SETUP = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root with network, when it builds the autograder image.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq python3.11 python3.11-venv bubblewrap >/dev/null
python3.11 -m venv /autograder/lrkit-venv
PIP=/autograder/lrkit-venv/bin/pip
$PIP install -q --upgrade pip
# torch's CPU build first (PyPI's default Linux wheel carries CUDA), at the pinned version
$PIP install -q --index-url https://download.pytorch.org/whl/cpu "$(grep -E '^torch==' requirements.txt)"
$PIP install -q -r requirements.txt
$PIP install -q --no-index --find-links wheels lrkit
/autograder/lrkit-venv/bin/python -c "import grader, torch; print('lrkit ready, torch', torch.__version__)"
"""


def gradescope_entries(name: str, bundle: bytes, wheel: tuple[str, bytes], requirements: str
                       ) -> tuple[list[tuple[str, bytes]], frozenset[str]]:
    """(entries of ``<name>-gradescope.zip``, the entries that must be executable)."""
    bundle_name = f"{name}-autograder.zip"
    wheel_name, wheel_data = wheel
    entries = [
        ("run_autograder", RUN_AUTOGRADER.replace("@BUNDLE@", bundle_name).encode()),
        ("setup.sh", SETUP.encode()),
        (bundle_name, bundle),
        ("requirements.txt", requirements.encode()),
        (f"wheels/{wheel_name}", wheel_data),
    ]
    return entries, frozenset({"run_autograder", "setup.sh"})
