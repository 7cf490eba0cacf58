import sys, numpy as np
d = np.load(sys.argv[1]); T = int(sys.argv[2]); B, D, H = 16, 64, 4; dh = D // H
def ref(p, w, seed, dt):
    rng = np.random.default_rng(seed)
    W = {k[3:]: d[k] for k in d.files if k.startswith(w + "_")}
    lg = -np.log1p(np.exp(-W["gamma_logit"])); g = np.exp(lg)[None, :, None]
    phi = lambda a: np.where(a > 0, a + 1, np.exp(np.minimum(a, 0)))
    S = np.zeros((B, H, dh, dh)); z = np.zeros((B, H, dh)); s = 0; sq = 0; kept = []
    for t in range(T):
        x = rng.standard_normal((B, D)).astype(dt).astype(np.float64)
        lin = lambda n: x @ W[n + ".weight"].T + W[n + ".bias"]
        q, k, v = phi(lin("q_proj")).reshape(B, H, dh), phi(lin("k_proj")).reshape(B, H, dh), lin("v_proj").reshape(B, H, dh)
        S = g[..., None] * S + k[..., :, None] * v[..., None, :]; z = g * z + k
        y = (np.einsum("bhd,bhde->bhe", q, S) / (q * z).sum(-1, keepdims=True)).reshape(B, D)
        y = y @ W["out_proj.weight"].T + W["out_proj.bias"]
        s = s + y; sq = sq + y * y
        if t % 61 == 0 or t >= T - 64: kept.append(y)
    rel = lambda a, b: float(np.max(np.abs(a - b) / (np.abs(b) + 1e-3)))
    return {k: rel(d[f"{p}_{k}"], r) for k, r in (("kept", np.stack(kept)), ("S", S), ("z", z), ("sq", sq), ("sum", s))}
print({"p1(f32)": {k: f"{v:.1e}" for k, v in ref("p1", "w1", 11, np.float32).items()},
       "p2(f64)": {k: f"{v:.1e}" for k, v in ref("p2", "w2", 12, np.float64).items()}})
