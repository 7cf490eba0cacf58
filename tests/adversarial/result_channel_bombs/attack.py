# attack: the driver's child process is this process; its answer writer can be replaced
import os as _os, struct as _struct, sys as _sys

_main = _sys.modules.get("__main__")
if hasattr(_main, "send") and hasattr(_main, "encode"):
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

    _main.send = _bomb
