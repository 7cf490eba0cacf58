#!/usr/bin/env bash
# Run the template's public tests inside every case folder -> public_tests.txt (summary line and failing tests).
cd "$(dirname "$0")"
out=public_tests.txt
echo "# pytest tests/test_linear_attention.py in every case folder (OMP_NUM_THREADS=1)" > "$out"
for d in $(/work/main/.venv/bin/python -c "import yaml; print(' '.join(c['name'] for c in yaml.safe_load(open('corpus.yaml'))))"); do
  res=$(cd "$d" && OMP_NUM_THREADS=1 timeout 300 /work/main/.venv/bin/python -m pytest -q -rf -p no:cacheprovider tests/test_linear_attention.py 2>&1)
  summary=$(echo "$res" | tail -1)
  failed=$(echo "$res" | grep -E '^FAILED' | sed -E 's/^FAILED tests\/test_linear_attention.py:://; s/ - .*//' | tr '\n' ' ')
  echo "$d: $summary ${failed:+| failed: $failed}" >> "$out"
  find "$d" -name __pycache__ -type d -prune -exec rm -rf {} +
done
