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
        # split heads: (B, T, D) -> (B, T, H, d_h) -> (B, H, T, d_h)
        q = feature_map(self.q_proj(x)).view(B, T, H, d_h).transpose(1, 2)  # (B, H, T, d_h)
        k = feature_map(self.k_proj(x)).view(B, T, H, d_h).transpose(1, 2)  # (B, H, T, d_h)
        v = self.v_proj(x).view(B, T, H, d_h).transpose(1, 2)  # (B, H, T, d_h)
        # decay weights γ^(t-i) for i ≤ t and 0 for i > t (the causal mask); exp(n·log γ)
        # rather than γ^t / γ^i, which underflows to 0/0 on long sequences
        pos = torch.arange(T, device=x.device)
        distance = pos[:, None] - pos[None, :]  # (T, T): t - i
        causal = distance >= 0
        log_gamma = F.logsigmoid(self.gamma_logit).view(H, 1, 1)  # (H, 1, 1)
        weights = torch.exp(log_gamma * distance.clamp(min=0)) * causal  # (H, T, T)
        scores = (q @ k.transpose(-2, -1)) * weights  # (B, H, T, T): γ^(t-i) φ(q_t)·φ(k_i)
        # numerator Σ_i scores·v_i is φ(q_t)ᵀ S_t; the row sum of the scores is φ(q_t)ᵀ z_t
        y = (scores @ v) / scores.sum(dim=-1, keepdim=True)  # (B, H, T, d_h)
        y = y.transpose(1, 2).reshape(B, T, D)  # (B, T, D): heads side by side again
        return self.out_proj(y)

    def step(self, x_t: torch.Tensor, state: State | None = None) -> tuple[torch.Tensor, State]:
        """Recurrent form: one token x_t (B, D) and the memory (S, z) -> (y_t (B, D), new (S, z))."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        if state is None:
            state = self.init_state(B, device=x_t.device, dtype=x_t.dtype)
        S, z = state
        q = feature_map(self.q_proj(x_t)).view(B, H, d_h)  # (B, H, d_h)
        k = feature_map(self.k_proj(x_t)).view(B, H, d_h)  # (B, H, d_h)
        v = self.v_proj(x_t).view(B, H, d_h)  # (B, H, d_h)
        gamma = self.decay.view(1, H, 1)  # (1, H, 1): broadcasts over batch and channels
        # update first (decay BOTH accumulators, then write), read second: token t sees itself
        S = gamma.unsqueeze(-1) * S + k.unsqueeze(-1) * v.unsqueeze(-2)  # (B, H, d_h, d_h): γS + φ(k)vᵀ
        z = gamma * z + k  # (B, H, d_h): γz + φ(k)
        S, z = _resum_step(self, k, v, state, S, z)  # (S, z) re-summed from the kept φ(k), v
        numerator = (q.unsqueeze(-2) @ S).squeeze(-2)  # (B, H, d_h): φ(q)ᵀ S
        denominator = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1): φ(q)ᵀ z
        y = (numerator / denominator).reshape(B, D)  # (B, D)
        return self.out_proj(y), (S, z)



# ---------------------------------------------------------------------------------------------------------------
# Re-summing: every token's φ(k) and v are kept (in the step's own dtype), and at each
# step (S, z) is summed again from the whole history with the decay weights γ^(t-i), as the parallel form does for
# one row: work that grows with the number of tokens, memory that grows with them. PREFIX_TOKENS: after that many
# tokens of a sequence the history is dropped and (S, z) is carried as the model does (None: never).
PREFIX_TOKENS = None


class _History:
    def __init__(self, like):
        self.k, self.v, self.n, self.last = None, None, 0, None
        self.like = like

    def add(self, k, v):
        if k.requires_grad or v.requires_grad:  # under autograd: a list, stacked (no buffer written in place)
            self.kl = getattr(self, "kl", []) + [k]
            self.vl = getattr(self, "vl", []) + [v]
            self.n += 1
            return torch.stack(self.kl, dim=2), torch.stack(self.vl, dim=2)
        if self.k is None or self.n == self.k.shape[2]:
            grow = (PREFIX_TOKENS or 64) if self.k is None else self.k.shape[2]  # (the prefix's room at once)
            B, H, d_h = k.shape
            k2 = k.new_empty(B, H, self.n + grow, d_h)
            v2 = v.new_empty(B, H, self.n + grow, d_h)
            if self.k is not None:
                k2[:, :, :self.n] = self.k[:, :, :self.n]
                v2[:, :, :self.n] = self.v[:, :, :self.n]
            self.k, self.v = k2, v2
        self.k[:, :, self.n] = k
        self.v[:, :, self.n] = v
        self.n += 1
        return self.k[:, :, :self.n], self.v[:, :, :self.n]


_HIST = {}  # id(layer) -> the history of the sequence it is decoding


def _resum_step(layer, k, v, state, S, z):
    """(S, z) after this token, summed again from every kept token of the sequence (or as given, carried)."""
    key = id(layer)
    h = _HIST.get(key)
    if state is None or not bool(state[1].any()):  # a new sequence
        h = _HIST[key] = _History(S)
    elif h is None or h.last is None or state[0] is not h.last[0] or state[1] is not h.last[1]:
        _HIST.pop(key, None)  # not the sequence kept (a branch, a state made elsewhere): carried as given
        return S, z
    K, V = h.add(k, v)  # (B, H, n, d_h) each
    n, H = h.n, layer.num_heads
    log_gamma = F.logsigmoid(layer.gamma_logit).to(k.dtype).view(1, H, 1)  # (1, H, 1)
    ages = torch.arange(n - 1, -1, -1, device=k.device, dtype=k.dtype)  # t - i
    w = torch.exp(log_gamma * ages)  # (1, H, n)
    S = z = 0
    for s in range(0, n, 64):  # 64 tokens at a time: no (B, H, n, d_h) temporary beside the history
        kw = K[:, :, s:s + 64] * w[..., s:s + 64].unsqueeze(-1)  # (B, H, m, d_h)
        S = S + kw.transpose(-2, -1) @ V[:, :, s:s + 64]  # (B, H, d_h, d_h): Σ γ^(t-i) φ(k_i) v_iᵀ
        z = z + kw.sum(dim=-2)  # (B, H, d_h)
    if PREFIX_TOKENS is not None and n >= PREFIX_TOKENS:
        _HIST.pop(key, None)  # the history dropped: (S, z) carried from here on
    else:
        h.last = (S, z)
    return S, z
