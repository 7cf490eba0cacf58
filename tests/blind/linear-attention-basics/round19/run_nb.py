"""Run a case's notebook code cells in one namespace (magics skipped, Agg, LRKIT_GRADING=1), going on after
failures. Prints JSON: failed cell ids with the error, the answers cells' yaml, the written answers."""
import json
import os
import sys
import traceback

os.environ["LRKIT_GRADING"] = "1"
os.environ["OMP_NUM_THREADS"] = "1"
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

case = os.path.abspath(sys.argv[1])
os.chdir(case)
sys.path.insert(0, case)
import torch  # noqa: E402

torch.set_num_threads(1)
plt.show = lambda *a, **k: plt.close("all")
nb = json.load(open(os.path.join(case, "linear_attention.ipynb")))
ns = {"__name__": "__main__"}
failed, answers, written = {}, {}, {}
for c in nb["cells"]:
    src = "".join(c["source"])
    tags = c.get("metadata", {}).get("tags", [])
    if c["cell_type"] == "markdown":
        if "answers" in tags:
            answers[c["id"]] = src.split("```yaml")[1].split("```")[0].strip()
        for t in tags:
            if t.startswith("answer:"):
                written[t] = src.replace("**Answer:**", "").strip()[:60]
        continue
    code = "\n".join(ln for ln in src.split("\n") if not ln.lstrip().startswith("%"))
    try:
        import io
        import contextlib
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(code, c["id"], "exec"), ns)
    except Exception as e:  # noqa: BLE001
        failed[c["id"]] = f"{type(e).__name__}: {str(e)[:100]}"
    plt.close("all")
print(json.dumps(dict(failed=failed, answers=answers, written=written), ensure_ascii=False))
