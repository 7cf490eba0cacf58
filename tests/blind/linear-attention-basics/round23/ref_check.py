"""Round-23 reference check: naive float64 loops written from the lesson's formulas, against every case folder.

The references use plain Python floats and explicit loops, nothing from any case's module:
    φ(x) = x + 1 (x > 0), exp(x) (x <= 0)
    linear attention   y_i = Σ_{j≤i} (φ(q_i)·φ(k_j)) v_j / Σ_{j≤i} φ(q_i)·φ(k_j)
    one recurrence     y_t = Σ_{s≤t} (A_{s+1} ⋯ A_t) (q_t·k_s) v_s      (retention: A = γ; linear mode: A = 1)
    chunk state        R = Σ_s γ^(L-1-s) k_sᵀ v_s   (an m × d_v matrix)
    step state         S = Σ φ(k_j) v_jᵀ (m × d_v), z = Σ φ(k_j)
    multiscale         γ_h = 1 - 2^(-5-h)

Every probe gives ok / diff / raise:<Error>; a table counts the non-ok probes per group and case, and each case's
non-ok groups are compared with the groups its bug is expected to touch (base and alternatives: none).

    OMP_NUM_THREADS=1 /work/main/.venv/bin/python ref_check.py
"""
import importlib.util
import itertools
import math
import sys
import warnings
from pathlib import Path

import torch

warnings.filterwarnings("ignore")
torch.set_num_threads(1)
HERE = Path(__file__).resolve().parent
TOL = 1e-9


# ----------------------------------------------------------------------------- references (plain floats)

def phi(x):
    return x + 1.0 if x > 0 else math.exp(x)


def dot(a, b):
    return sum(x * y for x, y in zip(a, b))


def lead_iter(lead):
    return itertools.product(*[range(n) for n in lead])


def ref_linear(Q, K, V):
    lead, L = Q.shape[:-2], Q.shape[-2]
    out = torch.zeros(*lead, L, V.shape[-1], dtype=torch.float64)
    for idx in lead_iter(lead):
        q, k, v = Q[idx].tolist(), K[idx].tolist(), V[idx].tolist()
        fq = [[phi(x) for x in row] for row in q]
        fk = [[phi(x) for x in row] for row in k]
        for i in range(L):
            w = [dot(fq[i], fk[j]) for j in range(i + 1)]
            tot = sum(w)
            out[idx + (i,)] = torch.tensor([sum(w[j] * v[j][c] for j in range(i + 1)) / tot
                                            for c in range(len(v[0]))], dtype=torch.float64)
    return out


def ref_gated(Q, K, V, A):
    """A: tensor broadcastable to Q.shape[:-2] + (L,)."""
    lead, L = Q.shape[:-2], Q.shape[-2]
    A = torch.as_tensor(A, dtype=torch.float64).broadcast_to(*lead, L)
    out = torch.zeros(*lead, L, V.shape[-1], dtype=torch.float64)
    for idx in lead_iter(lead):
        q, k, v, a = Q[idx].tolist(), K[idx].tolist(), V[idx].tolist(), A[idx].tolist()
        for t in range(L):
            row = [0.0] * len(v[0])
            for s in range(t + 1):
                w = 1.0
                for r in range(s + 1, t + 1):
                    w *= a[r]
                w *= dot(q[t], k[s])
                for c in range(len(row)):
                    row[c] += w * v[s][c]
            out[idx + (t,)] = torch.tensor(row, dtype=torch.float64)
    return out


def ref_retention(Q, K, V, gamma):
    lead, L = Q.shape[:-2], Q.shape[-2]
    g = torch.as_tensor(gamma, dtype=torch.float64).broadcast_to(lead)
    return ref_gated(Q, K, V, g[..., None].expand(*lead, L))


def ref_chunk_state(K, V, gamma):
    lead, L = K.shape[:-2], K.shape[-2]
    g = torch.as_tensor(gamma, dtype=torch.float64).broadcast_to(lead)
    out = torch.zeros(*lead, K.shape[-1], V.shape[-1], dtype=torch.float64)
    for idx in lead_iter(lead):
        k, v, gg = K[idx].tolist(), V[idx].tolist(), float(g[idx])
        for a in range(len(k[0])):
            for c in range(len(v[0])):
                out[idx + (a, c)] = sum(gg ** (L - 1 - s) * k[s][a] * v[s][c] for s in range(L))
    return out


def ref_step_state(K, V):
    lead, L = K.shape[:-2], K.shape[-2]
    S = torch.zeros(*lead, K.shape[-1], V.shape[-1], dtype=torch.float64)
    z = torch.zeros(*lead, K.shape[-1], dtype=torch.float64)
    for idx in lead_iter(lead):
        k, v = K[idx].tolist(), V[idx].tolist()
        fk = [[phi(x) for x in row] for row in k]
        for a in range(len(k[0])):
            z[idx + (a,)] = sum(fk[s][a] for s in range(L))
            for c in range(len(v[0])):
                S[idx + (a, c)] = sum(fk[s][a] * v[s][c] for s in range(L))
    return S, z


# ----------------------------------------------------------------------------- probing

def close(got, want):
    if not isinstance(got, torch.Tensor) or tuple(got.shape) != tuple(want.shape):
        return False
    got = got.double()
    if not bool(torch.isfinite(got).all()):
        return False
    return bool(((got - want).abs() <= TOL * (1 + want.abs())).all())


def run(fn):
    try:
        return "ok" if fn() else "diff"
    except Exception as e:                                      # noqa: BLE001
        return "raise:" + type(e).__name__


def qkv(lead, L, m, d_v, seed, shift=0.0):
    g = torch.Generator().manual_seed(seed)
    Q = torch.randn(*lead, L, m, generator=g, dtype=torch.float64) + shift
    K = torch.randn(*lead, L, m, generator=g, dtype=torch.float64) + shift
    V = torch.randn(*lead, L, d_v, generator=g, dtype=torch.float64)
    return Q, K, V


def by_steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return st, torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


LEADS = [(), (2,), (2, 3)]
LS = [1, 4, 9]
DIMS = [(3, 2), (4, 4)]
GAMMAS = [0.0, 0.3, 0.9, 1.0]


def build_probes():
    """Inputs and references are computed once; each probe is (group, label, fn(la) -> bool)."""
    P = []
    seed = 100
    for lead, L, (m, d_v), shift in itertools.product(LEADS, LS, DIMS, [0.0, -4.0]):
        seed += 1
        Q, K, V = qkv(lead, L, m, d_v, seed, shift)
        want = ref_linear(Q, K, V)
        S_ref, z_ref = ref_step_state(K, V)
        lab = f"lead={lead} L={L} m={m} dv={d_v} shift={shift}"
        P.append(("linpar", lab, lambda la, Q=Q, K=K, V=V, w=want: close(la.linear_attention_parallel(Q, K, V), w)))
        P.append(("linrec", lab, lambda la, Q=Q, K=K, V=V, w=want: close(la.linear_attention_recurrent(Q, K, V), w)))
        P.append(("step", lab, lambda la, Q=Q, K=K, V=V, w=want: close(by_steps(la, Q, K, V)[1], w)))

        def state_ok(la, Q=Q, K=K, V=V, S_ref=S_ref, z_ref=z_ref):
            st, _ = by_steps(la, Q, K, V)
            return close(st.S, S_ref) and close(st.z, z_ref)
        P.append(("step_state", lab, state_ok))

    def independent(la):
        a, b = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
        Q, K, V = qkv((), 4, 3, 2, 7)
        for t in range(4):
            a.step(Q[t], K[t], V[t])
        return float(b.S.abs().sum()) == 0.0 and float(b.z.abs().sum()) == 0.0
    P.append(("step_state", "two objects independent", independent))

    x = torch.cat([torch.linspace(-40, 40, 801, dtype=torch.float64), torch.tensor([0.0, -1e-9, 1e-9])])
    fm_want = torch.tensor([phi(v) for v in x.tolist()], dtype=torch.float64)
    P.append(("feature_map", "801 points in [-40, 40]", lambda la: close(la.feature_map(x), fm_want)))

    for lead, L, (m, d_v), gamma in itertools.product(LEADS, LS, DIMS, GAMMAS):
        seed += 1
        Q, K, V = qkv(lead, L, m, d_v, seed)
        want = ref_retention(Q, K, V, gamma)
        lab = f"lead={lead} L={L} m={m} dv={d_v} gamma={gamma}"
        P.append(("retpar", lab, lambda la, Q=Q, K=K, V=V, g=gamma, w=want: close(la.retention_parallel(Q, K, V, g), w)))
        P.append(("retrec", lab, lambda la, Q=Q, K=K, V=V, g=gamma, w=want: close(la.retention_recurrent(Q, K, V, g), w)))
        P.append(("unified", lab + " retention",
                  lambda la, Q=Q, K=K, V=V, g=gamma, w=want: close(la.unified_recurrence(Q, K, V, "retention", gamma=g), w)))
    heads = [((2, 3), [0.0, 0.5, 1.0], 3), ((2, 3), [0.3, 0.9, 0.6], 4), ((3,), [0.2, 0.0, 0.95], 2), ((4,), [0.7, 1.0, 0.1, 0.5], 5)]
    for lead, gl, d_v in heads:
        for L in (5, 9):
            seed += 1
            Q, K, V = qkv(lead, L, 4, d_v, seed)
            gamma = torch.tensor(gl, dtype=torch.float64)
            want = ref_retention(Q, K, V, gamma)
            lab = f"per-head lead={lead} L={L} gamma={gl}"
            P.append(("retpar", lab, lambda la, Q=Q, K=K, V=V, g=gamma, w=want: close(la.retention_parallel(Q, K, V, g), w)))
            P.append(("retrec", lab, lambda la, Q=Q, K=K, V=V, g=gamma, w=want: close(la.retention_recurrent(Q, K, V, g), w)))
            for cs in (1, 2, 4, L + 1):
                P.append(("chunk", lab + f" cs={cs}",
                          lambda la, Q=Q, K=K, V=V, g=gamma, w=want, cs=cs: close(la.retention_chunkwise(Q, K, V, g, cs), w)))
            P.append(("unified", lab + " retention",
                      lambda la, Q=Q, K=K, V=V, g=gamma, w=want: close(la.unified_recurrence(Q, K, V, "retention", gamma=g), w)))

    L = 9
    for lead, gamma in itertools.product([(), (2,)], [0.0, 0.7, 1.0]):
        seed += 1
        Q, K, V = qkv(lead, L, 4, 3, seed)
        want = ref_retention(Q, K, V, gamma)
        R_ref = ref_chunk_state(K, V, gamma)
        for cs in range(1, L + 4):
            lab = f"lead={lead} L={L} gamma={gamma} cs={cs}"
            P.append(("chunk", lab, lambda la, Q=Q, K=K, V=V, g=gamma, w=want, cs=cs: close(la.retention_chunkwise(Q, K, V, g, cs), w)))

            def state(la, Q=Q, K=K, V=V, g=gamma, R_ref=R_ref, cs=cs):
                res = la.retention_chunkwise(Q, K, V, g, cs, return_state=True)
                return isinstance(res, tuple) and len(res) == 2 and close(res[1], R_ref)
            P.append(("chunk_state", lab, state))

    for lead, L in itertools.product(LEADS, (1, 6)):
        seed += 1
        Q, K, V = qkv(lead, L, 3, 2, seed)
        g = torch.Generator().manual_seed(seed)
        glead = lead if lead else ()
        gates = [torch.rand(L, generator=g, dtype=torch.float64)]
        if L >= 3:
            gates.append(torch.tensor([0.0, 1.0] + [0.5] * (L - 2), dtype=torch.float64))
        if lead:
            gates.append(torch.rand(*glead, L, generator=g, dtype=torch.float64))
        for i, gate in enumerate(gates):
            want = ref_gated(Q, K, V, gate)
            P.append(("unified", f"gated lead={lead} L={L} gate{i} shape={tuple(gate.shape)}",
                      lambda la, Q=Q, K=K, V=V, gate=gate, w=want: close(la.unified_recurrence(Q, K, V, "gated", gate=gate), w)))
        want = ref_gated(Q, K, V, torch.ones(L, dtype=torch.float64))
        P.append(("unified", f"linear lead={lead} L={L}",
                  lambda la, Q=Q, K=K, V=V, w=want: close(la.unified_recurrence(Q, K, V, "linear"), w)))

    def raises(fn):
        try:
            fn()
        except ValueError:
            return True
        except Exception:                                      # noqa: BLE001
            return False
        return False

    Q, K, V = qkv((2, 3), 5, 3, 3, 5)
    bad = [1.5, -0.1, float("nan"), 1 + 1e-9, -1e-12, torch.tensor([0.5, float("nan"), 0.2]), torch.tensor([0.5, 1.2, 0.2])]
    for gb in bad:
        lab = f"gamma={gb}"
        P.append(("gamma_reject", "retpar " + lab, lambda la, g=gb: raises(lambda: la.retention_parallel(Q, K, V, g))))
        P.append(("gamma_reject", "retrec " + lab, lambda la, g=gb: raises(lambda: la.retention_recurrent(Q, K, V, g))))
        P.append(("gamma_reject", "chunk " + lab, lambda la, g=gb: raises(lambda: la.retention_chunkwise(Q, K, V, g, 2))))
        P.append(("gamma_reject", "unified " + lab,
                  lambda la, g=gb: raises(lambda: la.unified_recurrence(Q, K, V, "retention", gamma=g))))
    for gg in (0.0, 1.0, torch.tensor([0.0, 1.0, 0.0], dtype=torch.float64)):
        lab = f"gamma={gg} accepted"
        for nm, fn in (("retpar", lambda la, g: la.retention_parallel(Q, K, V, g)),
                       ("retrec", lambda la, g: la.retention_recurrent(Q, K, V, g)),
                       ("chunk", lambda la, g: la.retention_chunkwise(Q, K, V, g, 2))):
            P.append(("gamma_accept", f"{nm} {lab}", lambda la, fn=fn, g=gg: bool(torch.isfinite(fn(la, g)).all())))
        P.append(("gamma_accept", f"as_gamma shape {lab}",
                  lambda la, g=gg: tuple(la.as_gamma(g, Q).shape) == tuple(torch.as_tensor(g).shape) + (1, 1)))

    for mode, kw in (("Linear", {}), ("mamba", {}), ("", {}), ("retention", {}), ("gated", {}), ("retnet", {"gamma": 0.5})):
        P.append(("unified_reject", f"mode={mode!r} {kw}",
                  lambda la, mode=mode, kw=kw: raises(lambda: la.unified_recurrence(Q, K, V, mode, **kw))))

    for H in (1, 4, 8):
        want = torch.tensor([1 - 2.0 ** (-5 - h) for h in range(H)], dtype=torch.float64)
        P.append(("multiscale", f"H={H}", lambda la, H=H, w=want: close(la.multiscale_decays(H), w)))

    Q32, K32, V32 = (t.float() for t in qkv((2,), 6, 4, 3, 9))
    forms32 = {"linpar": lambda la: la.linear_attention_parallel(Q32, K32, V32),
               "linrec": lambda la: la.linear_attention_recurrent(Q32, K32, V32),
               "step": lambda la: by_steps(la, Q32, K32, V32)[1],
               "retpar": lambda la: la.retention_parallel(Q32, K32, V32, 0.9),
               "retrec": lambda la: la.retention_recurrent(Q32, K32, V32, 0.9),
               "chunk": lambda la: la.retention_chunkwise(Q32, K32, V32, 0.9, 4),
               "unified": lambda la: la.unified_recurrence(Q32, K32, V32, "retention", gamma=0.9)}
    for nm, fn in forms32.items():
        P.append(("float32", nm, lambda la, fn=fn: fn(la).dtype == torch.float32))

    # float32, gamma = 0.5, L = 200: finite and close to the float64 reference in float32 precision
    Ql, Kl, Vl = qkv((), 200, 4, 3, 11)
    want_l = ref_retention(Ql[:60], Kl[:60], Vl[:60], 0.5)        # reference on the first 60 rows (cost)

    def long32(la, name):
        fn = {"retpar": la.retention_parallel, "retrec": la.retention_recurrent,
              "chunk": lambda *a: la.retention_chunkwise(*a, 50)}[name]
        y = fn(Ql.float(), Kl.float(), Vl.float(), 0.5)
        return bool(torch.isfinite(y).all()) and bool(torch.allclose(y[:60].double(), want_l, rtol=1e-4, atol=1e-4))
    for nm in ("retpar", "retrec", "chunk"):
        P.append(("long_float32", nm, lambda la, nm=nm: long32(la, nm)))

    # chunkwise never asks decay_matrix for more than one chunk (spy on the module's helper)
    def chunk_memory(la, L=64, cs=8):
        sizes = []
        orig = la.decay_matrix

        def spy(gamma, n):
            sizes.append(n)
            return orig(gamma, n)
        la.decay_matrix = spy
        try:
            Qm, Km, Vm = qkv((), L, 4, 3, 12)
            la.retention_chunkwise(Qm, Km, Vm, 0.9, cs)
        finally:
            la.decay_matrix = orig
        return max(sizes, default=0) <= cs
    P.append(("chunk_memory", "L=64 cs=8: decay_matrix sizes <= 8", chunk_memory))
    return P


def causal_scan(la):
    """Informational: which forms' outputs 0..4 move when tokens 5.. change."""
    Q, K, V = qkv((2,), 9, 4, 3, 4)
    Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
    for a in (Q2, K2, V2):
        a[..., 5:, :] = 10 * torch.randn(a[..., 5:, :].shape, generator=torch.Generator().manual_seed(1), dtype=a.dtype)
    forms = {"linpar": la.linear_attention_parallel, "linrec": la.linear_attention_recurrent,
             "step": lambda *a: by_steps(la, *a)[1], "retpar": lambda *a: la.retention_parallel(*a, 0.9),
             "retrec": lambda *a: la.retention_recurrent(*a, 0.9), "chunk": lambda *a: la.retention_chunkwise(*a, 0.9, 4),
             "unified": lambda *a: la.unified_recurrence(*a, "retention", gamma=0.9)}
    moved = []
    for nm, fn in forms.items():
        try:
            y, y2 = fn(Q, K, V), fn(Q2, K2, V2)
            if not torch.allclose(y[..., :5, :], y2[..., :5, :], equal_nan=True):
                moved.append(nm)
        except Exception:                                      # noqa: BLE001
            pass
    return moved


ALL = {"linpar", "linrec", "step", "step_state", "feature_map", "retpar", "retrec", "chunk", "chunk_state", "unified",
       "gamma_reject", "gamma_accept", "unified_reject", "multiscale", "float32", "long_float32", "chunk_memory"}
EXPECTED = {
    "base": set(), "alt_unified_gate_product_matrix": set(), "alt_linrec_via_decoder_state": set(),
    "alt_chunk_carry_token_by_token": set(),
    "bug_family_feature_map_elu_of_shifted_input": {"linpar", "linrec", "step", "step_state", "feature_map"},
    "bug_family_linear_eps_in_every_denominator": {"linpar", "linrec", "step"},
    "bug_family_retention_normalized_like_linear": {"retpar", "retrec", "chunk", "long_float32"},
    "bug_family_loops_walk_the_first_axis": {"linrec", "retrec", "chunk", "chunk_state", "unified", "float32",
                                             "gamma_accept"},   # batched probes there
    "bug_family_state_stored_as_v_kT": {"step_state", "chunk_state"},
    "bug_family_decay_matrix_split_powers": {"retpar", "chunk", "gamma_accept", "long_float32"},
    "bug_linpar_divides_by_column_sums": {"linpar"},
    "bug_step_torch_outer_unbatched": {"step", "step_state", "float32"},   # its float32 probe is batched
    "bug_as_gamma_rejects_zero": {"retpar", "retrec", "chunk", "chunk_state", "unified", "gamma_accept"},
    "bug_chunk_slices_global_decay_matrix": {"chunk_memory"},
    "bug_unified_gate_indexed_on_first_axis": {"unified"},
    "stub_running_sum_of_values": ALL - {"float32", "gamma_accept", "chunk_memory", "feature_map"},   # provided φ kept
}


def load(folder):
    spec = importlib.util.spec_from_file_location(f"la_{folder.name}", folder / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    probes = build_probes()
    groups = sorted({g for g, _, _ in probes}, key=lambda g: [p[0] for p in probes].index(g))
    sizes = {g: sum(1 for p in probes if p[0] == g) for g in groups}
    folders = [HERE / n for n in EXPECTED]
    print(f"{len(probes)} probes in {len(groups)} groups: " + ", ".join(f"{g} {sizes[g]}" for g in groups))
    bad = 0
    rows = []
    for f in folders:
        la = load(f)
        fails = {g: 0 for g in groups}
        kinds = {}
        for g, lab, fn in probes:
            r = run(lambda fn=fn: fn(la))
            if r != "ok":
                fails[g] += 1
                kinds.setdefault(g, set()).add(r)
        got = {g for g, n in fails.items() if n}
        exp = EXPECTED[f.name]
        verdict = "as expected" if got == exp else f"MISMATCH missing={sorted(exp - got)} extra={sorted(got - exp)}"
        if got != exp:
            bad += 1
        moved = causal_scan(la)
        rows.append((f.name, sum(fails.values()), {g: (fails[g], sorted(kinds[g])) for g in got}, moved, verdict))
    for name, n, detail, moved, verdict in rows:
        print(f"\n{name}: {n} non-ok probes; {verdict}; non-causal forms: {moved or 'none'}")
        for g, (k, ks) in detail.items():
            print(f"    {g:15s} {k:4d}/{sizes[g]:<4d} {', '.join(ks)}")
    print("\nALL AS EXPECTED" if bad == 0 else f"\n{bad} case(s) not as expected")
    return bad


if __name__ == "__main__":
    sys.exit(main())
