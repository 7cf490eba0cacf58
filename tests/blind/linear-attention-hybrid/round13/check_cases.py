"""Float64 probes of every case's attention.py against an independent reference (a plain loop over tokens written
here from the recurrence in the module docstring, using only the layer's projections and gamma_logit).

    python check_cases.py                 # every case folder in corpus.yaml -> probe_results.txt
    python check_cases.py --one CASE_DIR  # the probes of one case, as JSON (run in a fresh interpreter per case)

Each probe is a number; the table marks a probe that differs from base's (errors are relative to the largest
reference value; a probe that raised shows "ERR").
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable


def probes(case_dir: Path) -> dict:
    sys.path.insert(0, str(case_dir))
    import torch
    import torch.nn.functional as F
    from g2c.linear_attention import HybridTransformerLM, LinearAttention, feature_map

    torch.set_default_dtype(torch.float64)
    torch.set_num_threads(1)

    def make(D, H, gammas, seed, identity_out=False):
        torch.manual_seed(seed)
        layer = LinearAttention(D, H)
        with torch.no_grad():
            g = torch.tensor(gammas)
            layer.gamma_logit.copy_(torch.where(g >= 1, torch.tensor(50.0), torch.log(g) - torch.log1p(-g.clamp(max=0.999))))
            if identity_out:
                layer.out_proj.weight.copy_(torch.eye(D))
                layer.out_proj.bias.zero_()
        return layer

    def reference(layer, x, state=None):
        """y (B, T, D) and the final (S, z), by the recurrence, one token at a time."""
        B, T, D = x.shape
        H, d_h = layer.num_heads, layer.head_dim
        q = feature_map(layer.q_proj(x)).reshape(B, T, H, d_h)
        k = feature_map(layer.k_proj(x)).reshape(B, T, H, d_h)
        v = layer.v_proj(x).reshape(B, T, H, d_h)
        g = torch.sigmoid(layer.gamma_logit)
        if state is None:
            S, z = x.new_zeros(B, H, d_h, d_h), x.new_zeros(B, H, d_h)
        else:
            S, z = (s.clone() for s in state)
        ys = []
        for t in range(T):
            S = g[None, :, None, None] * S + torch.einsum("bhi,bhj->bhij", k[:, t], v[:, t])
            z = g[None, :, None] * z + k[:, t]
            ys.append(torch.einsum("bhi,bhij->bhj", q[:, t], S) / torch.einsum("bhi,bhi->bh", q[:, t], z)[..., None])
        y = torch.stack(ys, dim=1).reshape(B, T, D)
        return layer.out_proj(y), (S, z)

    def run_steps(layer, x, state=None):
        ys = []
        for t in range(x.shape[1]):
            y_t, state = layer.step(x[:, t], state)
            ys.append(y_t)
        return torch.stack(ys, dim=1), state

    def rel(a, b):
        a, b = a.detach(), b.detach()
        if a.shape != b.shape:
            return float("inf")
        d = (a - b).abs().max().item()
        return d / max(b.abs().max().item(), 1e-300) if math.isfinite(d) else float("inf")

    out = {}

    def probe(name, fn):
        try:
            out[name] = float(fn())
        except Exception as exc:  # noqa: BLE001 - a probe that raises is a result
            out[name] = "ERR " + type(exc).__name__ + ": " + str(exc).splitlines()[0][:60] if str(exc) else "ERR"

    CFG = (2, 11, 12, 3, [0.3, 0.8, 0.97])

    def fwd_ref():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 1)
        x = torch.randn(B, T, D)
        return rel(layer(x), reference(layer, x)[0])

    def fwd_gamma_one():
        layer = make(12, 3, [1.0] * 3, 2)
        x = torch.randn(2, 9, 12)
        return rel(layer(x), reference(layer, x)[0])

    def fwd_h1():
        layer = make(6, 1, [0.7], 3)
        x = torch.randn(1, 8, 6)
        return rel(layer(x), reference(layer, x)[0])

    def step_ref():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 4)
        x = torch.randn(B, T, D)
        return rel(run_steps(layer, x)[0], reference(layer, x)[0])

    def step_state():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 5)
        x = torch.randn(B, T, D)
        _, (S, z) = run_steps(layer, x)
        _, (S0, z0) = reference(layer, x)
        return max(rel(S, S0), rel(z, z0))

    def step_from_given_state():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 6)
        x = torch.randn(B, 4, D)
        d_h = D // H
        S = torch.randn(B, H, d_h, d_h)
        z = torch.rand(B, H, d_h) + 1.0
        y, _ = run_steps(layer, x, (S.clone(), z.clone()))
        return rel(y, reference(layer, x, (S, z))[0])

    def step_mutates():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 7)
        d_h = D // H
        S, z = torch.randn(B, H, d_h, d_h), torch.rand(B, H, d_h) + 1.0
        S0, z0 = S.clone(), z.clone()
        layer.step(torch.randn(B, D), (S, z))
        return max((S - S0).abs().max().item(), (z - z0).abs().max().item())

    def grads():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 8)
        x = torch.randn(B, T, D, requires_grad=True)
        w = torch.randn(B, T, D)
        params = [x] + list(layer.parameters())
        g1 = torch.autograd.grad((layer(x) * w).sum(), params, allow_unused=True)
        g2 = torch.autograd.grad((reference(layer, x)[0] * w).sum(), params, allow_unused=True)
        return max(rel(a if a is not None else torch.zeros_like(b), b) for a, b in zip(g1, g2))

    def grad_gamma():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 8)
        x = torch.randn(B, T, D)
        w = torch.randn(B, T, D)
        a = torch.autograd.grad((layer(x) * w).sum(), layer.gamma_logit, allow_unused=True)[0]
        b = torch.autograd.grad((reference(layer, x)[0] * w).sum(), layer.gamma_logit)[0]
        return rel(a if a is not None else torch.zeros_like(b), b)

    def causal():
        layer = make(8, 2, [0.9, 1.0], 9)
        x = torch.randn(2, 10, 8)
        x2 = x.clone()
        x2[:, 6] += torch.randn(2, 8)
        return (layer(x)[:, :6] - layer(x2)[:, :6]).abs().max().item()

    def causal_grad():
        layer = make(8, 2, [0.7, 0.99], 10)
        x = torch.randn(1, 9, 8, requires_grad=True)
        layer(x)[0, 4].sum().backward()
        return x.grad[0, 5:].abs().max().item()

    def batch_fwd():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 11)
        x = torch.randn(3, T, D)
        whole = layer(x)
        return max(rel(whole[b:b + 1], layer(x[b:b + 1])) for b in range(3))

    def batch_step():
        B, T, D, H, gs = CFG
        layer = make(D, H, gs, 12)
        x = torch.randn(3, 6, D)
        whole = run_steps(layer, x)[0]
        return max(rel(whole[b:b + 1], run_steps(layer, x[b:b + 1])[0]) for b in range(3))

    LONG = (2, 300, 16, 4, [0.05, 0.5, 0.97, 1.0])

    def long_fwd():
        B, T, D, H, gs = LONG
        layer = make(D, H, gs, 13)
        x = torch.randn(B, T, D)
        return rel(layer(x), reference(layer, x)[0])

    def long_step():
        B, T, D, H, gs = LONG
        layer = make(D, H, gs, 14)
        x = torch.randn(B, T, D)
        y, (S, z) = run_steps(layer, x)
        y0, (S0, z0) = reference(layer, x)
        return max(rel(y, y0), rel(S, S0), rel(z, z0))

    def long_grad():
        B, T, D, H, gs = LONG
        layer = make(D, H, gs, 15)
        x = torch.randn(1, T, D, requires_grad=True)
        w = torch.randn(1, T, D)
        params = [x] + list(layer.parameters())
        g1 = torch.autograd.grad((layer(x) * w).sum(), params, allow_unused=True)
        g2 = torch.autograd.grad((reference(layer, x)[0] * w).sum(), params)
        return max(rel(a if a is not None else torch.zeros_like(b), b) for a, b in zip(g1, g2))

    def lm_decode():
        torch.manual_seed(0)
        lm = HybridTransformerLM(30, 16, 2, ["linear", "linear", "linear", "full"], 40)
        with torch.no_grad():  # spread the decays so that a wrong γ shows
            for block in lm.blocks:
                if block.kind == "linear":
                    block.attn.gamma_logit.copy_(torch.tensor([-0.5, 2.0]))
        tokens, logits = lm.generate(torch.tensor([[1, 2, 3], [4, 5, 6]]), 20, greedy=True, return_logits=True)
        return rel(logits, lm(tokens[:, :-1]))

    def step_cost_ratio():
        layer = make(16, 4, [0.5, 0.9, 0.99, 1.0], 16)
        x = torch.randn(1, 16)

        def per_step_after(n):
            state = None
            with torch.no_grad():
                for _ in range(n):
                    _, state = layer.step(x, state)
                times = []
                for _ in range(15):
                    t0 = time.perf_counter()
                    _, s2 = layer.step(x, state)
                    times.append(time.perf_counter() - t0)
            return sorted(times)[len(times) // 2]

        return per_step_after(512) / per_step_after(32)

    def float32_runs():
        layer = make(16, 4, [0.5, 0.9, 0.99, 1.0], 17).float()
        x = torch.randn(2, 20, 16, dtype=torch.float32)
        y = layer(x)
        y2, (S, z) = run_steps(layer, x)
        ok = y.dtype == torch.float32 and y2.dtype == torch.float32 and S.dtype == torch.float32
        return rel(y2.double(), y.double()) if ok else float("inf")

    def state_dtype_f64():
        layer = make(8, 2, [0.5, 0.9], 18)
        _, (S, z) = layer.step(torch.randn(2, 8))
        return 0.0 if (S.dtype, z.dtype) == (torch.float64, torch.float64) else 1.0

    for name, fn in [("fwd_ref", fwd_ref), ("fwd_gamma1", fwd_gamma_one), ("fwd_H1", fwd_h1), ("step_ref", step_ref),
                     ("step_state", step_state), ("step_given_state", step_from_given_state),
                     ("step_mutates_input", step_mutates), ("grad", grads), ("grad_gamma", grad_gamma),
                     ("causal_pert", causal), ("causal_grad", causal_grad), ("batch_fwd", batch_fwd),
                     ("batch_step", batch_step), ("long_fwd", long_fwd), ("long_step", long_step),
                     ("long_grad", long_grad), ("lm_decode", lm_decode), ("state_dtype", state_dtype_f64),
                     ("float32_fwd_vs_step", float32_runs), ("cost_ratio_512_32", step_cost_ratio)]:
        probe(name, fn)
    return out


def fmt(v):
    if isinstance(v, str):
        return "ERR"
    if v == 0:
        return "0"
    return f"{v:.1e}"


def differs(name, v, b):
    if isinstance(v, str) or isinstance(b, str):
        return isinstance(v, str) != isinstance(b, str)
    if name == "cost_ratio_512_32":
        return v > 3 * max(b, 1.0)
    if name == "float32_fwd_vs_step":
        return not (v < 1e-4)
    return not (v <= max(1e-9, 100 * b))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        print(json.dumps(probes(Path(sys.argv[2]).resolve())))
        return
    import yaml
    cases = yaml.safe_load((HERE / "corpus.yaml").read_text())
    results = {}
    for c in cases:
        r = subprocess.run([PY, __file__, "--one", str(HERE / c["name"])], capture_output=True, text=True,
                           timeout=600)
        try:
            results[c["name"]] = json.loads(r.stdout.strip().splitlines()[-1])
        except Exception:  # noqa: BLE001
            results[c["name"]] = {"import": "ERR " + r.stderr.strip().splitlines()[-1][:80]}
        print(c["name"], "done", file=sys.stderr)
    base = results["base"]
    names = list(base)
    lines = ["# probes: max relative error against the independent loop reference unless named otherwise;",
             "# step_mutates_input: max change of the state passed in; causal_*: max leak into the past;",
             "# cost_ratio_512_32: time of one step after 512 tokens / after 32; * = differs from base", ""]
    for c in cases:
        r = results[c["name"]]
        flagged = [n for n in names if n in r and differs(n, r[n], base[n])]
        lines.append(f"{c['name']}  [{c['kind']}]  differs from base in: {', '.join(flagged) or '-'}")
        lines.append("    " + "  ".join(f"{n}={fmt(r.get(n, 'ERR'))}{'*' if n in flagged else ''}" for n in names))
        errs = {n: v for n, v in r.items() if isinstance(v, str)}
        if errs:
            lines.append("    errors: " + "; ".join(f"{n}: {v}" for n, v in errs.items()))
    (HERE / "probe_results.txt").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
