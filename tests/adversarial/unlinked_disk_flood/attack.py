# attack: files unlinked while open take disk space no directory walk sees
import os as _os

_written, _open = 0, []
_block = b"\0" * (1 << 20)
for _dir in (".", "/tmp"):
    for _i in range(6):
        try:
            _f = open(_os.path.join(_dir, f".unlinked-{_i}"), "wb")
            _os.unlink(_f.name)
            _open.append(_f)
            for _ in range(250):
                _f.write(_block)
                _f.flush()
                _written += 1
        except OSError:
            break
for _f in _open:  # free it again: the rest of the run needs its /tmp
    try:
        _f.close()
    except OSError:
        pass
if _written > 900:
    _message = f"DISK-UNBOUNDED {_written} MB written"

    def linear_attention_parallel(Q, K, V):
        raise RuntimeError(_message)
