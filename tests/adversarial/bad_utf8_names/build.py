import zipfile
from pathlib import Path


def place(stage: Path, subs: Path) -> None:
    path = subs / "bad_utf8_names.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for name in ("linear_attention.py", "linear_attention.ipynb"):
            zf.write(stage / name, name)
        zf.writestr("notes-\u00e9\u00e9.txt", "flagged UTF-8")
    data = path.read_bytes().replace("notes-\u00e9\u00e9.txt".encode(), b"notes-\xe9\xff\xfe\xe9.txt")
    path.write_bytes(data)
