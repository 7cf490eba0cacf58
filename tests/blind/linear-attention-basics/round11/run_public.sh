#!/bin/bash
# Run the public tests of each case folder, one at a time; write <case>/public_tests.txt.
cd "$(dirname "$0")"
for c in "$@"; do
  out=$(cd "$c" && timeout 300 /work/main/.venv/bin/python -m pytest -q -p no:cacheprovider --noconftest -c /dev/null -W ignore tests 2>&1)
  summary=$(echo "$out" | tail -1)
  { echo "$summary"; echo "$out" | grep -E "^(FAILED|ERROR)" | sed 's/ - .*//' ; } > "$c/public_tests.txt"
  echo "$c: $summary"
done
