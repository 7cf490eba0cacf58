# attack: kernel objects outlive namespaces (keyrings) or reach other processes (ptrace)
import ctypes as _ctypes, os as _os, platform as _platform

_NR = {"x86_64": {"add_key": 248, "keyctl": 250, "request_key": 249, "ptrace": 101, "unshare": 272,
                  "mount": 165, "bpf": 321, "userfaultfd": 323, "io_uring_setup": 425, "setns": 308},
       "aarch64": {"add_key": 217, "keyctl": 219, "request_key": 218, "ptrace": 117, "unshare": 97,
                   "mount": 40, "bpf": 280, "userfaultfd": 282, "io_uring_setup": 425, "setns": 268}}
_nr = _NR.get(_platform.machine(), {})
_libc = _ctypes.CDLL(None, use_errno=True)
_params = _ctypes.create_string_buffer(120)
_calls = {
    "add_key": (b"user", b"lrkit-adversarial", b"left by a submission", 20, -4),  # KEY_SPEC_USER_KEYRING
    "request_key": (b"user", b"lrkit-adversarial", None, 0),
    "keyctl": (0, -4, 0),  # KEYCTL_GET_KEYRING_ID of the user keyring
    "ptrace": (16, _os.getppid(), 0, 0),  # PTRACE_ATTACH
    "unshare": (0x10000000,),  # CLONE_NEWUSER
    "mount": (b"none", b"/tmp", b"tmpfs", 0, None),
    "bpf": (0, None, 0),
    "userfaultfd": (0,),
    "io_uring_setup": (4, _params),
    "setns": (0, 0),
}
_got = []
for _name, _args in _calls.items():
    if _name in _nr and _libc.syscall(_nr[_name], *_args) >= 0:
        _got.append(_name)
if _got:
    _message = "KERNEL-OBJECT " + " ".join(_got)

    def linear_attention_parallel(Q, K, V):
        raise RuntimeError(_message)
