# attack: the driver's child process is this process; its answer writer can be replaced
import os as _os, struct as _struct, sys as _sys

# (the driver is no longer __main__ for the student's code: its globals are reached through the import's frames,
# a read the watch keeps against every cost case; the bombs still reach the grader, which must not choke on them)
_frame, _main = _sys._getframe(), None
while _frame is not None and _main is None:
    if "send" in _frame.f_globals and "encode" in _frame.f_globals and "PROBES" in _frame.f_globals:
        _main = type("_Driver", (), {})()
        _main.__dict__.update(send=_frame.f_globals["send"], encode=_frame.f_globals["encode"])
        _driver_globals = _frame.f_globals
    _frame = _frame.f_back
if _main is not None:
    _real_send, _count = _main.send, [0]

    def _raw(fd, header_bytes, body=b"", body_len=None):
        _os.write(fd, _struct.pack(">II", len(header_bytes), len(body) if body_len is None else body_len)
                  + header_bytes + body)

    def _bomb(fd, header, body=b""):
        if header.get("event") == "import":
            return _real_send(fd, header, body)
        _count[0] += 1
        kind = _count[0] % 7
        if kind == 1:  # a shape far larger than the bytes sent
            return _real_send(fd, {"arrays": [{"key": "y0", "dtype": "<f8", "shape": [10**5, 10**5, 10**5]}],
                                   "scalars": {}}, b"\0" * 64)
        if kind == 2:  # an object array
            return _real_send(fd, {"arrays": [{"key": "y0", "dtype": "|O", "shape": [3]}]}, b"\0" * 24)
        if kind == 3:  # JSON nested 50,000 deep
            return _raw(fd, b'{"scalars": {"x": ' + b"[" * 50000 + b"]" * 50000 + b"}}")
        if kind == 4:  # NaN and Infinity where numbers go
            return _raw(fd, b'{"scalars": {"y0": NaN, "z": Infinity}, "seconds": NaN}')
        if kind == 5:  # a body of 4 GB, announced
            return _raw(fd, b"{}", b"", body_len=2**32 - 1)
        if kind == 6:  # an integer of 100,000 digits
            return _raw(fd, b'{"scalars": {"y0": ' + b"9" * 100000 + b"}}")
        import torch as _torch
        return _real_send(fd, *_main.encode({"y0": _torch.zeros(5_000_000, dtype=_torch.float64)}, 10**12))

    _driver_globals["send"] = _bomb
