"""Compare case modules with a naive float64 reference (written here, independent of base) and with base.

Usage: python check_equiv.py CASE [CASE ...]    prints 'OK' or the first mismatches per case.
Inputs: leading dims (), (2,), (2, 3); L = 1, 2, 7, 13; (m, d_v) = (4, 3), (3, 5); γ = 0, .5, .9, 1, .999 and
per-head [0, .5, .999]; chunk sizes 1, 2, 3, 4, 5, L, L + 3; L = 3000 with γ = 0.999 (float64 and float32,
chunks 64 and 100); gated (L,) and (2, 3, L) gates; float32 dtypes; ValueErrors; inputs left untouched.
"""
import importlib.util
import math
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent


def load(case):
    spec = importlib.util.spec_from_file_location(f"la_{case}", HERE / case / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ----------------------------------------------------------------------------- naive reference (float64 loops)
def phi(x):
    return torch.where(x > 0, x + 1, torch.exp(x))


def ref_linear(Q, K, V):
    Q, K, V = torch.broadcast_tensors(Q.double(), K.double(), V[..., :1].double().expand_as(K))[0:2] + (V.double(),)
    lead = torch.broadcast_shapes(Q.shape[:-2], V.shape[:-2])
    Q, K, V = Q.expand(*lead, *Q.shape[-2:]), K.expand(*lead, *K.shape[-2:]), V.expand(*lead, *V.shape[-2:])
    out = torch.zeros(*lead, Q.shape[-2], V.shape[-1], dtype=torch.float64)
    for i in range(Q.shape[-2]):
        w = (phi(Q[..., i:i + 1, :]) * phi(K[..., :i + 1, :])).sum(-1)       # (..., i+1)
        out[..., i, :] = (w[..., None] * V[..., :i + 1, :]).sum(-2) / w.sum(-1, keepdim=True)
    return out


def ref_gated(Q, K, V, A):
    """y_t = Σ_{s<=t} (Π_{r=s+1..t} A_r) (q_t·k_s) v_s, A: (..., L) float64."""
    Q, K, V = Q.double(), K.double(), V.double()
    L = Q.shape[-2]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], A.shape[:-1])
    out = torch.zeros(*lead, L, V.shape[-1], dtype=torch.float64)
    for t in range(L):
        acc = torch.zeros(*lead, V.shape[-1], dtype=torch.float64)
        w = torch.ones(A.shape[:-1], dtype=torch.float64)
        for s in range(t, -1, -1):
            acc = acc + (w[..., None] * (Q[..., t, :] * K[..., s, :]).sum(-1, keepdim=True)) * V[..., s, :]
            w = w * A[..., s]
        out[..., t, :] = acc
    return out


def ref_state(K, V, gamma):
    K, V = K.double(), V.double()
    L = K.shape[-2]
    g = torch.as_tensor(gamma, dtype=torch.float64)
    w = g[..., None] ** torch.arange(L - 1, -1, -1, dtype=torch.float64)     # (..., L)
    return (K * w[..., None]).transpose(-2, -1) @ V


def ref_retention_fast(Q, K, V, gamma):
    g = torch.as_tensor(gamma, dtype=torch.float64)[..., None, None]
    L = Q.shape[-2]
    n = torch.arange(L)
    d = (n[:, None] - n[None, :])
    D = torch.where(d >= 0, g ** d.clamp(min=0).double(), torch.zeros((), dtype=torch.float64))
    return ((Q.double() @ K.double().transpose(-2, -1)) * D) @ V.double()


# ----------------------------------------------------------------------------- checks
class Report:
    def __init__(self):
        self.bad = []

    def close(self, what, got, want, rtol, atol_rel=None):
        try:
            got = got if not isinstance(got, tuple) else got
            if got.shape != want.shape:
                self.bad.append(f"{what}: shape {tuple(got.shape)} != {tuple(want.shape)}")
                return
            scale = want.abs().max().item() if want.numel() else 1.0
            err = (got.double() - want.double()).abs().max().item() if want.numel() else 0.0
            tol = rtol * max(scale, 1e-30) if atol_rel is None else atol_rel
            if not (err <= tol):
                self.bad.append(f"{what}: max err {err:.3g} (scale {scale:.3g})")
        except Exception as e:  # noqa: BLE001
            self.bad.append(f"{what}: {type(e).__name__} {e}")

    def run(self, what, fn):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001
            self.bad.append(f"{what}: raised {type(e).__name__}: {str(e)[:100]}")


def qkv(lead, L, m, d_v, seed, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(*lead, L, w, generator=g, dtype=dtype) for w in (m, m, d_v))


def steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


def check(la, base=None, long=True):
    r = Report()
    seed = 0
    for lead in [(), (2,), (2, 3)]:
        for L in [1, 2, 7, 13]:
            for m, d_v in [(4, 3), (3, 5)]:
                seed += 1
                Q, K, V = qkv(lead, L, m, d_v, seed)
                copies = [x.clone() for x in (Q, K, V)]
                tag = f"lead={lead} L={L} m={m} dv={d_v}"
                want = ref_linear(Q, K, V)
                r.close(f"lin_par {tag}", r.run("lin_par", lambda: la.linear_attention_parallel(Q, K, V)), want, 1e-10)
                r.close(f"lin_rec {tag}", r.run("lin_rec", lambda: la.linear_attention_recurrent(Q, K, V)), want, 1e-10)
                r.close(f"step {tag}", r.run("step", lambda: steps(la, Q, K, V)), want, 1e-10)
                gammas = [0.0, 0.5, 0.9, 1.0, 0.999]
                if lead == (2, 3):
                    gammas.append(torch.tensor([0.0, 0.5, 0.999], dtype=torch.float64))
                for gamma in gammas:
                    gt = f"{tag} γ={gamma if isinstance(gamma, float) else 'per-head'}"
                    want = ref_gated(Q, K, V, torch.as_tensor(gamma, dtype=torch.float64)[..., None].expand(
                        *torch.as_tensor(gamma).shape, L))
                    r.close(f"ret_par {gt}", r.run("ret_par", lambda: la.retention_parallel(Q, K, V, gamma)), want, 1e-10)
                    r.close(f"ret_rec {gt}", r.run("ret_rec", lambda: la.retention_recurrent(Q, K, V, gamma)), want, 1e-10)
                    r.close(f"unified_ret {gt}", r.run("uni", lambda: la.unified_recurrence(Q, K, V, "retention", gamma=gamma)),
                            want, 1e-10)
                    state = ref_state(K, V, gamma) if L else None
                    for cs in sorted({1, 2, 3, 4, 5, L, L + 3}):
                        res = r.run(f"chunk {gt} cs={cs}", lambda: la.retention_chunkwise(Q, K, V, gamma, cs, return_state=True))
                        if res is not None and not (isinstance(res, tuple) and len(res) == 2):
                            r.bad.append(f"chunk {gt} cs={cs}: return_state=True did not return (out, R)")
                        elif res is not None:
                            r.close(f"chunk out {gt} cs={cs}", res[0], want, 1e-10)
                            r.close(f"chunk R {gt} cs={cs}", res[1], state.expand(res[1].shape) if state.shape != res[1].shape and res[1].dim() > state.dim() else state, 1e-10)
                        r.close(f"chunk plain {gt} cs={cs}", r.run("chunk", lambda: la.retention_chunkwise(Q, K, V, gamma, cs)),
                                want, 1e-10)
                r.close(f"unified_lin {tag}", r.run("uni", lambda: la.unified_recurrence(Q, K, V, "linear")),
                        ref_gated(Q, K, V, torch.ones(L, dtype=torch.float64)), 1e-10)
                gen = torch.Generator().manual_seed(seed + 1000)
                for gshape in [(L,), (*lead, L)]:
                    gate = torch.rand(*gshape, generator=gen, dtype=torch.float64)
                    r.close(f"unified_gated {tag} gate{gshape}", r.run("uni", lambda: la.unified_recurrence(Q, K, V, "gated", gate=gate)),
                            ref_gated(Q, K, V, gate), 1e-10)
                for a, b in zip((Q, K, V), copies):
                    if not torch.equal(a, b):
                        r.bad.append(f"inputs modified {tag}")
    # float32: dtype kept and close to the float64 reference
    Q, K, V = qkv((2,), 50, 4, 3, 77, torch.float32)
    outs = {"lin_par": lambda: la.linear_attention_parallel(Q, K, V), "lin_rec": lambda: la.linear_attention_recurrent(Q, K, V),
            "step": lambda: steps(la, Q, K, V), "ret_par": lambda: la.retention_parallel(Q, K, V, 0.9),
            "ret_rec": lambda: la.retention_recurrent(Q, K, V, 0.9), "chunk": lambda: la.retention_chunkwise(Q, K, V, 0.9, 7),
            "uni": lambda: la.unified_recurrence(Q, K, V, "retention", gamma=0.9)}
    for name, fn in outs.items():
        y = r.run(name, fn)
        if y is not None and y.dtype != torch.float32:
            r.bad.append(f"float32 {name} -> {y.dtype}")
    # γ close to 1 on a long sequence
    if long:
        for dtype, rt in [(torch.float64, 1e-9), (torch.float32, 2e-4)]:
            Q, K, V = qkv((2,), 3000, 4, 3, 99, dtype)
            want = ref_retention_fast(Q, K, V, 0.999) if dtype == torch.float64 else None
            if dtype == torch.float32:
                # the float32 reference: the exact formula with γ rounded to float32 first (as as_gamma does)
                want = ref_retention_fast(Q, K, V, torch.tensor(0.999, dtype=torch.float32).double())
            st = ref_state(K, V, torch.tensor(0.999, dtype=dtype).double())
            r.close(f"long par {dtype}", r.run("long", lambda: la.retention_parallel(Q, K, V, 0.999)), want, rt)
            r.close(f"long rec {dtype}", r.run("long", lambda: la.retention_recurrent(Q, K, V, 0.999)), want, rt)
            for cs in (64, 100):
                res = r.run("long chunk", lambda: la.retention_chunkwise(Q, K, V, 0.999, cs, return_state=True))
                if isinstance(res, tuple):
                    r.close(f"long chunk {dtype} cs={cs}", res[0], want, rt)
                    r.close(f"long chunk R {dtype} cs={cs}", res[1], st, rt)
            r.close(f"long lin {dtype}", r.run("long", lambda: la.linear_attention_recurrent(Q, K, V)),
                    la_base_or(base, la).linear_attention_parallel(Q.double(), K.double(), V.double()), rt)
    # errors
    Q, K, V = qkv((), 4, 3, 3, 5)
    for bad in [1.5, -0.1, float("nan"), torch.tensor([0.5, 1.2]), torch.tensor([0.5, float("nan")])]:
        for name, fn in [("ret_par", lambda: la.retention_parallel(Q, K, V, bad)),
                         ("ret_rec", lambda: la.retention_recurrent(Q, K, V, bad)),
                         ("chunk", lambda: la.retention_chunkwise(Q, K, V, bad, 2)),
                         ("uni", lambda: la.unified_recurrence(Q, K, V, "retention", gamma=bad))]:
            try:
                fn()
                r.bad.append(f"{name} accepted γ={bad}")
            except ValueError:
                pass
            except Exception as e:  # noqa: BLE001
                r.bad.append(f"{name} γ={bad}: {type(e).__name__} instead of ValueError")
    for kw in [dict(mode="softmax"), dict(mode="retention"), dict(mode="gated")]:
        try:
            la.unified_recurrence(Q, K, V, **kw)
            r.bad.append(f"unified accepted {kw}")
        except ValueError:
            pass
        except Exception as e:  # noqa: BLE001
            r.bad.append(f"unified {kw}: {type(e).__name__}")
    md = r.run("multiscale", lambda: la.multiscale_decays(6))
    if md is not None:
        if md.dtype != torch.get_default_dtype():
            r.bad.append(f"multiscale dtype {md.dtype}")
        r.close("multiscale", md, torch.tensor([1 - 2.0 ** (-5 - h) for h in range(6)]), 1e-7)
    # two states are independent
    s1, s2 = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
    q, k, v = torch.randn(3, dtype=torch.float64), torch.randn(3, dtype=torch.float64), torch.randn(2, dtype=torch.float64)
    s1.step(q, k, v)
    s1.step(q, -k, 2 * v)
    y2 = s2.step(q, k, v)
    r.close("independent states", y2, v, 1e-12)
    return r.bad


def la_base_or(base, la):
    return base if base is not None else la


if __name__ == "__main__":
    base = load("base")
    for case in sys.argv[1:]:
        la = load(case)
        try:
            bad = check(la, base)
        except Exception as e:  # noqa: BLE001
            bad = [f"checker crashed: {type(e).__name__}: {e}"]
        print(f"{case}: {'OK' if not bad else f'{len(bad)} problems'}")
        for b in bad[:8]:
            print("    ", b)
