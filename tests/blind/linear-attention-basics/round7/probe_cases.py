"""Probe every case against naive float64 formulas written here from the lesson (not from any grader).

For each case folder, runs a battery of named checks on its linear_attention.py and prints the checks that
fail. base/ and every alt_* must fail none; each bug_* should fail the checks that show its symptom.

    /work/main/.venv/bin/python probe_cases.py [CASE ...]        (default: every folder with a module)

The checks: forms against explicit double-loop formulas on unbatched, batched (d_k != d_v), non-contiguous,
leading-dim-1 / d_v = 1 and one-token inputs; causality; float32 in -> float32 out; inputs left untouched;
gamma edges 0 and 1, per-head gamma, invalid gamma (1.5, -0.1, NaN) raising ValueError; every chunk size
(dividing L or not, larger than L) and the returned state; two interleaved decoders; unified modes, per-batch
gates, rejected modes; multiscale values; and a work count (sum of the sizes of all op results, through a
TorchDispatchMode) that must grow about linearly in L for the recurrent forms, step and chunkwise.
"""
import importlib.util
import math
import sys
import traceback
from pathlib import Path

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

HERE = Path(__file__).resolve().parent
F64 = torch.float64


def load(case):
    spec = importlib.util.spec_from_file_location(f"la_{case}", HERE / case / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def qkv(lead, L, m, d_v, seed=0, dtype=F64):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*lead, L, m, generator=g, dtype=dtype), torch.randn(*lead, L, m, generator=g, dtype=dtype),
            torch.randn(*lead, L, d_v, generator=g, dtype=dtype))


# ----------------------------------------------------------------------------- naive references

def phi(x):
    return torch.where(x > 0, x + 1, torch.exp(x))


def lin_ref(Q, K, V):
    lead, L = Q.shape[:-2], Q.shape[-2]
    Qf, Kf, Vf = (X.reshape(-1, *X.shape[-2:]) for X in (Q, K, V))
    out = torch.zeros(Qf.shape[0], L, V.shape[-1], dtype=F64)
    for b in range(Qf.shape[0]):
        for i in range(L):
            w = torch.stack([phi(Qf[b, i]) @ phi(Kf[b, j]) for j in range(i + 1)])
            out[b, i] = (w[:, None] * Vf[b, :i + 1]).sum(0) / w.sum()
    return out.reshape(*lead, L, V.shape[-1])


def gated_ref(Q, K, V, A):
    """y_t = Σ_{s<=t} (Π_{r=s+1..t} A_r) (q_t·k_s) v_s; A: (..., L) broadcastable to Q's leading dims."""
    lead = torch.broadcast_shapes(Q.shape[:-2], A.shape[:-1])
    L = Q.shape[-2]
    Q, K, V = (X.expand(*lead, *X.shape[-2:]) for X in (Q, K, V))
    A = A.expand(*lead, L)
    Qf, Kf, Vf, Af = (X.reshape(-1, *X.shape[len(lead):]) for X in (Q, K, V, A))
    out = torch.zeros(Qf.shape[0], L, V.shape[-1], dtype=F64)
    for b in range(Qf.shape[0]):
        for t in range(L):
            for s in range(t + 1):
                w = math.prod(Af[b, r].item() for r in range(s + 1, t + 1))
                out[b, t] += w * (Qf[b, t] @ Kf[b, s]) * Vf[b, s]
    return out.reshape(*lead, L, V.shape[-1])


def ret_ref(Q, K, V, gamma):
    g = torch.as_tensor(gamma, dtype=F64)
    A = g[..., None].expand(*g.shape, Q.shape[-2])
    return gated_ref(Q, K, V, A)


def close(a, b, what=""):
    assert isinstance(a, torch.Tensor), f"{what}: got {type(a).__name__}"
    assert a.shape == b.shape, f"{what}: shape {tuple(a.shape)} != {tuple(b.shape)}"
    assert a.dtype == b.dtype, f"{what}: dtype {a.dtype} != {b.dtype}"
    assert torch.allclose(a, b, rtol=1e-6, atol=1e-8), f"{what}: max err {(a - b).abs().max().item():.3g}"


def by_steps(la, Q, K, V):
    st = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


# ----------------------------------------------------------------------------- work counting

class Work(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.total = 0
        self.largest = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for o in tree_flatten(out)[0]:
            if isinstance(o, torch.Tensor):
                self.total += o.numel()
                self.largest = max(self.largest, o.numel())
        return out


def work(fn):
    with Work() as w:
        fn()
    return w


def linear_in_L(make, what):
    w1, w2 = work(make(64)), work(make(256))
    ratio = w2.total / max(w1.total, 1)
    assert ratio < 7, f"{what}: work grows x{ratio:.1f} when L grows x4"
    big = w2.largest / max(w1.largest, 1)
    assert big < 7, f"{what}: largest intermediate grows x{big:.1f} when L grows x4"


# ----------------------------------------------------------------------------- checks

LIN = {"lp": lambda la: la.linear_attention_parallel, "lr": lambda la: la.linear_attention_recurrent,
       "step": lambda la: (lambda Q, K, V: by_steps(la, Q, K, V))}
RET = {"rp": lambda la: la.retention_parallel, "rr": lambda la: la.retention_recurrent,
       "ch": lambda la: (lambda Q, K, V, g: la.retention_chunkwise(Q, K, V, g, 3))}
CHECKS = {}


def check(name):
    def deco(fn):
        CHECKS[name] = fn
        return fn
    return deco


def noncontig(lead, L, m, d_v, seed):
    Q, K, V = qkv((lead[1], lead[0]), L, m, d_v, seed)
    return Q.transpose(0, 1), K.transpose(0, 1), V.transpose(0, 1)


for key in LIN:
    def _make(key):
        @check(f"{key}_basic")
        def _(la):
            Q, K, V = qkv((), 7, 4, 3, 1)
            close(LIN[key](la)(Q, K, V), lin_ref(Q, K, V))

        @check(f"{key}_batched_dk_ne_dv")
        def _(la):
            Q, K, V = qkv((2, 3), 6, 4, 5, 2)
            close(LIN[key](la)(Q, K, V), lin_ref(Q, K, V))

        @check(f"{key}_noncontiguous")
        def _(la):
            Q, K, V = noncontig((2, 3), 5, 3, 2, 3)
            close(LIN[key](la)(Q, K, V), lin_ref(Q, K, V))

        @check(f"{key}_lead1_dv1")
        def _(la):
            Q, K, V = qkv((2, 1), 5, 3, 1, 4)
            close(LIN[key](la)(Q, K, V), lin_ref(Q, K, V))

        @check(f"{key}_one_token")
        def _(la):
            Q, K, V = qkv((3,), 1, 4, 2, 5)
            close(LIN[key](la)(Q, K, V), V.clone())

        @check(f"{key}_very_negative_inputs")
        def _(la):
            Q, K, V = qkv((), 6, 3, 2, 6)
            close(LIN[key](la)(Q - 20, K - 20, V), lin_ref(Q - 20, K - 20, V))

        @check(f"{key}_causal")
        def _(la):
            Q, K, V = qkv((2,), 8, 4, 3, 7)
            Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
            for a in (Q2, K2, V2):
                a[..., 5:, :] += 5
            y, y2 = LIN[key](la)(Q, K, V), LIN[key](la)(Q2, K2, V2)
            assert torch.equal(y[..., :5, :], y2[..., :5, :]), "later tokens changed earlier outputs"

        @check(f"{key}_float32")
        def _(la):
            Q, K, V = qkv((2,), 5, 3, 4, 8, dtype=torch.float32)
            y = LIN[key](la)(Q, K, V)
            assert y.dtype == torch.float32, f"float32 in, {y.dtype} out"
            assert torch.allclose(y.double(), lin_ref(Q.double(), K.double(), V.double()), atol=1e-4)

        @check(f"{key}_inputs_untouched")
        def _(la):
            Q, K, V = qkv((2,), 6, 3, 3, 9)
            before = [X.clone() for X in (Q, K, V)]
            LIN[key](la)(Q, K, V)
            assert all(torch.equal(a, b) for a, b in zip(before, (Q, K, V))), "inputs modified"
    _make(key)


@check("step_interleaved_states")
def _(la):
    Qa, Ka, Va = qkv((), 5, 3, 2, 10)
    Qb, Kb, Vb = qkv((), 5, 3, 2, 11)
    a, b = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
    ya, yb = [], []
    for t in range(5):
        ya.append(a.step(Qa[t], Ka[t], Va[t]))
        yb.append(b.step(Qb[t], Kb[t], Vb[t]))
    close(torch.stack(ya), lin_ref(Qa, Ka, Va), "decoder a")
    close(torch.stack(yb), lin_ref(Qb, Kb, Vb), "decoder b")


@check("step_interleaved_float32")
def _(la):
    Qa, Ka, Va = qkv((), 5, 3, 2, 12, dtype=torch.float32)
    Qb, Kb, Vb = qkv((), 5, 3, 2, 13, dtype=torch.float32)
    a, b = la.LinearAttentionState(3, 2), la.LinearAttentionState(3, 2)
    ya, yb = [], []
    for t in range(5):
        ya.append(a.step(Qa[t], Ka[t], Va[t]))
        yb.append(b.step(Qb[t], Kb[t], Vb[t]))
    assert torch.allclose(torch.stack(ya).double(), lin_ref(Qa.double(), Ka.double(), Va.double()), atol=1e-4)
    assert torch.allclose(torch.stack(yb).double(), lin_ref(Qb.double(), Kb.double(), Vb.double()), atol=1e-4)


for key in RET:
    def _make(key):
        @check(f"{key}_gammas_batched")
        def _(la):
            Q, K, V = qkv((2,), 7, 4, 3, 20)
            for g in (0.0, 0.3, 0.9, 1.0):
                close(RET[key](la)(Q, K, V, g), ret_ref(Q, K, V, g), f"gamma={g}")

        @check(f"{key}_gamma_zero")
        def _(la):
            Q, K, V = qkv((), 7, 3, 2, 21)
            close(RET[key](la)(Q, K, V, 0.0), (Q * K).sum(-1, keepdim=True) * V)

        @check(f"{key}_gamma_one")
        def _(la):
            Q, K, V = qkv((), 7, 3, 2, 22)
            close(RET[key](la)(Q, K, V, 1.0), torch.tril(Q @ K.T) @ V)

        @check(f"{key}_per_head_gamma")
        def _(la):
            Q, K, V = qkv((2, 3), 7, 4, 3, 23)
            g = torch.tensor([0.0, 0.6, 1.0], dtype=F64)
            close(RET[key](la)(Q, K, V, g), ret_ref(Q, K, V, g.view(1, 3)))

        @check(f"{key}_dk_ne_dv_noncontig")
        def _(la):
            Q, K, V = noncontig((2, 3), 6, 4, 2, 24)
            close(RET[key](la)(Q, K, V, 0.7), ret_ref(Q, K, V, 0.7))

        @check(f"{key}_one_token")
        def _(la):
            Q, K, V = qkv((2,), 1, 3, 2, 25)
            close(RET[key](la)(Q, K, V, 0.5), (Q * K).sum(-1, keepdim=True) * V)

        @check(f"{key}_causal")
        def _(la):
            Q, K, V = qkv((2,), 9, 4, 3, 26)
            Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
            for a in (Q2, K2, V2):
                a[..., 5:, :] += 5
            y, y2 = RET[key](la)(Q, K, V, 0.9), RET[key](la)(Q2, K2, V2, 0.9)
            assert torch.allclose(y[..., :5, :], y2[..., :5, :], atol=1e-12), "later tokens changed earlier outputs"

        @check(f"{key}_float32")
        def _(la):
            Q, K, V = qkv((2,), 6, 3, 4, 27, dtype=torch.float32)
            y = RET[key](la)(Q, K, V, 0.9)
            assert y.dtype == torch.float32, f"float32 in, {y.dtype} out"

        @check(f"{key}_rejects_bad_gamma")
        def _(la):
            Q, K, V = qkv((), 4, 3, 3, 28)
            for g in (1.5, -0.1, float("nan"), torch.tensor([0.5, 1.2], dtype=F64)):
                QQ, KK, VV = (X.expand(2, *X.shape) for X in (Q, K, V)) if torch.is_tensor(g) else (Q, K, V)
                try:
                    RET[key](la)(QQ, KK, VV, g)
                except ValueError:
                    continue
                raise AssertionError(f"gamma={g} accepted")

        @check(f"{key}_inputs_untouched")
        def _(la):
            Q, K, V = qkv((2,), 8, 3, 3, 29)
            before = [X.clone() for X in (Q, K, V)]
            RET[key](la)(Q, K, V, 0.8)
            assert all(torch.equal(a, b) for a, b in zip(before, (Q, K, V))), "inputs modified"
    _make(key)


@check("ch_every_chunk_size")
def _(la):
    Q, K, V = qkv((2,), 9, 4, 3, 30)
    want = ret_ref(Q, K, V, 0.8)
    for c in (1, 2, 3, 4, 5, 8, 9, 12, 100):
        close(la.retention_chunkwise(Q, K, V, 0.8, c), want, f"chunk_size={c}")


@check("ch_state_after_last_chunk")
def _(la):
    Q, K, V = qkv((), 9, 4, 3, 31)
    for c in (1, 2, 3, 4, 5, 9, 12):
        for g in (0.0, 0.7, 1.0):
            _, R = la.retention_chunkwise(Q, K, V, g, c, return_state=True)
            w = torch.tensor([g ** (8 - i) for i in range(9)], dtype=F64)
            close(R, (K * w[:, None]).T @ V, f"chunk_size={c} gamma={g}")


@check("ch_gamma_zero_many_chunks")
def _(la):
    Q, K, V = qkv((), 9, 3, 2, 32)
    close(la.retention_chunkwise(Q, K, V, 0.0, 2), (Q * K).sum(-1, keepdim=True) * V)


@check("ch_one_token")
def _(la):
    Q, K, V = qkv((), 1, 3, 2, 33)
    close(la.retention_chunkwise(Q, K, V, 0.5, 4), (Q * K).sum(-1, keepdim=True) * V)


@check("ch_expanded_inputs")
def _(la):
    Q, K, V = qkv((), 6, 3, 2, 34)
    Ke, Ve = K[None].expand(3, 6, 3), V[None].expand(3, 6, 2)
    close(la.retention_chunkwise(Q, Ke, Ve, 0.6, 4), ret_ref(Q.expand(3, 6, 3), Ke, Ve, 0.6))


@check("unified_modes")
def _(la):
    Q, K, V = qkv((2,), 7, 4, 3, 40)
    close(la.unified_recurrence(Q, K, V, "linear"), ret_ref(Q, K, V, 1.0), "linear")
    for g in (0.0, 0.6, 1.0):
        close(la.unified_recurrence(Q, K, V, "retention", gamma=g), ret_ref(Q, K, V, g), f"retention {g}")
    gate = torch.rand(7, dtype=F64, generator=torch.Generator().manual_seed(0))
    close(la.unified_recurrence(Q, K, V, "gated", gate=gate), gated_ref(Q, K, V, gate), "gated (L,)")


@check("unified_per_batch_gate")
def _(la):
    Q, K, V = qkv((2, 3), 6, 4, 3, 41)
    gate = torch.rand(3, 6, dtype=F64, generator=torch.Generator().manual_seed(1))   # one gate row per head
    close(la.unified_recurrence(Q, K, V, "gated", gate=gate), gated_ref(Q, K, V, gate), "gated (H, L)")


@check("unified_per_head_gamma")
def _(la):
    Q, K, V = qkv((2, 3), 6, 4, 3, 42)
    g = torch.tensor([0.0, 0.5, 1.0], dtype=F64)
    close(la.unified_recurrence(Q, K, V, "retention", gamma=g), ret_ref(Q, K, V, g.view(1, 3)))


@check("unified_rejects")
def _(la):
    Q, K, V = qkv((), 5, 3, 2, 43)
    for kwargs in ({"mode": "softmax"}, {"mode": "Linear"}, {"mode": "retention"}, {"mode": "gated"},
                   {"mode": "retention", "gamma": 1.5}):
        try:
            la.unified_recurrence(Q, K, V, **kwargs)
        except ValueError:
            continue
        raise AssertionError(f"{kwargs} accepted")


@check("unified_float32")
def _(la):
    Q, K, V = qkv((2,), 5, 3, 2, 44, dtype=torch.float32)
    assert la.unified_recurrence(Q, K, V, "retention", gamma=0.5).dtype == torch.float32


@check("multiscale")
def _(la):
    g = la.multiscale_decays(6)
    assert g.dtype == torch.get_default_dtype() and g.shape == (6,)
    assert torch.allclose(g.double(), 1 - 2.0 ** (-5 - torch.arange(6, dtype=F64)))


@check("cost_lr")
def _(la):
    linear_in_L(lambda L: (lambda: la.linear_attention_recurrent(*qkv((), L, 8, 8, 50))), "linear_attention_recurrent")


@check("cost_rr")
def _(la):
    linear_in_L(lambda L: (lambda: la.retention_recurrent(*qkv((), L, 8, 8, 51), 0.9)), "retention_recurrent")


@check("cost_ch")
def _(la):
    linear_in_L(lambda L: (lambda: la.retention_chunkwise(*qkv((), L, 8, 8, 52), 0.9, 8)), "retention_chunkwise")


@check("cost_step")
def _(la):
    def per_step(T):
        Q, K, V = qkv((), T + 1, 8, 8, 53)
        st = la.LinearAttentionState(8, 8)
        for t in range(T):
            st.step(Q[t], K[t], V[t])
        return work(lambda: st.step(Q[T], K[T], V[T])).total
    a, b = per_step(16), per_step(256)
    assert b < 2 * a, f"one step at t=256 costs {b / a:.1f}x a step at t=16"


def run_case(case):
    la = load(case)
    failed = []
    for name, fn in CHECKS.items():
        try:
            fn(la)
        except AssertionError as e:
            failed.append((name, str(e)[:110]))
        except Exception as e:                                        # noqa: BLE001 - report every crash
            failed.append((name, f"{type(e).__name__}: {str(e).splitlines()[0][:100] if str(e) else ''}"))
    return failed


if __name__ == "__main__":
    cases = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "linear_attention.py").exists())
    for case in cases:
        try:
            failed = run_case(case)
        except Exception:                                             # noqa: BLE001
            print(f"== {case}: module does not load\n{traceback.format_exc(limit=1)}")
            continue
        print(f"== {case}: {len(failed)} failing checks")
        for name, msg in failed:
            print(f"   {name}: {msg}")
