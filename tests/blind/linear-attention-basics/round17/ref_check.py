"""Probe a case's linear_attention.py against naive float64 references written from the docstrings
(explicit sums over j <= i), and list the probes that differ.

    /work/main/.venv/bin/python ref_check.py CASE_FOLDER [CASE_FOLDER ...]
"""
import importlib.util
import math
import sys
from pathlib import Path

import torch
from torch.utils._python_dispatch import TorchDispatchMode

torch.set_default_dtype(torch.float32)
F64 = torch.float64


# ----------------------------------------------------------------------------- references (float64, loops)

def phi(x):
    return torch.where(x > 0, x + 1, torch.exp(x))


def ref_linear(Q, K, V):
    Q, K, V = Q.double(), K.double(), V.double()
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    Q, K, V = (t.expand(*lead, *t.shape[-2:]) for t in (Q, K, V))
    out = torch.zeros(*lead, Q.shape[-2], V.shape[-1], dtype=F64)
    for i in range(Q.shape[-2]):
        num = torch.zeros(*lead, V.shape[-1], dtype=F64)
        den = torch.zeros(*lead, 1, dtype=F64)
        for j in range(i + 1):
            a = (phi(Q[..., i, :]) * phi(K[..., j, :])).sum(-1, keepdim=True)
            num = num + a * V[..., j, :]
            den = den + a
        out[..., i, :] = num / den
    return out


def ref_gated(Q, K, V, A):
    """y_t = Σ_{s<=t} (A_{s+1}...A_t) (q_t·k_s) v_s, A: (..., L) broadcastable."""
    Q, K, V = Q.double(), K.double(), V.double()
    A = torch.as_tensor(A, dtype=F64)
    L = Q.shape[-2]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], A.shape[:-1])
    out = torch.zeros(*lead, L, V.shape[-1], dtype=F64)
    for t in range(L):
        acc = torch.zeros(*lead, V.shape[-1], dtype=F64)
        for s in range(t + 1):
            w = torch.ones(A.shape[:-1], dtype=F64)
            for r in range(s + 1, t + 1):
                w = w * A[..., r]
            acc = acc + (w[..., None] * (Q[..., t, :] * K[..., s, :]).sum(-1, keepdim=True)) * V[..., s, :]
        out[..., t, :] = acc
    return out


def ref_retention(Q, K, V, gamma):
    g = torch.as_tensor(gamma, dtype=F64)
    A = g[..., None].expand(*g.shape, Q.shape[-2])
    return ref_gated(Q, K, V, A)


def ref_state(K, V, gamma):
    g = torch.as_tensor(gamma, dtype=F64)
    L = K.shape[-2]
    w = g[..., None] ** torch.arange(L - 1, -1, -1, dtype=F64)       # (..., L)
    return (K.double() * w[..., :, None]).transpose(-2, -1) @ V.double()


def qkv(lead, L, m, d_v, seed, dtype=F64, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(*lead, L, n, generator=g, dtype=dtype) + shift for n in (m, m, d_v))


# ----------------------------------------------------------------------------- probes

def close(a, b, tol=1e-7):
    if not isinstance(a, torch.Tensor) or a.shape != b.shape:
        return False
    return torch.allclose(a.double(), b.double(), rtol=tol, atol=tol)


def by_steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


class MaxNumel(TorchDispatchMode):
    """The largest tensor any op makes, and the work: the numbers read by every non-view op."""

    def __init__(self):
        super().__init__()
        self.max = 0
        self.work = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for o in (out if isinstance(out, (tuple, list)) else [out]):
            if isinstance(o, torch.Tensor):
                self.max = max(self.max, o.numel())
        if not getattr(func, "is_view", False):
            self.work += sum(a.numel() for a in args if isinstance(a, torch.Tensor))
        return out


def raises(fn, exc=ValueError):
    try:
        fn()
    except exc:
        return True
    except Exception:  # noqa: BLE001
        return False
    return False


def probes(la):
    P = {}

    def probe(name, fn):
        try:
            P[name] = bool(fn())
        except Exception as e:  # noqa: BLE001
            P[name] = False
            P.setdefault("_errors", []).append(f"{name}: {type(e).__name__}: {str(e)[:80]}")

    lin_forms = {"par": la.linear_attention_parallel, "rec": la.linear_attention_recurrent,
                 "step": lambda Q, K, V: by_steps(la, Q, K, V)}
    shapes = [((), 6, 4, 3), ((2,), 5, 3, 5), ((2, 3), 4, 2, 6), ((2,), 1, 3, 4), ((), 9, 5, 2)]
    for f, fn in lin_forms.items():
        for i, (lead, L, m, d_v) in enumerate(shapes):
            Q, K, V = qkv(lead, L, m, d_v, 100 + i)
            probe(f"lin_{f}_shape{i}", lambda fn=fn, Q=Q, K=K, V=V: close(fn(Q, K, V), ref_linear(Q, K, V)))
        Q, K, V = qkv((), 6, 3, 2, 7, shift=-6.0)                      # very negative q, k
        probe(f"lin_{f}_negative", lambda fn=fn, Q=Q, K=K, V=V: close(fn(Q, K, V), ref_linear(Q, K, V), 1e-6))
        Q, K, V = qkv((), 5, 3, 2, 8)
        Q = Q * 3
        probe(f"lin_{f}_large", lambda fn=fn, Q=Q, K=K, V=V: close(fn(Q, K, V), ref_linear(Q, K, V)))
        Q, K, V = qkv((2,), 6, 4, 3, 9, dtype=torch.float32)
        probe(f"lin_{f}_f32", lambda fn=fn, Q=Q, K=K, V=V: (lambda y: y.dtype == torch.float32
                                                              and close(y, ref_linear(Q, K, V), 1e-4))(fn(Q, K, V)))
        Q, K, V = qkv((), 8, 3, 3, 10)
        def causal(fn=fn, Q=Q, K=K, V=V):
            Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
            for a in (Q2, K2, V2):
                a[5:] = 7 * torch.randn(3, a.shape[-1], dtype=F64)
            return torch.equal(fn(Q, K, V)[:5], fn(Q2, K2, V2)[:5])
        probe(f"lin_{f}_causal", causal)

    # independent states and state layout
    def indep():
        a, b = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
        Q, K, V = qkv((), 4, 3, 2, 11)
        for t in range(4):
            a.step(Q[t], K[t], V[t])
        y = b.step(Q[0], K[0], V[0])
        return close(y, V[0])
    probe("state_independent", indep)

    def layout():
        st = la.LinearAttentionState(4, 2)
        Q, K, V = qkv((), 3, 4, 2, 12)
        for t in range(3):
            st.step(Q[t], K[t], V[t])
        S = torch.as_tensor(st.S)
        return S.shape == (4, 2) and close(S, phi(K).T @ V)
    probe("state_layout_kvT", layout)

    # retention
    ret_forms = {"par": lambda Q, K, V, g: la.retention_parallel(Q, K, V, g),
                 "rec": lambda Q, K, V, g: la.retention_recurrent(Q, K, V, g),
                 "chunk3": lambda Q, K, V, g: la.retention_chunkwise(Q, K, V, g, 3),
                 "uni": lambda Q, K, V, g: la.unified_recurrence(Q, K, V, "retention", gamma=g)}
    for f, fn in ret_forms.items():
        for gm in (0.0, 0.3, 0.9, 1.0):
            for i, (lead, L, m, d_v) in enumerate(shapes[:4]):
                Q, K, V = qkv(lead, L, m, d_v, 200 + i)
                probe(f"ret_{f}_g{gm}_shape{i}",
                      lambda fn=fn, Q=Q, K=K, V=V, gm=gm: close(fn(Q, K, V, gm), ref_retention(Q, K, V, gm)))
        Q, K, V = qkv((2, 3), 7, 4, 3, 13)
        gh = torch.tensor([0.0, 0.5, 0.95], dtype=F64)
        probe(f"ret_{f}_per_head", lambda fn=fn, Q=Q, K=K, V=V: close(fn(Q, K, V, gh), ref_retention(Q, K, V, gh)))
        Q, K, V = qkv((2,), 6, 4, 3, 14, dtype=torch.float32)
        probe(f"ret_{f}_f32", lambda fn=fn, Q=Q, K=K, V=V: (lambda y: y.dtype == torch.float32 and
                                                             close(y, ref_retention(Q, K, V, 0.9), 1e-4))(fn(Q, K, V, 0.9)))
        for bad in (1.5, -0.1, float("nan"), torch.tensor([0.5, 1.2], dtype=F64)):
            Q, K, V = qkv((2,), 4, 3, 3, 15)
            probe(f"ret_{f}_rejects_{bad if not torch.is_tensor(bad) else 'head'}",
                  lambda fn=fn, Q=Q, K=K, V=V, bad=bad: raises(lambda: fn(Q, K, V, bad)))
        if f != "uni":
            Q, K, V = qkv((), 9, 3, 3, 16)
            def rcausal(fn=fn, Q=Q, K=K, V=V):
                Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
                for a in (Q2, K2, V2):
                    a[5:] = 7 * torch.randn(4, a.shape[-1], dtype=F64)
                return close(fn(Q, K, V, 0.8)[:5], fn(Q2, K2, V2, 0.8)[:5], 1e-12)
            probe(f"ret_{f}_causal", rcausal)

    # chunkwise: every chunk size, with the state
    for L in (9, 8, 1):
        Q, K, V = qkv((2,), L, 4, 3, 300 + L)
        for cs in (1, 2, 3, 4, 5, 8, 9, 12):
            for gm in (0.0, 0.7, 1.0):
                def chk(Q=Q, K=K, V=V, cs=cs, gm=gm):
                    out, R = la.retention_chunkwise(Q, K, V, gm, cs, return_state=True)
                    return close(out, ref_retention(Q, K, V, gm)) and close(R, ref_state(K, V, gm))
                probe(f"chunk_L{L}_cs{cs}_g{gm}", chk)
    Q, K, V = qkv((2, 3), 7, 4, 3, 17)
    gh = torch.tensor([0.2, 0.5, 1.0], dtype=F64)
    probe("chunk_state_per_head", lambda: close(la.retention_chunkwise(Q, K, V, gh, 3, return_state=True)[1],
                                                ref_state(K, V, gh[:, None, None].squeeze(-1).squeeze(-1))))
    probe("chunk_plain_return", lambda: torch.is_tensor(la.retention_chunkwise(Q, K, V, 0.5, 3)))

    # as_gamma and decay_matrix
    X = torch.zeros(2, dtype=torch.float32)
    probe("as_gamma_float", lambda: (lambda g: g.shape == (1, 1) and g.dtype == torch.float32
                                     and float(g) == 0.5)(la.as_gamma(0.5, X)))
    probe("as_gamma_heads", lambda: la.as_gamma(torch.tensor([0.1, 0.2, 1.0]), X).shape == (3, 1, 1))
    probe("as_gamma_edges", lambda: la.as_gamma(0.0, X) is not None and la.as_gamma(1.0, X) is not None)
    for bad in (1.5, -0.1, float("nan"), 1.0000001):
        probe(f"as_gamma_rejects_{bad}", lambda bad=bad: raises(lambda: la.as_gamma(bad, torch.zeros(1, dtype=F64))))
    for gm in (0.0, 0.6, 1.0):
        def dm(gm=gm):
            D = la.decay_matrix(la.as_gamma(gm, torch.zeros(1, dtype=F64)), 5)
            n = torch.arange(5)
            want = torch.where(n[:, None] >= n[None, :],
                               torch.tensor(gm, dtype=F64) ** (n[:, None] - n[None, :]).clamp(min=0).double(),
                               torch.zeros((), dtype=F64))
            return close(D, want)
        probe(f"decay_matrix_g{gm}", dm)

    # multiscale
    probe("multiscale", lambda: (lambda g: g.shape == (6,) and g.dtype == torch.get_default_dtype() and
                                 close(g, torch.tensor([1 - 2.0 ** (-5 - h) for h in range(6)], dtype=F64), 1e-7))
          (la.multiscale_decays(6)))

    # unified
    for i, (lead, L, m, d_v) in enumerate(shapes[:4]):
        Q, K, V = qkv(lead, L, m, d_v, 400 + i)
        probe(f"uni_linear_shape{i}", lambda Q=Q, K=K, V=V: close(la.unified_recurrence(Q, K, V, "linear"),
                                                                   ref_retention(Q, K, V, 1.0)))
        gate = torch.rand(L, dtype=F64, generator=torch.Generator().manual_seed(i))
        probe(f"uni_gated_shape{i}", lambda Q=Q, K=K, V=V, gate=gate: close(
            la.unified_recurrence(Q, K, V, "gated", gate=gate), ref_gated(Q, K, V, gate)))
    Q, K, V = qkv((3,), 6, 4, 2, 18)
    gb = torch.rand(3, 6, dtype=F64, generator=torch.Generator().manual_seed(9))
    gb[1, 2] = 0.0
    probe("uni_gated_batched_gate", lambda: close(la.unified_recurrence(Q, K, V, "gated", gate=gb), ref_gated(Q, K, V, gb)))
    probe("uni_rejects_mode", lambda: raises(lambda: la.unified_recurrence(Q, K, V, "softmax")))
    probe("uni_rejects_no_gamma", lambda: raises(lambda: la.unified_recurrence(Q, K, V, "retention")))
    probe("uni_rejects_no_gate", lambda: raises(lambda: la.unified_recurrence(Q, K, V, "gated")))
    Qf, Kf, Vf = qkv((2,), 5, 3, 3, 19, dtype=torch.float32)
    probe("uni_f32", lambda: la.unified_recurrence(Qf, Kf, Vf, "linear").dtype == torch.float32)

    # inputs not written
    def untouched():
        Q, K, V = qkv((2,), 6, 3, 3, 20)
        c = [t.clone() for t in (Q, K, V)]
        la.linear_attention_parallel(Q, K, V); la.linear_attention_recurrent(Q, K, V); by_steps(la, Q, K, V)
        la.retention_parallel(Q, K, V, 0.5); la.retention_recurrent(Q, K, V, 0.5)
        la.retention_chunkwise(Q, K, V, 0.5, 4); la.unified_recurrence(Q, K, V, "linear")
        return all(torch.equal(a, b) for a, b in zip(c, (Q, K, V)))
    probe("inputs_untouched", untouched)

    # cost: the largest tensor any op makes at L = 512 (L² = 262144), and the work at L = 512 vs L = 256
    # (about 2× for a carried state, about 4× for quadratic work)
    def forms(L):
        Q, K, V = qkv((), L, 4, 3, 21)
        return {"cost_lin_rec": lambda: la.linear_attention_recurrent(Q, K, V),
                "cost_ret_rec": lambda: la.retention_recurrent(Q, K, V, 0.9),
                "cost_chunk": lambda: la.retention_chunkwise(Q, K, V, 0.9, 16),
                "cost_step": lambda: by_steps(la, Q, K, V)}
    big, small = forms(512), forms(256)
    for name in big:
        def cost(name=name):
            with MaxNumel() as m1:
                big[name]()
            with MaxNumel() as m2:
                small[name]()
            return m1.max < 20000 and m1.work < 3 * m2.work
        probe(name, cost)
    return P


def load(folder):
    name = "la_" + Path(folder).name
    spec = importlib.util.spec_from_file_location(name, Path(folder) / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def check(folder):
    try:
        la = load(folder)
    except Exception as e:  # noqa: BLE001
        return {"_import": False}, [f"import: {e}"]
    P = probes(la)
    errs = P.pop("_errors", [])
    return P, errs


if __name__ == "__main__":
    for f in sys.argv[1:]:
        P, errs = check(f)
        bad = [k for k, v in P.items() if not v]
        print(f"{Path(f).name}: {len(bad)}/{len(P)} probes differ: {bad[:40]}{' ...' if len(bad) > 40 else ''}")
        for e in errs[:5]:
            print("    ", e)
