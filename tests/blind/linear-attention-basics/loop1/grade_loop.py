"""For each blind case: grade base (cache), apply edit.yaml, grade (partial) vs the edited copy graded from nothing."""
import json, os, shutil, subprocess, sys, time
from pathlib import Path
import yaml
root = Path(sys.argv[1]); work = Path(sys.argv[2])
env = {**os.environ, "PYTHONPATH": "/work/main"}
PY = "/work/main/.venv/bin/python"
def grade(folder):
    t = time.time()
    subprocess.run([PY, "-m", "grader.cli", "--local", str(folder)], env=env, capture_output=True, cwd="/tmp")
    return json.loads((folder / "grade-report" / "report.json").read_text()), time.time() - t
def strip(rep):
    rep = json.loads(json.dumps(rep))
    for k in ("notes", "timings", "seconds", "graded_at", "duration_s", "started", "submission_hash", "submission",
              "environment"):
        rep.pop(k, None)
    for c in rep.get("cells", []):
        c.pop("seconds", None)
    return rep
shutil.rmtree(work, ignore_errors=True); work.mkdir(parents=True)
for case in sorted(p for p in root.iterdir() if (p / "edit.yaml").is_file()):
    a = work / case.name / "partial"; b = work / case.name / "full"
    shutil.copytree(case / "base", a, ignore=shutil.ignore_patterns(".lrkit-cache", "grade-report"))
    try:
        grade(a)
        for e in yaml.safe_load((case / "edit.yaml").read_text()):
            p = a / e["file"]; text = p.read_text()
            assert text.count(e["old"]) == 1, (case.name, e["file"])
            p.write_text(text.replace(e["old"], e["new"]))
        shutil.copytree(a, b, ignore=shutil.ignore_patterns(".lrkit-cache", "grade-report"))
        pa, ta = grade(a); pb, tb = grade(b)
    except Exception as exc:
        print(f"{case.name:32s} ERROR {exc}", flush=True); continue
    same = strip(pa) == strip(pb)
    notes = [n[:45] for n in pa.get("notes", []) if "ran again" in n or "reused" in n]
    print(f"{case.name:32s} same={same} partial {ta:4.1f} s full {tb:4.1f} s score {pa['score']}/{pb['score']} {notes}", flush=True)
    if not same:
        (work / f"diff-{case.name}.json").write_text(json.dumps([strip(pa), strip(pb)], indent=1))
