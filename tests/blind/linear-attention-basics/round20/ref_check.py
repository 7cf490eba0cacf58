"""Probe every case folder against naive float64 references (explicit loops) and base/.

    OMP_NUM_THREADS=1 /work/main/.venv/bin/python ref_check.py [case ...]

Per case prints the probe groups that fail (named after the rubric items they bear on) and, for alternatives,
how many outputs differ from base's by more than 1e-12 (float64) or in dtype (float32).
"""
import importlib.util
import math
import sys
from pathlib import Path

import torch
from torch.utils._python_dispatch import TorchDispatchMode

HERE = Path(__file__).resolve().parent
torch.set_default_dtype(torch.float32)
F64 = torch.float64


def load(name):
    spec = importlib.util.spec_from_file_location(f"la_{name}", HERE / name / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def phi(x):
    return torch.nn.functional.elu(x) + 1                        # the module's φ, evaluated the same way


def lin_ref(Q, K, V):
    L = Q.shape[-2]
    out = []
    for i in range(L):
        num = 0
        den = 0
        for j in range(i + 1):
            s = (phi(Q[..., i, :]) * phi(K[..., j, :])).sum(-1, keepdim=True)
            num = num + s * V[..., j, :]
            den = den + s
        out.append(num / den)
    return torch.stack(out, -2)


def gated_ref(Q, K, V, A):
    """o_t = Σ_{s<=t} (A_{s+1}⋯A_t)(q_t·k_s) v_s, A: (..., L)."""
    L = Q.shape[-2]
    out = []
    for t in range(L):
        acc = 0
        for s in range(t + 1):
            w = torch.ones((), dtype=F64)
            for r in range(s + 1, t + 1):
                w = w * A[..., r]
            acc = acc + (w[..., None] if torch.is_tensor(w) and w.dim() else w) * (Q[..., t, :] * K[..., s, :]).sum(-1, keepdim=True) * V[..., s, :]
        out.append(acc)
    return torch.stack(out, -2)


def ret_ref(Q, K, V, gamma):
    g = torch.as_tensor(gamma, dtype=F64)
    A = g[..., None].expand(*g.shape, Q.shape[-2])
    return gated_ref(Q, K, V, A)


def state_ref(K, V, gamma):
    L = K.shape[-2]
    w = torch.tensor([gamma ** (L - 1 - s) for s in range(L)], dtype=F64)
    return (K * w[:, None]).transpose(-2, -1) @ V


def qkv(lead, L, m, d_v, seed, dtype=F64):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(*lead, L, d, generator=g, dtype=dtype) for d in (m, m, d_v))


def by_steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], -2)


def close(a, b, tol=1e-9):
    return torch.is_tensor(a) and a.shape == b.shape and a.dtype == b.dtype and bool(torch.allclose(a, b, rtol=tol, atol=tol))


SHAPES = [((), 5, 4, 3), ((2,), 7, 3, 5), ((2, 3), 6, 4, 4), ((), 1, 3, 2), ((3,), 1, 2, 4)]
GAMMAS = [0.0, 0.5, 0.9, 1.0]


class Watch(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.biggest = 0
        self.total = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for o in (out if isinstance(out, (tuple, list)) else (out,)):
            if torch.is_tensor(o):
                self.biggest = max(self.biggest, o.numel())
                self.total += o.numel()
        return out


def cost(fn, L):
    Q, K, V = qkv((), L, 4, 4, 99)
    w = Watch()
    with w:
        fn(Q, K, V)
    return w.biggest, w.total


def groups(la):
    """name -> list of (probe label, ok)."""
    G = {}

    def rec(group, label, fn):
        try:
            ok = bool(fn())
        except Exception as e:  # noqa: BLE001
            ok = False
            label += f" [{type(e).__name__}]"
        G.setdefault(group, []).append((label, ok))

    lin = {"linear_parallel": la.linear_attention_parallel, "linear_recurrent": la.linear_attention_recurrent,
           "state_step": lambda Q, K, V: by_steps(la, Q, K, V)}
    for name, f in lin.items():
        for i, (lead, L, m, d_v) in enumerate(SHAPES):
            Q, K, V = qkv(lead, L, m, d_v, 10 + i)
            rec(name, f"{name} {lead} L={L}", lambda: close(f(Q, K, V), lin_ref(Q, K, V)))
        Q, K, V = qkv((), 6, 3, 2, 3)
        Vc = torch.tensor([1.0, -2.0], dtype=F64).expand(6, 2)
        rec("normalizer", f"{name} constant values", lambda: close(f(Q - 2, K - 2, Vc), Vc.contiguous()))
        Q, K, V = qkv((2,), 1, 3, 4, 2)
        rec("update_before_read", f"{name} one token", lambda: close(f(Q, K, V), V))
        Q, K, V = qkv((), 6, 3, 2, 5)
        rec("feature_map", f"{name} very negative", lambda: close(f(Q - 30, K - 30, V), lin_ref(Q - 30, K - 30, V)))
        Q, K, V = qkv((), 7, 3, 3, 6)
        rec("feature_map", f"{name} positive shift", lambda: close(f(Q + 2, K + 2, V), lin_ref(Q + 2, K + 2, V)))
        Q, K, V = qkv((2,), 9, 4, 3, 4)
        Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
        for a in (Q2, K2, V2):
            a[..., 5:, :] = 10 * torch.randn(a[..., 5:, :].shape, generator=torch.Generator().manual_seed(1), dtype=F64)
        rec("causal_mask", f"{name} causal", lambda: close(f(Q, K, V)[..., :5, :], f(Q2, K2, V2)[..., :5, :], 1e-12))
        Q, K, V = qkv((2,), 6, 4, 3, 7, torch.float32)
        rec("keeps_dtype", f"{name} float32", lambda: f(Q, K, V).dtype == torch.float32)
    # running normalizer: a late huge key must not change early rows (covered by causal) and rows use z_i
    Q, K, V = qkv((), 6, 3, 2, 8)

    def st_attrs():
        st = la.LinearAttentionState(3, 2)
        for t in range(6):
            st.step(Q[t], K[t], V[t])
        Sref = phi(K).transpose(-2, -1) @ V
        return close(st.S, Sref) and close(st.z, phi(K).sum(-2))
    rec("kv_orientation", "step S = Σ φ(k) vᵀ (m, d_v), z", st_attrs)

    def indep():
        a, b = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
        Q2, K2, V2 = qkv((), 6, 3, 2, 9)
        ya, yb = [], []
        for t in range(6):
            ya.append(a.step(Q[t], K[t], V[t]))
            yb.append(b.step(Q2[t], K2[t], V2[t]))
        return close(torch.stack(ya), lin_ref(Q, K, V)) and close(torch.stack(yb), lin_ref(Q2, K2, V2))
    rec("independent_states", "two interleaved states", indep)

    ret = {"retention_parallel": la.retention_parallel, "retention_recurrent": la.retention_recurrent,
           "retention_chunkwise": lambda Q, K, V, g: la.retention_chunkwise(Q, K, V, g, 3)}
    for name, f in ret.items():
        for i, (lead, L, m, d_v) in enumerate(SHAPES):
            for gm in GAMMAS:
                Q, K, V = qkv(lead, L, m, d_v, 20 + i)
                rec(name, f"{name} {lead} L={L} γ={gm}", lambda: close(f(Q, K, V, gm), ret_ref(Q, K, V, gm)))
        Q, K, V = qkv((2, 3), 9, 4, 3, 7)
        gh = torch.tensor([0.0, 0.5, 1.0], dtype=F64)
        rec(name, f"{name} per-head γ", lambda: close(f(Q, K, V, gh), ret_ref(Q, K, V, gh)))
        Q, K, V = qkv((), 8, 3, 3, 30)
        rec("decay_every_form", f"{name} γ=0.7", lambda: close(f(Q, K, V, 0.7), ret_ref(Q, K, V, 0.7)))
        for bad in (1.5, -0.1, float("nan"), torch.tensor([0.5, 1.5]), torch.tensor(-0.1)):
            def raises():
                try:
                    f(*qkv((), 4, 3, 3, 0), bad)
                except ValueError:
                    return True
                return False
            rec("gamma_validation", f"{name} rejects {bad}", raises)
        for gm in (0.0, 1.0):
            Q, K, V = qkv((), 6, 3, 2, 9)
            rec("gamma_validation", f"{name} edge γ={gm}", lambda: close(f(Q, K, V, gm), ret_ref(Q, K, V, gm)))
        Q, K, V = qkv((2,), 9, 4, 3, 4)
        Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
        for a in (Q2, K2, V2):
            a[..., 5:, :] = 7.0
        rec("causal_mask", f"{name} causal", lambda: close(f(Q, K, V, 0.9)[..., :5, :], f(Q2, K2, V2, 0.9)[..., :5, :], 1e-12))
        Q, K, V = qkv((2,), 6, 4, 3, 7, torch.float32)
        rec("keeps_dtype", f"{name} float32", lambda: f(Q, K, V, 0.9).dtype == torch.float32)
    for L in (9, 8, 1):
        for B in (1, 2, 3, 4, 5, 8, 9, 12):
            for gm in (0.0, 0.7, 1.0):
                Q, K, V = qkv((2,), L, 4, 3, 40 + L)
                grp = "chunk_boundaries" if L > 1 else "retention_chunkwise"
                rec(grp, f"chunk L={L} B={B} γ={gm}",
                    lambda: close(la.retention_chunkwise(Q, K, V, gm, B), ret_ref(Q, K, V, gm)))
                Qs, Ks, Vs = Q[0], K[0], V[0]
                grp = "partial_chunk_state" if L % B else "retention_chunkwise_state"
                rec(grp, f"state L={L} B={B} γ={gm}",
                    lambda: close(la.retention_chunkwise(Qs, Ks, Vs, gm, B, return_state=True)[1], state_ref(Ks, Vs, gm)))
    rec("multiscale", "multiscale(4) values", lambda: torch.allclose(la.multiscale_decays(4).double(), torch.tensor(
        [1 - 2.0 ** (-5 - h) for h in range(4)], dtype=F64), rtol=0, atol=1e-7) and la.multiscale_decays(4).shape == (4,))
    rec("multiscale", "multiscale(6) dtype", lambda: la.multiscale_decays(6).dtype == torch.get_default_dtype())
    # unified
    for i, (lead, L, m, d_v) in enumerate(SHAPES[:3]):
        Q, K, V = qkv(lead, L, m, d_v, 50 + i)
        rec("unified_modes", f"linear {lead}", lambda: close(la.unified_recurrence(Q, K, V, "linear"), ret_ref(Q, K, V, 1.0)))
        rec("unified_modes", f"retention {lead}", lambda: close(la.unified_recurrence(Q, K, V, "retention", gamma=0.6), ret_ref(Q, K, V, 0.6)))
        gate = torch.rand(L, generator=torch.Generator().manual_seed(i), dtype=F64)
        gate[min(2, L - 1)] = 0.0
        rec("unified_modes", f"gated (L,) {lead}", lambda: close(la.unified_recurrence(Q, K, V, "gated", gate=gate), gated_ref(Q, K, V, gate.expand(*lead, L))))
    Q, K, V = qkv((2, 3), 6, 4, 3, 60)
    gh = torch.tensor([0.2, 0.5, 1.0], dtype=F64)
    rec("unified_modes", "retention per head", lambda: close(la.unified_recurrence(Q, K, V, "retention", gamma=gh), ret_ref(Q, K, V, gh)))
    gb = torch.rand(2, 3, 6, generator=torch.Generator().manual_seed(5), dtype=F64)
    rec("unified_modes", "gated (..., L)", lambda: close(la.unified_recurrence(Q, K, V, "gated", gate=gb), gated_ref(Q, K, V, gb)))
    for kw in ({"mode": "softmax"}, {"mode": "Linear"}, {"mode": "retention"}, {"mode": "gated"}):
        def rj():
            try:
                la.unified_recurrence(*qkv((), 4, 3, 3, 0), **kw)
            except ValueError:
                return True
            return False
        rec("unified_modes", f"rejects {kw}", rj)
    Q, K, V = qkv((2,), 6, 4, 3, 7, torch.float32)
    for kw in ({"mode": "linear"}, {"mode": "retention", "gamma": 0.9}, {"mode": "gated", "gate": torch.full((6,), 0.5)}):
        rec("keeps_dtype", f"unified float32 {kw['mode']}", lambda: la.unified_recurrence(Q, K, V, **kw).dtype == torch.float32)
    # cost
    costs = {"recurrent_cost": [la.linear_attention_recurrent, lambda Q, K, V: la.retention_recurrent(Q, K, V, 0.9),
                                lambda Q, K, V: by_steps(la, Q, K, V)],
             "chunkwise_memory": [lambda Q, K, V: la.retention_chunkwise(Q, K, V, 0.9, 8)]}
    for grp, fns in costs.items():
        for k, fn in enumerate(fns):
            def cheap():
                b1, t1 = cost(fn, 256)
                b2, t2 = cost(fn, 512)
                return b2 < 512 * 512 / 8 and t2 / t1 < 2.6
            rec(grp, f"{grp} #{k}", cheap)
    return G


def outputs(la):
    """Every public output on many probes, for alternative-vs-base comparison."""
    outs = []

    def add(fn):
        try:
            r = fn()
        except Exception as e:  # noqa: BLE001
            r = type(e).__name__
        outs.append(r)
    for dt in (F64, torch.float32):
        for i, (lead, L, m, d_v) in enumerate(SHAPES + [((2,), 0, 3, 2), ((1, 2), 12, 5, 3)]):
            Q, K, V = qkv(lead, L, m, d_v, 70 + i, dt)
            add(lambda: la.linear_attention_parallel(Q, K, V))
            add(lambda: la.linear_attention_recurrent(Q, K, V))
            if L:
                add(lambda: by_steps(la, Q, K, V))
            for gm in GAMMAS + ([torch.linspace(0, 1, lead[-1], dtype=dt)] if lead else []):
                add(lambda: la.retention_parallel(Q, K, V, gm))
                add(lambda: la.retention_recurrent(Q, K, V, gm))
                for B in range(1, 14):
                    add(lambda: la.retention_chunkwise(Q, K, V, gm, B, return_state=True))
                add(lambda: la.unified_recurrence(Q, K, V, "retention", gamma=gm))
            add(lambda: la.unified_recurrence(Q, K, V, "linear"))
            add(lambda: la.unified_recurrence(Q, K, V, "gated", gate=torch.rand(*lead, L, generator=torch.Generator().manual_seed(3), dtype=dt)))
            add(lambda: la.as_gamma(0.3, Q))
            add(lambda: la.decay_matrix(la.as_gamma(torch.tensor([0.0, 0.4, 1.0]), Q), max(L, 1)))
        Q = torch.zeros(2, 2, dtype=dt)
        for bad in (1.5, -0.1, float("nan"), torch.tensor([0.5, 1.5])):
            add(lambda: la.as_gamma(bad, Q))
        st = la.LinearAttentionState(3, 2)
        Q, K, V = qkv((2,), 4, 3, 2, 90, dt)
        for t in range(4):
            add(lambda: st.step(Q[..., t, :], K[..., t, :], V[..., t, :]))
        outs.extend([st.S, st.z])
    for h in (1, 4, 8):
        add(lambda: la.multiscale_decays(h))
    return outs


def same(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if not torch.is_tensor(a) or not torch.is_tensor(b):
        return a == b
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if a.dtype == F64:
        return bool(torch.allclose(a, b, rtol=1e-12, atol=1e-12, equal_nan=True))
    return bool(torch.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True))


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "linear_attention.py").exists())
    base_out = outputs(load("base"))
    for n in names:
        try:
            la = load(n)
        except Exception as e:  # noqa: BLE001
            print(f"{n}: import failed {e!r}")
            continue
        G = groups(la)
        bad = {g: sum(not ok for _, ok in v) for g, v in G.items() if any(not ok for _, ok in v)}
        total = sum(len(v) for v in G.values())
        line = f"{n}: {total - sum(bad.values())}/{total} probes ok; failing groups: " + \
            (", ".join(f"{g}({c})" for g, c in bad.items()) or "none")
        if n.startswith("alt_") or n == "base":
            o = outputs(la)
            diff = sum(not same(a, b) for a, b in zip(o, base_out))
            line += f"; {diff}/{len(o)} outputs differ from base"
        print(line, flush=True)
