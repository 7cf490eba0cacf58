"""The `grade` verbs this room owns (registered by grader/cli.py)."""
from __future__ import annotations


def register(sub) -> None:
    """Add this room's sub-parsers to `sub`; each sets `handler=` with `set_defaults`."""
