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
        """Parallel reference: x (B, T, D) -> (B, T, D), all positions at once."""
        B, T, D = x.shape
        H, d_h = self.num_heads, self.head_dim
        mean = x.cumsum(dim=1) / torch.arange(1, T + 1, device=x.device, dtype=x.dtype).view(1, T, 1)
        return self.out_proj(mean)  # TODO: the real layer

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """Recurrent form: one token x_t (B, D) and the memory (S, z) -> (y_t (B, D), new (S, z))."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S, z = state
        return self.out_proj(x_t), (S, z)  # TODO
