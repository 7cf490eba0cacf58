"""Check one linear_attention.py against naive float64 references (explicit sums over j <= i).

    /work/main/.venv/bin/python ref_check.py CASE/linear_attention.py      # prints OK or the failures
"""
import sys, importlib.util, torch
torch.set_default_dtype(torch.float32)
spec = importlib.util.spec_from_file_location("la", sys.argv[1]); la = importlib.util.module_from_spec(spec); spec.loader.exec_module(la)
F = torch.nn.functional
def phi(x): return F.elu(x) + 1
def ref_lin(Q, K, V):
    L = Q.shape[-2]; out = []
    for i in range(L):
        w = (phi(Q[..., i:i+1, :]) * phi(K[..., :i+1, :])).sum(-1)  # (..., i+1)
        out.append((w.unsqueeze(-1) * V[..., :i+1, :]).sum(-2) / w.sum(-1, keepdim=True))
    return torch.stack(out, -2)
def ref_ret(Q, K, V, g):
    g = torch.as_tensor(g, dtype=Q.dtype)
    L = Q.shape[-2]; out = []
    for n in range(L):
        pw = torch.stack([g ** (n - mm) for mm in range(n + 1)], -1) if n >= 0 else None  # (..., n+1)
        w = (Q[..., n:n+1, :] * K[..., :n+1, :]).sum(-1) * pw
        out.append((w.unsqueeze(-1) * V[..., :n+1, :]).sum(-2))
    return torch.stack(out, -2)
def ref_state(K, V, g):
    L = K.shape[-2]
    w = torch.as_tensor(g, dtype=K.dtype).unsqueeze(-1) ** torch.arange(L - 1, -1, -1, dtype=K.dtype)
    return (K * w.unsqueeze(-1)).transpose(-2, -1) @ V
gen = torch.Generator().manual_seed(0)
def r(*s, dtype=torch.float64): return torch.randn(*s, generator=gen, dtype=dtype)
ok = True
def close(a, b, what, tol=1e-10):
    global ok
    if a.shape != b.shape or not torch.allclose(a, b, atol=tol, rtol=tol):
        ok = False; print("FAIL", what, a.shape, b.shape, (a - b).abs().max() if a.shape == b.shape else "")
for lead, L, m, dv in [((), 1, 3, 2), ((), 9, 4, 3), ((2,), 7, 3, 5), ((2, 3), 6, 4, 4), ((), 13, 2, 6)]:
    Q, K, V = r(*lead, L, m), r(*lead, L, m), r(*lead, L, dv)
    want = ref_lin(Q, K, V)
    close(la.linear_attention_parallel(Q, K, V), want, f"linpar {lead} {L}")
    close(la.linear_attention_recurrent(Q, K, V), want, f"linrec {lead} {L}")
    st = la.LinearAttentionState(m, dv)
    close(torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(L)], -2), want, "step")
    for g in [0.0, 0.3, 0.9, 1.0]:
        want = ref_ret(Q, K, V, g)
        close(la.retention_parallel(Q, K, V, g), want, f"retpar {g}")
        close(la.retention_recurrent(Q, K, V, g), want, f"retrec {g}")
        close(la.unified_recurrence(Q, K, V, "retention", gamma=g), want, f"uni ret {g}")
        close(la.unified_recurrence(Q, K, V, "gated", gate=torch.full((L,), g, dtype=torch.float64)), want, f"uni gate {g}")
        for B in [1, 2, 3, 4, 5, 9, 20]:
            o, R = la.retention_chunkwise(Q, K, V, g, B, return_state=True)
            close(o, want, f"chunk {g} {B}"); close(R, ref_state(K, V, g), f"chunk state {g} {B}")
    close(la.unified_recurrence(Q, K, V, "linear"), ref_ret(Q, K, V, 1.0), "uni lin")
# per-head gamma
Q, K, V = r(2, 3, 9, 4), r(2, 3, 9, 4), r(2, 3, 9, 3)
gh = torch.tensor([0.0, 0.5, 1.0], dtype=torch.float64)
want = ref_ret(Q, K, V, gh.expand(2, 3))
for name, y in [("par", la.retention_parallel(Q, K, V, gh)), ("rec", la.retention_recurrent(Q, K, V, gh)),
                ("chk", la.retention_chunkwise(Q, K, V, gh, 4)), ("uni", la.unified_recurrence(Q, K, V, "retention", gamma=gh))]:
    close(y, want, "perhead " + name)
assert gh.shape == (3,)
# gated (..., L) gate vs explicit
gate = torch.rand(2, 3, 9, generator=gen, dtype=torch.float64)
S = torch.zeros(2, 3, 4, 3, dtype=torch.float64); ys = []
for t in range(9):
    S = gate[..., t, None, None] * S + K[..., t, :, None] * V[..., t, None, :]; ys.append((Q[..., t, None, :] @ S).squeeze(-2))
close(la.unified_recurrence(Q, K, V, "gated", gate=gate), torch.stack(ys, -2), "gated batched")
# validation
for bad in [1.5, -0.1, float("nan"), torch.tensor([0.5, 1.5]), torch.tensor([0.5, float("nan")])]:
    for f in [lambda g: la.retention_parallel(Q, K, V, g), lambda g: la.retention_recurrent(Q, K, V, g),
              lambda g: la.retention_chunkwise(Q, K, V, g, 2), lambda g: la.unified_recurrence(Q, K, V, "retention", gamma=g)]:
        try: f(bad); ok = False; print("no raise", bad)
        except ValueError: pass
for bad in [0, -1, 2.0, True, "3"]:
    try: la.retention_chunkwise(Q, K, V, 0.5, bad); ok = False; print("chunk no raise", bad)
    except ValueError: pass
for kw in [dict(mode="softmax"), dict(mode="retention"), dict(mode="gated")]:
    try: la.unified_recurrence(Q, K, V, **kw); ok = False; print("uni no raise", kw)
    except ValueError: pass
# dtype
Q32, K32, V32 = r(2, 6, 4, dtype=torch.float32), r(2, 6, 4, dtype=torch.float32), r(2, 6, 3, dtype=torch.float32)
st = la.LinearAttentionState(4, 3)
outs = [la.linear_attention_parallel(Q32, K32, V32), la.linear_attention_recurrent(Q32, K32, V32), st.step(Q32[:, 0], K32[:, 0], V32[:, 0]),
        la.retention_parallel(Q32, K32, V32, 0.9), la.retention_recurrent(Q32, K32, V32, 0.9), la.retention_chunkwise(Q32, K32, V32, 0.9, 4),
        la.retention_chunkwise(Q32, K32, V32, 0.9, 4, return_state=True)[1], la.unified_recurrence(Q32, K32, V32, "gated", gate=torch.rand(6)),
        la.unified_recurrence(Q32, K32, V32, "retention", gamma=0.5), la.unified_recurrence(Q32, K32, V32, "linear")]
if any(o.dtype != torch.float32 for o in outs): ok = False; print("dtype", [o.dtype for o in outs])
# L=0
E = r(2, 0, 4); Ev = r(2, 0, 3)
for f in [la.linear_attention_parallel, la.linear_attention_recurrent, lambda a, b, c: la.retention_parallel(a, b, c, .5),
          lambda a, b, c: la.retention_recurrent(a, b, c, .5), lambda a, b, c: la.retention_chunkwise(a, b, c, .5, 3)]:
    if f(E, E, Ev).shape != (2, 0, 3): ok = False; print("L=0")
o, R = la.retention_chunkwise(E, E, Ev, 0.5, 3, return_state=True); print("L0 state", R.shape)
# no mutation
Q0, K0, V0 = Q.clone(), K.clone(), V.clone(); g0 = gh.clone()
la.retention_chunkwise(Q, K, V, gh, 4); la.retention_parallel(Q, K, V, gh); la.linear_attention_recurrent(Q, K, V)
if not (torch.equal(Q, Q0) and torch.equal(K, K0) and torch.equal(V, V0) and torch.equal(gh, g0)): ok = False; print("mutated")
print("multiscale", la.multiscale_decays(4), la.multiscale_decays(4).dtype)
# independent states
a, b = la.LinearAttentionState(4, 3), la.LinearAttentionState(4, 3)
a.step(Q[0, 0, 0], K[0, 0, 0], V[0, 0, 0]); y1 = b.step(Q[0, 0, 1], K[0, 0, 1], V[0, 0, 1])
close(y1, V[0, 0, 1], "independent")
print("OK" if ok else "NOT OK")
