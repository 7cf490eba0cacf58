"""Independent float64 reference for decayed, normalized multi-head linear attention (numpy only).

Written from the recurrence, token by token, without importing the course code, so a mistake made
identically in a submission's forward and step still disagrees with it. Each known mistake has a
variant here; verdicts use them as `suspects` so feedback can name the likely mistake.
"""
from __future__ import annotations

import numpy as np

VARIANTS = ("correct", "no_normalizer", "read_before_update", "read_before_update_eps", "no_decay", "decay_S_only",
            "heads_mixed", "batch_shared_S", "noncausal")


def elu_plus_one(x: np.ndarray) -> np.ndarray:
    return np.where(x > 0, x + 1.0, np.exp(np.minimum(x, 0.0)))


def random_weights(rng: np.random.Generator, D: int, H: int, gammas=None, scale: float = 1.0) -> dict:
    """Projection weights like nn.Linear(D, D) (weight (out, in), bias (out,)), and gamma_logit (H,)."""
    w = {}
    for name in ("q", "k", "v", "o"):
        w[f"W{name}"] = rng.normal(0.0, scale / np.sqrt(D), (D, D))
        w[f"b{name}"] = rng.normal(0.0, 0.1, D)
    if gammas is None:
        gammas = rng.uniform(0.3, 0.99, H)
    w["gamma_logit"] = logit(np.asarray(gammas, dtype=np.float64))
    return w


def logit(gamma: np.ndarray) -> np.ndarray:
    """sigmoid⁻¹, with γ = 1 mapped to a logit of 50 (sigmoid(50) == 1.0 in float64)."""
    gamma = np.asarray(gamma, dtype=np.float64)
    with np.errstate(divide="ignore"):
        out = np.log(gamma) - np.log1p(-gamma)
    return np.where(gamma >= 1.0, 50.0, out)


def _project(x: np.ndarray, w: dict, name: str) -> np.ndarray:
    return x @ w[f"W{name}"].T + w[f"b{name}"]


def _split(a: np.ndarray, H: int, mixed: bool) -> np.ndarray:
    B, T, D = a.shape
    if mixed:  # the wrong reshape: view (B, T, D) memory as (B, H, T, d_h)
        return a.reshape(B, H, T, D // H)
    return a.reshape(B, T, H, D // H).transpose(0, 2, 1, 3)  # (B, H, T, d_h)


def _merge(y: np.ndarray, mixed: bool) -> np.ndarray:
    B, H, T, d_h = y.shape
    if mixed:
        return y.reshape(B, T, H * d_h)
    return y.transpose(0, 2, 1, 3).reshape(B, T, H * d_h)


def linear_attention(x: np.ndarray, w: dict, variant: str = "correct") -> dict:
    """x (B, T, D) -> {"y": (B, T, D), "S": (B, H, d_h, d_h), "z": (B, H, d_h)} (final state)."""
    if variant not in VARIANTS:
        raise ValueError(variant)
    x = np.asarray(x, dtype=np.float64)
    B, T, D = x.shape
    H = len(w["gamma_logit"])
    d_h = D // H
    gamma = 1.0 / (1.0 + np.exp(-w["gamma_logit"]))
    if variant == "no_decay":
        gamma = np.ones(H)
    mixed = variant == "heads_mixed"
    q = _split(elu_plus_one(_project(x, w, "q")), H, mixed)
    k = _split(elu_plus_one(_project(x, w, "k")), H, mixed)
    v = _split(_project(x, w, "v"), H, mixed)
    if variant == "noncausal":
        y = _noncausal(q, k, v, gamma)
        return {"y": _merge(y, False) @ w["Wo"].T + w["bo"]}
    y = np.zeros((B, H, T, d_h))
    S = np.zeros((B, H, d_h, d_h))
    z = np.zeros((B, H, d_h))
    for t in range(T):
        S_old, z_old = S.copy(), z.copy()
        write = k[:, :, t, :, None] * v[:, :, t, None, :]  # (B, H, d_h, d_h)
        if variant == "batch_shared_S":
            write = np.broadcast_to(write.sum(axis=0, keepdims=True), write.shape)
        S = gamma[None, :, None, None] * S + write
        z = (1.0 if variant == "decay_S_only" else gamma[None, :, None]) * z + k[:, :, t]
        S_read, z_read = (S_old, z_old) if variant.startswith("read_before_update") else (S, z)
        qt = q[:, :, t]  # (B, H, d_h)
        num = np.einsum("bhd,bhde->bhe", qt, S_read)
        if variant == "no_normalizer":
            y[:, :, t] = num
        else:
            with np.errstate(divide="ignore", invalid="ignore"):
                y[:, :, t] = num / np.einsum("bhd,bhd->bh", qt, z_read)[..., None]
            if variant == "read_before_update_eps":  # 0/0 at the first token hidden by an epsilon
                y[:, :, t] = np.nan_to_num(y[:, :, t])
    return {"y": _merge(y, mixed) @ w["Wo"].T + w["bo"], "S": S, "z": z}


def smallest_denominator(x: np.ndarray, w: dict) -> float:
    """The smallest normalizer φ(q_t)·z_t over every sequence, head and token of the correct layer on x."""
    x = np.asarray(x, dtype=np.float64)
    H = len(w["gamma_logit"])
    gamma = 1.0 / (1.0 + np.exp(-w["gamma_logit"]))
    q = _split(elu_plus_one(_project(x, w, "q")), H, False)
    k = _split(elu_plus_one(_project(x, w, "k")), H, False)
    z, smallest = np.zeros(k.shape[:2] + k.shape[3:]), np.inf
    for token in range(k.shape[2]):
        z = gamma[None, :, None] * z + k[:, :, token]
        smallest = min(smallest, float(np.einsum("bhd,bhd->bh", q[:, :, token], z).min()))
    return smallest


def _noncausal(q, k, v, gamma):
    """Decay weights γ^|t-i| over ALL positions: the missing causal mask."""
    T = q.shape[2]
    dist = np.abs(np.arange(T)[:, None] - np.arange(T)[None, :])
    weights = gamma[:, None, None] ** dist  # (H, T, T)
    scores = np.einsum("bhtd,bhsd->bhts", q, k) * weights
    return scores @ v / scores.sum(-1, keepdims=True)


def numerical_gradients(x: np.ndarray, w: dict, seed_weights: np.ndarray, eps: float = 1e-6) -> dict:
    """Central differences of L = Σ seed_weights · y with respect to x and gamma_logit."""
    got = numerical_gradients_at(x, w, seed_weights, list(np.ndindex(*x.shape)), eps)
    return {"dx": got["dx"].reshape(x.shape), "dgamma": got["dgamma"]}


def numerical_gradients_at(x: np.ndarray, w: dict, seed_weights: np.ndarray, picks, eps: float = 1e-6) -> dict:
    """Central differences of L = Σ seed_weights · y with respect to gamma_logit and to the entries of x at
    ``picks`` (long inputs: the full dx would take 2·x.size evaluations)."""
    def loss(x_, w_):
        return float((linear_attention(x_, w_)["y"] * seed_weights).sum())

    dx = []
    for idx in picks:
        xp, xm = x.copy(), x.copy()
        xp[idx] += eps
        xm[idx] -= eps
        dx.append((loss(xp, w) - loss(xm, w)) / (2 * eps))
    dg = np.zeros_like(w["gamma_logit"])
    for h in range(len(dg)):
        wp, wm = dict(w), dict(w)
        wp["gamma_logit"] = w["gamma_logit"].copy()
        wm["gamma_logit"] = w["gamma_logit"].copy()
        wp["gamma_logit"][h] += eps
        wm["gamma_logit"][h] -= eps
        dg[h] = (loss(x, wp) - loss(x, wm)) / (2 * eps)
    return {"dx": np.array(dx), "dgamma": dg}
