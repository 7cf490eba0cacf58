"""Compare every case's module with base/ on small float64 probes (a light check, CPU only).

    /work/main/.venv/bin/python check_cases.py                 # every case folder
    /work/main/.venv/bin/python check_cases.py CASE [CASE ...]

For each case it lists the probes whose result differs from base's (values beyond 1e-10 relative to
1 + the output scale, another shape or dtype, another exception type, NaN where base has none).
Alternatives must show no difference at all; for bugs the list shows where the slip is visible.
Probe names: lin_par / lin_rec / step (the three linear forms), neg (very negative inputs), const (constant V),
indep (two interleaved states), causal_* (later tokens changed), ret_par / ret_rec / ret_chunk (γ, shapes,
per-head γ), chunk_state (returned R), gerr (γ validation), gmut (per-head γ tensor reused), mut (inputs
written), f32 (dtypes), uni (unified modes), ms (multiscale), maxL (largest decay_matrix built by chunkwise).
"""
import importlib.util
import math
import sys
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
torch.set_num_threads(1)


def load(case):
    spec = importlib.util.spec_from_file_location(f"la_{case}", HERE / case / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def qkv(lead, L, m, d_v, seed=0, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*lead, L, m, generator=g, dtype=dtype), torch.randn(*lead, L, m, generator=g, dtype=dtype),
            torch.randn(*lead, L, d_v, generator=g, dtype=dtype))


def by_steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


SHAPES = [((), 5, 4, 3), ((2,), 7, 3, 5), ((2, 3), 6, 4, 4), ((), 1, 3, 2), ((2,), 1, 3, 4)]


def probes(la):
    P = {}

    def rec(name, fn):
        try:
            P[name] = fn()
        except Exception as e:                                   # noqa: BLE001
            P[name] = f"raise {type(e).__name__}"

    lin = {"lin_par": la.linear_attention_parallel, "lin_rec": la.linear_attention_recurrent,
           "step": lambda Q, K, V: by_steps(la, Q, K, V)}
    for i, sh in enumerate(SHAPES):
        Q, K, V = qkv(*sh, seed=i)
        for f, fn in lin.items():
            rec(f"{f}/{sh}", lambda: fn(Q, K, V))
    Q, K, V = qkv((2,), 6, 3, 4, seed=20)
    Vc = torch.tensor([1.0, -2.0, 0.5, 3.0], dtype=torch.float64).expand(2, 6, 4)
    for f, fn in lin.items():
        rec(f"neg/{f}", lambda: fn(Q - 8, K - 8, V))
        rec(f"const/{f}", lambda: fn(Q - 3, K - 3, Vc))

    def indep():
        Q1, K1, V1 = qkv((), 5, 3, 2, seed=21)
        Q2, K2, V2 = qkv((), 5, 3, 2, seed=22)
        a, b = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
        ys = []
        for t in range(5):
            ys.append(a.step(Q1[t], K1[t], V1[t]))
            ys.append(b.step(Q2[t], K2[t], V2[t]))
        return torch.stack(ys)
    rec("indep", indep)

    # causality: change tokens 5.. and measure the change of outputs 0..4 (base: exactly 0)
    Q, K, V = qkv((2,), 9, 4, 3, seed=23)
    Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
    g = torch.Generator().manual_seed(5)
    for a in (Q2, K2, V2):
        a[..., 5:, :] = 10 * torch.randn(a[..., 5:, :].shape, generator=g, dtype=torch.float64)
    causal = dict(lin, ret_par=lambda Q, K, V: la.retention_parallel(Q, K, V, 0.9),
                  ret_rec=lambda Q, K, V: la.retention_recurrent(Q, K, V, 0.9),
                  ret_chunk=lambda Q, K, V: la.retention_chunkwise(Q, K, V, 0.9, 4))
    for f, fn in causal.items():
        rec(f"causal_{f}", lambda: (fn(Q, K, V)[..., :5, :] - fn(Q2, K2, V2)[..., :5, :]).abs().max())

    # retention
    for gam in [0.0, 0.5, 0.9, 1.0]:
        for i, sh in enumerate(SHAPES[:3] + [((), 1, 3, 2)]):
            Q, K, V = qkv(*sh, seed=30 + i)
            rec(f"ret_par/{gam}/{sh}", lambda: la.retention_parallel(Q, K, V, gam))
            rec(f"ret_rec/{gam}/{sh}", lambda: la.retention_recurrent(Q, K, V, gam))
        Q, K, V = qkv((2,), 9, 4, 3, seed=40)
        for cs in [1, 2, 3, 4, 5, 9, 12]:
            rec(f"ret_chunk/{gam}/cs{cs}", lambda: la.retention_chunkwise(Q, K, V, gam, cs))
            rec(f"chunk_state/{gam}/cs{cs}", lambda: la.retention_chunkwise(Q, K, V, gam, cs, return_state=True))
    Q, K, V = qkv((2, 3), 9, 4, 3, seed=41)
    for gh_name, gh in [("heads0", [0.0, 0.5, 1.0]), ("heads1", [0.3, 0.8, 0.99])]:
        rec(f"ret_par/{gh_name}", lambda: la.retention_parallel(Q, K, V, torch.tensor(gh, dtype=torch.float64)))
        rec(f"ret_rec/{gh_name}", lambda: la.retention_recurrent(Q, K, V, torch.tensor(gh, dtype=torch.float64)))
        rec(f"ret_chunk/{gh_name}", lambda: la.retention_chunkwise(Q, K, V, torch.tensor(gh, dtype=torch.float64), 4,
                                                                   return_state=True))
        rec(f"uni_ret/{gh_name}", lambda: la.unified_recurrence(Q, K, V, "retention",
                                                                gamma=torch.tensor(gh, dtype=torch.float64)))

    # gamma validation: "ok" or the exception type
    Q, K, V = qkv((), 4, 3, 3, seed=42)
    forms = {"par": lambda gm: la.retention_parallel(Q, K, V, gm), "rec": lambda gm: la.retention_recurrent(Q, K, V, gm),
             "chunk": lambda gm: la.retention_chunkwise(Q, K, V, gm, 2),
             "uni": lambda gm: la.unified_recurrence(Q, K, V, "retention", gamma=gm)}
    bad = {"1.5": 1.5, "-0.1": -0.1, "nan": math.nan, "[.5,1.5]": torch.tensor([0.5, 1.5], dtype=torch.float64),
           "[nan,.5]": torch.tensor([math.nan, 0.5], dtype=torch.float64), "0": 0.0, "1": 1.0}
    for f, fn in forms.items():
        for bname, bval in bad.items():
            def run(fn=fn, bval=bval):
                try:
                    fn(bval.clone() if torch.is_tensor(bval) else bval)
                    return "ok"
                except Exception as e:                           # noqa: BLE001
                    return type(e).__name__
            P[f"gerr/{f}/{bname}"] = run()

    # a per-head gamma tensor reused by several calls (and left as it was)
    def gmut():
        Q, K, V = qkv((2, 3), 6, 4, 3, seed=43)
        gm = torch.tensor([0.2, 0.6, 0.9], dtype=torch.float64)
        outs = [la.retention_parallel(Q, K, V, gm), la.retention_recurrent(Q, K, V, gm),
                la.retention_chunkwise(Q, K, V, gm, 4), la.unified_recurrence(Q, K, V, "retention", gamma=gm)]
        return tuple(outs) + (gm,)
    rec("gmut", gmut)

    # inputs written?
    Q, K, V = qkv((2,), 7, 4, 3, seed=44)
    allf = dict(lin, ret_par=lambda Q, K, V: la.retention_parallel(Q, K, V, 0.7),
                ret_rec=lambda Q, K, V: la.retention_recurrent(Q, K, V, 0.7),
                ret_chunk=lambda Q, K, V: la.retention_chunkwise(Q, K, V, 0.7, 3),
                uni=lambda Q, K, V: la.unified_recurrence(Q, K, V, "gated", gate=torch.full((7,), 0.5,
                                                                                              dtype=torch.float64)))
    for f, fn in allf.items():
        def mut(fn=fn):
            Qc, Kc, Vc = Q.clone(), K.clone(), V.clone()
            fn(Qc, Kc, Vc)
            return torch.stack([(Qc - Q).abs().max(), (Kc - K).abs().max(), (Vc - V).abs().max()])
        rec(f"mut/{f}", mut)

    # float32 dtypes
    Q, K, V = qkv((2,), 6, 4, 3, seed=45, dtype=torch.float32)
    for f, fn in allf.items():
        if f == "uni":
            fn = lambda Q, K, V: la.unified_recurrence(Q, K, V, "retention", gamma=0.9)   # noqa: E731
        rec(f"f32/{f}", lambda: str(fn(Q, K, V).dtype))

    # unified modes
    Q, K, V = qkv((2,), 7, 4, 3, seed=46)
    gg = torch.Generator().manual_seed(9)
    gate1 = torch.rand(7, generator=gg, dtype=torch.float64)
    gate2 = torch.rand(2, 7, generator=gg, dtype=torch.float64)
    rec("uni/linear", lambda: la.unified_recurrence(Q, K, V, "linear"))
    rec("uni/ret0.6", lambda: la.unified_recurrence(Q, K, V, "retention", gamma=0.6))
    rec("uni/gated(L)", lambda: la.unified_recurrence(Q, K, V, "gated", gate=gate1))
    rec("uni/gated(2,L)", lambda: la.unified_recurrence(Q, K, V, "gated", gate=gate2))
    for name, kw in [("uni_err/mode", dict(mode="softmax")), ("uni_err/nogamma", dict(mode="retention")),
                     ("uni_err/nogate", dict(mode="gated"))]:
        def err(kw=kw):
            try:
                la.unified_recurrence(Q, K, V, **kw)
                return "ok"
            except Exception as e:                               # noqa: BLE001
                return type(e).__name__
        P[name] = err()

    rec("ms", lambda: la.multiscale_decays(4))
    rec("ms_dtype", lambda: str(la.multiscale_decays(3).dtype))

    # largest decay matrix chunkwise builds (base: the chunk size)
    def maxL():
        seen = [0]
        orig = la.decay_matrix

        def spy(gamma, L):
            seen[0] = max(seen[0], L)
            return orig(gamma, L)
        la.decay_matrix = spy
        try:
            Q, K, V = qkv((), 64, 4, 3, seed=47)
            la.retention_chunkwise(Q, K, V, 0.9, 8)
        finally:
            la.decay_matrix = orig
        return str(seen[0])
    rec("maxL", maxL)
    return P


def same(a, b):
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(map(same, a, b))
    if not (torch.is_tensor(a) and torch.is_tensor(b)):
        return a == b
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if not torch.equal(torch.isnan(a), torch.isnan(b)):
        return False
    fin = ~torch.isnan(a)
    a, b = a[fin], b[fin]
    if a.numel() == 0:
        return True
    if not torch.equal(torch.isinf(a), torch.isinf(b)):
        return False
    fa = ~torch.isinf(a)
    scale = 1 + b[fa].abs().max().item() if fa.any() else 1
    return bool(((a[fa] - b[fa]).abs().max() <= 1e-10 * scale).item()) if fa.any() else torch.equal(a, b)


def main(cases):
    base = probes(load("base"))
    bad_alt = []
    for c in cases:
        kind = c.split("_")[0]
        try:
            p = probes(load(c))
        except Exception as e:                                   # noqa: BLE001
            print(f"{c}: module fails to import: {type(e).__name__}: {e}")
            continue
        diff = [k for k in base if not same(p.get(k), base[k])]
        if kind == "alt" and diff:
            bad_alt.append(c)
        groups = {}
        for k in diff:
            groups.setdefault(k.split("/")[0], []).append(k[len(k.split("/")[0]) + 1:] or "*")
        summary = "; ".join(f"{g}[{len(v)}]" + (f" e.g. {v[0]}" if v[0] != "*" else "") for g, v in groups.items())
        print(f"{c}: {'SAME AS BASE' if not diff else summary}")
    if bad_alt:
        print("ALTERNATIVES THAT DIFFER:", bad_alt)
        sys.exit(1)


if __name__ == "__main__":
    names = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "linear_attention.py").exists()
                                   and p.name != "base")
    main(names)
