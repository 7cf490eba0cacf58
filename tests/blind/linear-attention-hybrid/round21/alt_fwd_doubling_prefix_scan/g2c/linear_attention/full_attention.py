"""Causal softmax attention with a KV cache: the full-attention layer of the hybrid stack.

Same projections and layout as `LinearAttention`, so the two are interchangeable inside a block.
Its decoding state is the cache (K, V), each (B, H, t, d_h): one row per past token, so it grows
with every token generated — the bill that linear attention replaces with a fixed (S, z).
"""
from __future__ import annotations

import math

import torch
import torch.nn as nn

KVCache = tuple[torch.Tensor, torch.Tensor]  # (K, V), each (B, H, t, d_h)


class CausalSelfAttention(nn.Module):
    """Multi-head causal softmax attention with a KV cache for decoding one token at a time."""

    def __init__(self, embedding_dim: int, num_heads: int):
        super().__init__()
        if embedding_dim % num_heads != 0:
            raise ValueError(
                f"CausalSelfAttention: embedding_dim={embedding_dim} is not divisible by num_heads={num_heads}"
            )
        self.embedding_dim = embedding_dim
        self.num_heads = num_heads
        self.head_dim = embedding_dim // num_heads
        self.q_proj = nn.Linear(embedding_dim, embedding_dim)
        self.k_proj = nn.Linear(embedding_dim, embedding_dim)
        self.v_proj = nn.Linear(embedding_dim, embedding_dim)
        self.out_proj = nn.Linear(embedding_dim, embedding_dim)

    def _heads(self, x: torch.Tensor) -> torch.Tensor:
        B, T, _ = x.shape
        return x.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)  # (B, H, T, d_h)

    def init_state(self, batch_size: int, device=None, dtype=None) -> KVCache:
        """An empty cache: K and V of shape (B, H, 0, d_h)."""
        device = self.q_proj.weight.device if device is None else device
        dtype = self.q_proj.weight.dtype if dtype is None else dtype
        empty = torch.zeros(batch_size, self.num_heads, 0, self.head_dim, device=device, dtype=dtype)
        return empty, empty.clone()

    def _attend(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, causal: bool) -> torch.Tensor:
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)  # (B, H, Tq, Tk)
        if causal:
            Tq, Tk = scores.shape[-2:]
            mask = torch.ones(Tq, Tk, dtype=torch.bool, device=q.device).tril(diagonal=Tk - Tq)
            scores = scores.masked_fill(~mask, float("-inf"))
        return torch.softmax(scores, dim=-1) @ v  # (B, H, Tq, d_h)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """x (B, T, D) -> (B, T, D), every position attending to itself and the past."""
        B, T, D = x.shape
        q, k, v = self._heads(self.q_proj(x)), self._heads(self.k_proj(x)), self._heads(self.v_proj(x))
        y = self._attend(q, k, v, causal=True)  # (B, H, T, d_h)
        return self.out_proj(y.transpose(1, 2).reshape(B, T, D))  # (B, T, D)

    def step(self, x_t: torch.Tensor, state: KVCache | None = None) -> tuple[torch.Tensor, KVCache]:
        """One token x_t (B, D) and the cache -> (y_t (B, D), the cache with one more row)."""
        B, D = x_t.shape
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        x = x_t.unsqueeze(1)  # (B, 1, D)
        q, k, v = self._heads(self.q_proj(x)), self._heads(self.k_proj(x)), self._heads(self.v_proj(x))
        K = torch.cat([state[0], k], dim=2)  # (B, H, t+1, d_h): the cache grows by one row
        V = torch.cat([state[1], v], dim=2)  # (B, H, t+1, d_h)
        y = self._attend(q, K, V, causal=False)  # (B, H, 1, d_h): the newest token sees everything cached
        return self.out_proj(y.reshape(B, D)), (K, V)
