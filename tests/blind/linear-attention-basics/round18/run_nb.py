"""Run a case folder's notebook code cells in one namespace (no kernel); list failing cells."""
import json, os, sys, traceback, io, contextlib
os.environ["LRKIT_GRADING"] = "1"
import matplotlib; matplotlib.use("Agg")
folder = sys.argv[1]
os.chdir(folder); sys.path.insert(0, folder)
nb = json.load(open("linear_attention.ipynb"))
ns = {"__name__": "__main__"}
fails, outs = [], {}
import matplotlib.pyplot as plt
plt.show = lambda *a, **k: plt.close("all")
for c in nb["cells"]:
    if c["cell_type"] != "code": continue
    src = "".join(l for l in "".join(c["source"]).splitlines(True) if not l.lstrip().startswith("%"))
    buf = io.StringIO()
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(src, c.get("id"), "exec"), ns)
    except Exception as e:
        fails.append((c.get("id"), type(e).__name__, str(e)[:120]))
    outs[c.get("id")] = buf.getvalue()
    plt.close("all")
if "-v" in sys.argv:
    for k, v in outs.items():
        if v.strip(): print("---", k); print(v.rstrip())
print("FAILS:", fails)
