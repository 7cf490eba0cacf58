"""The channel's framing, written once: how a message is laid out and when the disk counts as full.

A message is ``>II`` (header length, body length, big-endian), the JSON header, then the body bytes.
The inside scripts (`driver.py`, `nbrunner.py`) write and read it; the grader reads it in
`grader/sandbox/channel.py`, which adds the checks hostile data needs. Standard library only and
never on ``sys.path`` inside: the scripts run under ``python -I`` and load this file by path from
their own folder, under a name of their own, so it never shadows a student's module called ``wire``.
"""
import json
import os
import struct

PREFIX = ">II"  # header length, body length
PREFIX_BYTES = struct.calcsize(PREFIX)
LOW_DISK_BYTES = 1 << 20  # less than this left on a folder's file system: the run "filled the disk"


def encode(header, body=b""):
    """One message: the prefix, the JSON header (no NaN or inf), the body."""
    head = json.dumps(header, allow_nan=False).encode()
    return struct.pack(PREFIX, len(head), len(body)) + head + body


def lengths(data, offset=0):
    """(header length, body length) from the prefix at ``offset`` of ``data``."""
    return struct.unpack_from(PREFIX, data, offset)


def send(fd, header, body=b""):
    """Write one message to ``fd`` whole (a pipe may take it in parts): the prefix and header, then the body as it
    is (a case's arrays can be hundreds of MiB: not copied into one message first)."""
    head = json.dumps(header, allow_nan=False).encode()
    for part in (struct.pack(PREFIX, len(head), len(body)) + head, body):
        data = memoryview(part)
        while data:
            data = data[os.write(fd, data):]


def disk_full(folders):
    """Has the file system of any of ``folders`` (those that exist) less than LOW_DISK_BYTES left?"""
    for folder in folders:
        try:
            st = os.statvfs(folder)
        except OSError:
            continue
        if st.f_blocks and st.f_bavail * st.f_frsize < LOW_DISK_BYTES:
            return True
    return False
