"""The student's answers cell: the ```yaml block, read as hostile text, to raw strings per id."""
from __future__ import annotations

import re
from typing import Any

import yaml


class AnswerFormatError(ValueError):
    """A student's answers cell cannot be read."""


_FENCE = re.compile(r"^ {0,3}(`{3,})\s*ya?ml\s*$", re.IGNORECASE)


def extract_answer_block(markdown: str) -> str | None:
    """The text inside the first ```yaml fence of a Markdown cell (to the end if unclosed)."""
    lines = markdown.splitlines()
    for start, line in enumerate(lines):
        match = _FENCE.match(line)
        if match:
            ticks = len(match.group(1))
            body = []
            for inner in lines[start + 1:]:
                if re.fullmatch(r" {0,3}`{" + str(ticks) + r",}\s*", inner):
                    break
                body.append(inner)
            return "\n".join(body) + ("\n" if body else "")
    return None


MAX_BLOCK_CHARS = 64_000
MAX_DEPTH = 8  # `id: [a, b]` needs 2
MAX_ANSWER_CHARS = 2_000


def parse_answers(text: str, where: str) -> dict[str, str]:
    """Map each id in a YAML answers block to the student's raw value ("" for blank).

    Hostile text: the block is capped in size, anchors, aliases and explicit tags are
    refused before anything is built (no alias bombs), nesting is bounded, and any
    failure of the YAML library becomes an AnswerFormatError."""
    if len(text) > MAX_BLOCK_CHARS:
        raise AnswerFormatError(f"{where}: the answers block is longer than {MAX_BLOCK_CHARS:,} characters. {_HOW}")
    try:
        _check_events(text, where)
        return _parse(text, where)
    except AnswerFormatError:
        raise
    except Exception as exc:  # RecursionError, odd characters, anything the YAML library raises
        raise AnswerFormatError(f"{where}: the answers block is not valid YAML ({type(exc).__name__}). {_HOW}") \
            from None


def _check_events(text: str, where: str) -> None:
    """Refuse anchors, aliases and explicit tags, and nesting deeper than MAX_DEPTH (the parser is
    iterative, so this runs before any recursive step)."""
    depth = deepest = 0
    for ch in text:  # a cheap first look: YAML's scanner looks far ahead inside deep [ or {
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > 2 * MAX_DEPTH:
        raise AnswerFormatError(f"{where}: the answers block is not valid YAML: brackets nested {deepest} levels "
                                f"deep (at most {MAX_DEPTH}). {_HOW}")
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise AnswerFormatError(_format_problem(text, where, event.start_mark,
                                                        "anchors and aliases (& and *) are not allowed"))
            if getattr(event, "tag", None):  # the parser sets a tag only when the text writes one
                raise AnswerFormatError(_format_problem(text, where, event.start_mark,
                                                        "explicit tags (!!) are not allowed"))
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise AnswerFormatError(_format_problem(text, where, event.start_mark,
                                                            f"nested more than {MAX_DEPTH} levels deep"))
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return  # _parse gives the precise message


def _parse(text: str, where: str) -> dict[str, str]:
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        problem = exc.problem or str(exc)
        start = exc.context_mark
        if exc.context and start is not None and exc.problem_mark is not None and start.line != exc.problem_mark.line:
            problem += f" ({exc.context} that starts at line {start.line + 1}: `{_line(text, start.line)}`)"
        raise AnswerFormatError(_format_problem(text, where, exc.problem_mark or start, problem)) from None
    except yaml.YAMLError as exc:
        raise AnswerFormatError(f"{where}: the answers block is not valid YAML ({exc}). {_HOW}") from None
    if root is None:
        return {}
    if not isinstance(root, yaml.MappingNode):
        raise AnswerFormatError(f"{where}: the answers block should be `id: value` lines. {_HOW}")
    answers: dict[str, str] = {}
    for key_node, value_node in root.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise AnswerFormatError(_format_problem(text, where, key_node.start_mark,
                                                    "an answer id must be a plain name"))
        if key_node.value in answers:
            raise AnswerFormatError(_format_problem(text, where, key_node.start_mark,
                                                    f"'{key_node.value}' is answered twice; keep one line"))
        answers[key_node.value] = _raw_value(value_node)[:MAX_ANSWER_CHARS]
    return answers


_HOW = ("Write one `id: value` per line inside the ```yaml block, as in the template "
        "(e.g. `an_answer: 2.5 GB`), with comments after `#`.")


def _format_problem(text: str, where: str, mark: Any, problem: str) -> str:
    if mark is None:
        return f"{where}: the answers block is not valid YAML ({problem}). {_HOW}"
    return (f"{where}: the answers block is not valid YAML at line {mark.line + 1} "
            f"(`{_line(text, mark.line)}`): {problem}. {_HOW}")


def _line(text: str, index: int) -> str:
    lines = text.splitlines()
    return lines[index].strip() if index < len(lines) else ""


def _raw_value(node: yaml.Node) -> str:
    """The student's value as written: scalars unquoted, sequences as ``[a, b]``."""
    if isinstance(node, yaml.ScalarNode):
        if node.tag == "tag:yaml.org,2002:null" or (node.style is None and node.value in ("~", "null", "Null", "NULL")):
            return ""
        return node.value.strip()
    if isinstance(node, yaml.SequenceNode):
        return "[" + ", ".join(_raw_value(item) for item in node.value) + "]"
    return "{" + ", ".join(f"{_raw_value(k)}: {_raw_value(v)}" for k, v in node.value) + "}"
