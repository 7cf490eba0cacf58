from pathlib import Path


def build(dest: Path) -> None:
    (dest / "linear_attention.ipynb").write_text("[" * 200_000 + "]" * 200_000)
