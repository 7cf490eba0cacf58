#!/usr/bin/env bash
# Set up everything the kit needs on a fresh machine; safe to run again (fast when done).
#   - bubblewrap for the grading sandbox (Debian/Ubuntu, when run as root)
#   - chromium (headless) for the tests that render the HTML reports in a browser
#   - .venv with the pinned CPU build of torch first (a bare `torch` would pull a CUDA build), then the kit
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap) >/dev/null \
      || echo "setup: could not install bubblewrap; official grading will refuse to run (grade --local still works)" >&2
  else
    echo "setup: bubblewrap not found and cannot be installed here; grade --local still works (unofficial)" >&2
  fi
fi
# Headless Chromium: the tests look at the HTML reports in a real browser (math, figures, links).
if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
      || echo "setup: could not install chromium; tests/report/test_browser.py will fail" >&2
  else
    echo "setup: chromium not found and cannot be installed here; tests/report/test_browser.py needs it" >&2
  fi
fi
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
# Reinstall when pyproject.toml changed since the last install (new dependencies or extras).
STAMP=.venv/.lrkit-installed
WANT=$(sha256sum pyproject.toml | cut -c1-16)
if [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ] || ! .venv/bin/python -c "import torch, grader" >/dev/null 2>&1; then
  .venv/bin/pip install -q torch==2.13.0
  .venv/bin/pip install -q -e ".[dev,dask]"
  echo "$WANT" > "$STAMP"
fi
echo "setup: ready ($(.venv/bin/python -c 'import torch; print("torch", torch.__version__)'))"
