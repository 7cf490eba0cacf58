"""My own naive float64 reference (plain double loops over numpy scalars/vectors), and a comparison of a case.

    /work/main/.venv/bin/python check_equiv.py <case> [<case> ...]      # prints OK or the failing checks

Written from the docstrings and the notebook only. Agreement is judged relative to the output scale
(max |got - want| <= tol * max(1, max |want|)), tol = 1e-10 in float64.
"""
import importlib.util
import itertools
import math
import sys
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
TOL = 1e-10


# ----------------------------------------------------------------------------- naive reference

def phi(x):
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def _flat(*arrs):
    lead = arrs[0].shape[:-2]
    return lead, [a.reshape((-1,) + a.shape[-2:]) for a in arrs]


def ref_linear(Q, K, V):
    Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
    lead, (q, k, v) = _flat(Q, K, V)
    out = np.zeros(v.shape)
    pq, pk = phi(q), phi(k)
    for b in range(q.shape[0]):
        for i in range(q.shape[1]):
            num = np.zeros(v.shape[-1])
            den = 0.0
            for j in range(i + 1):
                w = float(np.dot(pq[b, i], pk[b, j]))
                num += w * v[b, j]
                den += w
            out[b, i] = num / den
    return out.reshape(lead + v.shape[-2:])


def _per_lead(gamma, lead):
    g = np.asarray(gamma, dtype=np.float64)
    return np.broadcast_to(g, lead).reshape(-1)


def ref_retention(Q, K, V, gamma):
    """o_n = Σ_{m<=n} γ^(n-m) (q_n·k_m) v_m, and the final state Σ_m γ^(L-1-m) k_m v_mᵀ."""
    Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
    lead, (q, k, v) = _flat(Q, K, V)
    gs = _per_lead(gamma, lead)
    L = q.shape[1]
    out = np.zeros(v.shape)
    R = np.zeros((q.shape[0], q.shape[-1], v.shape[-1]))
    for b in range(q.shape[0]):
        g = float(gs[b])
        for n in range(L):
            acc = np.zeros(v.shape[-1])
            for m_ in range(n + 1):
                acc += (g ** (n - m_)) * float(np.dot(q[b, n], k[b, m_])) * v[b, m_]
            out[b, n] = acc
        for m_ in range(L):
            R[b] += (g ** (L - 1 - m_)) * np.outer(k[b, m_], v[b, m_])
    return out.reshape(lead + v.shape[-2:]), R.reshape(lead + R.shape[-2:])


def ref_gated(Q, K, V, gate):
    Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
    lead, (q, k, v) = _flat(Q, K, V)
    A = np.broadcast_to(np.asarray(gate, dtype=np.float64), lead + (q.shape[1],)).reshape(-1, q.shape[1])
    out = np.zeros(v.shape)
    for b in range(q.shape[0]):
        for i in range(q.shape[1]):
            acc = np.zeros(v.shape[-1])
            for j in range(i + 1):
                w = 1.0
                for s in range(j + 1, i + 1):
                    w *= A[b, s]
                acc += w * float(np.dot(q[b, i], k[b, j])) * v[b, j]
            out[b, i] = acc
    return out.reshape(lead + v.shape[-2:])


def ref_delta(Q, K, V, alpha, beta):
    Q, K, V = (np.asarray(a, dtype=np.float64) for a in (Q, K, V))
    lead, (q, k, v) = _flat(Q, K, V)
    L = q.shape[1]
    al = np.broadcast_to(np.asarray(alpha, np.float64), lead + (L,)).reshape(-1, L)
    be = np.broadcast_to(np.asarray(beta, np.float64), lead + (L,)).reshape(-1, L)
    out = np.zeros(v.shape)
    for b in range(q.shape[0]):
        S = np.zeros((q.shape[-1], v.shape[-1]))
        for t in range(L):
            S = al[b, t] * S
            pred = k[b, t] @ S
            S = S + be[b, t] * np.outer(k[b, t], v[b, t] - pred)
            out[b, t] = q[b, t] @ S
    return out.reshape(lead + v.shape[-2:])


# ----------------------------------------------------------------------------- comparison

def load(case):
    path = HERE / case / "linear_attention.py"
    spec = importlib.util.spec_from_file_location(f"la_{case}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def qkv(lead, L, m, d_v, seed, dtype=torch.float64, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return tuple(scale * torch.randn(*lead, L, n, generator=g, dtype=dtype) for n in (m, m, d_v))


class Checker:
    def __init__(self, la):
        self.la = la
        self.fails = []

    def close(self, name, got, want, tol=TOL):
        try:
            got = got.detach().double().numpy() if torch.is_tensor(got) else np.asarray(got, np.float64)
            want = np.asarray(want, np.float64)
            if got.shape != want.shape:
                self.fails.append(f"{name}: shape {got.shape} != {want.shape}")
                return
            err = float(np.max(np.abs(got - want))) if got.size else 0.0
            if not (err <= tol * max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)):
                self.fails.append(f"{name}: max err {err:.3g}")
        except Exception as e:                                  # noqa: BLE001
            self.fails.append(f"{name}: {type(e).__name__}: {e}")

    def run(self, name, fn):
        try:
            return fn()
        except Exception as e:                                  # noqa: BLE001
            self.fails.append(f"{name}: {type(e).__name__}: {str(e)[:120]}")
            return None

    def raises(self, name, fn, exc=ValueError):
        try:
            fn()
        except exc:
            return
        except Exception as e:                                  # noqa: BLE001
            self.fails.append(f"{name}: raised {type(e).__name__} instead of {exc.__name__}")
            return
        self.fails.append(f"{name}: did not raise {exc.__name__}")


def by_steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


LEADS = [(), (2,), (2, 3)]
LS = [1, 2, 7, 13]
DIMS = [(4, 3), (3, 5)]
GAMMAS = [0.0, 0.5, 0.9, 1.0, 0.999]


def check(case):
    la = load(case)
    c = Checker(la)
    seed = 0
    # ---- linear attention: three faces
    for lead, L, (m, d_v) in itertools.product(LEADS, LS, DIMS):
        seed += 1
        Q, K, V = qkv(lead, L, m, d_v, seed)
        want = ref_linear(Q, K, V)
        tag = f"lead={lead} L={L} m={m} dv={d_v}"
        c.close(f"linear_parallel {tag}", c.run("lp", lambda: la.linear_attention_parallel(Q, K, V)), want)
        c.close(f"linear_recurrent {tag}", c.run("lr", lambda: la.linear_attention_recurrent(Q, K, V)), want)
        c.close(f"state_step {tag}", c.run("st", lambda: by_steps(la, Q, K, V)), want)
    # very negative inputs (φ = exp(x) region) and L = 300
    Q, K, V = qkv((), 13, 4, 3, 99, scale=8.0)
    want = ref_linear(Q - 10, K - 10, V)
    c.close("linear_parallel very negative", c.run("lp-", lambda: la.linear_attention_parallel(Q - 10, K - 10, V)), want)
    c.close("linear_recurrent very negative", c.run("lr-", lambda: la.linear_attention_recurrent(Q - 10, K - 10, V)), want)
    Q, K, V = qkv((), 300, 4, 3, 98)
    want = ref_linear(Q, K, V)
    c.close("linear_parallel L=300", c.run("lp300", lambda: la.linear_attention_parallel(Q, K, V)), want)
    c.close("linear_recurrent L=300", c.run("lr300", lambda: la.linear_attention_recurrent(Q, K, V)), want)
    c.close("state_step L=300", c.run("st300", lambda: by_steps(la, Q, K, V)), want)
    # ---- retention
    for lead, L, (m, d_v) in itertools.product(LEADS, LS, DIMS):
        for gamma in GAMMAS:
            seed += 1
            Q, K, V = qkv(lead, L, m, d_v, seed)
            want, Rw = ref_retention(Q, K, V, gamma)
            tag = f"lead={lead} L={L} m={m} dv={d_v} g={gamma}"
            c.close(f"retention_parallel {tag}", c.run("rp", lambda: la.retention_parallel(Q, K, V, gamma)), want)
            c.close(f"retention_recurrent {tag}", c.run("rr", lambda: la.retention_recurrent(Q, K, V, gamma)), want)
            c.close(f"unified retention {tag}",
                    c.run("ur", lambda: la.unified_recurrence(Q, K, V, "retention", gamma=gamma)), want)
            for cs in sorted({1, 2, 3, 4, 5, L, L + 3}):
                res = c.run(f"chunk {tag} cs={cs}", lambda: la.retention_chunkwise(Q, K, V, gamma, cs, return_state=True))
                if res is not None:
                    c.close(f"retention_chunkwise {tag} cs={cs}", res[0], want)
                    c.close(f"retention_chunkwise state {tag} cs={cs}", res[1], Rw)
                c.close(f"retention_chunkwise plain {tag} cs={cs}",
                        c.run("chunk plain", lambda: la.retention_chunkwise(Q, K, V, gamma, cs)), want)
        if L == 7:
            Q, K, V = qkv(lead, L, m, d_v, seed + 5000)
            want = ref_retention(Q, K, V, 1.0)[0]
            c.close(f"unified linear lead={lead}", c.run("ul", lambda: la.unified_recurrence(Q, K, V, "linear")), want)
    # per-head gamma tensors
    for lead in [(3,), (2, 3)]:
        Q, K, V = qkv(lead, 9, 4, 3, 777)
        gt = torch.tensor([0.0, 0.5, 0.999], dtype=torch.float64)
        want, Rw = ref_retention(Q, K, V, gt.numpy())
        c.close(f"retention_parallel per-head {lead}", c.run("rph", lambda: la.retention_parallel(Q, K, V, gt)), want)
        c.close(f"retention_recurrent per-head {lead}", c.run("rrh", lambda: la.retention_recurrent(Q, K, V, gt)), want)
        for cs in (1, 2, 4, 9, 12):
            res = c.run("chh", lambda: la.retention_chunkwise(Q, K, V, gt, cs, return_state=True))
            if res is not None:
                c.close(f"retention_chunkwise per-head {lead} cs={cs}", res[0], want)
                c.close(f"retention_chunkwise state per-head {lead} cs={cs}", res[1], Rw)
        c.close(f"unified per-head {lead}", c.run("uh", lambda: la.unified_recurrence(Q, K, V, "retention", gamma=gt)), want)
    # per-(batch, head) gamma of shape (2, 3)
    Q, K, V = qkv((2, 3), 8, 4, 3, 778)
    gt = torch.tensor([[0.2, 0.5, 0.9], [1.0, 0.0, 0.7]], dtype=torch.float64)
    want, Rw = ref_retention(Q, K, V, gt.numpy())
    c.close("retention_parallel gamma (2,3)", c.run("rp23", lambda: la.retention_parallel(Q, K, V, gt)), want)
    c.close("retention_recurrent gamma (2,3)", c.run("rr23", lambda: la.retention_recurrent(Q, K, V, gt)), want)
    res = c.run("ch23", lambda: la.retention_chunkwise(Q, K, V, gt, 3, return_state=True))
    if res is not None:
        c.close("retention_chunkwise gamma (2,3)", res[0], want)
        c.close("retention_chunkwise state gamma (2,3)", res[1], Rw)
    # long: L = 300
    Q, K, V = qkv((2,), 300, 4, 3, 555)
    want, Rw = ref_retention(Q, K, V, 0.999)
    c.close("retention_parallel L=300", c.run("rp300", lambda: la.retention_parallel(Q, K, V, 0.999)), want, 1e-9)
    c.close("retention_recurrent L=300", c.run("rr300", lambda: la.retention_recurrent(Q, K, V, 0.999)), want, 1e-9)
    for cs in (7, 64, 100, 300, 512):
        res = c.run("ch300", lambda: la.retention_chunkwise(Q, K, V, 0.999, cs, return_state=True))
        if res is not None:
            c.close(f"retention_chunkwise L=300 cs={cs}", res[0], want, 1e-9)
            c.close(f"retention_chunkwise state L=300 cs={cs}", res[1], Rw, 1e-9)
    # ---- gated mode
    for lead in LEADS:
        Q, K, V = qkv(lead, 7, 4, 3, 600 + len(lead))
        gate = torch.rand(7, generator=torch.Generator().manual_seed(5), dtype=torch.float64)
        c.close(f"unified gated (L,) lead={lead}", c.run("ug", lambda: la.unified_recurrence(Q, K, V, "gated", gate=gate)),
                ref_gated(Q, K, V, gate.numpy()))
        if lead:
            gate2 = torch.rand(*lead, 7, generator=torch.Generator().manual_seed(6), dtype=torch.float64)
            c.close(f"unified gated (...,L) lead={lead}",
                    c.run("ug2", lambda: la.unified_recurrence(Q, K, V, "gated", gate=gate2)), ref_gated(Q, K, V, gate2.numpy()))
    Q, K, V = qkv((), 5, 4, 3, 650)
    c.raises("unified unknown mode", lambda: la.unified_recurrence(Q, K, V, "softmax"))
    c.raises("unified retention without gamma", lambda: la.unified_recurrence(Q, K, V, "retention"))
    c.raises("unified gated without gate", lambda: la.unified_recurrence(Q, K, V, "gated"))
    c.raises("unified retention gamma 1.5", lambda: la.unified_recurrence(Q, K, V, "retention", gamma=1.5))
    # ---- gamma validation
    Q, K, V = qkv((3,), 4, 3, 3, 700)
    bads = [1.5, -0.1, float("nan"), torch.tensor([0.5, 1.2, 0.3], dtype=torch.float64),
            torch.tensor([0.5, float("nan"), 0.3], dtype=torch.float64)]
    for bad in bads:
        c.raises(f"retention_parallel gamma={bad}", lambda: la.retention_parallel(Q, K, V, bad))
        c.raises(f"retention_recurrent gamma={bad}", lambda: la.retention_recurrent(Q, K, V, bad))
        c.raises(f"retention_chunkwise gamma={bad}", lambda: la.retention_chunkwise(Q, K, V, bad, 2))
        c.raises(f"as_gamma gamma={bad}", lambda: la.as_gamma(bad, Q))
    for ok in (0.0, 1.0, 0, 1):
        c.run(f"as_gamma accepts {ok}", lambda: la.as_gamma(ok, Q))
    c.raises("chunk_size 0", lambda: la.retention_chunkwise(Q, K, V, 0.5, 0))
    g = c.run("as_gamma shape", lambda: la.as_gamma(torch.tensor([0.1, 0.2, 0.3]), Q))
    if g is not None and (tuple(g.shape) != (3, 1, 1) or g.dtype != Q.dtype):
        c.fails.append(f"as_gamma: shape {tuple(g.shape)} dtype {g.dtype}")
    D = c.run("decay_matrix", lambda: la.decay_matrix(la.as_gamma(0.5, Q), 4))
    if D is not None:
        c.close("decay_matrix 0.5", D, [[0.5 ** (n - m_) if m_ <= n else 0.0 for m_ in range(4)] for n in range(4)])
    D0 = c.run("decay_matrix 0", lambda: la.decay_matrix(la.as_gamma(0.0, Q), 4))
    if D0 is not None:
        c.close("decay_matrix 0 = I", D0, np.eye(4))
    # ---- multiscale
    ms = c.run("multiscale", lambda: la.multiscale_decays(6))
    if ms is not None:
        c.close("multiscale", ms.double(), [1 - 2.0 ** (-5 - h) for h in range(6)], 1e-7)
        if ms.dtype != torch.get_default_dtype():
            c.fails.append(f"multiscale dtype {ms.dtype}")
    # ---- float32 kept
    Q, K, V = qkv((2,), 11, 4, 3, 800, dtype=torch.float32)
    gate = torch.full((11,), 0.7)
    outs = {"linear_parallel": lambda: la.linear_attention_parallel(Q, K, V),
            "linear_recurrent": lambda: la.linear_attention_recurrent(Q, K, V),
            "state_step": lambda: by_steps(la, Q, K, V),
            "retention_parallel": lambda: la.retention_parallel(Q, K, V, 0.9),
            "retention_recurrent": lambda: la.retention_recurrent(Q, K, V, 0.9),
            "retention_chunkwise": lambda: la.retention_chunkwise(Q, K, V, 0.9, 4),
            "retention_chunkwise per-head": lambda: la.retention_chunkwise(Q, K, V, torch.tensor([0.9, 0.5], dtype=torch.float64)[:, None].squeeze(-1), 4),
            "chunk state": lambda: la.retention_chunkwise(Q, K, V, 0.9, 4, return_state=True)[1],
            "unified linear": lambda: la.unified_recurrence(Q, K, V, "linear"),
            "unified retention": lambda: la.unified_recurrence(Q, K, V, "retention", gamma=0.9),
            "unified gated": lambda: la.unified_recurrence(Q, K, V, "gated", gate=gate)}
    for name, fn in outs.items():
        y = c.run(f"float32 {name}", fn)
        if y is not None and y.dtype != torch.float32:
            c.fails.append(f"float32 {name}: got {y.dtype}")
    # float32 accuracy, long sequence
    Q, K, V = qkv((), 300, 4, 3, 801, dtype=torch.float32)
    want, _ = ref_retention(Q, K, V, 0.999)
    for cs in (16, 100):
        c.close(f"retention_chunkwise float32 L=300 cs={cs}",
                c.run("f32ch", lambda: la.retention_chunkwise(Q, K, V, 0.999, cs)), want, 2e-4)
    c.close("retention_recurrent float32 L=300", c.run("f32rr", lambda: la.retention_recurrent(Q, K, V, 0.999)), want, 2e-4)
    # ---- independent states, inputs unchanged, step output not aliased
    Q, K, V = qkv((), 6, 4, 3, 900)
    s1 = la.LinearAttentionState(4, 3)
    s2 = la.LinearAttentionState(4, 3)
    try:
        for t in range(6):
            s1.step(Q[t], K[t], V[t])
        y2 = s2.step(Q[0], K[0], V[0])
        c.close("independent states: fresh state reads its own v", y2, V[0].numpy())
        s3 = la.LinearAttentionState(4, 3)
        ys = [s3.step(Q[t], K[t], V[t]) for t in range(6)]
        c.close("step outputs kept stable", torch.stack(ys), ref_linear(Q, K, V))
        S = getattr(s1, "S", None)
        if torch.is_tensor(S) and tuple(S.shape) != (4, 3):
            c.fails.append(f"state S shape {tuple(S.shape)} (want (m, d_v) = (4, 3))")
    except Exception as e:                                      # noqa: BLE001
        c.fails.append(f"states: {type(e).__name__}: {e}")
    Q, K, V = qkv((2,), 7, 4, 3, 901)
    gt = torch.tensor([0.5, 0.9], dtype=torch.float64)
    gate = torch.full((7,), 0.5, dtype=torch.float64)
    copies = [a.clone() for a in (Q, K, V, gt, gate)]
    for name, fn in [("lp", lambda: la.linear_attention_parallel(Q, K, V)), ("lr", lambda: la.linear_attention_recurrent(Q, K, V)),
                     ("st", lambda: by_steps(la, Q, K, V)), ("rp", lambda: la.retention_parallel(Q, K, V, gt)),
                     ("rr", lambda: la.retention_recurrent(Q, K, V, gt)), ("rc", lambda: la.retention_chunkwise(Q, K, V, gt, 3)),
                     ("ug", lambda: la.unified_recurrence(Q, K, V, "gated", gate=gate)),
                     ("ur", lambda: la.unified_recurrence(Q, K, V, "retention", gamma=gt))]:
        c.run(name, fn)
        if not all(torch.equal(a, b) for a, b in zip((Q, K, V, gt, gate), copies)):
            c.fails.append(f"{name} modified its inputs")
            for a, b in zip((Q, K, V, gt, gate), copies):
                a.copy_(b)
    # ---- optional gated delta rule
    try:
        Q, K, V = qkv((2,), 6, 4, 3, 950)
        K = K / K.norm(dim=-1, keepdim=True)
        al = torch.rand(6, dtype=torch.float64, generator=torch.Generator().manual_seed(1))
        be = torch.rand(2, 6, dtype=torch.float64, generator=torch.Generator().manual_seed(2))
        y = la.gated_delta_rule(Q, K, V, al, be)
        c.close("gated_delta_rule (optional)", y, ref_delta(Q, K, V, al.numpy(), be.numpy()))
    except NotImplementedError:
        pass
    except Exception as e:                                      # noqa: BLE001
        c.fails.append(f"gated_delta_rule: {type(e).__name__}: {e}")
    return c.fails


if __name__ == "__main__":
    for case in sys.argv[1:]:
        fails = check(case)
        head = f"== {case}: " + ("OK" if not fails else f"{len(fails)} failing checks")
        print(head)
        for f in fails[:12]:
            print("   ", f)
        (HERE / case / "equiv.txt").write_text("\n".join([head] + fails) + "\n")
