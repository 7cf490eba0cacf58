import json
from pathlib import Path


def build(dest: Path) -> None:
    path = dest / "linear_attention.ipynb"
    nb = json.loads(path.read_text())
    nb["cells"][1]["source"] = [1, 2, 3]
    nb["cells"][2]["source"] = 42
    path.write_text(json.dumps(nb))
