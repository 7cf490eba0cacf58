#!/bin/sh
# Run the public tests inside a scratch copy of every case folder, one at a time; one line per case.
HERE=$(cd "$(dirname "$0")" && pwd)
PY=/work/main/.venv/bin/python
for dir in "$HERE"/*/; do
  case=$(basename "$dir")
  [ -d "$dir/tests" ] || continue
  tmp=$(mktemp -d /tmp/r15pt_XXXX)
  cp -r "$dir" "$tmp/$case"
  line=$(cd "$tmp/$case" && OMP_NUM_THREADS=1 $PY -m pytest -q -p no:cacheprovider tests 2>&1 | tail -1)
  failed=$(cd "$tmp/$case" && OMP_NUM_THREADS=1 $PY -m pytest -q -p no:cacheprovider tests 2>&1 | grep '^FAILED' | sed 's/ - .*//; s/.*:://' | tr '\n' ' ')
  printf '%-40s %s  %s\n' "$case" "$line" "$failed"
  rm -rf "$tmp"
done
