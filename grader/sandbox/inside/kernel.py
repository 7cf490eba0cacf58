"""The Linux calls the inside scripts make through libc: mounts, the root, capabilities, the seccomp filter.

One owner for them: the warm-start template (`zygote.py`) builds each run's sandbox with them, and `apart.py`
each check's student process's namespaces and root. Loaded by path beside those scripts (standalone: imports
nothing from the grader).
"""
import ctypes
import os
import platform

LIBC = ctypes.CDLL(None, use_errno=True)
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT = 1, 2, 4, 8, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, PR_SET_DUMPABLE, PR_SET_SECCOMP, PR_CAPBSET_DROP, MNT_DETACH = 1, 4, 22, 24, 2
PR_SET_NO_NEW_PRIVS, PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, PR_SET_CHILD_SUBREAPER = 38, 47, 4, 36
SYSCALLS = {"x86_64": {"pivot_root": 155, "capset": 126}, "aarch64": {"pivot_root": 41, "capset": 91}}


class SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def check(ret, what):
    if ret != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _c(text):
    return text.encode() if text is not None else None


def mount(src, dst, fstype, flags, data=None):
    check(LIBC.mount(_c(src), _c(dst), _c(fstype), ctypes.c_ulong(flags), _c(data)), f"mount {dst}")


def prctl(option, arg=0):
    check(LIBC.prctl(option, ctypes.c_ulong(arg), 0, 0, 0), f"prctl {option}")


def pivot_root(new_root, put_old):
    check(LIBC.syscall(SYSCALLS[platform.machine()]["pivot_root"], _c(new_root), _c(put_old)), "pivot_root")


def clear_capabilities():
    """Every capability this process holds: the bounding set, the ambient set, effective, permitted, inheritable."""
    for cap in range(64):
        if LIBC.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            break  # past the kernel's last capability
    check(LIBC.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0), "ambient capabilities")
    header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: all empty
    check(LIBC.syscall(SYSCALLS[platform.machine()]["capset"], header, data), "capset")


def install_seccomp(program):
    """The filter (`grader.sandbox.seccomp.filter_bytes`); nothing where it is empty."""
    if not program:
        return
    buf = ctypes.create_string_buffer(program, len(program))
    prog = SockFprog(len(program) // 8, ctypes.cast(buf, ctypes.c_void_p))
    check(LIBC.prctl(PR_SET_SECCOMP, 2, ctypes.byref(prog), 0, 0), "seccomp")  # SECCOMP_MODE_FILTER
