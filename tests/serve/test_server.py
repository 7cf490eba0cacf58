"""`grade serve OUT_DIR` as scripts use it: the URL with its token on the first line of stdout, 127.0.0.1,
401 without the token, serving until stopped; and the errors a person can make, each one line."""
from __future__ import annotations

import shutil
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from grader.errors import UsageError
from grader.serve.server import bind

ROOT = Path(__file__).resolve().parents[2]


def _grade(*args: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "grader.cli", *args], cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_the_first_line_is_the_url_and_the_server_runs_until_stopped(klass, tmp_path):
    bundle = tmp_path / "bundle"
    shutil.copytree(klass.solution, bundle / "solution")
    (bundle / "template").mkdir()
    server = _grade("serve", str(klass.out), "--port", "0", "--autograder", str(bundle), cwd=tmp_path)
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:") and "/?token=" in url, url
        base, token = url.split("/?token=")
        assert len(token) >= 24
        assert _status(base + "/") == 401
        assert _status(f"{base}/?token=wrong") == 403
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with opener.open(url, timeout=10) as page:  # the token, then the cookie, then the name page
            assert page.status == 200 and "Who is grading?" in page.read().decode()
        assert server.poll() is None  # still serving
    finally:
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=30)
    assert server.returncode == 0, err
    assert "Traceback" not in err


def test_a_folder_without_reports_is_one_line_and_exit_2(tmp_path):
    (tmp_path / "empty").mkdir()
    done = _grade("serve", str(tmp_path / "empty"), cwd=tmp_path)
    out, err = done.communicate(timeout=60)
    assert done.returncode == 2 and out == ""
    assert err.strip().count("\n") == 0 and "no */report.json here" in err


def test_the_solution_of_another_assignment_is_refused(klass, tmp_path):
    bundle = tmp_path / "bundle"
    shutil.copytree(klass.solution, bundle / "solution")
    (bundle / "template").mkdir()
    config = bundle / "solution" / "assignment.yaml"
    config.write_text(config.read_text().replace("name: toy-serve", "name: another"))
    done = _grade("serve", str(klass.out), "--port", "0", "--autograder", str(bundle), cwd=tmp_path)
    out, err = done.communicate(timeout=60)
    assert done.returncode == 2 and "is the solution of 'another'" in err and out == ""


def test_a_port_in_use_is_a_usage_error_and_the_default_moves_on():
    taken = bind("127.0.0.1", 0)
    try:
        port = taken.getsockname()[1]
        with pytest.raises(UsageError, match=f"cannot listen on 127.0.0.1:{port}"):
            bind("127.0.0.1", port)
    finally:
        taken.close()
    sock = bind("127.0.0.1", None)
    try:
        assert sock.family == socket.AF_INET and sock.getsockname()[0] == "127.0.0.1"
    finally:
        sock.close()
