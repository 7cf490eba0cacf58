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

from typing import NamedTuple

import torch
import torch.nn as nn
import torch.nn.functional as F

class State(NamedTuple):
    """The recurrent memory, unpacks as (S, z)."""

    S: torch.Tensor  # (B, H, d_h, d_h): Σ γ^(t-i) φ(k_i) v_iᵀ
    z: torch.Tensor  # (B, H, d_h): Σ γ^(t-i) φ(k_i)


def feature_map(x: torch.Tensor) -> torch.Tensor:
    """φ(x) = elu(x) + 1: positive everywhere, so the normalizer φ(q)·z never vanishes."""
    return F.elu(x) + 1


def initial_decays(num_heads: int) -> torch.Tensor:
    """A spread of per-head decays γ_h = 1 - 2^-e with e from 2 to 6 (memories of ~4 to ~64 tokens).

    Different heads start with different memory lengths, as in RetNet; training can move them.
    """
    exponents = 2.0 + 4.0 * torch.arange(num_heads) / max(num_heads - 1, 1)
    return 1.0 - 2.0 ** (-exponents)


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
        return State(S, z)

    def _qkv(self, x: torch.Tensor):
        """The three projections as one matmul (weights stacked), split per head: (..., H, d_h) each."""
        w = torch.cat([self.q_proj.weight, self.k_proj.weight, self.v_proj.weight])  # (3D, D)
        b = torch.cat([self.q_proj.bias, self.k_proj.bias, self.v_proj.bias])  # (3D,)
        q, k, v = F.linear(x, w, b).unflatten(-1, (3, self.num_heads, self.head_dim)).unbind(-3)
        return feature_map(q), feature_map(k), v

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Parallel reference: x (B, T, D) -> (B, T, D), with einsum and a log-space decay mask."""
        B, T, D = x.shape
        q, k, v = self._qkv(x)  # (B, T, H, d_h)
        t = torch.arange(T, device=x.device)
        age = (t[:, None] - t[None, :]).to(x.dtype)  # (T, T)
        log_w = F.logsigmoid(self.gamma_logit).to(x.dtype)[:, None, None] * age  # (H, T, T)
        w = torch.where(age >= 0, log_w, torch.full_like(log_w, float("-inf"))).exp()  # γ^(t-i), 0 above
        a = torch.einsum("bthd,bshd->bhts", q, k) * w  # (B, H, T, T)
        y = torch.einsum("bhts,bshd->bthd", a, v) / a.sum(-1).transpose(1, 2).unsqueeze(-1)  # (B, T, H, d_h)
        return self.out_proj(y.reshape(B, T, D))

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """Recurrent form: x_t (B, D) and State(S, z) -> (y_t (B, D), the new State)."""
        B, D = x_t.shape
        S, z = self.init_state(B, device=x_t.device, dtype=x_t.dtype) if state is None else state
        q, k, v = self._qkv(x_t)  # (B, H, d_h)
        g = self.decay.to(x_t.dtype)[:, None]  # (H, 1)
        S = torch.einsum("bhd,bhe->bhde", k, v).add_(S * g[..., None])  # γS + φ(k)vᵀ (a new tensor)
        z = torch.addcmul(k, z, g)  # γz + φ(k)
        y = torch.einsum("bhd,bhde->bhe", q, S) / torch.einsum("bhd,bhd->bh", q, z)[..., None]
        return self.out_proj(y.reshape(B, D)), State(S, z)
