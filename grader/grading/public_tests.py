"""Run an assignment's public tests with pytest in a fresh process; read its JUnit XML.

Where the official sandbox is available the process is a sandboxed one (forked warm from the
template: no `import torch` paid) on a copy of the tree, and the XML comes back over its channel;
elsewhere (a student's laptop) it is a plain subprocess, as the student would run pytest.
"""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from grader import sandbox
from grader.grading import messages

MAX_XML_BYTES = 8 << 20
# Runs inside the sandbox as `python -I -c RUNNER TEST_FILE` (or the node ids of some of its tests): pytest as
# `python -m pytest` would run it from the tree's root (the root on sys.path), the JUnit XML written to the run's
# channel.
RUNNER = """
import os, sys
sys.path.insert(0, os.getcwd())
import pytest
pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", os.getcwd(), "-c", os.devnull,
             "--junitxml=/tmp/lrkit-junit.xml", *sys.argv[1:]])
fd = int(os.environ["LRKIT_CHANNEL_FD"])
try:
    data = open("/tmp/lrkit-junit.xml", "rb").read()
except OSError:
    data = b""
while data:
    data = data[os.write(fd, data):]
sys.stdout.flush()
os._exit(0)
"""


@dataclass(frozen=True)
class TestCounts:
    """What the public tests gave; shaped like `probing.CheckRun` where the pipeline reads both."""

    passed: int
    failed: int
    outcomes: dict[str, bool]
    notes: tuple[str, ...] = ()
    isolation: tuple[str, ...] = ()
    import_hung: bool = False
    peak_memory_mb: float = 0.0
    cpu_s: float = 0.0  # CPU time of the sandboxed run (0 unsandboxed)
    counts: dict[str, tuple[int, int]] = dataclasses.field(default_factory=dict)  # name -> (passed, failed)


TEST_ENV = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "LRKIT_GRADING": "1", "MPLBACKEND": "Agg"}


def run_public_tests(tree: Path, test_file: str, timeout: float = 600, memory_mb: int = 4096,
                     select: tuple[str, ...] | None = None) -> TestCounts:
    """Run pytest on ``tree``'s public tests in a fresh process; read the JUnit XML it writes. ``select``: the
    node ids of the tests to run (`grade --local` after an edit), instead of all of ``test_file``."""
    targets = list(select) if select else [test_file]
    if sandbox.sandbox_available():
        limits = sandbox.RunLimits(wall_s=timeout, memory_mb=memory_mb, max_channel_bytes=MAX_XML_BYTES)
        result = sandbox.run([sandbox.sandbox_python(), "-I", "-c", RUNNER, *targets],
                             mounts=[sandbox.Mount(tree, "/submission", True)], cwd="/submission", env=TEST_ENV,
                             limits=limits, channel=True)
        counts = _counts(result.channel, result.cpu_s)
        why = messages.run_stopped(result, subject="the public tests", memory_mb=memory_mb,
                                   disk_mb=limits.max_disk_mb, channel_bytes=MAX_XML_BYTES,
                                   time_limit=f"{timeout:g} s")
        if why:
            return dataclasses.replace(counts, notes=(why,))
        return counts
    with tempfile.TemporaryDirectory(prefix="lrkit-pytest-") as tmp:
        xml = Path(tmp) / "junit.xml"
        try:
            subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tree),
                            "-c", os.devnull, f"--junitxml={xml}", *targets], cwd=tree, env={**os.environ, **TEST_ENV},
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired:
            return TestCounts(0, 0, {}, notes=(f"the public tests were stopped: it ran past {timeout:g} s",))
        return _counts(xml.read_bytes() if xml.is_file() and xml.stat().st_size <= MAX_XML_BYTES else b"")


def _counts(xml: bytes, cpu_s: float = 0.0) -> TestCounts:
    """Per-test outcomes from JUnit XML written by code under test (parsed as untrusted)."""
    try:
        root = ET.fromstring(xml) if xml else None
    except ET.ParseError:
        root = None
    if root is None:
        return TestCounts(0, 0, {}, cpu_s=cpu_s)
    outcomes, passed, failed_count, counts = {}, 0, 0, {}
    for case in root.iter("testcase"):
        failed = any(child.tag in ("failure", "error") for child in case)
        skipped = any(child.tag == "skipped" for child in case)
        if not skipped:  # counts as pytest reports them; a test passes when all its parametrizations do
            passed, failed_count = passed + (not failed), failed_count + failed
            name = case.get("name", "").split("[", 1)[0]
            outcomes[name] = outcomes.get(name, True) and not failed
            p, f = counts.get(name, (0, 0))
            counts[name] = (p + (not failed), f + failed)
    return TestCounts(passed, failed_count, outcomes, cpu_s=cpu_s, counts=counts)
