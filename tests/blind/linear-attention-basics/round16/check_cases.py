"""Check every case folder against the naive references of ref_check.py and run its notebook (run_nb.py).

    /work/main/.venv/bin/python check_cases.py [NAME ...]

For each case: the probes that differ from the reference, the notebook cells that fail, and whether the
answers / written-answer cells differ from base's. Alternatives (and base) must differ nowhere; bugs must
differ somewhere.
"""
import json
import sys
from pathlib import Path

import yaml

import ref_check
import run_nb

HERE = Path(__file__).resolve().parent
ANSWER_CELLS = ("markdown-008", "markdown-030", "ex1-why-035", "ex2-gamma0-040", "ex3-selectivity-045")


def cell_text(case, cell_id):
    nb = json.loads((HERE / case / "linear_attention.ipynb").read_text())
    return "".join(next(c for c in nb["cells"] if c.get("id") == cell_id)["source"])


def main(names):
    corpus = yaml.safe_load((HERE / "corpus.yaml").read_text())
    kinds = {e["name"]: e["kind"] for e in corpus}
    names = names or [e["name"] for e in corpus]
    problems = []
    for name in names:
        try:
            bad, _ = ref_check.compare(ref_check.load(HERE / name))
        except Exception as exc:                                              # noqa: BLE001
            bad = [f"module does not load: {type(exc).__name__}: {exc}"]
        fails, _ = run_nb.run(HERE / name)
        answers = [c for c in ANSWER_CELLS if cell_text(name, c) != cell_text("base", c)]
        differs = bool(bad or fails or answers)
        kind = kinds[name]
        ok = (not differs) if kind == "alternative" else differs
        if not ok:
            problems.append(name)
        print(f"{'ok ' if ok else 'BAD'} {kind:11s} {name}: {len(bad)} probes differ, {len(fails)} notebook cells fail, "
              f"answers changed: {answers or '-'}")
        for n in bad[:8]:
            print("      probe", n)
        if len(bad) > 8:
            print(f"      ... and {len(bad) - 8} more")
        for i, tags, msg in fails[:6]:
            print(f"      cell {i} {tags}: {msg[:140]}")
    print("problems:", problems or "none")


if __name__ == "__main__":
    main(sys.argv[1:])
