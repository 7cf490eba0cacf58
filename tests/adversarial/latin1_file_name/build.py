import os
from pathlib import Path


def build(dest: Path) -> None:
    fd = os.open(os.fsencode(dest) + b"/caf\xe9\x1b[31m-notes.txt", os.O_CREAT | os.O_WRONLY, 0o644)
    os.write(fd, b"not UTF-8, and an ANSI escape in the name")
    os.close(fd)
