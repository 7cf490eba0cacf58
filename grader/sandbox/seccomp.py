"""The seccomp filter every sandboxed command runs under (classic BPF, built here, no libseccomp).

It blocks what Docker's default profile blocks for a container without extra capabilities
(moby `profiles/seccomp/default.json`): kernel keyrings (`add_key`, `keyctl`,
`request_key` — keyrings are outside every namespace, so an entry would outlive the run),
`ptrace` and `process_vm_*` (Docker allows these on kernels >= 4.8; we do not: nothing
in a sandbox may read another process's memory), `bpf`, `perf_event_open`,
`userfaultfd`, io_uring, every mount call (old and new API), `unshare`, `setns`,
`clone` with namespace flags, module loading, kexec, reboot, swap, clock and host-name
changes, NUMA policy calls, `open_by_handle_at`, and AF_ALG/AF_VSOCK sockets; and, beyond Docker, huge pages
(`HUGETLB_FLAGS`: memory no cgroup is charged for). `clone3`
gets ENOSYS so that libc falls back to `clone`, whose flags the filter can see. Every
other call is allowed; a blocked one fails with EPERM. A syscall of a foreign ABI
(x32, i386 on x86_64) fails too.

bubblewrap installs it (`--seccomp FD`) after setting up the namespaces and just before
the command runs, together with no_new_privs.
"""
from __future__ import annotations

import errno
import platform
import struct

# Syscall numbers, from the kernel headers (x86_64: asm/unistd_64.h; aarch64: asm-generic/unistd.h).
_BLOCKED = {
    "x86_64": {
        "ptrace": 101, "syslog": 103, "uselib": 134, "ustat": 136, "sysfs": 139, "vhangup": 153,
        "pivot_root": 155, "_sysctl": 156, "chroot": 161, "acct": 163, "settimeofday": 164, "mount": 165,
        "umount2": 166, "swapon": 167, "swapoff": 168, "reboot": 169, "sethostname": 170,
        "setdomainname": 171, "iopl": 172, "ioperm": 173, "create_module": 174, "init_module": 175,
        "delete_module": 176, "get_kernel_syms": 177, "query_module": 178, "quotactl": 179,
        "nfsservctl": 180, "getpmsg": 181, "putpmsg": 182, "afs_syscall": 183, "tuxcall": 184,
        "security": 185, "lookup_dcookie": 212, "clock_settime": 227, "vserver": 236, "mbind": 237,
        "set_mempolicy": 238, "get_mempolicy": 239, "kexec_load": 246, "add_key": 248, "request_key": 249,
        "keyctl": 250, "migrate_pages": 256, "unshare": 272, "move_pages": 279, "perf_event_open": 298,
        "fanotify_init": 300, "open_by_handle_at": 304, "setns": 308, "process_vm_readv": 310,
        "process_vm_writev": 311, "kcmp": 312, "finit_module": 313, "kexec_file_load": 320, "bpf": 321,
        "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
        "pidfd_getfd": 438, "process_madvise": 440, "mount_setattr": 442, "quotactl_fd": 443,
        "set_mempolicy_home_node": 450,
    },
    "aarch64": {
        "lookup_dcookie": 18, "umount2": 39, "mount": 40, "pivot_root": 41, "nfsservctl": 42, "chroot": 51,
        "vhangup": 58, "quotactl": 60, "acct": 89, "unshare": 97, "kexec_load": 104, "init_module": 105,
        "delete_module": 106, "clock_settime": 112, "syslog": 116, "ptrace": 117, "reboot": 142,
        "sethostname": 161, "setdomainname": 162, "settimeofday": 170, "add_key": 217, "request_key": 218,
        "keyctl": 219, "swapon": 224, "swapoff": 225, "mbind": 235, "get_mempolicy": 236,
        "set_mempolicy": 237, "migrate_pages": 238, "move_pages": 239, "perf_event_open": 241,
        "fanotify_init": 262, "open_by_handle_at": 265, "setns": 268, "process_vm_readv": 270,
        "process_vm_writev": 271, "kcmp": 272, "finit_module": 273, "bpf": 280, "userfaultfd": 282,
        "kexec_file_load": 294, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
        "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433,
        "pidfd_getfd": 438, "process_madvise": 440, "mount_setattr": 442, "quotactl_fd": 443,
        "set_mempolicy_home_node": 450,
    },
}
_FILTERED = {"x86_64": {"clone": 56, "clone3": 435, "personality": 135, "socket": 41, "socketpair": 53,
                        "shmget": 29, "semget": 64, "msgget": 68, "mq_open": 240, "mmap": 9, "memfd_create": 319},
             "aarch64": {"clone": 220, "clone3": 435, "personality": 92, "socket": 198, "socketpair": 199,
                         "mq_open": 180, "msgget": 186, "semget": 190, "shmget": 194, "mmap": 222,
                         "memfd_create": 279}}
# huge pages (hugetlb) are charged to no memory cgroup (v1, and v2 unless mounted with memory_hugetlb_accounting):
# on a host that reserves some, a history kept there is memory the run's peak never shows (blind hybrid attacks39).
# No run may ask for them: mmap's MAP_HUGETLB (flags, args[3]), memfd_create's MFD_HUGETLB (flags, args[1]),
# shmget's SHM_HUGETLB (shmflg, args[2]); hugetlbfs is mounted in no sandbox. Transparent huge pages are charged.
HUGETLB_FLAGS = {"mmap": (3, 0x40000), "memfd_create": (1, 0x4), "shmget": (2, 0x800)}
# what a run without sockets (a check run) may not make either: kernel objects that hold data outside the run's
# address space (blind attacks26 kept a step's history in System V message queues), whoever the kernel charges them to
NO_KERNEL_BUFFERS = ("socket", "socketpair", "msgget", "shmget", "semget", "mq_open")
_AUDIT_ARCH = {"x86_64": 0xC000003E, "aarch64": 0xC00000B7}
_X32_BIT = 0x40000000

# clone flags that make a namespace (Docker's mask 0x7E020000)
CLONE_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
PERSONALITIES = (0x0, 0x8, 0x20000, 0x20008, 0xFFFFFFFF)  # the values Docker allows
BLOCKED_FAMILIES = (38, 40)  # AF_ALG, AF_VSOCK

# classic BPF opcodes and seccomp return values
_LD_W_ABS, _JEQ_K, _JGE_K, _JSET_K, _RET_K = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW = 0x7FFF0000
_ERRNO = 0x00050000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (args[0]'s low word on little-endian)
_ARG_SIZE = 8  # args[i]'s low word is at _ARG0 + 8 i


def supported() -> bool:
    """True when this machine's architecture has a syscall table here."""
    return platform.machine() in _BLOCKED


def _insn(code: int, k: int, jt: int = 0, jf: int = 0) -> tuple[int, int, int, int]:
    return code, jt, jf, k


# what `inside/apart.py` unshares to give each check's student process a sandbox of its own
NEST_FLAGS = (0x10000000 | 0x20000000 | 0x00020000 | 0x08000000  # CLONE_NEWUSER|CLONE_NEWPID|CLONE_NEWNS|CLONE_NEWIPC
              | 0x40000000 | 0x04000000 | 0x02000000)  # |CLONE_NEWNET|CLONE_NEWUTS|CLONE_NEWCGROUP


def program(arch: str | None = None, sockets: bool = True, nest: bool = False) -> list[tuple[int, int, int, int]]:
    """The filter as (code, jt, jf, k) instructions; ``sockets=False``: no socket, socketpair, System V message
    queue, shared memory segment or semaphore set, or POSIX message queue at all (`NO_KERNEL_BUFFERS`).
    ``nest`` (a check run's outer filter): ``unshare`` of exactly `NEST_FLAGS`, ``mount``, ``pivot_root`` and
    ``umount2`` are allowed, so that the driver can give each student process namespaces and a root of its own
    (`inside/apart.py`); that process installs this module's filter without ``nest`` before any student code
    runs, so it can do none of them."""
    arch = arch or platform.machine()
    if arch not in _BLOCKED:
        raise ValueError(f"no seccomp syscall table for {arch}")
    eperm, enosys = _ERRNO | errno.EPERM, _ERRNO | errno.ENOSYS
    nr = _FILTERED[arch]
    out = [_insn(_LD_W_ABS, _ARCH), _insn(_JEQ_K, _AUDIT_ARCH[arch], 1, 0), _insn(_RET_K, eperm),
           _insn(_LD_W_ABS, _NR)]
    if arch == "x86_64":
        out += [_insn(_JGE_K, _X32_BIT, 0, 1), _insn(_RET_K, eperm)]
    if nest:  # before the blocked list: unshare (of these flags only), mount, pivot_root and umount2 pass
        out += [_insn(_JEQ_K, _BLOCKED[arch]["unshare"], 0, 4), _insn(_LD_W_ABS, _ARG0),
                _insn(_JEQ_K, NEST_FLAGS, 0, 1), _insn(_RET_K, _ALLOW), _insn(_RET_K, eperm)]
        for name in ("mount", "pivot_root", "umount2"):
            out += [_insn(_JEQ_K, _BLOCKED[arch][name], 0, 1), _insn(_RET_K, _ALLOW)]
    for number in sorted(_BLOCKED[arch].values()):
        out += [_insn(_JEQ_K, number, 0, 1), _insn(_RET_K, eperm)]
    out += [_insn(_JEQ_K, nr["clone3"], 0, 1), _insn(_RET_K, enosys)]
    # clone: refuse namespace flags (the accumulator is reloaded with the number afterwards)
    out += [_insn(_JEQ_K, nr["clone"], 0, 3), _insn(_LD_W_ABS, _ARG0),
            _insn(_JSET_K, CLONE_NAMESPACES, 0, 1), _insn(_RET_K, eperm), _insn(_LD_W_ABS, _NR)]
    # personality: only the values Docker allows
    allowed = len(PERSONALITIES)
    out += [_insn(_JEQ_K, nr["personality"], 0, allowed + 2), _insn(_LD_W_ABS, _ARG0)]
    for n, value in enumerate(PERSONALITIES):
        out.append(_insn(_JEQ_K, value, allowed - n, 0))
    out += [_insn(_RET_K, eperm), _insn(_LD_W_ABS, _NR)]
    for name, (arg, flag) in HUGETLB_FLAGS.items():  # no huge pages (the accumulator reloaded with the number)
        out += [_insn(_JEQ_K, nr[name], 0, 3), _insn(_LD_W_ABS, _ARG0 + _ARG_SIZE * arg),
                _insn(_JSET_K, flag, 0, 1), _insn(_RET_K, eperm), _insn(_LD_W_ABS, _NR)]
    if not sockets:  # a check run: kernel socket buffers are memory a cgroup v1 host does not charge to it, and
        for name in NO_KERNEL_BUFFERS:  # message queues, SysV shared memory and semaphores hold data outside it
            out += [_insn(_JEQ_K, nr[name], 0, 1), _insn(_RET_K, eperm)]
    # socket: no AF_ALG, no AF_VSOCK
    families = len(BLOCKED_FAMILIES)
    out += [_insn(_JEQ_K, nr["socket"], 0, families + 3), _insn(_LD_W_ABS, _ARG0)]
    for n, family in enumerate(BLOCKED_FAMILIES):
        out.append(_insn(_JEQ_K, family, families - n, 0))
    out += [_insn(_RET_K, _ALLOW), _insn(_RET_K, eperm)]
    out.append(_insn(_RET_K, _ALLOW))
    return out


def filter_bytes(arch: str | None = None, sockets: bool = True, nest: bool = False) -> bytes:
    """The filter as the array of `struct sock_filter` that `bwrap --seccomp FD` reads."""
    return b"".join(struct.pack("=HBBI", *insn) for insn in program(arch, sockets, nest))
