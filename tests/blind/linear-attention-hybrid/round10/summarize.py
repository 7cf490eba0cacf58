"""Summarize probe_results.jsonl: '.' = agrees with the reference to 1e-12, else the relative error."""
import json
import sys


def fmt(v):
    if isinstance(v, float):
        return "." if v < 1e-12 else f"{v:.1e}"
    if isinstance(v, list):
        return "/".join(fmt(e) for e in v)
    if isinstance(v, dict):
        return "{" + ",".join(f"{k}:{fmt(e)}" for k, e in v.items()) + "}"
    return str(v)[:40]


for line in open(sys.argv[1] if len(sys.argv) > 1 else "probe_results.jsonl"):
    d = json.loads(line)
    r = d["r"]
    if r is None:
        print(d["case"], "NO RESULT")
        continue
    cfgs = ["std", "B1", "T1", "H1", "dh1", "H3g1", "long"]
    print(f"== {d['case']}")
    print("  fwd :", " ".join(f"{c}={fmt(r['fwd_' + c])}" for c in cfgs))
    print("  step:", " ".join(f"{c}={fmt(r['step_' + c])}" for c in cfgs))
    print("  grad:", fmt(r["grad_std"]), fmt(r["grad_long"]), " leak", fmt(r["fwd_leak"]), " noncontig", fmt(r["fwd_noncontig"]))
    print("  state:", fmt(r["step_continue"]), "zero/None", fmt(r["step_zero_vs_none"]), "branch", fmt(r["step_branch_repeat"]))
    print("  nb:", r["nb_ex2"], r["nb_ex3"], " cost", r["cost"])
