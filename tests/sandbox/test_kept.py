"""A warm-start template kept between graders (grader/sandbox/kept.py; `grade --local`): a second grader is served
by the template the first launched, runs from it see what cold runs see (tests/sandbox/test_warm.py, mode "kept"),
it exits when idle, and anything unsafe or stale about it gives the grader a template of its own instead."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.sandbox import kept, sandbox_available, warm

pytestmark = pytest.mark.skipif(not sandbox_available(), reason="needs Linux, root and bubblewrap")
ROOT = Path(__file__).resolve().parents[2]

# One grader: a sandboxed run that prints what the run saw, then which template served it.
GRADER = r'''
import json, sys
from grader import sandbox
from grader.sandbox import RunLimits, sandbox_python, warm
if sys.argv[1] == "keep":
    warm.keep_between_runs()
SAY = "import os, sys, torch; print(os.getuid(), 'torch' in sys.modules)"
r = sandbox.run([sandbox_python(), "-I", "-c", SAY],
                mounts=[], cwd="/", env={}, limits=RunLimits(wall_s=60, memory_mb=1024, max_procs=16, tmp_mb=16,
                                                            max_disk_mb=16))
print(json.dumps({"rc": r.returncode, "output": r.output.strip(), "isolation": list(r.isolation),
                  "template": type(warm._zygote).__name__, "home": str(warm._zygote.home) if warm._zygote else "",
                  "failure": warm.last_failure}))
'''


def keepers(where: Path) -> list[int]:
    """The PIDs of the kept templates listening in ``where``."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--keep" in cmdline and any(arg.startswith(str(where).encode()) for arg in cmdline):
            found.append(int(pid))
    return found


def grader(where: Path, mode: str = "keep", **env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", GRADER, mode], cwd=ROOT, capture_output=True, text=True, timeout=90,
                          env={**os.environ, "LRKIT_WARM": "1", "LRKIT_KEEP_WARM": "1", "LRKIT_WARM_DIR": str(where),
                               **env})
    assert done.returncode == 0, done.stderr[-3000:]
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "stderr": done.stderr}


@pytest.fixture
def where(tmp_path):
    path = tmp_path / "warm"
    path.mkdir(mode=0o700)
    yield path
    for pid in keepers(path):
        os.kill(pid, 9)


def test_graders_one_after_another_share_the_kept_template_which_exits_when_idle(where):
    first = grader(where, LRKIT_KEEP_WARM_S="4")
    assert first["rc"] == 0 and first["output"] == "65534 True" and "zygote" in first["isolation"], first
    assert first["template"] == "KeptZygote" and first["home"].startswith(str(where))
    launched = keepers(where)
    assert len(launched) == 1, "the first grader launches one template, which outlives it"
    second = grader(where, LRKIT_KEEP_WARM_S="4")
    assert second["output"] == "65534 True" and second["template"] == "KeptZygote", second
    assert keepers(where) == launched, "the second grader is served by the same template, not a new one"
    deadline = time.monotonic() + 30
    while keepers(where) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not keepers(where), "a template no grader has used for LRKIT_KEEP_WARM_S seconds exits"
    assert not list(where.glob("*.sock")), "and removes its socket"


def test_a_kept_template_asked_to_stop_exits_and_the_next_grader_launches_a_fresh_one(where):
    grader(where)
    launched = keepers(where)
    assert len(launched) == 1
    assert kept.stop(where) == 1
    deadline = time.monotonic() + 30
    while keepers(where) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not keepers(where) and not list(where.glob("*.sock")), "asked to stop with no grader connected: it exits"
    again = grader(where)
    assert again["output"] == "65534 True" and again["template"] == "KeptZygote", again
    assert len(keepers(where)) == 1 and keepers(where) != launched


def test_a_stale_socket_is_replaced_and_keeping_off_starts_the_graders_own(where):
    sock = where / f"{kept.key(warm.ZYGOTE)}.sock"
    sock.write_text("left by a template that was killed")
    served = grader(where)
    assert served["output"] == "65534 True" and served["template"] == "KeptZygote", served
    assert len(keepers(where)) == 1 and sock.is_socket()
    own = grader(where, LRKIT_KEEP_WARM="0")
    assert own["output"] == "65534 True" and own["template"] == "Zygote" and "zygote" in own["isolation"], own
    plain = grader(where, mode="own")  # a grader that does not ask (official grading): always its own
    assert plain["template"] == "Zygote" and not plain["home"].startswith(str(where)), plain


@pytest.mark.parametrize("unsafe", ["open to others", "a link"])
def test_a_folder_that_is_not_the_users_own_is_not_used(tmp_path, monkeypatch, unsafe):
    where = tmp_path / "warm"
    if unsafe == "a link":
        (tmp_path / "elsewhere").mkdir(mode=0o700)
        where.symlink_to(tmp_path / "elsewhere")
    else:
        where.mkdir()
        where.chmod(0o777)
    monkeypatch.setenv("LRKIT_WARM_DIR", str(where))
    monkeypatch.setenv("LRKIT_KEEP_WARM", "1")
    with pytest.raises(warm.SandboxError, match="not a folder of this user's own with mode 0700"):
        kept.folder()
    served = grader(where)
    assert served["output"] == "65534 True" and served["template"] == "Zygote", served
    assert "the kept warm-start template is unavailable" in served["stderr"], served
    assert not keepers(where) and not list(where.glob("*.sock"))


def test_the_key_changes_with_the_templates_code(tmp_path):
    copy = tmp_path / "zygote.py"
    copy.write_bytes(warm.ZYGOTE.read_bytes())
    (tmp_path / "kernel.py").write_bytes(warm.ZYGOTE.with_name("kernel.py").read_bytes())
    same = kept.key(copy)
    assert same == kept.key(warm.ZYGOTE)
    (tmp_path / "kernel.py").write_bytes(warm.ZYGOTE.with_name("kernel.py").read_bytes() + b"\n# edited\n")
    assert kept.key(copy) != same, "an edited template is a new template, never a stale one"
