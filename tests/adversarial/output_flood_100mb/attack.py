# attack: flood stdout and stderr (the solution above is correct)
import sys as _sys
_line = "flood " * 170 + "\n"
for _ in range(100_000):
    _sys.stdout.write(_line)
    _sys.stderr.write(_line)
