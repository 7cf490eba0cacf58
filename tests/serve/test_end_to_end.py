"""The one real run: the toy assignment built, released and batch-graded, then `grade serve` on that batch
with the autograder zip, every written answer graded by keyboard in Chromium, and the gradebook and
`grade manual export` carrying the points."""
from __future__ import annotations

import csv
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from test_serve_browser import CHROMIUM, VIEWPORT, key, shot

from grader import cli, sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "fixtures" / "toy-root"


@pytest.mark.slow
def test_a_real_batch_is_graded_in_the_browser(tmp_path):
    from playwright.sync_api import sync_playwright

    root, subs, out = tmp_path / "root", tmp_path / "subs", tmp_path / "out"
    shutil.copytree(TOY, root)
    assert build(root) == 0
    release_assignment(root, "toy", root / "dist")
    for name in ("alice", "bob"):
        (subs / name).mkdir(parents=True)
        for file in ("toy.py", "toy.ipynb"):
            shutil.copy(root / "solutions" / "toy" / file, subs / name / file)
    bundle = root / "dist" / "toy-autograder.zip"
    argv = ["batch", str(subs), "--autograder", str(bundle), "--out", str(out), "--jobs", "2"]
    assert cli.main(argv + ([] if sandbox.sandbox_available() else ["--allow-unsandboxed"])) == 0
    server = subprocess.Popen([sys.executable, "-m", "grader.cli", "serve", str(out), "--port", "0", "--autograder",
                               str(bundle)], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    try:
        url = server.stdout.readline().strip()
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(viewport=VIEWPORT).new_page()
            page.goto(url)
            page.wait_for_selector("#grader:focus")
            page.keyboard.type("Tess")
            key(page, "Enter")
            key(page, "1")
            assert "/q/why/" in page.url and "Why it works" in page.inner_text("header")
            for _ in range(2):  # the toy's guide has no entries: free points, then Ctrl+Enter saves
                page.keyboard.press("p")
                page.keyboard.type("1")
                key(page, "Control+Enter")
                assert page.inner_text("#points") == "1"
                shot(page, "real-batch")
                key(page, "n")
            assert page.inner_text("#questions").count("2 / 2 graded") == 1
            browser.close()
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)
    rows = list(csv.DictReader((out / "gradebook.csv").open()))
    assert {r["submission"]: (r["why"], r["score"]) for r in rows} == {"alice": ("1", "5"), "bob": ("1", "5")}
    assert cli.main(["manual", "export", str(out), str(tmp_path / "sheet.csv")]) == 0
    sheet = list(csv.DictReader((tmp_path / "sheet.csv").open()))
    assert {(r["submission"], r["points"]) for r in sheet} == {("alice", "1"), ("bob", "1")}
