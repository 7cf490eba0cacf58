#!/bin/bash
# probe every case, one at a time; results in probe_results.jsonl (one line per case)
cd "$(dirname "$0")"
: > probe_results.jsonl
for d in cases/*/; do
  n=$(basename "$d")
  r=$(cd "$d" && timeout 300 /work/main/.venv/bin/python -W ignore ../../probe.py 2>/dev/null | tail -1)
  echo "{\"case\": \"$n\", \"r\": ${r:-null}}" >> probe_results.jsonl
done
echo done
