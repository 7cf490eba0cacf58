"""A fresh venv, the student zip and its README alone get a student from unzip to `grade --local`.

The toy assignment is released; its student zip is unzipped into a folder of its own; the README's
own commands are run in a new virtual environment: the checker is installed from the zip's wheel
with `--no-index` (no network), the pinned requirements are checked offline, then `pytest`,
`grade --local` and `grade pack` run in the unzipped folder. The packages the kit needs (torch & co.)
are this machine's, hard-linked into the new venv (no copy, no download) without the kit itself, so
what runs `grade` is the wheel, not this checkout.
"""
from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

import pytest

from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.authoring.student_zip import pinned_requirements
from grader.authoring.wheel import kit_metadata, wheel_bytes
from grader.bundle import IDENTITY

ROOT = Path(__file__).resolve().parents[2]
TOY = ROOT / "tests" / "fixtures" / "toy-root"


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    root = tmp_path_factory.mktemp("release") / "root"
    shutil.copytree(TOY, root)
    assert build(root) == 0
    release_assignment(root, "toy", root / "dist")  # the zips alone (release() also runs check first)
    return root


def readme_commands(readme: str, section: str) -> list[str]:
    """The shell lines of the ```bash block under the README's heading ``section`` (comments dropped)."""
    part = readme.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```bash\n(.*?)```", part, re.S).group(1)
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()]


def machine_packages(venv_site: Path) -> None:
    """This environment's packages, hard-linked into ``venv_site`` (files only: nothing here writes to
    them), without the kit (its editable install would shadow the wheel) and without the venv's own."""
    site = Path(sysconfig.get_paths()["purelib"])
    for bundled in venv_site.glob("setuptools*"):  # venv's old setuptools; torch needs the machine's newer one
        shutil.rmtree(bundled)
    for entry in site.iterdir():
        if entry.name.startswith(("lrkit", "__editable__", "grader", "_distutils_hack", "distutils-precedence")) \
                or (venv_site / entry.name).exists():
            continue
        if entry.is_dir():
            subprocess.run(["cp", "-al", str(entry), str(venv_site / entry.name)], check=True)
        else:
            os.link(entry, venv_site / entry.name)


def test_release_zips_are_byte_for_byte_reproducible(released, tmp_path):
    again = tmp_path / "again"
    release_assignment(released, "toy", again)
    for name in ("toy-student.zip", "toy-autograder.zip", "toy-gradescope.zip"):
        assert (again / name).read_bytes() == (released / "dist" / name).read_bytes(), name


def test_the_student_zip_holds_readme_identity_requirements_and_wheel(released):
    with zipfile.ZipFile(released / "dist" / "toy-student.zip") as zf:
        names = set(zf.namelist())
        meta = kit_metadata()
        assert {"toy/README.md", f"toy/{IDENTITY}", "toy/requirements.txt",
                f"toy/wheels/lrkit-{meta.version}-py3-none-any.whl"} <= names
        readme = zf.read("toy/README.md").decode()
        assert zf.read("toy/requirements.txt").decode() == pinned_requirements(meta.dependencies)
    for words in ("`toy.py`", "`toy.ipynb`", "grade --local", "grade pack", "toy-submission.zip", IDENTITY,
                  "pip install --no-index --find-links wheels lrkit", "python -m pytest tests/"):
        assert words in readme, words
    assert "torch==" in pinned_requirements(meta.dependencies)


def test_the_wheel_is_the_running_kit(released):
    with zipfile.ZipFile(released / "dist" / "toy-student.zip") as zf:
        wheel = zf.read(f"toy/wheels/lrkit-{kit_metadata().version}-py3-none-any.whl")
    with zipfile.ZipFile(io.BytesIO(wheel)) as whl:
        names = whl.namelist()
        assert "grader/cli.py" in names and "grader/report/templates/report.html.j2" in names
        assert not [n for n in names if "__pycache__" in n]
        record = whl.read(f"lrkit-{kit_metadata().version}.dist-info/RECORD").decode()
        assert len(record.splitlines()) == len(names)
    assert wheel_bytes() == (f"lrkit-{kit_metadata().version}-py3-none-any.whl", wheel)  # rebuilt: same bytes


@pytest.fixture(scope="module")
def student(released):
    """The student zip unzipped into a world-readable folder (an unprivileged user works in it)."""
    base = Path(tempfile.mkdtemp(prefix="lrkit-student-"))
    os.chmod(base, 0o755)
    with zipfile.ZipFile(released / "dist" / "toy-student.zip") as zf:
        zf.extractall(base)
    yield base, base / "toy"
    shutil.rmtree(base, ignore_errors=True)


def _run(line: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_from_unzip_to_grade_local_with_the_readme_alone(student):
    base, folder = student
    readme = (folder / "README.md").read_text()
    setup, test, hand_in = (readme_commands(readme, s) for s in ("Set up, once", "Test", "Hand in"))
    assert setup[0] == "python3 -m venv .venv" and setup[-1] == "pip install --no-index --find-links wheels lrkit"
    python = shutil.which("python3") if not hasattr(sys, "_base_executable") else sys._base_executable
    env = {"PATH": f"{Path(python).parent}:/usr/bin:/bin", "HOME": str(base), "LANG": "C.UTF-8"}
    done = _run(setup[0].replace("python3", python), folder, env)  # the README's venv, from a plain Python
    assert done.returncode == 0, done.stderr
    venv_site = next((folder / ".venv" / "lib").glob("python3*/site-packages"))
    machine_packages(venv_site)
    env["PATH"] = f"{folder / '.venv' / 'bin'}:{env['PATH']}"  # what `source .venv/bin/activate` does
    env["PIP_NO_INDEX"] = "1"  # no network in this test: the pins must already be met here
    for line in setup[2:]:
        done = _run(line, folder, env)
        assert done.returncode == 0, f"{line}\n{done.stdout}\n{done.stderr}"
    where = _run("python -c 'import grader; print(grader.__file__)'", folder, env).stdout.strip()
    assert where.startswith(str(venv_site)), where  # the wheel's kit, not this checkout
    results = {line: _run(line, folder, env) for line in (*test, *hand_in)}
    pytest_run = results["python -m pytest tests/"]
    assert re.search(r"1 failed, 1 passed", pytest_run.stdout), pytest_run.stdout[-2000:]  # the baseline
    local = results["grade --local"]
    assert local.returncode == 0, local.stdout[-2000:] + local.stderr[-3000:]
    assert "UNOFFICIAL" in local.stdout and local.stdout.startswith("toy: ")
    assert (folder / "grade-report" / "report.html").is_file()
    report = json.loads((folder / "grade-report" / "report.json").read_text())
    assert report["assignment"] == "toy" and report["official"] is False
    assert results["grade pack"].returncode == 0, results["grade pack"].stderr
    with zipfile.ZipFile(folder / "toy-submission.zip") as zf:
        assert sorted(zf.namelist()) == sorted(["toy.py", "toy.ipynb", IDENTITY])
