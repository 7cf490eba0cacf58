"""Naive float64 references (explicit sums over j <= i) and probes for one case folder's linear_attention.py.

    /work/main/.venv/bin/python ref_check.py CASE_FOLDER [...]   # prints, per folder, the probes that differ
"""
import importlib.util
import math
import sys
from pathlib import Path

import torch
from torch.utils._python_dispatch import TorchDispatchMode

torch.set_num_threads(1)
F64 = torch.float64


def phi(x):
    return torch.where(x > 0, x + 1, torch.exp(x))


def lin_ref(Q, K, V):
    L = Q.shape[-2]
    out = []
    for i in range(L):
        num, den = 0, 0
        for j in range(i + 1):
            w = (phi(Q[..., i, :]) * phi(K[..., j, :])).sum(-1, keepdim=True)
            num = num + w * V[..., j, :]
            den = den + w
        out.append(num / den)
    return torch.stack(out, -2)


def uni_ref(Q, K, V, A):
    """o_t = Σ_{s<=t} (A_{s+1} ⋯ A_t) (q_t·k_s) v_s; A: (..., L)."""
    L = Q.shape[-2]
    out = []
    for t in range(L):
        acc = 0
        for s in range(t + 1):
            w = torch.ones_like(A[..., 0])
            for r in range(s + 1, t + 1):
                w = w * A[..., r]
            acc = acc + (w[..., None] * (Q[..., t, :] * K[..., s, :]).sum(-1, keepdim=True)) * V[..., s, :]
        out.append(acc)
    return torch.stack(out, -2)


def ret_ref(Q, K, V, g):
    g = torch.as_tensor(g, dtype=F64)
    L = Q.shape[-2]
    return uni_ref(Q, K, V, g[..., None].expand(*g.shape, L))


def qkv(lead, L, m, d_v, seed=0, dtype=F64, shift=0.0):
    gen = torch.Generator().manual_seed(seed)
    return tuple((torch.randn(*lead, L, n, generator=gen, dtype=F64) + shift).to(dtype) for n in (m, m, d_v))


def load(folder):
    spec = importlib.util.spec_from_file_location(f"la_{Path(folder).name}", Path(folder) / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class MaxTensor(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.max = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for o in (out if isinstance(out, (tuple, list)) else [out]):
            if isinstance(o, torch.Tensor):
                self.max = max(self.max, o.numel())
        return out


def probes(la):
    res = {}

    def check(name, fn):
        try:
            ok = fn()
            res[name] = "ok" if ok else "DIFF"
        except Exception as e:  # noqa: BLE001
            res[name] = f"ERR {type(e).__name__}: {str(e)[:60]}"

    def close(a, b, tol=1e-9):
        return a.shape == b.shape and a.dtype == b.dtype and torch.allclose(a, b, rtol=tol, atol=tol)

    def steps(Q, K, V):
        st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
        return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], -2)

    lin = {"lin_par": la.linear_attention_parallel, "lin_rec": la.linear_attention_recurrent, "step": steps}
    shapes = [((), 5, 4, 3), ((2,), 7, 3, 5), ((2, 3), 6, 4, 4), ((), 1, 3, 2), ((3,), 6, 4, 4)]
    for nm, f in lin.items():
        for k, sh in enumerate(shapes):
            Q, K, V = qkv(*sh, seed=k)
            check(f"{nm}/shape{k}", lambda: close(f(Q, K, V), lin_ref(Q, K, V)))
        Q, K, V = qkv((2,), 6, 3, 2, seed=9, shift=-6.0)
        check(f"{nm}/very_negative", lambda: close(f(Q, K, V), lin_ref(Q, K, V), 1e-7))
        Q, K, V = qkv((2,), 6, 4, 3, seed=9, dtype=torch.float32)
        check(f"{nm}/float32", lambda: (lambda y: y.dtype == torch.float32 and torch.allclose(
            y.double(), lin_ref(Q.double(), K.double(), V.double()), atol=1e-4))(f(Q, K, V)))
        Q, K, V = qkv((2,), 9, 4, 3, seed=4)
        Q2, K2, V2 = (a.clone() for a in (Q, K, V))
        for a in (Q2, K2, V2):
            a[..., 5:, :] += 7
        check(f"{nm}/causal", lambda: torch.allclose(f(Q, K, V)[..., :5, :], f(Q2, K2, V2)[..., :5, :]))

    def two_states():
        Q, K, V = qkv((), 4, 3, 2, seed=12)
        s1, s2 = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
        a = [s1.step(Q[t], K[t], V[t]) for t in range(4)]
        b = [s2.step(Q[t], K[t], V[t]) for t in range(4)]
        return all(torch.allclose(x, y) for x, y in zip(a, b)) and close(torch.stack(a), lin_ref(Q, K, V))
    check("step/independent", two_states)

    # retention
    ret = {"ret_par": la.retention_parallel, "ret_rec": la.retention_recurrent,
           "ret_chunk4": lambda Q, K, V, g: la.retention_chunkwise(Q, K, V, g, 4),
           "uni_ret": lambda Q, K, V, g: la.unified_recurrence(Q, K, V, "retention", gamma=g)}
    rshapes = [((), 6, 4, 3), ((2, 3), 7, 4, 3), ((2,), 9, 3, 5), ((3,), 5, 4, 4)]
    for nm, f in ret.items():
        for gm in (0.0, 0.5, 0.9, 1.0):
            for k, sh in enumerate(rshapes):
                Q, K, V = qkv(*sh, seed=20 + k)
                check(f"{nm}/g{gm}/shape{k}", lambda: close(f(Q, K, V, gm), ret_ref(Q, K, V, gm)))
        Q, K, V = qkv((2, 3), 9, 4, 3, seed=30)
        gh = torch.tensor([0.0, 0.6, 1.0], dtype=F64)
        check(f"{nm}/per_head", lambda: close(f(Q, K, V, gh), ret_ref(Q, K, V, gh)))
        for bad in (1.5, -0.1, float("nan")):
            def raises(bad=bad):
                try:
                    f(*qkv((), 4, 3, 3, seed=31), bad)
                except ValueError:
                    return True
                return False
            check(f"{nm}/rejects_{bad}", raises)
        Q, K, V = qkv((2,), 6, 4, 3, seed=32, dtype=torch.float32)
        check(f"{nm}/float32", lambda: (lambda y: y.dtype == torch.float32 and torch.allclose(
            y.double(), ret_ref(Q.double(), K.double(), V.double(), 0.9), atol=1e-4))(f(Q, K, V, 0.9)))
        Q, K, V = qkv((2,), 9, 4, 3, seed=33)
        Q2, K2, V2 = (a.clone() for a in (Q, K, V))
        for a in (Q2, K2, V2):
            a[..., 5:, :] += 7
        check(f"{nm}/causal", lambda: torch.allclose(f(Q, K, V, 0.9)[..., :5, :], f(Q2, K2, V2, 0.9)[..., :5, :]))

    for L in (9, 8, 1):
        for cs in (1, 2, 3, 4, 5, 8, 9, 12):
            for gm in (0.0, 0.7, 1.0):
                Q, K, V = qkv((2,), L, 4, 3, seed=40 + L)
                def chunk_ok(L=L, cs=cs, gm=gm, Q=Q, K=K, V=V):
                    out, R = la.retention_chunkwise(Q, K, V, gm, cs, return_state=True)
                    w = torch.tensor([gm ** (L - 1 - m) for m in range(L)], dtype=F64)
                    Rw = (K * w[:, None]).transpose(-2, -1) @ V
                    return close(out, ret_ref(Q, K, V, gm)) and close(R, Rw)
                check(f"chunk/L{L}/cs{cs}/g{gm}", chunk_ok)

    # as_gamma, decay_matrix, multiscale
    like = torch.zeros(2, dtype=torch.float32)
    check("as_gamma/float", lambda: (lambda g: g.shape == (1, 1) and g.dtype == torch.float32)(la.as_gamma(0.5, like)))
    check("as_gamma/heads", lambda: la.as_gamma(torch.tensor([0.0, 1.0]), like).shape == (2, 1, 1))
    for gm in (0.0, 0.3, 1.0):
        def dm_ok(gm=gm):
            D = la.decay_matrix(la.as_gamma(gm, torch.zeros(1, dtype=F64)), 5)
            want = torch.tensor([[gm ** (n - m) if m <= n else 0.0 for m in range(5)] for n in range(5)], dtype=F64)
            return close(D, want)
        check(f"decay/g{gm}", dm_ok)
    check("multiscale", lambda: (lambda g: g.dtype == torch.get_default_dtype() and torch.allclose(
        g.double(), torch.tensor([1 - 2.0 ** (-5 - h) for h in range(6)], dtype=F64)))(la.multiscale_decays(6)))

    # unified
    Q, K, V = qkv((2,), 7, 4, 3, seed=50)
    check("uni/linear", lambda: close(la.unified_recurrence(Q, K, V, "linear"), ret_ref(Q, K, V, 1.0)))
    gate = torch.tensor([0.1, 0.95, 0.0, 0.5, 1.0, 0.3, 0.8], dtype=F64)
    check("uni/gated_L", lambda: close(la.unified_recurrence(Q, K, V, "gated", gate=gate), uni_ref(Q, K, V, gate)))
    gate2 = torch.rand(2, 7, generator=torch.Generator().manual_seed(3), dtype=F64)
    check("uni/gated_BL", lambda: close(la.unified_recurrence(Q, K, V, "gated", gate=gate2), uni_ref(Q, K, V, gate2)))
    for mode, kw in (("softmax", {}), ("retention", {}), ("gated", {})):
        def rej(mode=mode, kw=kw):
            try:
                la.unified_recurrence(Q, K, V, mode, **kw)
            except ValueError:
                return True
            return False
        check(f"uni/rejects_{mode}", rej)

    # cost: the largest tensor any op makes at L = 512 must stay far below L²
    L = 512
    Q, K, V = qkv((), L, 4, 3, seed=60)
    for nm, f in (("lin_rec", la.linear_attention_recurrent), ("step", steps),
                  ("ret_rec", lambda Q, K, V: la.retention_recurrent(Q, K, V, 0.9)),
                  ("chunk8", lambda Q, K, V: la.retention_chunkwise(Q, K, V, 0.9, 8))):
        def cost_ok(f=f):
            with MaxTensor() as mt:
                f(Q, K, V)
            return mt.max < L * L // 8
        check(f"cost/{nm}", cost_ok)
    return res


if __name__ == "__main__":
    for folder in sys.argv[1:]:
        la = load(folder)
        res = probes(la)
        bad = {k: v for k, v in res.items() if v != "ok"}
        print(f"{Path(folder).name}: {len(res) - len(bad)}/{len(res)} ok")
        for k, v in list(bad.items())[:12]:
            print(f"   {k}: {v}")
        if len(bad) > 12:
            print(f"   ... {len(bad) - 12} more")
