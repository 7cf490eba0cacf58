"""My own naive float64 reference (double loops over positions, NumPy only) and a comparison of a case with it.

    /work/main/.venv/bin/python check_equiv.py CASE_DIR [--cost]

Prints OK, or one line per property that disagrees. --cost adds a rough timing/memory scaling report
(informational only: wall-clock on a shared 2-core machine is noisy).
"""
import importlib.util
import math
import sys
import time
from pathlib import Path

import numpy as np
import torch

TOL = 1e-10


# ----------------------------------------------------------------------------- the reference (NumPy, float64, loops)

def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def _flat(Q, K, V):
    lead = Q.shape[:-2]
    L, m, d_v = Q.shape[-2], Q.shape[-1], V.shape[-1]
    return lead, L, m, d_v, Q.reshape(-1, L, m), K.reshape(-1, L, m), V.reshape(-1, L, d_v)


def ref_linear(Q, K, V):
    lead, L, m, d_v, Q, K, V = _flat(*(np.asarray(x, dtype=np.float64) for x in (Q, K, V)))
    out = np.zeros((Q.shape[0], L, d_v))
    pq, pk = phi(Q), phi(K)
    for b in range(Q.shape[0]):
        for i in range(L):
            num, den = np.zeros(d_v), 0.0
            for j in range(i + 1):
                a = float(pq[b, i] @ pk[b, j])
                num += a * V[b, j]
                den += a
            out[b, i] = num / den
    return out.reshape(*lead, L, d_v)


def _gammas(gamma, lead):
    g = np.broadcast_to(np.asarray(gamma, dtype=np.float64), lead)
    return g.reshape(-1)


def ref_gated(Q, K, V, gates):
    """o_t = Σ_{s<=t} (Π_{r=s+1..t} A_r) (q_t·k_s) v_s; gates: (B, L) per flattened batch. Also the last state."""
    lead, L, m, d_v, Q, K, V = _flat(*(np.asarray(x, dtype=np.float64) for x in (Q, K, V)))
    out = np.zeros((Q.shape[0], L, d_v))
    state = np.zeros((Q.shape[0], m, d_v))
    for b in range(Q.shape[0]):
        for t in range(L):
            for s in range(t + 1):
                w = 1.0
                for r in range(s + 1, t + 1):
                    w *= gates[b, r]
                out[b, t] += w * float(Q[b, t] @ K[b, s]) * V[b, s]
        for s in range(L):
            w = 1.0
            for r in range(s + 1, L):
                w *= gates[b, r]
            state[b] += w * np.outer(K[b, s], V[b, s])
    return out.reshape(*lead, L, d_v), state.reshape(*lead, m, d_v)


def ref_retention(Q, K, V, gamma):
    """o_n = Σ_{m<=n} γ^(n-m) (q_n·k_m) v_m (0**0 = 1), and the last state Σ_m γ^(L-1-m) k_m v_mᵀ."""
    lead, L = Q.shape[:-2], Q.shape[-2]
    g = _gammas(gamma, lead)
    lead_out, _, m, d_v, Qf, Kf, Vf = _flat(*(np.asarray(x, dtype=np.float64) for x in (Q, K, V)))
    out = np.zeros((Qf.shape[0], L, d_v))
    state = np.zeros((Qf.shape[0], m, d_v))
    for b in range(Qf.shape[0]):
        for n in range(L):
            for mm in range(n + 1):
                out[b, n] += g[b] ** (n - mm) * float(Qf[b, n] @ Kf[b, mm]) * Vf[b, mm]
        for mm in range(L):
            state[b] += g[b] ** (L - 1 - mm) * np.outer(Kf[b, mm], Vf[b, mm])
    return out.reshape(*lead, L, d_v), state.reshape(*lead, m, d_v)


# ----------------------------------------------------------------------------- comparing a case

def load(case_dir):
    path = Path(case_dir).resolve() / "linear_attention.py"
    spec = importlib.util.spec_from_file_location(f"la_{abs(hash(str(path)))}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def qkv(lead, L, m, d_v, seed, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(*lead, L, w, generator=g, dtype=dtype) for w in (m, m, d_v))


class Report:
    def __init__(self):
        self.fails = {}

    def close(self, what, got, want, tol=TOL):
        try:
            got = np.asarray(got.detach().double() if torch.is_tensor(got) else got, dtype=np.float64)
            if got.shape != want.shape:
                return self.fail(what, f"shape {got.shape} != {want.shape}")
            err = float(np.max(np.abs(got - want), initial=0.0)) / (1.0 + float(np.max(np.abs(want), initial=0.0)))
            if not err <= tol:
                self.fail(what, f"rel err {err:.2e}")
        except Exception as e:  # noqa: BLE001
            self.fail(what, f"{type(e).__name__}: {str(e)[:100]}")

    def fail(self, what, msg):
        self.fails.setdefault(what.split(" ")[0], []).append(f"{what}: {msg}")

    def run(self, what, fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001
            self.fail(what, f"{type(e).__name__}: {str(e)[:100]}")


def by_steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


LEADS = [(), (2,), (2, 3)]
LS = [1, 2, 7, 13]
DIMS = [(4, 3), (3, 5)]
GAMMAS = [0.0, 0.5, 0.9, 1.0, 0.999]


def check(la, r):
    seed = 0
    # ---- linear attention, all three faces
    for lead in LEADS:
        for L in LS:
            for m, d_v in DIMS:
                seed += 1
                Q, K, V = qkv(lead, L, m, d_v, seed)
                copies = [x.clone() for x in (Q, K, V)]
                want = ref_linear(Q.numpy(), K.numpy(), V.numpy())
                tag = f"lead={lead} L={L} m={m} d_v={d_v}"
                r.run(f"linear_parallel {tag}", lambda: r.close(f"linear_parallel {tag}", la.linear_attention_parallel(Q, K, V), want))
                r.run(f"linear_recurrent {tag}", lambda: r.close(f"linear_recurrent {tag}", la.linear_attention_recurrent(Q, K, V), want))
                r.run(f"state_step {tag}", lambda: r.close(f"state_step {tag}", by_steps(la, Q, K, V), want))
                if not all(torch.equal(a, b) for a, b in zip(copies, (Q, K, V))):
                    r.fail(f"inputs_written {tag}", "a linear form wrote into its inputs")
    # long sequence, very negative inputs (feature map) and constant values
    Q, K, V = qkv((2,), 300, 4, 3, 99)
    want = ref_linear(Q.numpy(), K.numpy(), V.numpy())
    for name, fn in [("linear_parallel", la.linear_attention_parallel), ("linear_recurrent", la.linear_attention_recurrent),
                     ("state_step", lambda Q, K, V: by_steps(la, Q, K, V))]:
        r.run(f"{name} L=300", lambda: r.close(f"{name} L=300", fn(Q, K, V), want))
        # φ = elu + 1 loses relative precision far below 0 (1 - 1 + e^x), so compare at -20 with 1e-6
        Qn, Kn, Vn = Q[:, :20] - 20, K[:, :20] - 20, V[:, :20]
        r.run(f"{name} very-negative", lambda: r.close(f"{name} very-negative", fn(Qn, Kn, Vn),
                                                       ref_linear(Qn.numpy(), Kn.numpy(), Vn.numpy()), 1e-6))

    # ---- independent states, no aliasing of the caller's tensors
    def states():
        Q, K, V = qkv((2,), 6, 4, 3, 7)
        Q2, K2, V2 = qkv((2,), 6, 4, 3, 8)
        a, b = la.LinearAttentionState(4, 3), la.LinearAttentionState(4, 3)
        ya, yb = [], []
        for t in range(6):
            ya.append(a.step(Q[:, t], K[:, t], V[:, t]))
            yb.append(b.step(Q2[:, t], K2[:, t], V2[:, t]))
        r.close("independent_states a", torch.stack(ya, -2), ref_linear(Q.numpy(), K.numpy(), V.numpy()))
        r.close("independent_states b", torch.stack(yb, -2), ref_linear(Q2.numpy(), K2.numpy(), V2.numpy()))
        c = la.LinearAttentionState(4, 3)
        r.close("independent_states fresh", torch.stack([c.step(Q[:, t], K[:, t], V[:, t]) for t in range(6)], -2),
                ref_linear(Q.numpy(), K.numpy(), V.numpy()))
    r.run("independent_states", states)

    def states_default_dtype():                      # unbatched tokens in the default dtype (float32)
        Q, K, V = qkv((), 5, 4, 3, 17, dtype=torch.float32)
        Q2, K2, V2 = qkv((), 5, 4, 3, 18, dtype=torch.float32)
        for QQ, KK, VV in ((Q, K, V), (Q2, K2, V2), (Q, K, V)):
            st = la.LinearAttentionState(4, 3)
            y = torch.stack([st.step(QQ[t], KK[t], VV[t]) for t in range(5)])
            r.close("independent_states float32 unbatched", y,
                    ref_linear(QQ.double().numpy(), KK.double().numpy(), VV.double().numpy()), 2e-6)
    r.run("independent_states float32 unbatched", states_default_dtype)

    # ---- retention: three faces, every gamma, every chunk size, returned state
    for lead in LEADS:
        for L in LS + [300]:
            if L == 300 and lead == (2, 3):
                continue
            gset = GAMMAS + ([torch.tensor([0.0, 0.5, 0.999], dtype=torch.float64)] if lead == (2, 3) else [])
            if lead == (2,):
                gset = gset + [torch.tensor([0.3, 1.0], dtype=torch.float64)]
            if L == 300:
                gset = [0.0, 0.9, 0.999]
            for m, d_v in DIMS[: 1 if L == 300 else 2]:
                for gamma in gset:
                    seed += 1
                    Q, K, V = qkv(lead, L, m, d_v, seed)
                    copies = [x.clone() for x in (Q, K, V)]
                    g_copy = gamma.clone() if torch.is_tensor(gamma) else gamma
                    want, want_R = ref_retention(Q.numpy(), K.numpy(), V.numpy(),
                                                 gamma.numpy() if torch.is_tensor(gamma) else gamma)
                    gt = gamma.tolist() if torch.is_tensor(gamma) else gamma
                    tag = f"lead={lead} L={L} m={m} d_v={d_v} gamma={gt}"
                    r.run(f"retention_parallel {tag}", lambda: r.close(f"retention_parallel {tag}", la.retention_parallel(Q, K, V, gamma), want))
                    r.run(f"retention_recurrent {tag}", lambda: r.close(f"retention_recurrent {tag}", la.retention_recurrent(Q, K, V, gamma), want))
                    r.run(f"unified_retention {tag}", lambda: r.close(f"unified_retention {tag}", la.unified_recurrence(Q, K, V, "retention", gamma=gamma), want))
                    chunks = [1, 2, 3, 5, max(L - 1, 1), L, L + 3] if L < 300 else [1, 7, 64, 300, 512]
                    for cs in sorted(set(chunks)):
                        def ch(cs=cs):
                            out, R = la.retention_chunkwise(Q, K, V, gamma, cs, return_state=True)
                            r.close(f"retention_chunkwise {tag} chunk={cs}", out, want)
                            r.close(f"retention_chunkwise_state {tag} chunk={cs}", R, want_R)
                            r.close(f"retention_chunkwise_nostate {tag} chunk={cs}", la.retention_chunkwise(Q, K, V, gamma, cs), want)
                        r.run(f"retention_chunkwise {tag} chunk={cs}", ch)
                    if not all(torch.equal(a, b) for a, b in zip(copies, (Q, K, V))):
                        r.fail(f"inputs_written {tag}", "a retention form wrote into its inputs")
                    if torch.is_tensor(gamma) and not torch.equal(gamma, g_copy):
                        r.fail(f"inputs_written {tag}", "gamma tensor written")

    # ---- unified: linear and gated modes
    for lead in LEADS:
        for L in [1, 2, 7]:
            seed += 1
            Q, K, V = qkv(lead, L, 4, 3, seed)
            B = int(np.prod(lead)) if lead else 1
            want, _ = ref_gated(Q.numpy(), K.numpy(), V.numpy(), np.ones((B, L)))
            r.run(f"unified_linear lead={lead} L={L}", lambda: r.close(f"unified_linear lead={lead} L={L}",
                                                                       la.unified_recurrence(Q, K, V, "linear"), want))
            gen = torch.Generator().manual_seed(seed)
            gate1 = torch.rand(L, generator=gen, dtype=torch.float64)
            gate1[0] = 0.0 if L > 2 else gate1[0]
            want1, _ = ref_gated(Q.numpy(), K.numpy(), V.numpy(), np.broadcast_to(gate1.numpy(), (B, L)))
            r.run(f"unified_gated(L,) lead={lead} L={L}", lambda: r.close(f"unified_gated(L,) lead={lead} L={L}",
                                                                          la.unified_recurrence(Q, K, V, "gated", gate=gate1), want1))
            if lead:
                gateN = torch.rand(*lead, L, generator=gen, dtype=torch.float64)
                wantN, _ = ref_gated(Q.numpy(), K.numpy(), V.numpy(), gateN.reshape(-1, L).numpy())
                gN_copy = gateN.clone()
                r.run(f"unified_gated(...,L) lead={lead} L={L}", lambda: r.close(f"unified_gated(...,L) lead={lead} L={L}",
                                                                                 la.unified_recurrence(Q, K, V, "gated", gate=gateN), wantN))
                if not torch.equal(gateN, gN_copy):
                    r.fail("inputs_written gate", "gate tensor written")

    # ---- validation
    Q, K, V = qkv((), 4, 3, 3, 1)
    bads = [1.5, -0.1, float("nan"), 1.0 + 1e-9, torch.tensor([0.5, 1.2], dtype=torch.float64),
            torch.tensor([0.5, float("nan")], dtype=torch.float64)]
    Q2, K2, V2 = qkv((2,), 4, 3, 3, 2)
    for bad in bads:
        for name, fn in [("parallel", lambda g: la.retention_parallel(Q2, K2, V2, g)),
                         ("recurrent", lambda g: la.retention_recurrent(Q2, K2, V2, g)),
                         ("chunkwise", lambda g: la.retention_chunkwise(Q2, K2, V2, g, 2)),
                         ("unified", lambda g: la.unified_recurrence(Q2, K2, V2, "retention", gamma=g)),
                         ("as_gamma", lambda g: la.as_gamma(g, Q2))]:
            try:
                fn(bad)
                r.fail(f"gamma_validation {name} {bad}", "no ValueError")
            except ValueError:
                pass
            except Exception as e:  # noqa: BLE001
                r.fail(f"gamma_validation {name} {bad}", f"{type(e).__name__} instead of ValueError")
    for good in [0, 1, 0.0, 1.0, torch.tensor([0.0, 1.0], dtype=torch.float64), torch.tensor([0.0, 1.0], dtype=torch.float32)]:
        r.run(f"gamma_validation edge {good}", lambda: la.retention_chunkwise(Q2, K2, V2, good, 3))
        r.run(f"gamma_validation edge {good}", lambda: la.retention_recurrent(Q2, K2, V2, good))
    r.run("as_gamma shape", lambda: (la.as_gamma(torch.tensor([0.5, 0.6]), Q).shape == (2, 1, 1)
                                    and la.as_gamma(0.5, Q).shape == (1, 1)
                                    and la.as_gamma(0.5, Q).dtype == torch.float64) or r.fail("as_gamma shape", "wrong shape/dtype"))
    for args, kw in [(("softmax",), {}), (("retention",), {}), (("gated",), {}), (("Linear",), {})]:
        try:
            la.unified_recurrence(Q, K, V, *args, **kw)
            r.fail(f"unified_rejects {args}", "no ValueError")
        except ValueError:
            pass
        except Exception as e:  # noqa: BLE001
            r.fail(f"unified_rejects {args}", f"{type(e).__name__}")
    for cs in [0, -1]:
        try:
            la.retention_chunkwise(Q, K, V, 0.5, cs)
            r.fail(f"chunk_validation {cs}", "accepted")
        except (ValueError, TypeError):
            pass
        except Exception as e:  # noqa: BLE001
            r.fail(f"chunk_validation {cs}", f"{type(e).__name__}")

    # ---- decay_matrix directly
    def dm():
        D = la.decay_matrix(la.as_gamma(torch.tensor([0.0, 0.5], dtype=torch.float64), Q), 4)
        want = np.zeros((2, 4, 4))
        for h, g in enumerate([0.0, 0.5]):
            for n in range(4):
                for mm in range(n + 1):
                    want[h, n, mm] = g ** (n - mm)
        r.close("decay_matrix", D, want)
    r.run("decay_matrix", dm)

    # ---- multiscale
    def ms():
        for H in [1, 4, 8]:
            g = la.multiscale_decays(H)
            want = np.array([1 - 2.0 ** (-5 - h) for h in range(H)])
            if g.dtype != torch.get_default_dtype():
                r.fail("multiscale dtype", f"{g.dtype}")
            r.close(f"multiscale H={H}", g, want, 1e-7)
        prev = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)
        try:
            g = la.multiscale_decays(6)
            if g.dtype != torch.float64:
                r.fail("multiscale default float64", f"{g.dtype}")
            r.close("multiscale H=6 (float64 default)", g, np.array([1 - 2.0 ** (-5 - h) for h in range(6)]), 1e-15)
        finally:
            torch.set_default_dtype(prev)
    r.run("multiscale", ms)

    # ---- float32 kept, and accurate
    Q, K, V = qkv((2,), 300, 4, 3, 5, dtype=torch.float32)
    Qd, Kd, Vd = (x.double() for x in (Q, K, V))
    want_lin = ref_linear(Qd.numpy(), Kd.numpy(), Vd.numpy())
    want_ret, _ = ref_retention(Qd.numpy(), Kd.numpy(), Vd.numpy(), 0.99)
    gate = torch.full((300,), 0.99, dtype=torch.float32)
    forms = {"linear_parallel": (lambda: la.linear_attention_parallel(Q, K, V), want_lin),
             "linear_recurrent": (lambda: la.linear_attention_recurrent(Q, K, V), want_lin),
             "state_step": (lambda: by_steps(la, Q, K, V), want_lin),
             "retention_parallel": (lambda: la.retention_parallel(Q, K, V, 0.99), want_ret),
             "retention_recurrent": (lambda: la.retention_recurrent(Q, K, V, 0.99), want_ret),
             "retention_chunkwise": (lambda: la.retention_chunkwise(Q, K, V, 0.99, 16), want_ret),
             "retention_chunkwise_t": (lambda: la.retention_chunkwise(Q, K, V, torch.tensor([0.99, 0.99]), 16), want_ret),
             "unified_retention": (lambda: la.unified_recurrence(Q, K, V, "retention", gamma=0.99), want_ret),
             "unified_gated": (lambda: la.unified_recurrence(Q, K, V, "gated", gate=gate), want_ret),
             "unified_linear": (lambda: la.unified_recurrence(Q[:, :5], K[:, :5], V[:, :5], "linear"),
                                ref_gated(Qd[:, :5].numpy(), Kd[:, :5].numpy(), Vd[:, :5].numpy(), np.ones((2, 5)))[0])}
    for name, (fn, want) in forms.items():
        def f32(name=name, fn=fn, want=want):
            y = fn()
            if y.dtype != torch.float32:
                r.fail(f"keeps_dtype {name}", f"{y.dtype}")
            r.close(f"float32_accuracy {name}", y, want, 2e-5)
        r.run(f"keeps_dtype {name}", f32)
    def f32_default64():
        prev = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)
        try:
            y = by_steps(la, Q[:, :5], K[:, :5], V[:, :5])
            if y.dtype != torch.float32:
                r.fail("keeps_dtype state_step(default float64)", f"{y.dtype}")
        finally:
            torch.set_default_dtype(prev)
    r.run("keeps_dtype state_step(default float64)", f32_default64)

    def f32_state():
        _, R = la.retention_chunkwise(Q, K, V, 0.99, 16, return_state=True)
        if R.dtype != torch.float32:
            r.fail("keeps_dtype chunkwise_state", f"{R.dtype}")
    r.run("keeps_dtype chunkwise_state", f32_state)


def cost_report(la):
    """Rough scaling: time at L and 4L (linear ≈ 4×, quadratic ≈ 16×)."""
    def t(fn, L):
        Q, K, V = qkv((), L, 4, 3, 0)
        t0 = time.perf_counter()
        fn(Q, K, V)
        return time.perf_counter() - t0
    forms = {"linear_recurrent": la.linear_attention_recurrent,
             "state_step": lambda Q, K, V: by_steps(la, Q, K, V),
             "retention_recurrent": lambda Q, K, V: la.retention_recurrent(Q, K, V, 0.9),
             "retention_chunkwise": lambda Q, K, V: la.retention_chunkwise(Q, K, V, 0.9, 16),
             "unified_gated": lambda Q, K, V: la.unified_recurrence(Q, K, V, "retention", gamma=0.9)}
    for name, fn in forms.items():
        a, b = t(fn, 1000), t(fn, 4000)
        print(f"  cost {name}: {a:.3f}s -> {b:.3f}s, ratio {b / a:.1f} (linear ~4, quadratic ~16)")


if __name__ == "__main__":
    la = load(sys.argv[1])
    r = Report()
    check(la, r)
    if not r.fails:
        print("OK")
    else:
        print("DIFFERS:", ", ".join(sorted(r.fails)))
        for k in sorted(r.fails):
            print("  ", r.fails[k][0], f"(+{len(r.fails[k]) - 1} more)" if len(r.fails[k]) > 1 else "")
    if "--cost" in sys.argv:
        cost_report(la)
