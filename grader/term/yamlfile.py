"""Read a YAML file once, with the line of every key, so an error names the file, the line and the fix."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from grader.config import ConfigError, key_text

MAX_BYTES = 2_000_000


@dataclass(frozen=True)
class YamlFile:
    """A parsed mapping and the 1-based line of each key path (("assignments", "hw1", "due") -> 12)."""

    path: Path
    data: dict[str, Any]
    lines: dict[tuple, int] = field(default_factory=dict)

    def line(self, key: tuple) -> int | None:
        while key:
            if key in self.lines:
                return self.lines[key]
            key = key[:-1]
        return None

    def error(self, key: tuple, message: str, fix: str = "") -> ConfigError:
        text = f"{message}{f'; {fix}' if fix else ''}"
        return ConfigError(self.path, text, where=key_text(key), key=key, line=self.line(key), fix=fix)


def read_yaml(path: Path) -> YamlFile:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(path, "file not found", fix="write course.yaml beside the assignments "
                          "(examples/course/course.yaml is a complete one)") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(path, f"cannot be read ({exc})") from None
    if len(text) > MAX_BYTES:
        raise ConfigError(path, f"is over {MAX_BYTES} bytes; a course file is a page of YAML")
    try:
        loader = yaml.SafeLoader(text)  # one parse: the node tree (for the lines) and the data built from it
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise ConfigError(path, f"not valid YAML ({getattr(exc, 'problem', exc)})",
                          line=mark.line + 1 if mark else None, fix="check the indentation and quoting there") from None
    if not isinstance(data, dict):
        raise ConfigError(path, "expected a mapping at the top level", line=1, fix="start with 'course: NAME'")
    lines: dict[tuple, int] = {}
    _walk(node, (), lines)
    return YamlFile(path, data, lines)


def _walk(node: Any, key: tuple, lines: dict[tuple, int]) -> None:
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            sub = key + (k.value,)
            lines[sub] = k.start_mark.line + 1
            _walk(v, sub, lines)
    elif isinstance(node, yaml.SequenceNode):
        for n, v in enumerate(node.value):
            lines[key + (n,)] = v.start_mark.line + 1
            _walk(v, key + (n,), lines)
