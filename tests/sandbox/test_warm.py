"""Warm starts (grader/sandbox/warm.py, inside/zygote.py) give the isolation of cold starts.

Two proofs, each run cold (bubblewrap) and warm (forked from the template), with the same
assertions: (1) what a sandboxed process and a notebook kernel can see of their world (uid,
capabilities, seccomp, mounts, devices, network, processes, environment, sys.path, limits) is
the same; (2) two submissions graded one after the other on one worker: the first leaves
traces everywhere it can (memory, files, environment, modules, keyrings, SysV shared memory,
abstract sockets, a daemon), the second looks for them and finds none.
"""
from __future__ import annotations

import json
import os
import shutil
import textwrap
from pathlib import Path

import pytest

from grader import sandbox
from grader.authoring.build import build
from grader.authoring.release import release_assignment
from grader.batch.run import grade_batch
from grader.report.render import load_report
from grader.sandbox import Mount, RunLimits, sandbox_available, sandbox_python, warm

pytestmark = pytest.mark.skipif(not sandbox_available(), reason="needs Linux, root and bubblewrap")
ROOT = Path(__file__).resolve().parents[2]
LIMITS = RunLimits(wall_s=120, memory_mb=1024, max_procs=64, tmp_mb=32, max_disk_mb=64)

# What a process can see of its sandbox; printed as one JSON object (or raised, in a notebook cell).
FINGERPRINT = r'''
import gc, json, os, socket, sys
def rd(p):
    try:
        return open(p).read()
    except OSError as exc:
        return f"error {exc.errno}"
status = {k: v.strip() for k, v in (l.split(":", 1) for l in rd("/proc/self/status").splitlines())
          if k.startswith(("Cap", "NoNewPrivs", "Seccomp", "Uid", "Gid", "Groups"))}
def mount(line):
    fs = line.split(" - ")[1].split()
    return " ".join(line.split()[4:6] + fs[:1] + ([o for o in fs[2].split(",") if o.startswith("size")]
                                                  if fs[0] == "tmpfs" else []))
mounts = sorted(mount(l) for l in rd("/proc/self/mountinfo").splitlines() if " /proc/sys " not in l)
net = [l.split(":")[0].strip() for l in rd("/proc/net/dev").splitlines()[2:]]
facts = {"uid": os.getuid(), "status": status, "mounts": mounts, "net": net,
         "cwd": os.getcwd(), "session_leader": os.getsid(0) == os.getpid(), "env": dict(os.environ),
         "path": sys.path, "limits": [l for l in rd("/proc/self/limits").splitlines() if "files" in l or "core" in l],
         "processes": sum(p.isdigit() for p in os.listdir("/proc")), "root": sorted(os.listdir("/")),
         "dev": sorted(os.listdir("/dev")), "hostname": socket.gethostname(), "bytecode": sys.dont_write_bytecode,
         "tmp_writable": os.access("/tmp", os.W_OK), "etc_writable": os.access("/etc", os.W_OK),
         "gc": [gc.isenabled(), gc.get_threshold()]}
'''


def _mode(tmp_path: Path, monkeypatch, mode: str) -> None:
    """cold (bubblewrap), warm (the grader's own template) or kept (this user's template kept between graders,
    grader/sandbox/kept.py: `grade --local`'s)."""
    monkeypatch.setenv("LRKIT_WARM", "0" if mode == "cold" else "1")
    if mode == "kept":
        where = tmp_path / "kept-templates"
        where.mkdir(mode=0o700, exist_ok=True)
        monkeypatch.setenv("LRKIT_WARM_DIR", str(where))
        monkeypatch.setenv("LRKIT_KEEP_WARM", "1")
        monkeypatch.setattr(warm, "_keep", True)
        monkeypatch.setattr(warm, "_kept_broken", False)
        warm.shutdown()


def _served(mode: str) -> None:
    """The template the run came from was the one asked for; a kept one is then let go of."""
    if mode == "kept":
        assert isinstance(warm._zygote, warm.KeptZygote), warm.last_failure
        warm.shutdown()  # (the kept template exits by itself when idle; the test's is killed at once)
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                if b"--keep" in Path(f"/proc/{pid}/cmdline").read_bytes():
                    if str(warm.kept.folder()).encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                        os.kill(int(pid), 9)
            except OSError:
                pass


def _script_facts(tmp_path: Path, monkeypatch, mode: str) -> dict:
    _mode(tmp_path, monkeypatch, mode)
    work = tmp_path / mode
    work.mkdir()
    (work / "tool.sh").write_text("echo hi\n")
    (work / "tool.sh").chmod(0o6775)  # set-id and group-write bits: the seed's tar filter decides what survives
    (work / "main.py").write_text(FINGERPRINT + "facts['seeded'] = {n: oct(os.stat(n).st_mode) for n in "
                                  "sorted(os.listdir('.'))}\nprint(json.dumps(facts))\n")
    result = sandbox.run([sandbox_python(), "-I", "/submission/main.py"], mounts=[Mount(work, "/submission", True)],
                         cwd="/submission", env={"LRKIT_GRADING": "1"}, limits=LIMITS)
    assert result.returncode == 0, result.output
    assert ("bwrap" if mode == "cold" else "zygote") in result.isolation, warm.last_failure
    _served(mode)
    return json.loads(result.output)


def _kernel_facts(tmp_path: Path, monkeypatch, mode: str) -> dict:
    from grader.config import AssignmentLimits
    from grader.grading.execute import execute_notebook

    _mode(tmp_path, monkeypatch, mode)
    tree = tmp_path / f"nb-{mode}"
    tree.mkdir()
    code = FINGERPRINT + "facts.pop('env').pop('JPY_PARENT_PID', None)\nraise RuntimeError(json.dumps(facts))\n"
    nb = {"cells": [{"cell_type": "code", "id": "c0", "metadata": {"tags": []}, "source": code, "outputs": [],
                     "execution_count": None}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    run = execute_notebook(tree, "facts.ipynb", nb, AssignmentLimits())
    assert run.cells and run.cells[0].ename == "RuntimeError", run
    _served(mode)
    return json.loads(run.cells[0].evalue)


@pytest.mark.parametrize("warm_mode", ["warm", "kept"])
@pytest.mark.parametrize("what", ["script", "kernel"])
def test_a_warm_run_sees_the_same_world_as_a_cold_one(tmp_path, monkeypatch, what, warm_mode):
    facts = _script_facts if what == "script" else _kernel_facts
    cold, hot = facts(tmp_path, monkeypatch, "cold"), facts(tmp_path, monkeypatch, warm_mode)
    assert hot["uid"] == 65534 and hot["status"]["CapEff"] == "0000000000000000" and hot["status"]["Seccomp"] == "2"
    assert not hot["etc_writable"] and hot["tmp_writable"]
    assert hot["gc"][0], "the template imports with the garbage collector off: a run must get it back on"
    assert hot == cold


LEAVER = r'''
import builtins, ctypes, json, os, secrets, socket, sys, types
import numpy, torch
MARK = "LRKITLEAK-" + secrets.token_hex(16)
LEFT = {}
def attempt(name, fn):
    try:
        fn()
        LEFT[name] = "left"
    except OSError as exc:
        LEFT[name] = f"refused ({exc.errno})"
os.environ["LRKIT_LEAK"] = MARK
torch.special.expit = lambda x: x  # a patch the checks do not watch (torch's top level they do)
torch.lrkit_leak = numpy.lrkit_leak = builtins.lrkit_leak = MARK
sys.modules["lrkit_leak"] = types.ModuleType("lrkit_leak")
BIG = bytearray((MARK * 200_000).encode())
for folder in ("/tmp", os.path.expanduser("~"), ".", "/dev/shm", "/var/tmp", "/"):
    attempt("file " + folder, lambda f=folder: open(os.path.join(f, "lrkit_leak_" + MARK), "w").write(MARK))
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
def syscall_ok(ret):
    if ret == -1:
        raise OSError(ctypes.get_errno(), "")
ADD_KEY = {"x86_64": 248, "aarch64": 217}[__import__("platform").machine()]
attempt("keyring", lambda: syscall_ok(libc.syscall(ADD_KEY, b"user", b"lrkit_leak", MARK.encode(), len(MARK), -4)))
def shm():
    seg = libc.shmget(0x1EAF, 4096, 0o1666)
    syscall_ok(seg)
    addr = libc.shmat(seg, None, 0)
    if addr in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "")
    ctypes.memmove(addr, MARK.encode(), len(MARK))
attempt("sysv shm", shm)
SOCKS = []  # (a check run refuses sockets: socket() itself raises there, inside the attempt)
def abstract():
    SOCKS.append(socket.socket(socket.AF_UNIX))
    SOCKS[-1].bind("\0lrkit_leak_" + MARK)
attempt("abstract socket", abstract)
def daemon():
    if os.fork() == 0:
        os.setsid()
        libc.prctl(15, b"lrkit_leak", 0, 0, 0)  # PR_SET_NAME: /proc/PID/comm
        import time
        while True:
            time.sleep(1)
attempt("daemon", daemon)
REPORT = "leaver: " + json.dumps(LEFT, sort_keys=True)
'''

SEEKER = r'''
import builtins, json, os, re, sys
import numpy, torch
FOUND, LOOKED = [], []
def rd(path):
    try:
        return open(path, errors="replace").read()
    except OSError:
        return ""
def look(what, hit):
    LOOKED.append(what)
    if hit:
        FOUND.append(f"{what}: {str(hit)[:200]}")
look("environment", [k for k, v in os.environ.items() if "LRKIT_LEAK" in k or "LRKITLEAK" in v])
look("patched torch", type(torch.special.expit).__name__ != "builtin_function_or_method")
look("module attributes", [m for m in (torch, numpy, builtins) if hasattr(m, "lrkit_leak")])
look("sys.modules", "lrkit_leak" in sys.modules)
for folder in ("/tmp", os.path.expanduser("~"), ".", "/dev/shm", "/var/tmp", "/"):
    if os.path.isdir(folder):
        look("files " + folder, [n for n in os.listdir(folder) if "lrkit_leak" in n])
look("processes", [p for p in os.listdir("/proc") if p.isdigit() and "lrkit_leak" in rd(f"/proc/{p}/comm")])
look("sysv shm", rd("/proc/sysvipc/shm").splitlines()[1:])
look("abstract sockets", [l for l in rd("/proc/net/unix").splitlines() if "lrkit_leak" in l])
look("keyrings", [l for l in rd("/proc/keys").splitlines() if "lrkit_leak" in l])
pattern, seen = re.compile(b"LRKIT" + b"LEAK-[0-9a-f]{32}"), 0
try:  # a check's student process has an empty /proc of its own (`inside/apart.py`): the notebook's kernel reads
    maps, mem = open("/proc/self/maps"), open("/proc/self/mem", "rb", 0)
except OSError:
    maps = mem = open(os.devnull, "rb")
with maps, mem:
    for line in maps:
        fields = line.split()
        start, end = (int(x, 16) for x in fields[0].split("-"))
        if "r" not in fields[1] or (len(fields) > 5 and not fields[5].startswith("[")) or end - start > 1 << 30:
            continue  # anonymous memory, heap and stack: where a copied string would live
        try:
            mem.seek(start)
            chunk = mem.read(end - start)
        except (OSError, ValueError, OverflowError):
            continue
        seen += len(chunk)
        if pattern.search(chunk):
            FOUND.append(f"memory {fields[0]}: {pattern.search(chunk).group()[:40]}")
REPORT = "seeker: " + json.dumps({"looked": LOOKED, "memory_mib": seen >> 20, "found": FOUND})
if FOUND:
    raise RuntimeError(REPORT)  # in the checks' driver too: the check item then fails, with this message
'''

MODULE_TAIL = '''

def double(x):
    return 2 * x


def running_sum(x):
    return torch.cumsum(x, dim=-1)
'''


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    base = tmp_path_factory.mktemp("warm-toy")
    shutil.copytree(ROOT / "tests" / "fixtures" / "toy-root", base / "root")
    config = base / "root" / "assignments" / "toy" / "assignment.yaml"  # room for a slow, shared machine
    config.write_text(config.read_text().replace("case_timeout_s: 10", "case_timeout_s: 60"))
    assert build(base / "root") == 0
    release_assignment(base / "root", "toy", base / "dist")  # the bundle only: the kit's own gate is tested elsewhere
    return base


def _submission(toy: Path, folder: Path, module_head: str) -> None:
    folder.mkdir(parents=True)
    (folder / "toy.py").write_text(textwrap.dedent(module_head) + MODULE_TAIL)
    nb = json.loads((toy / "root" / "solutions" / "toy" / "toy.ipynb").read_text())
    nb["cells"].append({"cell_type": "code", "id": "report", "metadata": {}, "outputs": [], "execution_count": None,
                        "source": "import toy\nraise RuntimeError(toy.REPORT)"})
    (folder / "toy.ipynb").write_text(json.dumps(nb))


def _comm(proc: Path) -> str:
    try:
        return (proc / "comm").read_text().strip() if "Z" not in (proc / "stat").read_text().split()[2] else ""
    except OSError:
        return ""


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_submission_finds_no_trace_of_the_one_graded_before_it(toy, monkeypatch, mode):
    monkeypatch.setenv("LRKIT_WARM", "1" if mode == "warm" else "0")
    subs = toy / f"subs-{mode}"
    _submission(toy, subs / "a_leaver", LEAVER)
    _submission(toy, subs / "b_seeker", SEEKER)
    forks_before = warm._zygote.forks if warm._zygote else 0
    grade_batch(subs, toy / "dist" / "toy-autograder.zip", toy / f"out-{mode}", jobs=1, force=True)
    leaver, seeker = (load_report(toy / f"out-{mode}" / n / "report.json") for n in ("a_leaver", "b_seeker"))
    for report in (leaver, seeker):
        assert ("zygote" if mode == "warm" else "bwrap") in report.isolation, warm.last_failure
        assert next(i for i in report.items if i.id == "cumsum").points == 2, report  # graded as usual
    said = {r.submission: next(c.evalue for c in r.cells if c.ename == "RuntimeError") for r in (leaver, seeker)}
    left = json.loads(said["a_leaver"].removeprefix("leaver: "))
    assert left["file /tmp"] == left["file ."] == left["sysv shm"] == left["abstract socket"] == "left", left
    assert left["daemon"] == "left" and left["keyring"].startswith("refused"), left  # seccomp: no keyrings
    seen = json.loads(said["b_seeker"].removeprefix("seeker: "))
    assert seen["found"] == [] and len(seen["looked"]) >= 12 and seen["memory_mib"] >= 10, seen
    assert not [p for p in Path("/proc").iterdir() if p.name.isdigit() and _comm(p) == "lrkit_leak"]
    if mode == "warm":  # one template served both submissions (checks and notebook of each)
        assert warm._zygote is not None and warm._zygote.forks >= forks_before + 4


def test_a_template_that_dies_mid_batch_is_replaced_and_the_run_still_starts(tmp_path, monkeypatch):
    """The template killed between two runs (OOM killer, an operator): the next run still
    finishes (cold), a fresh template serves the one after it, warm starts stay on."""
    monkeypatch.setenv("LRKIT_WARM", "1")
    monkeypatch.setattr(warm, "_broken", False)
    monkeypatch.setattr(warm, "_failures", 0)
    work = tmp_path / "w"
    work.mkdir()
    (work / "main.py").write_text("print('ran')\n")

    def run_once():
        return sandbox.run([sandbox_python(), "-I", "/submission/main.py"], mounts=[Mount(work, "/submission", False)],
                           cwd="/submission", env={}, limits=LIMITS)

    first = run_once()
    assert first.output.strip() == "ran" and "zygote" in first.isolation, warm.last_failure
    dead = warm._zygote
    dead.proc.kill()
    dead.proc.wait()
    monkeypatch.setattr(dead, "alive", lambda: True)  # as if it died after the grader last looked
    second = run_once()
    assert second.returncode == 0 and second.output.strip() == "ran"
    assert warm._zygote is not dead and not warm._broken and warm.last_failure
    third = run_once()
    assert third.output.strip() == "ran" and "zygote" in third.isolation, warm.last_failure
    assert warm._zygote is not None and warm._zygote is not dead and warm._failures == 0


@pytest.mark.parametrize("mode", ["cold", "warm"])
def test_a_notebook_shows_its_figures_warm_and_cold(tmp_path, monkeypatch, mode):
    """plt.show() and a figure left open at the end of a cell each give one PNG, forked or not
    (a template that imported the inline backend before any shell existed would give none)."""
    from grader.config import AssignmentLimits
    from grader.grading.execute import execute_notebook

    monkeypatch.setenv("LRKIT_WARM", "1" if mode == "warm" else "0")
    cells = ["import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nplt.show()", "plt.figure()\nplt.plot([3, 1])"]
    nb = {"cells": [{"cell_type": "code", "id": f"c{n}", "metadata": {"tags": []}, "source": src, "outputs": [],
                     "execution_count": None} for n, src in enumerate(cells)],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "tree").mkdir()
    run = execute_notebook(tmp_path / "tree", "figs.ipynb", nb, AssignmentLimits())
    assert [c.status for c in run.cells] == ["ok", "ok"], run
    assert [c.figures for c in run.cells] == [1, 1] and len(run.figures) == 2, run
    assert ("zygote" if mode == "warm" else "bwrap") in run.isolation, warm.last_failure


def test_the_template_builds_matplotlibs_font_list_once_per_machine(tmp_path, monkeypatch):
    """The font list (~0.5 s to build) is kept in the grader's own cache and copied into each
    template's home, never worked on in place: a lock or a half-written file another grader left
    there (killed mid-write) stops nothing. A folder others could write is not used."""
    from grader.sandbox.scratch import user_cache

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("LRKIT_WARM", "1")
    monkeypatch.setattr(warm, "_broken", False)
    folder = tmp_path / "cache" / "lrkit" / "matplotlib"
    for attempt in range(2):
        warm.shutdown()
        try:
            zygote = warm._template()
            used = json.loads(next(zygote.home.joinpath("matplotlib").glob("fontlist-v*.json")).read_text())
        finally:
            warm.shutdown()
        assert user_cache("matplotlib") == folder and folder.stat().st_mode & 0o777 == 0o700
        lists = sorted(folder.glob("fontlist-v*.json"))
        assert len(lists) == 1 and json.loads(lists[0].read_text()), sorted(folder.iterdir())
        if attempt == 0:  # what a killed grader could leave: matplotlib's lock, a cut-off part
            (folder / (lists[0].name + ".matplotlib-lock")).write_text("")
            (folder / ".part-x").write_text('{"_version"')
            kept = json.loads(lists[0].read_text())
            lists[0].write_text(json.dumps({**kept, "lrkit_marker": 1}))  # gone if the next template rebuilds it
        else:
            assert used.get("lrkit_marker") == 1, "the second template built the font list again"
    folder.chmod(0o777)
    assert user_cache("matplotlib") is None
    folder.chmod(0o700)
    os.chown(folder, 65534, 65534)
    assert user_cache("matplotlib") is None


@pytest.mark.parametrize("fault", ["selftest", "template"])
def test_a_template_that_fails_its_start_turns_warm_off_and_the_run_starts_cold(tmp_path, monkeypatch, fault):
    """The self-test (forked before the template's imports, so it runs alongside them) failing, or
    the template dying at start: the run still runs, cold, and the reason is kept, in the
    template's own words where it wrote some."""
    monkeypatch.setenv("LRKIT_WARM", "1")
    monkeypatch.setattr(warm, "_broken", False)
    monkeypatch.setattr(warm, "_failures", 0)
    monkeypatch.setattr(warm, "last_failure", "")
    if fault == "selftest":  # a uid no process can take: the warm run's set-up fails, the template is fine
        monkeypatch.setattr(warm, "SANDBOX_UID", 1 << 40)
    else:
        broken = tmp_path / "zygote.py"
        broken.write_text("import sys\nsys.stderr.write('no namespaces for this template')\nsys.exit(3)\n")
        monkeypatch.setattr(warm, "ZYGOTE", broken)
    warm.shutdown()
    work = tmp_path / "w"
    work.mkdir()
    (work / "main.py").write_text("print('ran')\n")
    try:
        result = sandbox.run([sandbox_python(), "-I", "/submission/main.py"],
                             mounts=[Mount(work, "/submission", False)], cwd="/submission", env={}, limits=LIMITS)
        assert result.returncode == 0 and result.output.strip() == "ran", result.output
        assert "bwrap" in result.isolation and warm._broken
        expected = "warm self-test failed" if fault == "selftest" else "no namespaces for this template"
        assert expected in warm.last_failure, warm.last_failure
    finally:
        warm.shutdown()


def test_an_assignments_preloads_are_imported_in_every_run_after_and_in_a_replacing_template(tmp_path, monkeypatch):
    """assignment.yaml `preload`: the template imports the modules once, before the next run it forks (every run
    after finds them imported, none before), and a template that replaces it is asked again; a name that does
    not import is skipped and the runs go on."""
    monkeypatch.setenv("LRKIT_WARM", "1")
    monkeypatch.setattr(warm, "_broken", False)
    monkeypatch.setattr(warm, "_wanted", {})
    warm.shutdown()
    work = tmp_path / "w"
    work.mkdir()
    (work / "main.py").write_text("import sys\nprint(sorted(m for m in ('wave', 'xml.dom.minidom', "
                                  "'no_such_module_xyz') if m in sys.modules))\n")

    def seen():
        result = sandbox.run([sandbox_python(), "-I", "/submission/main.py"], mounts=[Mount(work, "/submission")],
                             cwd="/submission", env={}, limits=LIMITS)
        assert result.returncode == 0 and "zygote" in result.isolation, (result.output, warm.last_failure)
        return result.output.strip()

    assert seen() == "[]"
    warm.preload(["wave", "no_such_module_xyz"])
    assert seen() == "['wave']"
    warm.preload(["xml.dom.minidom", "wave"])
    assert seen() == "['wave', 'xml.dom.minidom']"
    warm.shutdown()  # the next run starts a fresh template: it is asked for both before its first run
    assert seen() == "['wave', 'xml.dom.minidom']"
    warm.shutdown()
