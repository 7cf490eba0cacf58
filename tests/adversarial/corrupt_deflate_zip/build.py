import zipfile
from pathlib import Path


def place(stage: Path, subs: Path) -> None:
    """corrupt_deflate_zip.zip: the notebook's compressed bytes overwritten in the middle."""
    path = subs / "corrupt_deflate_zip.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in ("linear_attention.py", "linear_attention.ipynb"):
            zf.write(stage / name, name)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("linear_attention.ipynb")
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    middle = start + info.compress_size // 2
    data[middle:middle + 64] = bytes(range(64))
    path.write_bytes(bytes(data))
