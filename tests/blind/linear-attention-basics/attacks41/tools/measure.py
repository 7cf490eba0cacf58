import importlib.util, sys, time, torch
path, n, L = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
spec = importlib.util.spec_from_file_location("linear_attention", path)
la = importlib.util.module_from_spec(spec); sys.modules["linear_attention"] = la; spec.loader.exec_module(la)
g = torch.Generator().manual_seed(7)
Q, K, V = (torch.randn(n, L, 4, generator=g, dtype=torch.float64) for _ in range(3))
t0 = time.process_time()
y = la.linear_attention_recurrent(Q, K, V)
pq, pk = torch.nn.functional.elu(Q) + 1, torch.nn.functional.elu(K) + 1
S = torch.cumsum(pk[..., :, :, None] * V[..., :, None, :], dim=-3); z = torch.cumsum(pk, -2)
r = (pq[..., None, :] @ S).squeeze(-2) / (pq * z).sum(-1, keepdim=True)
print(f"{path} n={n} L={L}: own-process CPU {time.process_time()-t0:.2f}s  max|diff| {(y-r).abs().max().item():.1e}", file=sys.stderr)
