"""Run an assignment's public tests with pytest in a fresh process; read its JUnit XML."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path


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


def run_public_tests(tree: Path, test_file: str, timeout: float = 600) -> TestCounts:
    """Run pytest on ``tree``'s public tests in a fresh process; read the JUnit XML it writes."""
    with tempfile.TemporaryDirectory(prefix="lrkit-pytest-") as tmp:
        xml = Path(tmp) / "junit.xml"
        env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "LRKIT_GRADING": "1", "MPLBACKEND": "Agg"}
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tree),
                        "-c", os.devnull, f"--junitxml={xml}", test_file], cwd=tree, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=timeout)
        if not xml.is_file():
            return TestCounts(0, 0, {})
        outcomes, passed, failed_count = {}, 0, 0
        for case in ET.parse(xml).iter("testcase"):
            failed = any(child.tag in ("failure", "error") for child in case)
            skipped = any(child.tag == "skipped" for child in case)
            if not skipped:  # counts as pytest reports them; a test passes when all its parametrizations do
                passed, failed_count = passed + (not failed), failed_count + failed
                name = case.get("name", "").split("[", 1)[0]
                outcomes[name] = outcomes.get(name, True) and not failed
    return TestCounts(passed, failed_count, outcomes)
