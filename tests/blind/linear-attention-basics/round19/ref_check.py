"""Probe one case's linear_attention.py against naive float64 loop references.

    python ref_check.py CASE_DIR [CASE_DIR ...]     -> one line per case: name, number of probes, failed probe groups
"""
import importlib.util
import json
import math
import os
import sys
import warnings
from collections import defaultdict

import torch
from torch.utils._python_dispatch import TorchDispatchMode

torch.set_num_threads(1)
warnings.simplefilter("ignore")
F64 = torch.float64


def load(case_dir):
    spec = importlib.util.spec_from_file_location(f"la_{abs(hash(case_dir))}", os.path.join(case_dir, "linear_attention.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def phi(x):
    return torch.nn.functional.elu(x) + 1                       # the lesson's definition, computed the same way


# ----------------------------------------------------------------------------- naive references (2-D, float64)

def ref_linear_2d(Q, K, V):
    L, d_v = Q.shape[0], V.shape[1]
    out = torch.zeros(L, d_v, dtype=F64)
    for i in range(L):
        num = torch.zeros(d_v, dtype=F64)
        den = 0.0
        for j in range(i + 1):
            w = float((phi(Q[i].double()) * phi(K[j].double())).sum())
            num += w * V[j].double()
            den += w
        out[i] = num / den
    return out


def ref_unified_2d(Q, K, V, A):
    L, d_v = Q.shape[0], V.shape[1]
    out = torch.zeros(L, d_v, dtype=F64)
    for t in range(L):
        for s in range(t + 1):
            w = 1.0
            for r in range(s + 1, t + 1):
                w *= float(A[r])
            out[t] += w * float((Q[t].double() * K[s].double()).sum()) * V[s].double()
    return out


def ref_retention_2d(Q, K, V, g):
    return ref_unified_2d(Q, K, V, [g] * Q.shape[0])


def ref_state_2d(K, V, g):
    L = K.shape[0]
    R = torch.zeros(K.shape[1], V.shape[1], dtype=F64)
    for s in range(L):
        R += (float(g) ** (L - 1 - s)) * torch.outer(K[s].double(), V[s].double())
    return R


def batched(fn2d, Q, K, V, *extra, per_lead=None):
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    Qe, Ke, Ve = (x.expand(*lead, *x.shape[-2:]) for x in (Q, K, V))
    outs = []
    for idx in (list(torch.cartesian_prod(*[torch.arange(n) for n in lead]).reshape(-1, len(lead)).tolist())
                if lead else [[]]):
        idx = tuple(idx)
        ex = per_lead(idx) if per_lead else extra
        outs.append(fn2d(Qe[idx], Ke[idx], Ve[idx], *ex))
    return torch.stack(outs).reshape(*lead, *outs[0].shape)


def qkv(lead, L, m, d_v, seed=0, dtype=F64):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*lead, L, m, generator=g, dtype=dtype), torch.randn(*lead, L, m, generator=g, dtype=dtype),
            torch.randn(*lead, L, d_v, generator=g, dtype=dtype))


# ----------------------------------------------------------------------------- probes

class Probes:
    def __init__(self):
        self.n = 0
        self.failed = defaultdict(list)

    def check(self, group, label, fn):
        self.n += 1
        try:
            ok = fn()
        except Exception as e:  # noqa: BLE001
            ok = False
            label = f"{label} [{type(e).__name__}]"
        if not ok:
            self.failed[group].append(label)


def close(a, b, tol=1e-8):
    return a.shape == b.shape and bool(torch.isfinite(a).all()) and torch.allclose(a.double(), b.double(), atol=tol, rtol=tol)


def by_steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


class MaxNumel(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.max = 0
        self.total = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for o in (out if isinstance(out, (tuple, list)) else [out]):
            if isinstance(o, torch.Tensor):
                self.max = max(self.max, o.numel())
                self.total += o.numel()
        return out


def measure(fn):
    with MaxNumel() as mm:
        fn()
    return mm.max, mm.total


def run(case_dir):
    la = load(case_dir)
    P = Probes()
    linear = {"parallel": la.linear_attention_parallel, "recurrent": la.linear_attention_recurrent,
              "step": lambda Q, K, V: by_steps(la, Q, K, V)}
    shapes = [((), 5, 4, 3), ((2,), 7, 3, 5), ((2, 3), 6, 4, 4), ((), 1, 3, 2), ((3,), 4, 2, 6)]
    # linear attention values
    for form, fn in linear.items():
        for s in shapes:
            Q, K, V = qkv(*s, seed=11)
            P.check(f"lin_{form}", f"values {s}", lambda: close(fn(Q, K, V), batched(ref_linear_2d, Q, K, V)))
        Q, K, V = qkv((), 6, 3, 2, seed=12)
        P.check(f"lin_{form}", "very negative", lambda: close(fn(Q - 30, K - 30, V), ref_linear_2d(Q - 30, K - 30, V)))
        Q, K, V = qkv((), 6, 3, 2, seed=13)
        Vc = torch.tensor([1.0, -2.0], dtype=F64).expand(6, 2)
        P.check(f"normalizer_{form}", "constant values", lambda: close(fn(Q - 3, K - 3, Vc), Vc))
        Q, K, V = qkv((2,), 1, 3, 4, seed=14)
        P.check(f"one_token_{form}", "one token", lambda: close(fn(Q, K, V), V))
        Q, K, V = qkv((2,), 6, 4, 3, seed=15, dtype=torch.float32)
        P.check("dtype", f"lin {form} f32",
                lambda: fn(Q, K, V).dtype == torch.float32 and close(fn(Q, K, V), batched(ref_linear_2d, Q, K, V), 1e-4))
        Q, K, V = qkv((2,), 9, 4, 3, seed=16)
        Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
        for a in (Q2, K2, V2):
            a[..., 5:, :] = 10 * torch.randn(a[..., 5:, :].shape, generator=torch.Generator().manual_seed(1), dtype=F64)
        P.check(f"causal_lin_{form}", "causal", lambda: close(fn(Q, K, V)[..., :5, :], fn(Q2, K2, V2)[..., :5, :]))
    # state attributes, independence
    Q, K, V = qkv((), 4, 3, 5, seed=17)
    def state_attr():
        st = la.LinearAttentionState(3, 5)
        for t in range(4):
            st.step(Q[t], K[t], V[t])
        return close(st.S, phi(K).T @ V) and close(st.z, phi(K).sum(0))
    P.check("state_attr", "S (m, d_v), z after 4 steps", state_attr)
    def independent():
        a, b = la.LinearAttentionState(3, 5), la.LinearAttentionState(3, 5)
        ya, yb = [], []
        for t in range(4):
            ya.append(a.step(Q[t], K[t], V[t]))
            yb.append(b.step(K[t], Q[t], -V[t]))
        ra, rb = ref_linear_2d(Q, K, V), ref_linear_2d(K, Q, -V)
        return close(torch.stack(ya), ra) and close(torch.stack(yb), rb)
    P.check("independent_states", "two interleaved states", independent)
    # retention
    ret = {"parallel": la.retention_parallel, "recurrent": la.retention_recurrent,
           "chunkwise": lambda Q, K, V, g: la.retention_chunkwise(Q, K, V, g, 3)}
    rshapes = [((), 7, 4, 3), ((2,), 6, 3, 5), ((2, 3), 7, 4, 4), ((), 1, 2, 3)]
    for form, fn in ret.items():
        for gam in (0.0, 0.5, 0.9, 1.0):
            for s in rshapes:
                Q, K, V = qkv(*s, seed=21)
                grp = f"ret_{form}" if 0 < gam < 1 else f"ret_{form}_edge"
                P.check(grp, f"γ={gam} {s}", lambda: close(fn(Q, K, V, gam), batched(ref_retention_2d, Q, K, V, gam)))
        Q, K, V = qkv((2, 3), 8, 4, 3, seed=22)
        gh = torch.tensor([0.0, 0.5, 1.0], dtype=F64)
        P.check(f"ret_{form}_perhead", "per-head γ",
                lambda: close(fn(Q, K, V, gh), batched(ref_retention_2d, Q, K, V, per_lead=lambda i: (float(gh[i[1]]),))))
        for bad in (1.5, -0.1, float("nan"), torch.tensor([0.5, 1.5]), torch.tensor(-0.1)):
            Q, K, V = qkv((2,), 4, 3, 3, seed=23)
            def raises():
                try:
                    fn(Q, K, V, bad)
                except ValueError:
                    return True
                return False
            P.check("gamma_reject", f"{form} rejects {bad}", raises)
        Q, K, V = qkv((2,), 6, 4, 3, seed=24, dtype=torch.float32)
        P.check("dtype", f"ret {form} f32",
                lambda: fn(Q, K, V, 0.9).dtype == torch.float32 and close(fn(Q, K, V, 0.9), batched(ref_retention_2d, Q, K, V, 0.9), 1e-4))
        Q, K, V = qkv((2,), 9, 4, 3, seed=25)
        Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
        for a in (Q2, K2, V2):
            a[..., 5:, :] = 10 * torch.randn(a[..., 5:, :].shape, generator=torch.Generator().manual_seed(2), dtype=F64)
        P.check(f"causal_ret_{form}", "causal", lambda: close(fn(Q, K, V, 0.9)[..., :5, :], fn(Q2, K2, V2, 0.9)[..., :5, :]))
    # chunkwise outputs and state over chunk sizes
    for L in (9, 8, 1):
        Q, K, V = qkv((), L, 4, 3, seed=30 + L)
        for gam in (0.0, 0.7, 1.0):
            want = ref_retention_2d(Q, K, V, gam)
            wantR = ref_state_2d(K, V, gam)
            for c in (1, 2, 3, 4, 5, 8, 9, 12):
                def out_ok():
                    return close(la.retention_chunkwise(Q, K, V, gam, c), want)
                def state_ok():
                    _, R = la.retention_chunkwise(Q, K, V, gam, c, return_state=True)
                    return close(R, wantR)
                P.check("chunk_out" if c > 1 else "chunk_out_c1", f"L={L} γ={gam} c={c}", out_ok)
                short = L % c != 0
                P.check("chunk_state_short" if short else "chunk_state_full", f"L={L} γ={gam} c={c}", state_ok)
    # as_gamma / decay_matrix
    x = torch.zeros(2, 3, dtype=F64)
    P.check("as_gamma", "shape float", lambda: la.as_gamma(0.5, x).shape == (1, 1) and la.as_gamma(0.5, x).dtype == F64)
    P.check("as_gamma", "shape per head", lambda: la.as_gamma(torch.tensor([0.1, 0.2, 0.3]), x).shape == (3, 1, 1))
    for gam in (0.0, 0.6, 1.0):
        def dm():
            D = la.decay_matrix(la.as_gamma(gam, x), 5)
            want = torch.tensor([[gam ** (n - m) if m <= n else 0.0 for m in range(5)] for n in range(5)], dtype=F64)
            return close(D, want)
        P.check("decay_matrix", f"γ={gam}", dm)
    # multiscale
    P.check("multiscale", "values", lambda: close(la.multiscale_decays(4), torch.tensor([0.96875, 0.984375, 0.9921875, 0.99609375])))
    P.check("multiscale", "dtype", lambda: la.multiscale_decays(3).dtype == torch.get_default_dtype() and la.multiscale_decays(3).shape == (3,))
    # unified
    Q, K, V = qkv((2,), 7, 4, 3, seed=40)
    U = la.unified_recurrence
    P.check("unified", "linear", lambda: close(U(Q, K, V, "linear"), batched(ref_retention_2d, Q, K, V, 1.0)))
    P.check("unified", "retention 0.6", lambda: close(U(Q, K, V, "retention", gamma=0.6), batched(ref_retention_2d, Q, K, V, 0.6)))
    gate = torch.tensor([0.3, 0.0, 0.9, 1.0, 0.5, 0.2, 0.7], dtype=F64)
    P.check("unified", "gated (L,)", lambda: close(U(Q, K, V, "gated", gate=gate), batched(ref_unified_2d, Q, K, V, gate)))
    gate2 = torch.rand(2, 7, generator=torch.Generator().manual_seed(3), dtype=F64)
    P.check("unified", "gated (B, L)", lambda: close(U(Q, K, V, "gated", gate=gate2),
                                                     batched(ref_unified_2d, Q, K, V, per_lead=lambda i: (gate2[i[0]],))))
    Qh, Kh, Vh = qkv((2, 3), 6, 4, 3, seed=41)
    gh = torch.tensor([0.0, 0.5, 1.0], dtype=F64)
    P.check("unified", "retention per head", lambda: close(U(Qh, Kh, Vh, "retention", gamma=gh),
                                                           batched(ref_retention_2d, Qh, Kh, Vh, per_lead=lambda i: (float(gh[i[1]]),))))
    for bad in [dict(mode="softmax"), dict(mode="Linear"), dict(mode="retention"), dict(mode="gated")]:
        def rej():
            try:
                U(Q, K, V, **bad)
            except ValueError:
                return True
            return False
        P.check("unified_reject", str(bad), rej)
    Qf, Kf, Vf = qkv((2,), 6, 4, 3, seed=42, dtype=torch.float32)
    for md, kw in (("linear", {}), ("retention", dict(gamma=0.8)), ("gated", dict(gate=torch.full((6,), 0.8)))):
        P.check("dtype", f"unified {md} f32", lambda: U(Qf, Kf, Vf, md, **kw).dtype == torch.float32)
    # cost: largest tensor created and total work at L = 256 and 512
    def cost(fn, name):
        res = {}
        for L in (256, 512):
            Q, K, V = qkv((), L, 8, 8, seed=50)
            res[L] = measure(lambda: fn(Q, K, V))
        mx, tot = res[512]
        ok = mx < 512 * 512 / 8 and res[512][1] < 2.6 * res[256][1]
        return ok
    P.check("cost_lin_recurrent", "linear", lambda: cost(la.linear_attention_recurrent, "lin"))
    P.check("cost_ret_recurrent", "retention", lambda: cost(lambda Q, K, V: la.retention_recurrent(Q, K, V, 0.9), "ret"))
    P.check("cost_step", "step", lambda: cost(lambda Q, K, V: by_steps(la, Q, K, V), "step"))
    P.check("cost_chunkwise", "chunkwise(8)", lambda: cost(lambda Q, K, V: la.retention_chunkwise(Q, K, V, 0.9, 8), "chunk"))
    return P


if __name__ == "__main__":
    for d in sys.argv[1:]:
        try:
            P = run(d)
            fails = {g: len(v) for g, v in sorted(P.failed.items())}
            print(os.path.basename(d.rstrip("/")), P.n, json.dumps(fails))
        except Exception as e:  # noqa: BLE001
            print(os.path.basename(d.rstrip("/")), "IMPORT/RUN ERROR", type(e).__name__, e)
        sys.stdout.flush()
