"""Light sanity probe of one case folder (not part of the corpus): python probe_cases.py CASE_DIR

Compares the case's LinearAttention with an independent loop reference written here (float64) on a few
small input classes and prints one line of pass/fail flags. Used only to confirm that each generated
case does what its `about` says; it is not the grader and knows nothing of its checks.
"""
import sys
import time
from pathlib import Path

import torch

case = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(case))
from g2c.linear_attention import LinearAttention, feature_map, state_nbytes  # noqa: E402

torch.set_default_dtype(torch.float64)


def layer_for(D, H, gammas, seed=0, identity_out=False):
    torch.manual_seed(seed)
    layer = LinearAttention(D, H)
    with torch.no_grad():
        g = torch.tensor(gammas, dtype=torch.float64)
        layer.gamma_logit.copy_(torch.where(g >= 1, torch.tensor(50.0), torch.log(g) - torch.log1p(-g)))
        if identity_out:
            layer.out_proj.weight.copy_(torch.eye(D))
            layer.out_proj.bias.zero_()
    return layer


def reference(layer, x):
    """Loop reference: returns outputs (B, T, D) and final (S, z)."""
    B, T, D = x.shape
    H, d = layer.num_heads, layer.head_dim
    with torch.no_grad():
        q = feature_map(layer.q_proj(x)).view(B, T, H, d)
        k = feature_map(layer.k_proj(x)).view(B, T, H, d)
        v = layer.v_proj(x).view(B, T, H, d)
        g = torch.sigmoid(layer.gamma_logit)
        S = torch.zeros(B, H, d, d)
        z = torch.zeros(B, H, d)
        ys = []
        for t in range(T):
            S = g[None, :, None, None] * S + k[:, t, :, :, None] * v[:, t, :, None, :]
            z = g[None, :, None] * z + k[:, t]
            y = torch.einsum("bhd,bhde->bhe", q[:, t], S) / torch.einsum("bhd,bhd->bh", q[:, t], z)[..., None]
            ys.append(y.reshape(B, D))
        return layer.out_proj(torch.stack(ys, 1)), (S, z)


def close(a, b, tol=1e-9):
    return a.shape == b.shape and bool(torch.isfinite(a).all()) and bool(((a - b).abs() <= tol + tol * b.abs()).all())


def run_steps(layer, x, state=None):
    ys = []
    for t in range(x.shape[1]):
        y, state = layer.step(x[:, t], state)
        ys.append(y)
    return torch.stack(ys, 1), state


def flag(fn):
    try:
        return "ok" if fn() else "FAIL"
    except Exception as exc:  # noqa: BLE001
        return "ERR:" + type(exc).__name__


CFG = [(2, 7, 8, 2, [0.3, 0.95]), (3, 13, 12, 3, [0.6, 0.9, 1.0]), (2, 9, 16, 4, [0.8, 0.99, 0.5, 0.7])]
flags = {}


def fwd():
    for i, (B, T, D, H, g) in enumerate(CFG):
        layer = layer_for(D, H, g, i)
        x = torch.randn(B, T, D)
        if not close(layer(x), reference(layer, x)[0]):
            return False
    return True


def fwd_classes():  # B = 1, T = 1 with B > 1, H = 1 with B > 1, non-contiguous x
    layer = layer_for(8, 2, [0.6, 0.9])
    for x in (torch.randn(1, 6, 8), torch.randn(3, 1, 8), torch.randn(6, 3, 8).transpose(0, 1)):
        if not close(layer(x), reference(layer, x)[0]):
            return False
    layer = layer_for(4, 1, [0.7])
    x = torch.randn(3, 5, 4)
    return close(layer(x), reference(layer, x)[0])


def stp():
    for i, (B, T, D, H, g) in enumerate(CFG):
        layer = layer_for(D, H, g, i)
        x = torch.randn(B, T, D)
        want, (S, z) = reference(layer, x)
        with torch.no_grad():
            got, st = run_steps(layer, x)
        if not (close(got, want) and close(st[0], S) and close(st[1], z)):
            return False
    return True


def stp_outputs_only():
    for i, (B, T, D, H, g) in enumerate(CFG):
        layer = layer_for(D, H, g, i)
        x = torch.randn(B, T, D)
        with torch.no_grad():
            got, _ = run_steps(layer, x)
        if not close(got, reference(layer, x)[0]):
            return False
    return True


def stp_b1():
    layer = layer_for(8, 2, [0.6, 0.9])
    x = torch.randn(1, 5, 8)
    with torch.no_grad():
        got, _ = run_steps(layer, x)
    return close(got, reference(layer, x)[0])


def no_mutate():
    layer = layer_for(8, 2, [0.6, 0.9])
    x = torch.randn(2, 4, 8)
    with torch.no_grad():
        _, st = run_steps(layer, x[:, :3])
        before = [t.clone() for t in st[:2]]
        layer.step(x[:, 3], st)
    return all(torch.equal(a, b) for a, b in zip(before, st[:2]))


def carried():  # continue decoding from a state made by the loop reference
    layer = layer_for(8, 2, [0.6, 0.9])
    x = torch.randn(2, 6, 8)
    want, _ = reference(layer, x)
    _, st = reference(layer, x[:, :4])
    with torch.no_grad():
        got, _ = run_steps(layer, x[:, 4:], st)
    return close(got, want[:, 4:])


def causal():
    layer = layer_for(8, 2, [0.9, 1.0])
    x = torch.randn(2, 10, 8)
    for t in (0, 4, 9):
        x2 = x.clone()
        x2[:, t] += torch.randn(2, 8)
        y, y2 = layer(x), layer(x2)
        if not torch.allclose(y[:, :t], y2[:, :t], atol=1e-12):
            return False
    xg = torch.randn(1, 9, 8, requires_grad=True)
    layer(xg)[0, 4].sum().backward()
    return bool(xg.grad[0, 5:].abs().max() == 0)


def batch_iso():
    layer = layer_for(8, 2, [0.6, 0.9])
    x = torch.randn(3, 6, 8)
    yb = layer(x)
    ok_f = all(close(yb[i:i + 1], layer(x[i:i + 1])) for i in range(3))
    with torch.no_grad():
        sb, _ = run_steps(layer, x)
        ok_s = all(close(sb[i:i + 1], run_steps(layer, x[i:i + 1])[0]) for i in range(3))
    return ok_f and ok_s


def long_fwd():
    layer = layer_for(16, 4, [0.05, 0.5, 0.97, 1.0], 7)
    x = torch.randn(2, 400, 16)
    return close(layer(x), reference(layer, x)[0], 1e-8)


def long_step():
    layer = layer_for(16, 4, [0.05, 0.5, 0.97, 1.0], 7)
    x = torch.randn(2, 400, 16)
    with torch.no_grad():
        got, _ = run_steps(layer, x)
    return close(got, reference(layer, x)[0], 1e-8)


def grads():
    layer = layer_for(8, 2, [0.6, 0.9])
    x = torch.randn(2, 40, 8, requires_grad=True)
    layer(x).square().sum().backward()
    return bool(torch.isfinite(x.grad).all() and torch.isfinite(layer.gamma_logit.grad).all())


def state_size():
    layer = layer_for(8, 2, [0.6, 0.9])
    x = torch.randn(1, 200, 8)
    with torch.no_grad():
        _, s50 = run_steps(layer, x[:, :50])
        _, s200 = run_steps(layer, x)
        t0 = time.perf_counter()
        for _ in range(20):
            layer.step(x[:, 0], s50)
        t50 = time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(20):
            layer.step(x[:, 0], s200)
        t200 = time.perf_counter() - t0
    return state_nbytes(s50) == state_nbytes(s200) and t200 < 2.5 * t50


def f32():
    torch.manual_seed(0)
    layer = LinearAttention(16, 4).float()
    x = torch.randn(2, 20, 16, dtype=torch.float32)
    y = layer(x)
    ys, st = run_steps(layer, x)
    return y.dtype == torch.float32 and ys.dtype == torch.float32 and bool((y - ys).abs().max() < 1e-4)


for name, fn in [("fwd", fwd), ("fwd_classes", fwd_classes), ("step", stp), ("step_out", stp_outputs_only),
                 ("step_B1", stp_b1), ("no_mutate", no_mutate), ("carried", carried), ("causal", causal),
                 ("batch", batch_iso), ("long_fwd", long_fwd), ("long_step", long_step), ("grads", grads),
                 ("cost", state_size), ("f32", f32)]:
    flags[name] = flag(fn)
print(f"{case.name:34s} " + " ".join(f"{k}={v}" for k, v in flags.items()))
