"""Grade a kept-pass attack round: the control first (its passes kept), then each attack (reusing where its form's
key equals the control's), then each attack measured (LRKIT_KEEP_PASSES=0): an attack gains where a cost case
passed with reuse but fails when measured."""
import os, sys, tempfile, json
from pathlib import Path
os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="kept-attack-cache-")
from grader.grading import probing
from grader.config import load_assignment

folder = Path(sys.argv[1])
tree = Path("solutions/linear-attention-basics").resolve()
config = load_assignment(tree)
KEEP = {"cost_linear_recurrent", "cost_retention_recurrent", "cost_chunkwise", "cost_step",
        "linear_recurrent", "retention_recurrent", "retention_chunkwise", "state_step"}
full = probing.plan
probing.plan = lambda t: [p for p in full(t) if p.spec.name in KEEP]

def grade(sub, keep=True):
    if keep:
        os.environ.pop("LRKIT_KEEP_PASSES", None)
    else:
        os.environ["LRKIT_KEEP_PASSES"] = "0"
    run = probing.run_checks(tree, sub, config=config, lanes=1)
    verdict = {}
    for o in run.outcomes:
        verdict.setdefault(o.check, True)
        verdict[o.check] &= o.passed
    reused = [n for n in run.notes if "passed before" in n]
    return verdict, reused, run.cost_cpu_s

control = grade(folder / "control")
print("control", control)
rows = []
for attack in sorted(p for p in folder.iterdir() if p.name.startswith("attack-")):
    kept = grade(attack)
    measured = grade(attack, keep=False)
    gained = sorted(c for c in kept[0] if c.startswith("cost_") and kept[0][c] and not measured[0].get(c, False))
    rows.append((attack.name, gained, kept, measured))
    print(attack.name, "GAINED" if gained else "no gain", gained, "\n   kept:", kept, "\n   measured:", measured, flush=True)
print(json.dumps([(r[0], r[1]) for r in rows]))
