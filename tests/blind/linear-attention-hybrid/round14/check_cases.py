"""Probe every case's attention.py in float64 against an independent loop reference written here, and score every
case's Exercise 5 answers against the formulas with the notebook's tolerances. Nothing from grader/ is used.

    OMP_NUM_THREADS=1 python check_cases.py [case ...]     # -> probe_results.txt (all cases) or stdout
"""
from __future__ import annotations

import importlib
import json
import math
import re
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
import yaml

HERE = Path(__file__).resolve().parent
torch.set_default_dtype(torch.float64)


def load(case):
    for name in [m for m in sys.modules if m == "g2c" or m.startswith("g2c.")]:
        del sys.modules[name]
    sys.path.insert(0, str(HERE / case))
    try:
        mod = importlib.import_module("g2c.linear_attention.attention")
        model = importlib.import_module("g2c.linear_attention.model")
    finally:
        sys.path.pop(0)
    return mod, model


def ref_forward(layer, x, S0=None, z0=None):
    """Loop reference: y_t = φ(q_t)ᵀS_t / φ(q_t)ᵀz_t with S_t = γS_{t-1} + φ(k_t)v_tᵀ. Returns y (B, T, D), (S, z)."""
    B, T, D = x.shape
    H, d = layer.num_heads, layer.head_dim
    q = (F.elu(F.linear(x, layer.q_proj.weight, layer.q_proj.bias)) + 1).view(B, T, H, d)
    k = (F.elu(F.linear(x, layer.k_proj.weight, layer.k_proj.bias)) + 1).view(B, T, H, d)
    v = F.linear(x, layer.v_proj.weight, layer.v_proj.bias).view(B, T, H, d)
    g = torch.sigmoid(layer.gamma_logit).view(1, H, 1, 1)
    S = x.new_zeros(B, H, d, d) if S0 is None else S0
    z = x.new_zeros(B, H, d) if z0 is None else z0
    ys = []
    for t in range(T):
        S = g * S + k[:, t, :, :, None] * v[:, t, :, None, :]
        z = g[..., 0] * z + k[:, t]
        ys.append(torch.einsum("bhi,bhij->bhj", q[:, t], S) / (q[:, t] * z).sum(-1, keepdim=True))
    y = torch.stack(ys, 1).reshape(B, T, D)
    return F.linear(y, layer.out_proj.weight, layer.out_proj.bias), (S, z)


def make(mod, D, H, gammas, seed):
    torch.manual_seed(seed)
    layer = mod.LinearAttention(D, H)
    with torch.no_grad():
        g = torch.tensor(gammas)
        layer.gamma_logit.copy_(torch.where(g >= 1, torch.tensor(50.0), torch.log(g) - torch.log1p(-g.clamp(max=1 - 1e-16))))
    return layer


def run_steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


def err(a, b):
    a, b = torch.as_tensor(a).detach(), torch.as_tensor(b).detach()
    if a.shape != b.shape:
        return f"shape {tuple(a.shape)}≠{tuple(b.shape)}"
    if not torch.isfinite(a).all():
        return "nonfinite"
    return f"{float((a - b).abs().max() / (b.abs().max() + 1e-30)):.1e}"


def probe(case):
    out = {}
    try:
        mod, model_mod = load(case)
    except Exception as exc:  # noqa: BLE001
        return {"import": repr(exc)}

    def guard(name, fn):
        try:
            out[name] = fn()
        except Exception as exc:  # noqa: BLE001
            out[name] = f"raises {type(exc).__name__}: {str(exc)[:60]}"

    gam = [0.3, 0.8, 0.95]
    torch.manual_seed(1)
    x = torch.randn(2, 13, 12)

    def fwd():
        layer = make(mod, 12, 3, gam, 0)
        return err(layer(x), ref_forward(layer, x)[0])
    guard("fwd", fwd)

    def grads():
        layer = make(mod, 12, 3, gam, 0)
        w = torch.linspace(-1, 1, 12)
        xg = x.clone().requires_grad_()
        (layer(xg) * w).sum().backward()
        got = {n: (p.grad.clone() if p.grad is not None else torch.zeros_like(p)) for n, p in layer.named_parameters()}
        got["x"] = xg.grad
        layer.zero_grad()
        xr = x.clone().requires_grad_()
        (ref_forward(layer, xr)[0] * w).sum().backward()
        want = {n: p.grad for n, p in layer.named_parameters()}
        want["x"] = xr.grad
        worst = max(float((got[n] - want[n]).abs().max() / (want[n].abs().max() + 1e-30)) for n in want)
        return f"all {worst:.1e} γ {err(got['gamma_logit'], want['gamma_logit'])}"
    guard("grad", grads)

    def step():
        layer = make(mod, 12, 3, gam, 0)
        ys, (S, z) = run_steps(layer, x)
        want, (Sr, zr) = ref_forward(layer, x)
        return f"y {err(ys, want)} S {err(S, Sr)} z {err(z, zr)}"
    guard("step", step)

    def step_given():
        layer = make(mod, 12, 3, gam, 0)
        S0 = torch.rand(2, 3, 4, 4)
        z0 = torch.rand(2, 3, 4) + 1
        S0c, z0c = S0.clone(), z0.clone()
        ys, (S, z) = run_steps(layer, x[:, :4], (S0, z0))
        want, (Sr, zr) = ref_forward(layer, x[:, :4], S0c, z0c)
        mutated = not (torch.equal(S0, S0c) and torch.equal(z0, z0c))
        return f"y {err(ys, want)} S {err(S, Sr)}{' MUTATED' if mutated else ''}"
    guard("step_given", step_given)

    def causal():
        layer = make(mod, 12, 3, gam, 0)
        y, leak = layer(x), 0.0
        for t in (3, 7, 12):
            x2 = x.clone()
            x2[:, t] += 1.0
            leak = max(leak, float((y[:, :t] - layer(x2)[:, :t]).abs().max()))
        return "ok" if leak < 1e-12 else f"LEAK {leak:.1e}"
    guard("causal", causal)

    def batch():
        layer = make(mod, 12, 3, gam, 0)
        x2 = x.clone()
        x2[1] += 1.0
        f = float((layer(x)[0] - layer(x2)[0]).abs().max())
        s = float((run_steps(layer, x)[0][0] - run_steps(layer, x2)[0][0]).abs().max())
        return f"fwd {'ok' if f < 1e-12 else 'MIX'} step {'ok' if s < 1e-12 else 'MIX'}"
    guard("batch", batch)

    def long():
        layer = make(mod, 16, 4, [0.05, 0.5, 0.97, 1.0], 7)
        torch.manual_seed(2)
        xl = torch.randn(2, 300, 16, requires_grad=True)
        want, (Sr, zr) = ref_forward(layer, xl)
        y = layer(xl)
        (y * 0.01).sum().backward()
        g_got = layer.gamma_logit.grad.clone()
        layer.zero_grad()
        (want * 0.01).sum().backward()
        g_want = layer.gamma_logit.grad.clone()
        with torch.no_grad():
            ys, (S, z) = run_steps(layer, xl.detach())
        y = y.detach()
        return f"fwd {err(y, want.detach())} dγ {err(g_got, g_want)} step {err(ys, want.detach())}"
    guard("long300", long)

    def lm():
        torch.manual_seed(0)
        m = model_mod.HybridTransformerLM(30, 16, 2, ["linear", "linear", "linear", "full"], 40)
        tokens, logits = m.generate(torch.tensor([[1, 2, 3], [4, 5, 6]]), 20, greedy=True, return_logits=True)
        return err(logits, m(tokens[:, :-1]))
    guard("lm", lm)

    def cost():
        layer = make(mod, 64, 4, [0.9] * 4, 0)
        times = {}
        with torch.no_grad():
            for n in (64, 4096):
                state = None
                for t in range(n):
                    _, state = layer.step(torch.randn(1, 64), state)
                start = time.perf_counter()
                for _ in range(20):
                    layer.step(torch.randn(1, 64), state)
                times[n] = (time.perf_counter() - start) / 20
        return f"x{times[4096] / times[64]:.1f}"
    guard("cost", cost)
    return out


# ------------------------------------------------------------------------------------------------ Exercise 5
T, D, H, BYTES = 1_000_000, 4096, 32, 2
d_h = D // H
EXPECTED = {
    "mha_cache_one_layer": 2 * T * D * BYTES,
    "gqa8_cache_one_layer": 2 * T * 8 * d_h * BYTES,
    "window4096_cache_one_layer": 2 * min(T, 4096) * D * BYTES,
    "linear_state_one_layer": (H * d_h * d_h + H * d_h) * BYTES,
    "all_mha_stack_4_layers": 4 * 2 * T * D * BYTES,
    "hybrid_lllf_stack_4_layers": 3 * (H * d_h * d_h + H * d_h) * BYTES + 2 * T * D * BYTES,
}
UNITS = {"B": 1, "kB": 1e3, "KB": 1e3, "MB": 1e6, "GB": 1e9, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}


def parse(value):
    m = re.fullmatch(r"\s*([0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]+)\s*", str(value))
    if not m or m.group(2) not in UNITS:
        return None
    return float(m.group(1).replace(",", "")) * UNITS[m.group(2)]


def bill(case):
    nb = json.loads((HERE / case / "linear_attention_hybrid.ipynb").read_text())
    cell = next(c for c in nb["cells"] if c.get("id") == "ex5-037")
    block = re.search(r"```yaml\n(.*?)```", "".join(cell["source"]), re.S)
    if not block:
        return "no yaml block"
    ans = yaml.safe_load(block.group(1)) or {}
    wrong = []
    for key, want in EXPECTED.items():
        got = parse(ans.get(key))
        tol = 0.005 if key == "linear_state_one_layer" else 0.01
        if got is None or abs(got - want) > tol * want:
            wrong.append(key)
    if str(ans.get("grows_with_t", "")).strip("() ") != "b":
        wrong.append("grows_with_t")
    return "ok" if not wrong else "WRONG " + ", ".join(wrong)


def main():
    cases = sys.argv[1:] or [c["name"] for c in yaml.safe_load((HERE / "corpus.yaml").read_text())]
    lines = []
    for case in cases:
        res = probe(case)
        line = f"{case}\n    " + "  |  ".join(f"{k}: {v}" for k, v in res.items()) + f"\n    bill: {bill(case)}"
        print(line, flush=True)
        lines.append(line)
    if not sys.argv[1:]:
        (HERE / "probe_results.txt").write_text(
            "# check_cases.py: relative max errors against the loop reference (float64); 'cost' is the time of one "
            "step after 1024 tokens over after 32\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
