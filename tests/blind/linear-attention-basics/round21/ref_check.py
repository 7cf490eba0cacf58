"""Round-21 check: every case folder against naive float64 loop references, alternatives against base at 1e-12.

    OMP_NUM_THREADS=1 /work/main/.venv/bin/python ref_check.py
"""
import importlib.util
import math
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
torch.set_default_dtype(torch.float64)


def load(case):
    spec = importlib.util.spec_from_file_location(f"la_{case}", HERE / case / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def phi(x):
    return torch.where(x > 0, x + 1, torch.exp(x))


def ref_linear(Q, K, V):                       # unbatched (L, m) loops
    L = Q.shape[0]
    out = torch.zeros(L, V.shape[1])
    for i in range(L):
        num, den = torch.zeros(V.shape[1]), 0.0
        for j in range(i + 1):
            w = float(phi(Q[i]) @ phi(K[j]))
            num += w * V[j]
            den += w
        out[i] = num / den
    return out


def ref_gated(Q, K, V, A):                      # y_t = Σ_{s≤t} (A_{s+1}⋯A_t)(q_t·k_s) v_s
    L = Q.shape[0]
    out = torch.zeros(L, V.shape[1])
    for t in range(L):
        for s in range(t + 1):
            w = 1.0
            for r in range(s + 1, t + 1):
                w *= float(A[r])
            out[t] += w * float(Q[t] @ K[s]) * V[s]
    return out


def ref_state(K, V, gamma):
    L = K.shape[0]
    return sum((gamma ** (L - 1 - s)) * torch.outer(K[s], V[s]) for s in range(L))


def batched(fn, Q, K, V, *a):                   # apply an unbatched reference over leading dims
    if Q.dim() == 2:
        return fn(Q, K, V, *a)
    return torch.stack([batched(fn, Q[i], K[i], V[i], *a) for i in range(Q.shape[0])])


def close(a, b, tol=1e-9):
    return a.shape == b.shape and bool(torch.allclose(a, b, rtol=tol, atol=tol))


def probes(la):
    """name -> bool (True = agrees with the reference)."""
    r = {}
    g = torch.Generator().manual_seed(21)
    def qkv(lead, L, m, d):
        return (torch.randn(*lead, L, m, generator=g), torch.randn(*lead, L, m, generator=g) * 1.5,
                torch.randn(*lead, L, d, generator=g))
    def safe(name, f):
        try:
            r[name] = bool(f())
        except Exception as e:                  # noqa: BLE001
            r[name] = False
    shapes = [((), 7, 4, 3), ((2,), 6, 3, 5), ((2, 3), 5, 4, 4), ((), 1, 3, 2)]
    for lead, L, m, d in shapes:
        Q, K, V = qkv(lead, L, m, d)
        tag = f"{lead}x{L}"
        refl = batched(ref_linear, Q, K, V)
        safe(f"linear_parallel{tag}", lambda: close(la.linear_attention_parallel(Q, K, V), refl))
        safe(f"linear_recurrent{tag}", lambda: close(la.linear_attention_recurrent(Q, K, V), refl))
        def stepper():
            st = la.LinearAttentionState(m, d)
            ys = torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(L)], dim=-2)
            return close(ys, refl)
        safe(f"state_step{tag}", stepper)
        for gam in [0.0, 0.5, 0.9, 1.0]:
            refr = batched(ref_gated, Q, K, V, torch.full((L,), gam))
            safe(f"retention_parallel{tag}g{gam}", lambda: close(la.retention_parallel(Q, K, V, gam), refr))
            safe(f"retention_recurrent{tag}g{gam}", lambda: close(la.retention_recurrent(Q, K, V, gam), refr))
            for cs in [1, 2, 3, 4, 8]:
                safe(f"retention_chunkwise{tag}g{gam}c{cs}",
                     lambda: close(la.retention_chunkwise(Q, K, V, gam, cs), refr))
            safe(f"unified_retention{tag}g{gam}",
                 lambda: close(la.unified_recurrence(Q, K, V, "retention", gamma=gam), refr))
        safe(f"unified_linear{tag}", lambda: close(la.unified_recurrence(Q, K, V, "linear"),
                                                    batched(ref_gated, Q, K, V, torch.ones(L))))
        gate = torch.rand(L, generator=g)
        safe(f"unified_gated{tag}", lambda: close(la.unified_recurrence(Q, K, V, "gated", gate=gate),
                                                  batched(ref_gated, Q, K, V, gate)))
    Q, K, V = qkv((), 9, 4, 3)
    for cs in [1, 2, 3, 4, 5, 9, 12]:
        for gam in [0.0, 0.7, 1.0]:
            def st():
                _, R = la.retention_chunkwise(Q, K, V, gam, cs, return_state=True)
                return close(R, ref_state(K, V, gam))
            safe(f"chunk_state c{cs} g{gam}", st)
    for bad in [1.5, -0.1, float("nan")]:
        for f in ["parallel", "recurrent"]:
            def rej():
                try:
                    getattr(la, f"retention_{f}")(Q, K, V, bad)
                except ValueError:
                    return True
                return False
            safe(f"gamma_rejects_{f}_{bad}", rej)
    safe("multiscale", lambda: close(la.multiscale_decays(4), torch.tensor([1 - 2.0 ** (-5 - h) for h in range(4)])))
    return r


def outputs(la):
    """A list of outputs for comparing alternatives with base."""
    g = torch.Generator().manual_seed(7)
    out = []
    for lead, L, m, d in [((), 9, 4, 3), ((2, 3), 7, 3, 5), ((2,), 1, 2, 2), ((), 0, 3, 2)]:
        Q, K, V = (torch.randn(*lead, L, m, generator=g), torch.randn(*lead, L, m, generator=g),
                   torch.randn(*lead, L, d, generator=g))
        out += [la.linear_attention_parallel(Q, K, V), la.linear_attention_recurrent(Q, K, V)]
        gams = [0.0, 0.3, 0.9, 1.0] + ([torch.tensor([0.0, 0.5, 1.0])] if lead == (2, 3) else [])
        for gam in gams:
            out += [la.retention_parallel(Q, K, V, gam), la.retention_recurrent(Q, K, V, gam),
                    la.unified_recurrence(Q, K, V, "retention", gamma=gam)]
            for cs in range(1, 11):
                out += list(la.retention_chunkwise(Q, K, V, gam, cs, return_state=True))
        out += [la.unified_recurrence(Q, K, V, "linear"),
                la.unified_recurrence(Q, K, V, "gated", gate=torch.rand(L, generator=g))]
        if L:
            st = la.LinearAttentionState(m, d)
            for t in range(L):
                out.append(st.step(Q[..., t, :], K[..., t, :], V[..., t, :]))
            out += [st.S, st.z]
        Qf, Kf, Vf = Q.float(), K.float(), V.float()
        out += [f(Qf, Kf, Vf) for f in (la.linear_attention_parallel, la.linear_attention_recurrent)]
        out += [la.retention_recurrent(Qf, Kf, Vf, 0.8), la.unified_recurrence(Qf, Kf, Vf, "linear")]
    return out


if __name__ == "__main__":
    tol = lambda a: 1e-12 if a.dtype == torch.float64 else 1e-5   # float32 outputs: dtype kept, 1e-5
    cases = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "linear_attention.py").exists())
    base_p = probes(load("base"))
    base_o = outputs(load("base"))
    print(f"base: {sum(base_p.values())}/{len(base_p)} probes agree with the loop references")
    for c in cases:
        la = load(c)
        p = probes(la)
        bad = sorted({k.split("(")[0].split(" ")[0].rstrip("0123456789.xg,c") for k, v in p.items() if not v})
        line = f"{c}: {len(p) - sum(p.values())}/{len(p)} probes fail {bad}"
        if c.startswith("alt_") or c == "base":
            o = outputs(la)
            diff = sum(1 for a, b in zip(o, base_o)
                       if a.shape != b.shape or a.dtype != b.dtype or not torch.allclose(a, b, rtol=tol(a), atol=tol(a), equal_nan=True))
            line += f"; {diff}/{len(o)} outputs differ from base at 1e-12"
        print(line)
