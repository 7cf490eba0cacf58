"""Probe one case's linear_attention.py and compare it with naive float64 references.

    /work/main/.venv/bin/python ref_check.py CASE_DIR [CASE_DIR ...]

The references below are written from the docstrings as explicit sums over j <= i (no matmul tricks, no
recurrence), independent of base/. `probe(la)` runs ~150 small probes on a module and returns
{probe name: result}; `expected()` returns the same names with the reference result (a float64 tensor,
a dtype, the name of the exception that must be raised, True/False, ...). `compare` lists the probes where a
module differs from the reference (tolerance 1e-9 for float64, 1e-4 for float32).
"""
import importlib.util
import math
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

torch.set_num_threads(1)
DT = torch.float64


# ----------------------------------------------------------------------------- references (explicit sums)

def phi(x):
    return F.elu(x) + 1


def _flat(*ts):
    lead = torch.broadcast_shapes(*(t.shape[:-2] for t in ts))
    return lead, [t.expand(*lead, *t.shape[-2:]).reshape(-1, *t.shape[-2:]) for t in ts]


def ref_linear(Q, K, V):
    lead, (Qf, Kf, Vf) = _flat(Q, K, V)
    out = torch.zeros(Qf.shape[0], Q.shape[-2], V.shape[-1], dtype=DT)
    for b in range(Qf.shape[0]):
        for i in range(Q.shape[-2]):
            num, den = torch.zeros(V.shape[-1], dtype=DT), 0.0
            for j in range(i + 1):
                w = float((phi(Qf[b, i]) * phi(Kf[b, j])).sum())
                num += w * Vf[b, j]
                den += w
            out[b, i] = num / den
    return out.reshape(*lead, Q.shape[-2], V.shape[-1])


def _gam(gamma, lead, nb):
    g = torch.as_tensor(gamma, dtype=DT)
    return g.expand(lead).reshape(-1) if g.ndim else g.expand(nb)


def ref_retention(Q, K, V, gamma):
    lead, (Qf, Kf, Vf) = _flat(Q, K, V)
    g = _gam(gamma, lead, Qf.shape[0])
    out = torch.zeros(Qf.shape[0], Q.shape[-2], V.shape[-1], dtype=DT)
    for b in range(Qf.shape[0]):
        for n in range(Q.shape[-2]):
            for m in range(n + 1):
                out[b, n] += float(g[b]) ** (n - m) * float((Qf[b, n] * Kf[b, m]).sum()) * Vf[b, m]
    return out.reshape(*lead, Q.shape[-2], V.shape[-1])


def ref_state(K, V, gamma):
    L = K.shape[-2]
    S = torch.zeros(K.shape[-1], V.shape[-1], dtype=DT)
    for m in range(L):
        S += float(gamma) ** (L - 1 - m) * torch.outer(K[m], V[m])
    return S


def ref_gated(Q, K, V, gate):
    L = Q.shape[-2]
    out = torch.zeros(L, V.shape[-1], dtype=DT)
    for t in range(L):
        for s in range(t + 1):
            w = 1.0
            for r in range(s + 1, t + 1):
                w *= float(gate[r])
            out[t] += w * float((Q[t] * K[s]).sum()) * V[s]
    return out


def qkv(lead, L, m, d_v, seed, dtype=DT, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*lead, L, m, generator=g, dtype=dtype) + shift,
            torch.randn(*lead, L, m, generator=g, dtype=dtype) + shift,
            torch.randn(*lead, L, d_v, generator=g, dtype=dtype))


# ----------------------------------------------------------------------------- largest intermediate

class Biggest(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.numel = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in (out if isinstance(out, (tuple, list)) else [out]):
            if isinstance(t, torch.Tensor):
                self.numel = max(self.numel, t.numel())
        return out


def biggest(fn):
    with Biggest() as mode:
        fn()
    return mode.numel


# ----------------------------------------------------------------------------- probes

SHAPES = {"u": ((), 5, 4, 3), "b": ((2,), 7, 3, 5), "bh": ((2, 3), 6, 4, 4), "one": ((2,), 1, 3, 4)}


def steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


def forms(la):
    return {"linpar": la.linear_attention_parallel, "linrec": la.linear_attention_recurrent,
            "step": lambda Q, K, V: steps(la, Q, K, V)}


def cases():
    """(name, run(la), reference thunk) for every probe. Each section is its own function, so the inputs that
    its lambdas close over are never rebound by a later section."""
    out = []

    def add(name, run, ref):
        out.append((name, run, ref))

    def linear_forms():
        for k, (sname, (lead, L, m, d_v)) in enumerate(SHAPES.items()):
            Q, K, V = qkv(lead, L, m, d_v, seed=k + 1)
            want = ref_linear(Q, K, V)
            for f in ("linpar", "linrec", "step"):
                add(f"{f}/{sname}", lambda la, f=f, Q=Q, K=K, V=V: forms(la)[f](Q, K, V), lambda w=want: w)
        Q, K, V = qkv((), 6, 3, 2, seed=40, shift=-30.0)
        want = ref_linear(Q, K, V)
        for f in ("linpar", "linrec", "step"):
            add(f"{f}/very_negative", lambda la, f=f: forms(la)[f](Q, K, V), lambda: want)
        Qc, Kc, _ = qkv((), 6, 3, 2, seed=41, shift=-3.0)
        Vc = torch.tensor([1.0, -2.0], dtype=DT).expand(6, 2)
        for f in ("linpar", "linrec", "step"):
            add(f"{f}/constant_V", lambda la, f=f: forms(la)[f](Qc, Kc, Vc), lambda: Vc.clone())

    def retention_forms():
        for k, (sname, (lead, L, m, d_v)) in enumerate(SHAPES.items()):
            Q, K, V = qkv(lead, L, m, d_v, seed=50 + k)
            for gamma in (0.0, 0.3, 0.9, 1.0):
                want = ref_retention(Q, K, V, gamma)
                ref = lambda w=want: w                                                      # noqa: E731
                add(f"retpar/{sname}/g{gamma}", lambda la, Q=Q, K=K, V=V, g=gamma: la.retention_parallel(Q, K, V, g), ref)
                add(f"retrec/{sname}/g{gamma}", lambda la, Q=Q, K=K, V=V, g=gamma: la.retention_recurrent(Q, K, V, g), ref)
                add(f"chunk3/{sname}/g{gamma}", lambda la, Q=Q, K=K, V=V, g=gamma: la.retention_chunkwise(Q, K, V, g, 3), ref)
                add(f"unif_ret/{sname}/g{gamma}",
                    lambda la, Q=Q, K=K, V=V, g=gamma: la.unified_recurrence(Q, K, V, "retention", gamma=g), ref)

    def chunks():
        Q, K, V = qkv((), 9, 4, 3, seed=70)
        for gamma in (0.0, 0.7, 1.0):
            want, state = ref_retention(Q, K, V, gamma), ref_state(K, V, gamma)
            for cs in (1, 2, 3, 4, 5, 9, 12):
                add(f"chunk/cs{cs}/g{gamma}", lambda la, cs=cs, g=gamma: la.retention_chunkwise(Q, K, V, g, cs),
                    lambda w=want: w)
                add(f"chunk_state/cs{cs}/g{gamma}",
                    lambda la, cs=cs, g=gamma: la.retention_chunkwise(Q, K, V, g, cs, return_state=True)[1],
                    lambda w=state: w)

    def per_head():
        Q, K, V = qkv((2, 3), 8, 4, 3, seed=71)
        gh = torch.tensor([0.0, 0.6, 1.0], dtype=DT)
        want = ref_retention(Q, K, V, gh)
        add("perhead/retpar", lambda la: la.retention_parallel(Q, K, V, gh), lambda: want)
        add("perhead/retrec", lambda la: la.retention_recurrent(Q, K, V, gh), lambda: want)
        add("perhead/chunk3", lambda la: la.retention_chunkwise(Q, K, V, gh, 3), lambda: want)
        add("perhead/unified", lambda la: la.unified_recurrence(Q, K, V, "retention", gamma=gh), lambda: want)
        add("perhead/chunk_state_shape",
            lambda la: tuple(la.retention_chunkwise(Q, K, V, gh, 3, return_state=True)[1].shape), lambda: (2, 3, 4, 3))

    def validation():
        Q, K, V = qkv((), 4, 3, 3, seed=72)
        Qb, Kb, Vb = qkv((2,), 4, 3, 3, seed=73)
        bads = {"1.5": 1.5, "-0.1": -0.1, "nan": float("nan"), "head_bad": torch.tensor([0.5, 1.2], dtype=DT)}
        calls = {"retpar": lambda la, a, g: la.retention_parallel(*a, g),
                 "retrec": lambda la, a, g: la.retention_recurrent(*a, g),
                 "chunk": lambda la, a, g: la.retention_chunkwise(*a, g, 2),
                 "unified": lambda la, a, g: la.unified_recurrence(*a, "retention", gamma=g),
                 "as_gamma": lambda la, a, g: la.as_gamma(g, a[0])}
        for bname, bad in bads.items():
            args = (Qb, Kb, Vb) if bname == "head_bad" else (Q, K, V)
            for f, call in calls.items():
                add(f"raises/{f}/{bname}", lambda la, call=call, args=args, bad=bad: call(la, args, bad), lambda: "ValueError")
        add("raises/unified/unknown_mode", lambda la: la.unified_recurrence(Q, K, V, "softmax"), lambda: "ValueError")
        add("raises/unified/no_gamma", lambda la: la.unified_recurrence(Q, K, V, "retention"), lambda: "ValueError")
        add("raises/unified/no_gate", lambda la: la.unified_recurrence(Q, K, V, "gated"), lambda: "ValueError")
        add("as_gamma/shape_scalar", lambda la: tuple(la.as_gamma(0.5, Q).shape), lambda: (1, 1))
        add("as_gamma/shape_head", lambda la: tuple(la.as_gamma(torch.tensor([0.5, 0.2]), Q).shape), lambda: (2, 1, 1))
        add("as_gamma/dtype", lambda la: la.as_gamma(0.5, Q.float()).dtype, lambda: torch.float32)
        add("decay/g0.5", lambda la: la.decay_matrix(la.as_gamma(0.5, Q), 5),
            lambda: torch.tensor([[0.5 ** (n - m) if m <= n else 0.0 for m in range(5)] for n in range(5)], dtype=DT))
        add("decay/g0", lambda la: la.decay_matrix(la.as_gamma(0.0, Q), 4), lambda: torch.eye(4, dtype=DT))
        add("multiscale/values", lambda la: la.multiscale_decays(5).double(),
            lambda: torch.tensor([1 - 2.0 ** (-5 - h) for h in range(5)], dtype=DT))
        add("multiscale/dtype", lambda la: la.multiscale_decays(3).dtype, lambda: torch.get_default_dtype())

    def unified():
        Q, K, V = qkv((2,), 7, 4, 3, seed=74)
        lin = ref_retention(Q, K, V, 1.0)
        add("unified/linear", lambda la: la.unified_recurrence(Q, K, V, "linear"), lambda: lin)
        gate = torch.tensor([0.9, 0.1, 0.95, 0.0, 0.5, 1.0, 0.3], dtype=DT)
        w1 = torch.stack([ref_gated(Q[b], K[b], V[b], gate) for b in range(2)])
        add("unified/gated_L", lambda la: la.unified_recurrence(Q, K, V, "gated", gate=gate), lambda: w1)
        gate2 = torch.stack([gate, gate.flip(0)])
        w2 = torch.stack([ref_gated(Q[b], K[b], V[b], gate2[b]) for b in range(2)])
        add("unified/gated_BL", lambda la: la.unified_recurrence(Q, K, V, "gated", gate=gate2), lambda: w2)
        Qs, Ks, Vs = qkv((), 6, 3, 3, seed=75)
        w3 = ref_gated(Qs, Ks, Vs, gate[:6])
        add("unified/gated_square", lambda la: la.unified_recurrence(Qs, Ks, Vs, "gated", gate=gate[:6]), lambda: w3)

    def float32():
        Q, K, V = qkv((2,), 6, 4, 3, seed=76, dtype=torch.float32)
        f32 = {"linpar": lambda la: la.linear_attention_parallel(Q, K, V),
               "linrec": lambda la: la.linear_attention_recurrent(Q, K, V),
               "step": lambda la: steps(la, Q, K, V),
               "retpar": lambda la: la.retention_parallel(Q, K, V, 0.9),
               "retrec": lambda la: la.retention_recurrent(Q, K, V, 0.9),
               "chunk": lambda la: la.retention_chunkwise(Q, K, V, 0.9, 4),
               "unified": lambda la: la.unified_recurrence(Q, K, V, "retention", gamma=0.9),
               "unified_gated": lambda la: la.unified_recurrence(Q, K, V, "gated", gate=torch.full((6,), 0.9))}
        Qd, Kd, Vd = Q.double(), K.double(), V.double()
        lin, ret = ref_linear(Qd, Kd, Vd), ref_retention(Qd, Kd, Vd, 0.9)
        for f, run in f32.items():
            add(f"f32dtype/{f}", lambda la, run=run: run(la).dtype, lambda: torch.float32)
            want = lin if f in ("linpar", "linrec", "step") else ret
            add(f"f32val/{f}", lambda la, run=run: run(la), lambda w=want: w)

    def causality():
        Q, K, V = qkv((2,), 9, 4, 3, seed=77)
        Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
        g = torch.Generator().manual_seed(99)
        for a in (Q2, K2, V2):
            a[..., 5:, :] = 10 * torch.randn(a[..., 5:, :].shape, generator=g, dtype=DT)
        runs = {"linpar": lambda la, a: la.linear_attention_parallel(*a),
                "linrec": lambda la, a: la.linear_attention_recurrent(*a),
                "step": lambda la, a: steps(la, *a), "retpar": lambda la, a: la.retention_parallel(*a, 0.9),
                "retrec": lambda la, a: la.retention_recurrent(*a, 0.9),
                "chunk4": lambda la, a: la.retention_chunkwise(*a, 0.9, 4)}
        for f, run in runs.items():
            add(f"causal/{f}", lambda la, run=run: bool(torch.allclose(run(la, (Q, K, V))[..., :5, :],
                                                                       run(la, (Q2, K2, V2))[..., :5, :], atol=1e-10)),
                lambda: True)

    def states():
        Q, K, V = qkv((), 4, 3, 2, seed=78)

        def two_states(la):
            a, b = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
            ya = [a.step(Q[t], K[t], V[t]) for t in range(4)]
            yb = b.step(Q[0], K[0], V[0])
            return torch.stack([ya[0], yb])
        add("state/independent", two_states, lambda: torch.stack([V[0], V[0]]))

        def layout(la):
            s = la.LinearAttentionState(3, 2)
            s.step(Q[0], K[0], V[0])
            return (tuple(s.S.shape), tuple(s.z.shape))
        add("state/layout", layout, lambda: ((3, 2), (3,)))

    def mutation_and_cost():
        Q, K, V = qkv((2,), 9, 4, 3, seed=79)

        def no_mutation(la):
            copies = [t.clone() for t in (Q, K, V)]
            la.linear_attention_parallel(Q, K, V), la.linear_attention_recurrent(Q, K, V), steps(la, Q, K, V)
            la.retention_parallel(Q, K, V, 0.8), la.retention_recurrent(Q, K, V, 0.8)
            la.retention_chunkwise(Q, K, V, 0.8, 4, return_state=True)
            la.unified_recurrence(Q, K, V, "retention", gamma=0.8)
            return all(torch.equal(a, b) for a, b in zip(copies, (Q, K, V)))
        add("inputs_unchanged", no_mutation, lambda: True)
        Ql, Kl, Vl = qkv((), 512, 4, 4, seed=80)     # an L x L matrix has 262144 entries here
        add("cost/chunk_no_LxL", lambda la: biggest(lambda: la.retention_chunkwise(Ql, Kl, Vl, 0.9, 8)) < 512 * 512 // 4,
            lambda: True)
        add("cost/linrec_no_LxL", lambda la: biggest(lambda: la.linear_attention_recurrent(Ql, Kl, Vl)) < 512 * 512 // 4,
            lambda: True)
        add("cost/retrec_no_LxL", lambda la: biggest(lambda: la.retention_recurrent(Ql, Kl, Vl, 0.9)) < 512 * 512 // 4,
            lambda: True)

    for section in (linear_forms, retention_forms, chunks, per_head, validation, unified, float32, causality, states,
                    mutation_and_cost):
        section()
    return out


def run_one(thunk):
    try:
        return thunk()
    except Exception as exc:                                                  # noqa: BLE001
        return f"raise:{type(exc).__name__}"


def same(got, want):
    if isinstance(want, str) and want in ("ValueError",):
        return got == "raise:ValueError"
    if isinstance(want, torch.Tensor):
        if not isinstance(got, torch.Tensor) or got.shape != want.shape:
            return False
        tol = 1e-4 if got.dtype == torch.float32 else 1e-9
        return bool(torch.allclose(got.double(), want.double(), rtol=tol, atol=tol, equal_nan=False))
    return got == want


def load(case_dir):
    path = Path(case_dir).resolve() / "linear_attention.py"
    spec = importlib.util.spec_from_file_location(f"la_{abs(hash(str(path)))}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_EXPECTED = None


def expected():
    global _EXPECTED
    if _EXPECTED is None:
        _EXPECTED = {name: ref() for name, _, ref in cases()}
    return _EXPECTED


def probe(la):
    return {name: run_one(lambda run=run: run(la)) for name, run, _ in cases()}


def compare(la):
    exp, got = expected(), probe(la)
    return [n for n in exp if not same(got[n], exp[n])], got


if __name__ == "__main__":
    for d in sys.argv[1:]:
        bad, got = compare(load(d))
        print(f"{d}: {len(bad)} of {len(expected())} probes differ from the reference")
        for n in bad:
            g = got[n]
            print("   ", n, "->", g if not isinstance(g, torch.Tensor) else f"tensor{tuple(g.shape)} {g.dtype}")
