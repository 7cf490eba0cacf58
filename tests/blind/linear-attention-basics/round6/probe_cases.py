"""Light in-process float64 probes: does each bug case show the symptom its `about` claims?

    python probe_cases.py            # one line per bug case: OK/FAIL and what was seen

Each probe loads the case's linear_attention.py next to base's and compares on small inputs.
Notebook bugs are probed on the answers text (their cells are run by run_notebooks.py).
"""
import importlib.util
import json
import sys
from pathlib import Path

import torch
from torch.utils.flop_counter import FlopCounterMode

ROOT = Path(__file__).resolve().parent
torch.set_default_dtype(torch.float32)


def load(folder):
    spec = importlib.util.spec_from_file_location(f"la_{folder}", ROOT / folder / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BASE = load("base")


def qkv(lead=(), L=7, m=4, d_v=3, seed=0, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return tuple(torch.randn(*lead, L, d, generator=g, dtype=dtype) for d in (m, m, d_v))


def close(a, b):
    return a.shape == b.shape and torch.allclose(a, b, rtol=1e-7, atol=1e-9)


def raises(fn, exc=Exception):
    try:
        fn()
    except exc as e:
        return type(e).__name__
    return None


def by_steps(mod, Q, K, V):
    st = mod.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


def flops(fn, *a):
    with FlopCounterMode(display=False) as fc:
        fn(*a)
    return fc.get_total_flops()


def growth(fn, L1=64, L2=128):
    """matmul flops at 2L over flops at L: ~2 for a carried state, ~4 for O(L²) work."""
    a, b = qkv((), L1, 4, 3), qkv((), L2, 4, 3)
    return flops(fn, *b) / max(flops(fn, *a), 1)


def causal_change(fn):
    Q, K, V = qkv((2,), 9, 4, 3, seed=4)
    Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
    for x in (Q2, K2, V2):
        x[..., 5:, :] += 3.0
    return (fn(Q, K, V)[..., :5, :] - fn(Q2, K2, V2)[..., :5, :]).abs().max().item()


def nb_answers(folder):
    cells = json.load(open(ROOT / folder / "linear_attention.ipynb"))["cells"]
    return {i: "".join(c["source"]) for i, c in enumerate(cells) if c["cell_type"] == "markdown"}


# ----------------------------------------------------------------------------- probes: return (ok, what was seen)

def p_linpar_elu(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    par_bad = not close(m.linear_attention_parallel(Q, K, V), BASE.linear_attention_parallel(Q, K, V))
    rec_ok = close(m.linear_attention_recurrent(Q, K, V), BASE.linear_attention_recurrent(Q, K, V))
    A = torch.nn.functional.elu(Q[0]) @ torch.nn.functional.elu(K[0]).T
    return par_bad and rec_ok, f"parallel differs={par_bad}, recurrent right={rec_ok}, negative scores={bool((A < 0).any())}"


def p_linpar_colnorm(m):
    Q, K, _ = qkv((), 6, 3, 2, seed=3)
    V = torch.tensor([1.0, -2.0], dtype=torch.float64).expand(6, 2)
    const_bad = not close(m.linear_attention_parallel(Q - 3, K - 3, V), V)
    c = causal_change(m.linear_attention_parallel)
    return const_bad and c > 1e-6, f"constant values not preserved={const_bad}, causal leak={c:.2e}"


def p_linpar_nokeepdim(m):
    Q, K, V = qkv((), 8, 4, 3)
    err = raises(lambda: m.linear_attention_parallel(Q, K, V))
    Q, K, V = qkv((), 4, 4, 4)
    wrong_eq = not close(m.linear_attention_parallel(Q, K, V), BASE.linear_attention_parallel(Q, K, V))
    Q, K, V = qkv((2,), 7, 4, 3)
    errb = raises(lambda: m.linear_attention_parallel(Q, K, V))
    return bool(err) and wrong_eq and bool(errb), f"2-D L!=d_v raises {err}; L==d_v wrong={wrong_eq}; batched raises {errb}"


def p_linpar_diag(m):
    Q, K, V = qkv((2,), 1, 3, 4)
    y = m.linear_attention_parallel(Q, K, V)
    return bool(torch.isnan(y).all()), f"single token -> NaN: {bool(torch.isnan(y).all())}"


def p_linpar_einsum(m):
    Q, K, V = qkv((), 7, 4, 3)
    ok2d = close(m.linear_attention_parallel(Q, K, V), BASE.linear_attention_parallel(Q, K, V))
    Q, K, V = qkv((2,), 7, 4, 3)
    err = raises(lambda: m.linear_attention_parallel(Q, K, V))
    return ok2d and bool(err), f"2-D right={ok2d}; batched raises {err}"


def p_linrec_rbu(m):
    Q, K, V = qkv((2,), 1, 3, 4)
    y = m.linear_attention_recurrent(Q, K, V)
    return bool(torch.isnan(y).all()), f"single token -> NaN: {bool(torch.isnan(y).all())}"


def p_cost(fn_bug, fn_base, form):
    def p(m):
        Q, K, V = qkv((2,), 9, 4, 3)
        right = close(fn_bug(m)(Q, K, V), fn_base(Q, K, V))
        gb, g0 = growth(fn_bug(m)), growth(fn_base)
        return right and gb > 3.5 and g0 < 2.5, f"{form} outputs right={right}; matmul-flop growth L->2L: case {gb:.2f}, base {g0:.2f}"
    return p


def p_linrec_eps(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    d = (m.linear_attention_recurrent(Q, K, V) - BASE.linear_attention_recurrent(Q, K, V)).abs().max().item()
    Qn = Q - 20.0
    dn = (m.linear_attention_recurrent(Qn, K, V) - BASE.linear_attention_recurrent(Qn, K, V)).abs().max().item()
    try:
        torch.testing.assert_close(m.linear_attention_recurrent(Q, K, V), BASE.linear_attention_recurrent(Q, K, V))
        fails = False
    except AssertionError:
        fails = True
    return d > 0 and dn > 1e-2, (f"max diff ordinary inputs {d:.1e} (fails torch.testing.assert_close float64 defaults: "
                                 f"{fails}); queries - 20: {dn:.2e}")


def p_linrec_len(m):
    Q, K, V = qkv((), 7, 4, 3)
    ok2d = close(m.linear_attention_recurrent(Q, K, V), BASE.linear_attention_recurrent(Q, K, V))
    Q, K, V = qkv((2,), 7, 4, 3)
    try:
        shape = tuple(m.linear_attention_recurrent(Q, K, V).shape)
    except Exception as e:
        shape = type(e).__name__
    return ok2d and shape != (2, 7, 3), f"2-D right={ok2d}; batched (2,7,*) gives {shape}"


def p_linrec_relu(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    y = m.linear_attention_recurrent(Q, K, V)
    differs = not close(y, BASE.linear_attention_recurrent(Q, K, V))
    nan = bool(torch.isnan(m.linear_attention_recurrent(Q - 5, K, V)).any())
    return differs, f"differs from elu+1={differs}; NaN with negative queries={nan}"


def p_linrec_f64(m):
    Q, K, V = qkv((2,), 6, 4, 3, dtype=torch.float32)
    err = raises(lambda: m.linear_attention_recurrent(Q, K, V))
    Qd, Kd, Vd = qkv((2,), 6, 4, 3)
    right = close(m.linear_attention_recurrent(Qd, Kd, Vd), BASE.linear_attention_recurrent(Qd, Kd, Vd))
    return bool(err) and right, f"float32 in raises {err}; float64 values right={right}"


def p_step_inplace(m):
    Q, K, V = qkv((2,), 5, 4, 3, dtype=torch.float32)
    err = raises(lambda: by_steps(m, Q, K, V))
    Q, K, V = qkv((), 8, 4, 3)
    err64 = raises(lambda: by_steps(m, Q, K, V))
    Q, K, V = qkv((), 8, 4, 3, dtype=torch.float32)
    ok32 = torch.allclose(by_steps(m, Q, K, V), BASE.linear_attention_recurrent(Q, K, V), atol=1e-6)
    return bool(err) and bool(err64) and ok32, f"batched float32 raises {err}; unbatched float64 raises {err64}; unbatched float32 right={ok32}"


def p_step_cast(m):
    Q, K, V = qkv((), 8, 4, 3)
    y = by_steps(m, Q, K, V)
    d = (y.double() - BASE.linear_attention_recurrent(Q, K, V)).abs().max().item()
    Qf, Kf, Vf = qkv((2,), 6, 4, 3, dtype=torch.float32)
    f32 = close(by_steps(m, Qf, Kf, Vf).double(), by_steps(BASE, Qf, Kf, Vf).double())
    return y.dtype == torch.float32 and d > 1e-9 and f32, f"float64 in -> {y.dtype}, error {d:.1e}; float32 unaffected={f32}"


def p_step_elu_inplace(m):
    Q, K, V = qkv((2,), 6, 4, 3)
    Q0, K0 = Q.clone(), K.clone()
    y = by_steps(m, Q, K, V)
    right = close(y, BASE.linear_attention_recurrent(Q0, K0, V))
    mutated = not torch.equal(Q, Q0)
    Q, K, V = qkv((), 6, 4, 3)
    st1, st2 = m.LinearAttentionState(4, 3), m.LinearAttentionState(4, 3)
    a = [st1.step(Q[t], K[t], V[t]) for t in range(6)]
    b = [st2.step(Q[t], K[t], V[t]) for t in range(6)]          # same token tensors again
    second_bad = not close(torch.stack(b), BASE.linear_attention_recurrent(qkv((), 6, 4, 3)[0], qkv((), 6, 4, 3)[1], V))
    return right and mutated and second_bad, f"own outputs right={right}; caller's Q mutated={mutated}; re-stepping same tensors wrong={second_bad}"


def p_gamma_nan(m):
    Q, K, V = qkv((), 4, 3, 3)
    err = raises(lambda: m.retention_parallel(Q, K, V, float("nan")), ValueError)
    still = raises(lambda: m.retention_parallel(Q, K, V, 1.5), ValueError)
    return err is None and still is not None, f"NaN raises: {err}; 1.5 raises: {still}"


def p_gamma_one(m):
    Q, K, V = qkv((), 4, 3, 3)
    errs = [raises(lambda f=f: f(Q, K, V, 1.0)) for f in (m.retention_parallel, m.retention_recurrent)]
    errs.append(raises(lambda: m.retention_chunkwise(Q, K, V, 1.0, 2)))
    ok09 = close(m.retention_parallel(Q, K, V, 0.9), BASE.retention_parallel(Q, K, V, 0.9))
    return all(errs) and ok09, f"gamma=1 raises in par/rec/chunk: {errs}; gamma=0.9 right={ok09}"


def p_gamma_f64(m):
    Q, K, V = qkv((2,), 6, 4, 3, dtype=torch.float32)
    errs = [raises(lambda: m.retention_parallel(Q, K, V, 0.9)), raises(lambda: m.retention_recurrent(Q, K, V, 0.9)),
            raises(lambda: m.retention_chunkwise(Q, K, V, 0.9, 4)),
            raises(lambda: m.unified_recurrence(Q, K, V, "retention", gamma=0.9))]
    Qd, Kd, Vd = qkv((2,), 6, 4, 3)
    ok = close(m.retention_parallel(Qd, Kd, Vd, 0.9), BASE.retention_parallel(Qd, Kd, Vd, 0.9))
    return all(errs) and ok, f"float32 raises (par, rec, chunk, unified): {errs}; float64 right={ok}"


def p_decay_nan(m):
    Q, K, V = qkv((), 6, 3, 2, seed=9)
    yp, yc = m.retention_parallel(Q, K, V, 0.0), m.retention_chunkwise(Q, K, V, 0.0, 4)
    ok05 = close(m.retention_parallel(Q, K, V, 0.5), BASE.retention_parallel(Q, K, V, 0.5))
    yr = m.retention_recurrent(Q, K, V, 0.0)
    nan_rows = int(torch.isnan(yp).any(-1).sum())
    return bool(torch.isnan(yp).any() and torch.isnan(yc).any()) and ok05 and not torch.isnan(yr).any(), \
        f"gamma=0: parallel NaN rows {nan_rows}/6, chunkwise NaN={bool(torch.isnan(yc).any())}, recurrent fine={not torch.isnan(yr).any()}; gamma=0.5 right={ok05}"


def p_decay_sign(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    nodecay = close(m.retention_parallel(Q, K, V, 0.5), BASE.retention_parallel(Q, K, V, 1.0))
    chunk_bad = not close(m.retention_chunkwise(Q, K, V, 0.5, 3), BASE.retention_parallel(Q, K, V, 0.5))
    rec_ok = close(m.retention_recurrent(Q, K, V, 0.5), BASE.retention_recurrent(Q, K, V, 0.5))
    return nodecay and chunk_bad and rec_ok, f"parallel(0.5) == base(1.0): {nodecay}; chunkwise wrong={chunk_bad}; recurrent right={rec_ok}"


def p_retpar_norm(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    bad = not close(m.retention_parallel(Q, K, V, 0.8), BASE.retention_parallel(Q, K, V, 0.8))
    return bad, f"retention_parallel differs={bad}"


def p_retrec_differs(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    bad = not close(m.retention_recurrent(Q, K, V, 0.8), BASE.retention_recurrent(Q, K, V, 0.8))
    par_ok = close(m.retention_parallel(Q, K, V, 0.8), BASE.retention_parallel(Q, K, V, 0.8))
    return bad and par_ok, f"retention_recurrent differs={bad}; parallel right={par_ok}"


def p_retrec_after(m):
    ok, msg = p_retrec_differs(m)
    Q, K, V = qkv((2,), 7, 4, 3)
    scaled = close(m.retention_recurrent(Q, K, V, 0.8), 0.8 * BASE.retention_recurrent(Q, K, V, 0.8))
    return ok and scaled, msg + f"; equals 0.8 x right answer={scaled}"


def p_retrec_bmm(m):
    Q, K, V = qkv((2, 3), 7, 4, 3)
    ok = close(m.retention_recurrent(Q, K, V, 0.8), BASE.retention_recurrent(Q, K, V, 0.8))
    X = torch.randn(2, 7, 3, 4, dtype=torch.float64)             # (B, L, H, m) -> transpose to (B, H, L, m)
    Qt = Kt = X.transpose(1, 2)
    Vt = torch.randn(2, 7, 3, 3, dtype=torch.float64).transpose(1, 2)
    err = raises(lambda: m.retention_recurrent(Qt, Kt, Vt, 0.8))
    return ok and bool(err), f"contiguous right={ok}; non-contiguous raises {err}"


def p_retrec_squeeze(m):
    Q, K, V = qkv((2, 3), 7, 4, 3)
    g = torch.tensor([0.0, 0.5, 1.0], dtype=torch.float64)
    wrong = not close(m.retention_recurrent(Q, K, V, g), BASE.retention_recurrent(Q, K, V, g))
    Q4, K4, V4 = qkv((2, 3), 7, 4, 5)
    err = raises(lambda: m.retention_recurrent(Q4, K4, V4, g))
    scalar = close(m.retention_recurrent(Q, K, V, 0.7), BASE.retention_recurrent(Q, K, V, 0.7))
    return wrong and bool(err) and scalar, f"per-head H=d_v wrong={wrong}; H!=d_v raises {err}; scalar right={scalar}"


def p_retrec_mm(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    err = raises(lambda: m.retention_recurrent(Q, K, V, 0.8))
    Q, K, V = qkv((2,), 7, 4, 4)
    ok = close(m.retention_recurrent(Q, K, V, 0.8), BASE.retention_recurrent(Q, K, V, 0.8))
    return bool(err) and ok, f"m=4,d_v=3 raises {err}; m=d_v right={ok}"


def chunk_vs(m, gamma=0.8, cs=4, L=9, lead=(2,)):
    Q, K, V = qkv(lead, L, 4, 3, seed=6)
    return Q, K, V, m.retention_chunkwise(Q, K, V, gamma, cs, return_state=True)


def base_state(Q, K, V, gamma):
    L = Q.shape[-2]
    w = gamma ** torch.arange(L - 1, -1, -1, dtype=torch.float64)
    return (K * w[:, None]).transpose(-2, -1) @ V


def p_chunk_state(m):
    Q, K, V, (y, R) = chunk_vs(m, 0.7, 4)
    out_ok = close(y, BASE.retention_parallel(Q, K, V, 0.7))
    st_bad = not close(R, base_state(Q, K, V, 0.7))
    Q, K, V, (y3, R3) = chunk_vs(m, 0.7, 3)
    st3 = close(R3, base_state(Q, K, V, 0.7))
    return out_ok and st_bad and st3, f"outputs right={out_ok}; state wrong with short last chunk={st_bad}; right when 3 | 9: {st3}"


def p_chunk_cross(m):
    Q, K, V, (y, R) = chunk_vs(m, 0.8, 4)
    bad = not close(y, BASE.retention_parallel(Q, K, V, 0.8))
    Q, K, V, (y9, _) = chunk_vs(m, 0.8, 9)
    one = close(y9, BASE.retention_parallel(Q, K, V, 0.8))
    return bad and one, f"chunk 4 wrong={bad}; single chunk right={one}"


def p_chunk_early_update(m):
    Q, K, V, (y, R) = chunk_vs(m, 0.8, 4)
    bad = not close(y, BASE.retention_parallel(Q, K, V, 0.8))
    st = close(R, base_state(Q, K, V, 0.8))
    c = causal_change(lambda Q, K, V: m.retention_chunkwise(Q, K, V, 0.9, 4))
    return bad and st and c > 1e-6, f"outputs wrong={bad}; returned state right={st}; causal leak={c:.2e}"


def p_chunk_tail(m):
    Q, K, V, (y, R) = chunk_vs(m, 0.8, 4)
    err = raises(lambda: m.retention_chunkwise(Q, K, V, 0.8, 12))
    Q, K, V, (y3, _) = chunk_vs(m, 0.8, 3)
    ok3 = close(y3, BASE.retention_parallel(Q, K, V, 0.8))
    return tuple(y.shape) != (2, 9, 3) and bool(err) and ok3, f"chunk 4 on L=9 gives {tuple(y.shape)}; chunk 12 raises {err}; chunk 3 right={ok3}"


def p_chunk_nodecay(m):
    Q, K, V, (y, R) = chunk_vs(m, 0.8, 4)
    bad = not close(y, BASE.retention_parallel(Q, K, V, 0.8))
    Q, K, V, (y1, _) = chunk_vs(m, 0.8, 1)
    one = close(y1, BASE.retention_parallel(Q, K, V, 0.8))
    return bad and one, f"chunk 4 wrong={bad}; chunk 1 right={one}"


def p_chunk_full(m):
    sizes = []
    orig = m.decay_matrix

    def spy(g, L):
        sizes.append(L)
        return orig(g, L)
    m.decay_matrix = spy
    try:
        Q, K, V, (y, R) = chunk_vs(m, 0.8, 4, L=64)
    finally:
        m.decay_matrix = orig
    right = close(y, BASE.retention_parallel(Q, K, V, 0.8)) and close(R, base_state(Q, K, V, 0.8))
    return right and max(sizes) == 64, f"outputs and state right={right}; largest decay matrix built: {max(sizes)} x {max(sizes)} for L=64, chunk 4"


def p_multiscale(m):
    got = m.multiscale_decays(4)
    want = BASE.multiscale_decays(4)
    return not torch.allclose(got, want), f"got {[round(x, 6) for x in got.tolist()]}"


def p_unified_after(m):
    Q, K, V = qkv((2,), 7, 4, 3, seed=10)
    lin = close(m.unified_recurrence(Q, K, V, "linear"), BASE.unified_recurrence(Q, K, V, "linear"))
    gate = torch.full((7,), 0.6, dtype=torch.float64)
    gbad = not close(m.unified_recurrence(Q, K, V, "gated", gate=gate), BASE.unified_recurrence(Q, K, V, "gated", gate=gate))
    return lin and gbad, f"linear right={lin}; gated wrong={gbad}"


def p_unified_squeeze(m):
    Q, K, V = qkv((2,), 1, 4, 3)
    err = raises(lambda: m.unified_recurrence(Q, K, V, "gated", gate=torch.tensor([0.5], dtype=torch.float64)))
    Q, K, V = qkv((2,), 7, 4, 3)
    gate = torch.full((7,), 0.6, dtype=torch.float64)
    ok = close(m.unified_recurrence(Q, K, V, "gated", gate=gate), BASE.unified_recurrence(Q, K, V, "gated", gate=gate))
    return bool(err) and ok, f"one token, gate (1,) raises {err}; L=7 right={ok}"


def p_unified_mode(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    err = raises(lambda: m.unified_recurrence(Q, K, V, "retnetion", gamma=0.5), ValueError)
    return err is None, f"unknown mode raises ValueError: {err}"


def p_unified_index(m):
    Q, K, V = qkv((2,), 7, 4, 3)
    gate = torch.rand(2, 7, dtype=torch.float64)
    try:
        bad = not close(m.unified_recurrence(Q, K, V, "gated", gate=gate), BASE.unified_recurrence(Q, K, V, "gated", gate=gate))
    except Exception as e:
        bad = type(e).__name__
    g1 = torch.rand(7, dtype=torch.float64)
    ok = close(m.unified_recurrence(Q, K, V, "gated", gate=g1), BASE.unified_recurrence(Q, K, V, "gated", gate=g1))
    return bool(bad) and ok, f"per-batch gate (2, 7) wrong/raises={bad}; (L,) gate right={ok}"


def p_delta(m):
    Q, K, V = qkv((), 5, 4, 3, seed=11)
    K = K / K.norm(dim=-1, keepdim=True)
    a, b = torch.full((5,), 0.9, dtype=torch.float64), torch.ones(5, dtype=torch.float64)
    d = (m.gated_delta_rule(K, K, V, a, b) - V).abs().max().item()
    return d > 1e-3, f"read-back error with alpha=0.9: {d:.3f} (decay-first gives 0)"


def p_nb(cell, expect):
    def p(m):
        txt = nb_answers(m.__name__[3:])
        return expect in txt.get(cell, ""), f"cell {cell} contains {expect!r}"
    return p


PROBES = {
    "bug_linpar_elu_without_plus_one": p_linpar_elu,
    "bug_linpar_normalizes_columns": p_linpar_colnorm,
    "bug_linpar_rowsum_without_keepdim": p_linpar_nokeepdim,
    "bug_linpar_mask_hides_diagonal": p_linpar_diag,
    "bug_linpar_einsum_without_batch": p_linpar_einsum,
    "bug_linrec_reads_before_update": p_linrec_rbu,
    "bug_linrec_resums_prefix": p_cost(lambda m: m.linear_attention_recurrent, BASE.linear_attention_recurrent, "linear_attention_recurrent"),
    "bug_linrec_eps_in_denominator": p_linrec_eps,
    "bug_linrec_loops_over_first_dim": p_linrec_len,
    "bug_linrec_relu_features": p_linrec_relu,
    "bug_linrec_state_hardcoded_float64": p_linrec_f64,
    "bug_step_inplace_update": p_step_inplace,
    "bug_step_casts_tokens_to_state_dtype": p_step_cast,
    "bug_step_keeps_history": p_cost(lambda m: (lambda Q, K, V: by_steps(m, Q, K, V)), lambda Q, K, V: by_steps(BASE, Q, K, V), "step"),
    "bug_step_elu_in_place_on_inputs": p_step_elu_inplace,
    "bug_gamma_nan_slips_through": p_gamma_nan,
    "bug_gamma_rejects_one": p_gamma_one,
    "bug_gamma_hardcoded_float64": p_gamma_f64,
    "bug_decay_power_times_mask": p_decay_nan,
    "bug_decay_exponent_sign": p_decay_sign,
    "bug_retpar_divides_by_rowsum": p_retpar_norm,
    "bug_retrec_applies_feature_map": p_retrec_differs,
    "bug_retrec_decays_after_write": p_retrec_after,
    "bug_retrec_resums_prefix": p_cost(lambda m: (lambda Q, K, V: m.retention_recurrent(Q, K, V, 0.9)),
                                       lambda Q, K, V: BASE.retention_recurrent(Q, K, V, 0.9), "retention_recurrent"),
    "bug_retrec_bmm_view": p_retrec_bmm,
    "bug_retrec_squeezes_gamma": p_retrec_squeeze,
    "bug_retrec_state_m_by_m": p_retrec_mm,
    "bug_chunk_state_uses_chunk_size": p_chunk_state,
    "bug_chunk_cross_decay_off_by_one": p_chunk_cross,
    "bug_chunk_updates_state_before_reading": p_chunk_early_update,
    "bug_chunk_drops_short_tail": p_chunk_tail,
    "bug_chunk_intra_without_decay": p_chunk_nodecay,
    "bug_chunk_slices_full_decay_matrix": p_chunk_full,
    "bug_multiscale_precedence": p_multiscale,
    "bug_multiscale_heads_from_one": p_multiscale,
    "bug_unified_gate_after_write": p_unified_after,
    "bug_unified_gate_squeezed": p_unified_squeeze,
    "bug_unified_unknown_mode_is_linear": p_unified_mode,
    "bug_unified_gate_indexed_on_first_dim": p_unified_index,
    "bug_delta_predicts_before_decay": p_delta,
    "bug_nb_example_not_divided": p_nb(8, "example_1_1: [2.00, 12.00]"),
    "bug_nb_your_turn_forgot_key_total": p_nb(8, "your_turn: [2.00, 3.33]"),
    "bug_nb_cost_whole_prefix": p_nb(30, "cost_ratio_at_100k: 391×"),
    "bug_nb_ex1_why_positivity": p_nb(35, "always positive"),
    "bug_nb_gamma0_says_output_vanishes": p_nb(40, "output is zero at every position"),
    "bug_nb_ex3_gate_protects_own_write": p_nb(45, "protects token 2's own write"),
    "bug_nb_ex2_diag_broadcast": None,
    "bug_nb_ex3_gate_one_based": None,
}


def main():
    names = sorted(p.name for p in ROOT.iterdir() if p.name.startswith("bug_"))
    missing = set(names) - set(PROBES)
    assert not missing, missing
    bad = 0
    for name in names:
        probe = PROBES[name]
        if probe is None:
            print(f"{name}: (notebook cell bug: see run_notebooks.py)")
            continue
        try:
            ok, seen = probe(load(name))
        except Exception as e:                                      # a probe that crashes counts as a failure
            ok, seen = False, f"probe crashed: {type(e).__name__}: {e}"
        bad += not ok
        print(f"{name}: {'OK  ' if ok else 'FAIL'} {seen}")
    print(f"{len(names)} bug cases, {bad} probe failures")
    return bad


if __name__ == "__main__":
    sys.exit(main())
