"""Compare every function of a case module with base's, float64 (and float32 dtype), on a fixed set of inputs."""
import os, sys, importlib.util, torch, warnings
warnings.simplefilter("ignore"); torch.set_num_threads(1)
ROOT = os.path.dirname(os.path.abspath(__file__))
def load(n):
    spec = importlib.util.spec_from_file_location("m_" + n, os.path.join(ROOT, n, "linear_attention.py"))
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m
def qkv(lead, L, m, d, seed, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return [torch.randn(*lead, L, x, generator=g, dtype=dtype) for x in (m, m, d)]
def calls(la):
    out = []
    for i, (lead, L, m, d) in enumerate([((), 7, 4, 3), ((2,), 9, 3, 5), ((2, 3), 6, 4, 4), ((), 1, 2, 3), ((2,), 0, 3, 2)]):
        for dt in (torch.float64, torch.float32):
            Q, K, V = qkv(lead, L, m, d, i, dt)
            out.append(la.linear_attention_parallel(Q, K, V)); out.append(la.linear_attention_recurrent(Q, K, V))
            st = la.LinearAttentionState(m, d)
            out += [st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(L)] + ([st.S, st.z] if L else [])
            for g in (0.0, 0.3, 0.9, 1.0):
                out.append(la.retention_parallel(Q, K, V, g)); out.append(la.retention_recurrent(Q, K, V, g))
                for c in (1, 2, 4, 5, 12):
                    out += list(la.retention_chunkwise(Q, K, V, g, c, return_state=True))
                out.append(la.unified_recurrence(Q, K, V, "retention", gamma=g))
            out.append(la.unified_recurrence(Q, K, V, "linear"))
            out.append(la.unified_recurrence(Q, K, V, "gated", gate=torch.rand(*lead, L, generator=torch.Generator().manual_seed(5), dtype=dt)))
            out.append(la.as_gamma(0.4, Q)); out.append(la.decay_matrix(la.as_gamma(0.4, Q), max(L, 1)))
            if len(lead) == 2:
                gh = torch.tensor([0.0, 0.5, 1.0], dtype=dt)
                out += [la.retention_parallel(Q, K, V, gh), la.retention_recurrent(Q, K, V, gh),
                        *la.retention_chunkwise(Q, K, V, gh, 4, return_state=True),
                        la.unified_recurrence(Q, K, V, "retention", gamma=gh)]
            if L:
                Kn = torch.nn.functional.normalize(K, dim=-1)
                out.append(la.gated_delta_rule(Q, Kn, V, torch.full((L,), 0.8, dtype=dt), torch.full((L,), 0.6, dtype=dt)))
    out.append(la.multiscale_decays(5))
    return out
base = calls(load("base"))
for n in sys.argv[1:]:
    try:
        o = calls(load(n))
        bad = [i for i, (a, b) in enumerate(zip(base, o)) if a.shape != b.shape or a.dtype != b.dtype or not torch.allclose(a, b, atol=1e-12 if a.dtype == torch.float64 else 1e-5, rtol=1e-10 if a.dtype == torch.float64 else 1e-5, equal_nan=True)]
        print(n, len(o), "differ at", len(bad), bad[:5])
    except Exception as e:
        print(n, "ERROR", type(e).__name__, e)
