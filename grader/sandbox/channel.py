"""What a sandboxed command sends back on its channel, read as hostile data.

The channel is a pipe the grader owns (`run(..., channel=True)`): only the fixed scripts
inside the sandbox hold its write end, and nothing from it is ever a file the grader
opens, so there is no link, FIFO or device to trip over. It carries messages::

    >II (header length, body length) | JSON header | body bytes

(the framing is `inside/wire.py`'s, the one owner both sides share).

Everything is checked before it is used: sizes before anything is allocated, JSON depth,
numbers (no NaN or inf, no unbounded digits), array dtypes and shapes against the bytes
that are really there. A fault stops the reading at that message and says why; what came
before it stays usable.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from grader.sandbox.inside import seeded, wire

MAX_HEADER = 256 * 1024
MAX_DEPTH = 12
MAX_MESSAGES = 100_000
MAX_TEXT = 20_000  # characters in one string scalar
MAX_DIMS = 8
MAX_DIGITS = 40
DTYPES = {"|b1", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8"}
_SPECIAL = re.compile(r'["\\\[\]{}]')  # what can change JSON's nesting: quotes, escapes, brackets


class ChannelError(ValueError):
    """A message is malformed; the text says how, for a report."""


@dataclass(frozen=True)
class Message:
    header: dict[str, Any]
    body: memoryview


def encode(header: dict[str, Any], body: bytes = b"") -> bytes:
    """One message, as the inside scripts write it."""
    return wire.encode(header, body)


def decode(data: bytes) -> tuple[list[Message], str]:
    """The messages in ``data``, and why reading stopped early ('' when it did not)."""
    view = memoryview(data)
    messages: list[Message] = []
    pos = 0
    while pos < len(view):
        if len(messages) >= MAX_MESSAGES:
            return messages, f"more than {MAX_MESSAGES} messages"
        if len(view) - pos < wire.PREFIX_BYTES:
            return messages, "a message was cut off"
        head_len, body_len = wire.lengths(view, pos)
        pos += wire.PREFIX_BYTES
        if head_len > MAX_HEADER:
            return messages, f"a message header of {head_len} bytes (the limit is {MAX_HEADER})"
        end = pos + head_len + body_len
        if end > len(view):
            return messages, "a message was cut off"
        try:
            header = load_json(bytes(view[pos:pos + head_len]))
        except ChannelError as exc:
            return messages, str(exc)
        if not isinstance(header, dict):
            return messages, "a message header that is not a mapping"
        messages.append(Message(header, view[pos + head_len:end]))
        pos = end
    return messages, ""


def _no_constant(name: str) -> Any:
    raise ChannelError(f"{name} where a plain number was expected")


def _bounded_int(text: str) -> int:
    if len(text) > MAX_DIGITS:
        raise ChannelError(f"an integer of {len(text)} digits")
    return int(text)


def _finite_float(text: str) -> float:
    if len(text) > 64:
        raise ChannelError("a number written with too many digits")
    value = float(text)
    if not math.isfinite(value):
        raise ChannelError("a number too large for a float")
    return value


def check_depth(text: str, max_depth: int) -> None:
    """Raise ChannelError when ``text`` (JSON) nests deeper than ``max_depth`` (strings skipped).
    One pass over the special characters, linear in the text whatever it holds (a regex for strings
    backtracks without end on an unterminated one)."""
    depth, in_string, skip = 0, False, -1
    for match in _SPECIAL.finditer(text):
        pos = match.start()
        if pos == skip:  # the character after a backslash in a string
            continue
        char = text[pos]
        if in_string:
            if char == "\\":
                skip = pos + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > max_depth:
                raise ChannelError(f"JSON nested deeper than {max_depth} levels")
        elif char in "]}":
            depth -= 1


def load_json(raw: bytes, *, max_bytes: int = MAX_HEADER, max_depth: int = MAX_DEPTH) -> Any:
    """Hostile JSON: bounded size and depth, finite numbers, bounded digits."""
    if len(raw) > max_bytes:
        raise ChannelError(f"{len(raw)} bytes of JSON (the limit is {max_bytes})")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ChannelError("text that is not UTF-8") from None
    check_depth(text, max_depth)
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_bounded_int, parse_float=_finite_float)
    except ChannelError:
        raise
    except (ValueError, RecursionError) as exc:
        raise ChannelError(f"malformed JSON ({type(exc).__name__})") from None


def arrays(spec: Any, body: memoryview | bytes) -> dict[str, np.ndarray]:
    """The arrays a header's ``arrays`` list describes, cut from ``body`` (which must be used up)."""
    if not isinstance(spec, list):
        raise ChannelError("the array list is not a list")
    out: dict[str, np.ndarray] = {}
    offset = 0
    for item in spec:
        if not isinstance(item, dict) or set(item) != {"key", "dtype", "shape"}:
            raise ChannelError("an array description without exactly key, dtype and shape")
        key, dtype, shape = item["key"], item["dtype"], item["shape"]
        if not isinstance(key, str) or not key or len(key) > 100 or key in out:
            raise ChannelError("an array with a bad or repeated name")
        if dtype not in DTYPES:
            raise ChannelError(f"'{key[:40]}' has dtype {str(dtype)[:20]!r}; expected real numbers")
        if not isinstance(shape, list) or len(shape) > MAX_DIMS or \
                not all(type(n) is int and 0 <= n <= len(body) for n in shape):
            raise ChannelError(f"'{key[:40]}' has an impossible shape")
        itemsize = np.dtype(dtype).itemsize
        count = math.prod(shape)
        nbytes = count * itemsize
        if nbytes > len(body) - offset:
            raise ChannelError(f"'{key[:40]}' claims more bytes than were sent")
        arr = np.frombuffer(body, dtype=np.dtype(dtype), count=count, offset=offset).reshape(shape)
        out[key] = arr.astype(arr.dtype, copy=True)
        offset += nbytes
    if offset != len(body):
        raise ChannelError("bytes left over after the last array")
    return out


def scalars(spec: Any) -> dict[str, bool | int | float | str]:
    """A header's ``scalars`` mapping, checked: names and plain JSON values only."""
    if not isinstance(spec, dict):
        raise ChannelError("the scalars are not a mapping")
    out: dict[str, bool | int | float | str] = {}
    for key, value in spec.items():
        if len(key) > 100:
            raise ChannelError("a scalar with a name over 100 characters")
        if type(value) not in (bool, int, float, str) or (type(value) is str and len(value) > MAX_TEXT):
            raise ChannelError(f"'{key[:40]}' is not a plain number or a short string")
        out[key] = value
    return out


def text(value: Any, cap: int) -> str:
    """A string field of a header, or '' when it is not one; capped at ``cap`` characters."""
    if not isinstance(value, str):
        return ""
    return value if len(value) <= cap else value[:cap] + "..."


def number(value: Any, default: float = 0.0) -> float:
    """A finite number field of a header, or ``default``."""
    if type(value) in (int, float) and math.isfinite(value):
        return float(value)
    return default


def seeded_array(seed: int, shape: tuple[int, ...], scale: float = 1.0) -> np.ndarray:
    """An input array a case names by its seed, as the driver makes it in the sandbox (`inside/seeded.py`)."""
    return seeded.make(seed, shape, scale)


def seeded_tokens(seed: int, shape: tuple[int, ...], start: int, stop: int, scale: float = 1.0) -> np.ndarray:
    """Tokens ``start`` .. ``stop - 1`` of that array, (..., stop - start, d), as the driver streams them, made without
    the tokens after them."""
    stream = seeded.Stream(seed, shape, scale)
    for skipped in range(0, start, seeded.BLOCK):  # drawn and dropped a block at a time: never held whole
        stream.tokens(min(seeded.BLOCK, start - skipped))
    return np.moveaxis(stream.tokens(stop - start), 0, -2)
