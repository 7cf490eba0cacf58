"""Plain correctness check (no pytest): linear_attention_recurrent of a file vs a float64 reference."""
import importlib.util, sys, torch
path = sys.argv[1]
spec = importlib.util.spec_from_file_location("linear_attention", path)
la = importlib.util.module_from_spec(spec); sys.modules["linear_attention"] = la; spec.loader.exec_module(la)

def ref(Q, K, V):
    Q, K, V = Q.double(), K.double(), V.double()
    pq, pk = torch.nn.functional.elu(Q) + 1, torch.nn.functional.elu(K) + 1
    S = torch.cumsum(pk[..., :, :, None] * V[..., :, None, :], dim=-3)
    z = torch.cumsum(pk, dim=-2)
    return (pq[..., None, :] @ S).squeeze(-2) / (pq * z).sum(-1, keepdim=True)

worst = 0.0
g = torch.Generator().manual_seed(1)
for lead in [(), (2,), (2, 3)]:
    for L in [1, 5, 64, 300]:
        for dtype in (torch.float64, torch.float32):
            Q, K, V = (torch.randn(*lead, L, 4, generator=g, dtype=dtype) for _ in range(3))
            y = la.linear_attention_recurrent(Q, K, V)
            r = ref(Q, K, V)
            assert y.dtype == dtype and y.shape == r.shape, (lead, L, dtype, y.dtype, y.shape)
            err = ((y.double() - r).abs() / (1e-12 + r.abs())).max().item()
            tol = 1e-12 if dtype == torch.float64 else 1e-4
            assert err < tol or (y.double() - r).abs().max().item() < tol, (lead, L, dtype, err)
            if dtype == torch.float64:
                worst = max(worst, (y - r).abs().max().item())
# broadcast leading dims
Q = torch.randn(3, 1, 7, 4, dtype=torch.float64); K = torch.randn(1, 2, 7, 4, dtype=torch.float64); V = torch.randn(3, 2, 7, 5, dtype=torch.float64)
assert torch.allclose(la.linear_attention_recurrent(Q, K, V), ref(Q, K, V), atol=1e-12)
# against the parallel form and the step
Q, K, V = (torch.randn(2, 40, 4, dtype=torch.float64) for _ in range(3))
st = la.LinearAttentionState(4, 4)
ys = torch.stack([st.step(Q[:, t], K[:, t], V[:, t]) for t in range(40)], -2)
assert torch.allclose(ys, ref(Q, K, V), atol=1e-12) and torch.allclose(la.linear_attention_parallel(Q, K, V), ref(Q, K, V), atol=1e-12)
print(f"{path}: ok, max |diff| float64 = {worst:.1e}")
