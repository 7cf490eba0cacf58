# attack: everything a case does not need should be out of reach
import glob as _glob, inspect as _inspect, os as _os, select as _select, sys as _sys

_found = []
for _pattern in ("/harness/*", "/harness/*/*", "/out/*", "/*/probes.py", "/*/*/probes.py", "/*/job.json",
                 "/*/*/job.json", "/*/*.npz", "/*/*/*.npz", "/tmp/*", "/tmp/*/*"):
    for _path in _glob.glob(_pattern):
        if _path.endswith(("probes.py", "job.json", ".npz", "verdicts.py")):
            _found.append(_path)
try:  # anything left unread on our stdin (the next cases)?
    if _select.select([0], [], [], 0)[0] and _os.read(0, 64):
        _found.append("stdin")
except OSError:
    pass
_me = str(_os.getpid())
for _pid in [p.split("/")[2] for p in _glob.glob("/proc/[0-9]*")]:
    if _pid == _me:
        continue
    for _what in ("environ", "cmdline", "mem", "fd/0", "fd/1", "fd/3", "fd/4", "fd/5", "fd/6"):
        try:
            _fd = _os.open(f"/proc/{_pid}/{_what}", _os.O_RDONLY | _os.O_NONBLOCK)
        except OSError:
            continue
        try:
            if _what in ("environ", "cmdline"):
                _text = _os.read(_fd, 65536)
                if b"probes" in _text or b"@check" in _text or b"verdicts" in _text:
                    _found.append(f"/proc/{_pid}/{_what}")
            else:
                _found.append(f"/proc/{_pid}/{_what}")
        except OSError:
            pass
        finally:
            _os.close(_fd)
_probes = _sys.modules.get("lrkit_probes")
if _probes is not None:
    for _name, _fn in vars(_probes).items():
        if getattr(_fn, "__module__", None) != "lrkit_probes":
            continue  # the probes' own functions, not what they import
        try:
            _inspect.getsource(_fn)
            _found.append(f"source of {_name}")
            break
        except (OSError, TypeError):
            continue
if _found:
    _message = "LEAKED " + " | ".join(_found[:8])

    def linear_attention_parallel(Q, K, V):
        raise RuntimeError(_message)
