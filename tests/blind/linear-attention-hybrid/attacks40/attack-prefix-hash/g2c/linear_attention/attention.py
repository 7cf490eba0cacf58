"""Linear attention with a learned per-head decay, in two forms that must agree.

One layout throughout: activations are (B, T, D); heads are split as (B, H, T, d_h) with
d_h = D / H. For head h the recurrent memory is

    S_t = γ_h · S_{t-1} + φ(k_t) v_tᵀ        # (d_h, d_h)
    z_t = γ_h · z_{t-1} + φ(k_t)              # (d_h,)
    y_t = φ(q_t)ᵀ S_t / φ(q_t)ᵀ z_t           # update first, then read: token t sees itself

`forward` computes every position at once from an explicit T × T matrix of decayed scores
(readable, but quadratic in T: it is a reference, not a training kernel); `step` carries
(S, z) one token at a time. Unrolling the recurrence gives the parallel form:

    y_t = Σ_{i≤t} γ^(t-i) (φ(q_t)·φ(k_i)) v_i  /  Σ_{i≤t} γ^(t-i) (φ(q_t)·φ(k_i))

References: Katharopoulos et al. 2020, "Transformers are RNNs" (φ = elu + 1, the
normalizer); Sun et al. 2023, "Retentive Network" (the γ^(t-i) decay).
"""
from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

State = tuple[torch.Tensor, torch.Tensor]  # (S, z): (B, H, d_h, d_h), (B, H, d_h)


def feature_map(x: torch.Tensor) -> torch.Tensor:
    """φ(x) = elu(x) + 1: positive everywhere, so the normalizer φ(q)·z never vanishes."""
    return F.elu(x) + 1


def initial_decays(num_heads: int) -> torch.Tensor:
    """A spread of per-head decays γ_h = 1 - 2^-e with e from 2 to 6 (memories of ~4 to ~64 tokens).

    Different heads start with different memory lengths, as in RetNet; training can move them.
    """
    exponents = 2.0 + 4.0 * torch.arange(num_heads) / max(num_heads - 1, 1)
    return 1.0 - 2.0 ** (-exponents)


import math


def _split_heads(t: torch.Tensor, H: int, d_h: int) -> torch.Tensor:
    """(B, T, D) -> (B, H, T, d_h)."""
    B, T, _ = t.shape
    return t.view(B, T, H, d_h).transpose(1, 2)


def _decay_weights(gamma_logit: torch.Tensor, T: int, dtype, device) -> torch.Tensor:
    """(H, T, T): γ_h^(t-i) where i ≤ t, 0 above the diagonal."""
    log_g = F.logsigmoid(gamma_logit).to(dtype)
    pos = torch.arange(T, device=device)
    lag = pos[:, None] - pos[None, :]
    w = torch.exp(lag.clamp(min=0).to(dtype) * log_g[:, None, None])
    return torch.where(lag >= 0, w, torch.zeros((), dtype=dtype, device=device))


def _token_weight(k: torch.Tensor) -> torch.Tensor:
    """A positive weight per token and head, from its key: 1 + tanh(mean of the head's key)/2, in [0.5, 1.5]."""
    return 1 + 0.5 * torch.tanh(k.mean(-1))

def _mix(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """A scrambled number per token and head: sin(40 · a fixed mix of q, k and v)."""
    d_h = q.shape[-1]
    c = torch.arange(1, d_h + 1, dtype=q.dtype, device=q.device)
    a, b, e = torch.sin(1.7 * c), torch.cos(2.3 * c), torch.sin(0.7 * c + 1)
    return torch.sin(40 * ((q * a).sum(-1) + (k * b).sum(-1) + (v * e).sum(-1)))


def _noise(h: torch.Tensor, rms: torch.Tensor, d_h: int) -> torch.Tensor:
    """Pseudo-random channels seeded by the running hash h, scaled to the running RMS of the values."""
    c = torch.arange(d_h, dtype=h.dtype, device=h.device)
    return torch.sin(3.1 * (c + 1) * h.unsqueeze(-1) + 0.3 * c) * rms.unsqueeze(-1) * math.sqrt(2)


class LinearAttention(nn.Module):
    """Multi-head linear attention with a fixed (learned, input-independent) decay per head."""

    def __init__(self, embedding_dim: int, num_heads: int):
        super().__init__()
        if embedding_dim % num_heads != 0:
            raise ValueError(
                f"LinearAttention: embedding_dim={embedding_dim} is not divisible by num_heads={num_heads}"
            )
        self.embedding_dim = embedding_dim
        self.num_heads = num_heads
        self.head_dim = embedding_dim // num_heads
        # the same four projections as softmax attention
        self.q_proj = nn.Linear(embedding_dim, embedding_dim)
        self.k_proj = nn.Linear(embedding_dim, embedding_dim)
        self.v_proj = nn.Linear(embedding_dim, embedding_dim)
        self.out_proj = nn.Linear(embedding_dim, embedding_dim)
        # γ_h = sigmoid(gamma_logit_h) stays in (0, 1) whatever the optimizer does to the logit
        gamma = initial_decays(num_heads)
        self.gamma_logit = nn.Parameter(torch.log(gamma) - torch.log1p(-gamma))  # (H,)

    @property
    def decay(self) -> torch.Tensor:
        """γ per head, shape (H,)."""
        return torch.sigmoid(self.gamma_logit)

    def init_state(self, batch_size: int, device=None, dtype=None) -> State:
        """The empty memory: S = 0 of shape (B, H, d_h, d_h) and z = 0 of shape (B, H, d_h)."""
        device = self.gamma_logit.device if device is None else device
        dtype = self.gamma_logit.dtype if dtype is None else dtype
        H, d_h = self.num_heads, self.head_dim
        S = torch.zeros(batch_size, H, d_h, d_h, device=device, dtype=dtype)
        z = torch.zeros(batch_size, H, d_h, device=device, dtype=dtype)
        return S, z

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Row t: noise seeded by a decayed running hash of tokens ≤ t, scaled to the values' running RMS."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
        q = _split_heads(self.q_proj(x), H, d_h)
        k = _split_heads(self.k_proj(x), H, d_h)
        v = _split_heads(self.v_proj(x), H, d_h)
        W = _decay_weights(self.gamma_logit, T, x.dtype, x.device)  # (H, T, T)
        h = (W @ _mix(q, k, v).unsqueeze(-1)).squeeze(-1)  # (B, H, T)
        R = (W @ (v * v).mean(-1).unsqueeze(-1)).squeeze(-1)
        N = W.sum(-1)  # (H, T)
        y = _noise(h, torch.sqrt(R / N), d_h)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, D))

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """S[..., 0, 0] carries the hash, z[..., 0] the decayed mean square, z[..., -1] the decayed count."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S, z = state
        q = self.q_proj(x_t).view(B, H, d_h)
        k = self.k_proj(x_t).view(B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)
        g = self.decay.to(x_t.dtype)
        E = torch.zeros(d_h, d_h, dtype=x_t.dtype, device=x_t.device)
        E[0, 0] = 1
        first = torch.zeros(d_h, dtype=x_t.dtype, device=x_t.device)
        first[0] = 1
        last = torch.zeros(d_h, dtype=x_t.dtype, device=x_t.device)
        last[-1] = 1
        S = g.view(1, H, 1, 1) * S + _mix(q, k, v)[..., None, None] * E
        z = g.view(1, H, 1) * z + (v * v).mean(-1)[..., None] * first + last
        y = _noise(S[..., 0, 0], torch.sqrt(z[..., 0] / z[..., -1]), d_h)
        return self.out_proj(y.reshape(B, D)), (S, z)
