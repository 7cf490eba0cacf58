"""Compare a case's linear_attention.py with my own naive float64 NumPy reference (explicit loops).

    /work/main/.venv/bin/python check_equiv.py CASE_DIR [CASE_DIR ...] [--cost]

Prints OK or the list of properties that differ. --cost adds a rough timing-scaling report
(L = 400 -> 1600; a linear algorithm grows ~4x, a quadratic one ~16x).
"""
import importlib.util
import itertools
import sys
import time
from pathlib import Path

import numpy as np
import torch

# ----------------------------------------------------------------------------- naive reference (float64)


def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0)))


def ref_linear(Q, K, V):
    lead = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    L, dv = Q.shape[-2], V.shape[-1]
    out = np.zeros(lead + (L, dv))
    for idx in itertools.product(*[range(s) for s in lead]):
        q, k, v = Q[idx] if Q.ndim > 2 else Q, K[idx] if K.ndim > 2 else K, V[idx] if V.ndim > 2 else V
        for i in range(L):
            num, den = np.zeros(dv), 0.0
            for j in range(i + 1):
                a = float(phi(q[i]) @ phi(k[j]))
                num += a * v[j]
                den += a
            out[idx + (i,)] = num / den
    return out


def ref_gated(Q, K, V, A):
    """S_t = A_t S_{t-1} + k_t v_tᵀ, y_t = q_t S_t; A: (..., L) broadcast to lead."""
    lead = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], A.shape[:-1])
    L, m, dv = Q.shape[-2], K.shape[-1], V.shape[-1]
    Q, K, V = (np.broadcast_to(X, lead + X.shape[-2:]) for X in (Q, K, V))
    A = np.broadcast_to(A, lead + (L,))
    out = np.zeros(lead + (L, dv))
    states = np.zeros(lead + (m, dv))
    for idx in itertools.product(*[range(s) for s in lead]):
        S = np.zeros((m, dv))
        for t in range(L):
            S = A[idx + (t,)] * S + np.outer(K[idx + (t,)], V[idx + (t,)])
            out[idx + (t,)] = Q[idx + (t,)] @ S
        states[idx] = S
    return out, states


def ref_retention(Q, K, V, gamma):
    g = np.asarray(gamma, dtype=np.float64)
    return ref_gated(Q, K, V, np.broadcast_to(g[..., None], g.shape + (Q.shape[-2],)))


# ----------------------------------------------------------------------------- harness


def load(case_dir):
    path = Path(case_dir).resolve() / "linear_attention.py"
    spec = importlib.util.spec_from_file_location(f"la_{abs(hash(str(path)))}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def t64(x):
    return torch.tensor(np.asarray(x), dtype=torch.float64)


def close(y, want, tol=1e-10):
    if not isinstance(y, torch.Tensor):
        return False
    y = y.detach().double().numpy()
    if y.shape != want.shape:
        return False
    return bool(np.all(np.abs(y - want) <= tol * (1 + np.abs(want).max())))


SHAPES = [((), 1, 4, 3), ((), 7, 3, 5), ((2,), 7, 3, 5), ((2,), 1, 3, 4), ((2, 3), 13, 4, 4), ((2, 3), 9, 3, 2)]


def inputs(lead, L, m, dv, seed):
    r = np.random.default_rng(seed)
    return r.standard_normal(lead + (L, m)), r.standard_normal(lead + (L, m)), r.standard_normal(lead + (L, dv))


def check(la):
    bad = set()

    def flag(name, ok):
        if not ok:
            bad.add(name)

    def safe(name, fn):
        try:
            return fn()
        except Exception as e:  # noqa: BLE001
            bad.add(f"{name} raises {type(e).__name__}")
            return None

    def steps(Q, K, V):
        st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
        return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], -2)

    for s, (lead, L, m, dv) in enumerate(SHAPES):
        Qn, Kn, Vn = inputs(lead, L, m, dv, s)
        cls = f"lead{lead} L{L} m{m} dv{dv}"
        want = ref_linear(Qn, Kn, Vn)
        for name, fn in [("linear_parallel", la.linear_attention_parallel),
                         ("linear_recurrent", la.linear_attention_recurrent), ("state_step", steps)]:
            Q, K, V = t64(Qn), t64(Kn), t64(Vn)
            y = safe(name, lambda: fn(Q, K, V))
            if y is not None:
                flag(f"{name} [{cls}]", close(y, want))
            flag(f"{name} modifies inputs", np.array_equal(Q.numpy(), Qn) and np.array_equal(K.numpy(), Kn)
                 and np.array_equal(V.numpy(), Vn))
        gammas = [0.0, 0.5, 0.9, 1.0]
        if lead == (2, 3):
            gammas.append(np.array([0.0, 0.5, 0.999]))
        if lead == (2,):
            gammas.append(np.array([0.3, 1.0]))
        for gamma in gammas:
            want, want_S = ref_retention(Qn, Kn, Vn, gamma)
            gam = t64(gamma) if isinstance(gamma, np.ndarray) else gamma
            gcls = f"{cls} gamma{'/head' if isinstance(gamma, np.ndarray) else gamma}"
            for name, fn in [("retention_parallel", la.retention_parallel),
                             ("retention_recurrent", la.retention_recurrent)]:
                Q, K, V = t64(Qn), t64(Kn), t64(Vn)
                y = safe(name, lambda: fn(Q, K, V, gam))
                if y is not None:
                    flag(f"{name} [{gcls}]", close(y, want))
                flag(f"{name} modifies inputs", np.array_equal(K.numpy(), Kn) and np.array_equal(V.numpy(), Vn)
                     and np.array_equal(Q.numpy(), Qn))
            for cs in sorted({1, 2, 3, 5, max(L - 1, 1), L, L + 3}):
                Q, K, V = t64(Qn), t64(Kn), t64(Vn)
                r = safe("retention_chunkwise", lambda: la.retention_chunkwise(Q, K, V, gam, cs, return_state=True))
                if r is not None:
                    ok = isinstance(r, tuple) and len(r) == 2
                    flag(f"retention_chunkwise [{gcls} chunk{cs}]", ok and close(r[0], want))
                    flag(f"retention_chunkwise state [{gcls} chunk{cs}]", ok and close(r[1], want_S))
                    y = safe("retention_chunkwise", lambda: la.retention_chunkwise(Q, K, V, gam, cs))
                    flag(f"retention_chunkwise no-state [{gcls} chunk{cs}]", y is not None and close(y, want))
                flag("retention_chunkwise modifies inputs", np.array_equal(K.numpy(), Kn)
                     and np.array_equal(V.numpy(), Vn) and np.array_equal(Q.numpy(), Qn))
            y = safe("unified retention", lambda: la.unified_recurrence(t64(Qn), t64(Kn), t64(Vn), "retention",
                                                                          gamma=gam))
            if y is not None:
                flag(f"unified retention [{gcls}]", close(y, want))
        want = ref_gated(Qn, Kn, Vn, np.ones(L))[0]
        y = safe("unified linear", lambda: la.unified_recurrence(t64(Qn), t64(Kn), t64(Vn), "linear"))
        if y is not None:
            flag(f"unified linear [{cls}]", close(y, want))
        r = np.random.default_rng(100 + s)
        for gshape in [(L,), lead + (L,)]:
            A = r.uniform(0, 1, gshape)
            want = ref_gated(Qn, Kn, Vn, A)[0]
            y = safe("unified gated", lambda: la.unified_recurrence(t64(Qn), t64(Kn), t64(Vn), "gated", gate=t64(A)))
            if y is not None:
                flag(f"unified gated [{cls} gate{gshape}]", close(y, want))
    # validation
    Q, K, V = (t64(x) for x in inputs((), 5, 3, 3, 50))
    for bad_g in [1.5, -0.1, float("nan"), 1 + 1e-9, torch.tensor([0.5, 1.2], dtype=torch.float64),
                  torch.tensor([0.5, float("nan")], dtype=torch.float64)]:
        Qb, Kb, Vb = (x.expand(2, 5, 3) for x in (Q, K, V))
        for name, fn in [("parallel", lambda: la.retention_parallel(Qb, Kb, Vb, bad_g)),
                         ("recurrent", lambda: la.retention_recurrent(Qb, Kb, Vb, bad_g)),
                         ("chunkwise", lambda: la.retention_chunkwise(Qb, Kb, Vb, bad_g, 2)),
                         ("unified", lambda: la.unified_recurrence(Qb, Kb, Vb, "retention", gamma=bad_g))]:
            try:
                fn()
                bad.add(f"gamma {bad_g} accepted by {name}")
            except ValueError:
                pass
            except Exception as e:  # noqa: BLE001
                bad.add(f"gamma {bad_g} in {name} raises {type(e).__name__}, not ValueError")
    for kwargs in [dict(mode="softmax"), dict(mode="retention"), dict(mode="gated")]:
        try:
            la.unified_recurrence(Q, K, V, **kwargs)
            bad.add(f"unified accepts {kwargs}")
        except ValueError:
            pass
        except Exception as e:  # noqa: BLE001
            bad.add(f"unified {kwargs} raises {type(e).__name__}")
    for cs in [0, -1]:
        try:
            la.retention_chunkwise(Q, K, V, 0.5, cs)
            bad.add(f"chunk_size {cs} accepted")
        except ValueError:
            pass
        except Exception as e:  # noqa: BLE001
            bad.add(f"chunk_size {cs} raises {type(e).__name__}")
    # dtype
    Q32, K32, V32 = (x.float() for x in (t64(a) for a in inputs((2,), 6, 4, 3, 60)))
    for name, fn in [("linear_parallel", lambda: la.linear_attention_parallel(Q32, K32, V32)),
                     ("linear_recurrent", lambda: la.linear_attention_recurrent(Q32, K32, V32)),
                     ("state_step", lambda: steps(Q32, K32, V32)),
                     ("retention_parallel", lambda: la.retention_parallel(Q32, K32, V32, 0.9)),
                     ("retention_recurrent", lambda: la.retention_recurrent(Q32, K32, V32, 0.9)),
                     ("retention_chunkwise", lambda: la.retention_chunkwise(Q32, K32, V32, 0.9, 4)),
                     ("chunkwise state", lambda: la.retention_chunkwise(Q32, K32, V32, 0.9, 4, True)[1]),
                     ("unified", lambda: la.unified_recurrence(Q32, K32, V32, "retention", gamma=0.9))]:
        y = safe(f"float32 {name}", fn)
        if y is not None:
            flag(f"float32 {name} dtype {getattr(y, 'dtype', None)}", getattr(y, "dtype", None) == torch.float32)
    # independent states (float32 unbatched and float64 batched, interleaved)
    for dt, lead in [(torch.float32, ()), (torch.float64, (2,))]:
        Qn, Kn, Vn = inputs(lead, 5, 3, 2, 70)
        Q, K, V = (torch.tensor(x, dtype=dt) for x in (Qn, Kn, Vn))
        want = ref_linear(Qn, Kn, Vn)
        try:
            a, b = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
            ya, yb = [], []
            for t in range(5):
                ya.append(a.step(Q[..., t, :], K[..., t, :], V[..., t, :]))
                yb.append(b.step(Q[..., t, :], K[..., t, :], V[..., t, :]))
            c = la.LinearAttentionState(3, 2)
            y0 = c.step(Q[..., 0, :], K[..., 0, :], V[..., 0, :])
            tol = 1e-5 if dt == torch.float32 else 1e-10
            flag(f"independent states [{dt}]", close(torch.stack(ya, -2), want, tol)
                 and close(torch.stack(yb, -2), want, tol) and close(y0, want[..., 0, :], tol))
        except Exception as e:  # noqa: BLE001
            bad.add(f"independent states raises {type(e).__name__}")
    # multiscale, decay_matrix
    h = safe("multiscale", lambda: la.multiscale_decays(4))
    if h is not None:
        flag("multiscale values", close(h, 1 - 2.0 ** (-5 - np.arange(4)), 1e-7))
        flag("multiscale dtype", h.dtype == torch.get_default_dtype())
    return sorted(bad)


def cost(la):
    """Seconds at L = 400 and 1600 (m = d_v = 8) and their ratio, per stateful form."""
    res = {}
    for name in ["linear_recurrent", "retention_recurrent", "retention_chunkwise", "state_step"]:
        ts = []
        for L in (400, 1600):
            Q, K, V = (torch.randn(2, L, 8, dtype=torch.float64) for _ in range(3))
            t0 = time.perf_counter()
            if name == "linear_recurrent":
                la.linear_attention_recurrent(Q, K, V)
            elif name == "retention_recurrent":
                la.retention_recurrent(Q, K, V, 0.9)
            elif name == "retention_chunkwise":
                la.retention_chunkwise(Q, K, V, 0.9, 16)
            else:
                st = la.LinearAttentionState(8, 8)
                for t in range(L):
                    st.step(Q[:, t], K[:, t], V[:, t])
            ts.append(time.perf_counter() - t0)
        res[name] = (round(ts[0], 3), round(ts[1], 3), round(ts[1] / ts[0], 1))
    return res


if __name__ == "__main__":
    torch.set_num_threads(1)
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    for d in args:
        la = load(d)
        bad = check(la)
        print(f"{Path(d).name}: " + ("OK" if not bad else f"{len(bad)} differences: " + "; ".join(bad[:12])))
        if "--cost" in sys.argv:
            print("   cost", cost(la))
