"""Probe every case's attention.py against a naive float64 loop reference written here.

    python ref_check.py [CASE ...]        # default: every case folder; prints one block per case

Probes (float64, random out_proj, per-head γ): forward outputs; gradients of a random projection of the output
w.r.t. x and every parameter (gamma_logit included); step outputs and final (S, z) from the empty state and
from a given non-empty state (and whether the given state was modified); causality of forward (token 5
perturbed); batch isolation is inside the reference comparison (B = 3); T = 300 with γ = 0.05 / 0.5 / 0.97 / 1
(forward, step, dγ). A number is the largest absolute difference from the reference.
"""
import importlib.util
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

HERE = Path(__file__).resolve().parent
torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)


def load(case):
    path = HERE / case / "g2c/linear_attention/attention.py"
    spec = importlib.util.spec_from_file_location(f"att_{case}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def make(mod, D, H, gammas, seed):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H)
    with torch.no_grad():
        g = torch.tensor(gammas).clamp(max=1 - 1e-16)
        layer.gamma_logit.copy_(torch.where(g >= 1 - 1e-16, torch.tensor(50.0), torch.log(g) - torch.log1p(-g)))
        for lin in (layer.q_proj, layer.k_proj, layer.v_proj, layer.out_proj):
            lin.weight.normal_(0, 0.5)
            lin.bias.normal_(0, 0.2)
    return layer


def ref_run(layer, x, state=None):
    """The recurrence, one token and one head at a time: outputs (B, T, D) and the final (S, z)."""
    B, T, D = x.shape
    H = layer.num_heads
    d = D // H
    q = F.elu(layer.q_proj(x)) + 1
    k = F.elu(layer.k_proj(x)) + 1
    v = layer.v_proj(x)
    gamma = torch.sigmoid(layer.gamma_logit)
    if state is None:
        S = [[torch.zeros(d, d) for _ in range(H)] for _ in range(B)]
        z = [[torch.zeros(d) for _ in range(H)] for _ in range(B)]
    else:
        S = [[state[0][b, h] for h in range(H)] for b in range(B)]
        z = [[state[1][b, h] for h in range(H)] for b in range(B)]
    out = []
    for t in range(T):
        row = []
        for b in range(B):
            heads = []
            for h in range(H):
                sl = slice(h * d, (h + 1) * d)
                S[b][h] = gamma[h] * S[b][h] + torch.outer(k[b, t, sl], v[b, t, sl])
                z[b][h] = gamma[h] * z[b][h] + k[b, t, sl]
                heads.append((q[b, t, sl] @ S[b][h]) / (q[b, t, sl] @ z[b][h]))
            row.append(torch.cat(heads))
        out.append(torch.stack(row))
    y = layer.out_proj(torch.stack(out, dim=1))
    S = torch.stack([torch.stack(r) for r in S])
    z = torch.stack([torch.stack(r) for r in z])
    return y, (S, z)


def steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, dim=1), state


def d(a, b):
    if a.shape != b.shape:
        return f"shape {tuple(a.shape)}≠{tuple(b.shape)}"
    a, b = a.detach(), b.detach()
    return f"{float((a - b).abs().max()):.1e}" if torch.isfinite(a).all() else "NaN/inf"


def probe(name, fn, res):
    try:
        res[name] = fn()
    except Exception as exc:  # noqa: BLE001
        res[name] = f"raises {type(exc).__name__}"


def check(case):
    mod = load(case)
    res = {}
    layer = make(mod, 12, 3, [0.3, 0.8, 1.0], seed=1)
    torch.manual_seed(2)
    x = torch.randn(3, 9, 12)
    y_ref, (S_ref, z_ref) = ref_run(layer, x)

    probe("fwd", lambda: d(layer(x), y_ref), res)

    def grads(xg):
        B, T, _ = xg.shape
        w = torch.randn(B, T, 12, generator=torch.Generator().manual_seed(5))
        params = dict(layer.named_parameters())
        xr = xg.clone().requires_grad_(True)
        got = torch.autograd.grad((layer(xr) * w).sum(), [xr] + list(params.values()), allow_unused=True)
        xr2 = xg.clone().requires_grad_(True)
        yr, _ = ref_run(layer, xr2)
        want = torch.autograd.grad((yr * w).sum(), [xr2] + list(params.values()), allow_unused=True)
        worst = max(float((g - h).abs().max()) if g is not None and h is not None else float("inf")
                    for g, h in zip(got, want))
        note = "" if "gamma_logit" in params else " (gamma_logit not a parameter)"
        if "gamma_logit" in params and got[1 + list(params).index("gamma_logit")] is None:
            note += " (dγ is None)"
        return f"{worst:.1e}{note}"
    probe("grad", lambda: grads(x), res)
    probe("grad_T40", lambda: grads(torch.randn(1, 40, 12, generator=torch.Generator().manual_seed(6))), res)

    with torch.no_grad():
        probe("step", lambda: "{} S {} z {}".format(
            d(steps(layer, x)[0], y_ref), *(d(a, b) for a, b in zip(steps(layer, x)[1], (S_ref, z_ref)))), res)

        def from_state():
            torch.manual_seed(3)
            S0 = torch.randn(3, 3, 4, 4)
            z0 = torch.rand(3, 3, 4) + 0.5
            keep = (S0.clone(), z0.clone())
            y, (S, z) = steps(layer, x[:, :4], (S0, z0))
            yr, (Sr, zr) = ref_run(layer, x[:, :4], (keep[0], keep[1]))
            mutated = not (torch.equal(S0, keep[0]) and torch.equal(z0, keep[1]))
            return f"{d(y, yr)} S {d(S, Sr)} z {d(z, zr)}" + (" MUTATED" if mutated else "")
        probe("step_from_state", from_state, res)

        def causal():
            x2 = x.clone()
            x2[:, 5] += 1.0
            a, b = layer(x), layer(x2)
            return "ok" if torch.equal(a[:, :5], b[:, :5]) else f"LEAK {float((a[:, :5] - b[:, :5]).abs().max()):.1e}"
        probe("causal", causal, res)

    long_layer = make(mod, 16, 4, [0.05, 0.5, 0.97, 1.0], seed=7)
    torch.manual_seed(8)
    xl = torch.randn(2, 300, 16)
    with torch.no_grad():
        yl_ref, _ = ref_run(long_layer, xl)
        probe("long_fwd", lambda: d(long_layer(xl), yl_ref), res)
        probe("long_step", lambda: d(steps(long_layer, xl)[0], yl_ref), res)

    def long_grad():
        if not isinstance(long_layer.gamma_logit, torch.nn.Parameter):
            return "no parameter"
        g = torch.autograd.grad(long_layer(xl[:1, :300]).sum(), long_layer.gamma_logit, allow_unused=True)[0]
        return "None" if g is None else ("finite" if torch.isfinite(g).all() else "NaN/inf")
    probe("long_dgamma", long_grad, res)
    return res


def main():
    cases = sys.argv[1:] or sorted(p.name for p in HERE.iterdir() if (p / "g2c").is_dir())
    for case in cases:
        res = check(case)
        print(f"{case}\n    " + "\n    ".join(f"{k:16s} {v}" for k, v in res.items()))


if __name__ == "__main__":
    main()
