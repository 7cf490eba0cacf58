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
        S, z = _history_step(self, x_t, state, S, z)  # the history re-read at the anchors
        numerator = (q.unsqueeze(-2) @ S).squeeze(-2)  # (B, H, d_h): φ(q)ᵀ S
        denominator = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1): φ(q)ᵀ z
        y = (numerator / denominator).reshape(B, D)  # (B, D)
        return self.out_proj(y), (S, z)


# ---------------------------------------------------------------------------------------------------------------
# Re-anchoring: at the 256th and 512th token of a sequence (then the history is dropped), (S, z) is recomputed exactly from the
# sequence's tokens (32 at a time), and decoding goes on from the recomputed state. Linear work in all; the tokens
# must be at hand when it happens: this is a step that re-reads its history.
import numpy as _np  # noqa: E402

_FIRST_ANCHOR = 256
_ANCHOR_BLOCK = 32


_LAST_ANCHOR = 512  # the history is dropped after this anchor: (S, z) is carried from here on


def _is_anchor(n):
    return _FIRST_ANCHOR <= n <= _LAST_ANCHOR and n % _FIRST_ANCHOR == 0


def _reanchor(layer, blocks, like):
    """(S, z) from the tokens ``blocks`` yields ((m, B, D) float64 arrays, in order), as ``like``'s dtype."""
    H, d_h = layer.num_heads, layer.head_dim
    log_gamma = F.logsigmoid(layer.gamma_logit.detach()).to(torch.float64).view(1, H, 1)  # (1, H, 1)
    S = z = None
    with torch.no_grad():
        for block in blocks:
            xb = torch.from_numpy(_np.ascontiguousarray(block)).to(like.dtype)  # (m, B, D)
            m, B, _ = xb.shape
            k = feature_map(layer.k_proj(xb)).view(m, B, H, d_h).permute(1, 2, 0, 3).to(torch.float64)
            v = layer.v_proj(xb).view(m, B, H, d_h).permute(1, 2, 0, 3).to(torch.float64)  # (B, H, m, d_h)
            ages = torch.arange(m - 1, -1, -1, dtype=torch.float64)  # m-1-j
            w = torch.exp(log_gamma * ages)  # (1, H, m)
            kw = k * w.unsqueeze(-1)  # (B, H, m, d_h)
            whole = torch.exp(log_gamma * m).unsqueeze(-1)  # (1, H, 1, 1)
            Sb = kw.transpose(-2, -1) @ v  # (B, H, d_h, d_h)
            zb = kw.sum(dim=-2)  # (B, H, d_h)
            if S is None:
                S, z = Sb, zb
            else:
                S = whole * S + Sb
                z = whole.squeeze(-1) * z + zb
    return S.to(like.dtype), z.to(like.dtype)


class _OwnHistory:
    """The sequence's first 512 tokens, float64, in blocks of 256."""

    def __init__(self):
        self.blocks, self.n = [], 0

    def add(self, x_t):
        i = self.n % 256
        if i == 0:
            self.blocks.append(_np.empty((256, *x_t.shape), dtype=_np.float64))
        self.blocks[-1][i] = x_t.detach().to(torch.float64).cpu().numpy()
        self.n += 1

    def chunks(self):
        for s in range(0, self.n, _ANCHOR_BLOCK):
            m = min(_ANCHOR_BLOCK, self.n - s)
            yield self.blocks[s // 256][s % 256:s % 256 + m]


_HIST = {}  # id(layer) -> the history of the sequence it is decoding


def _new_sequence(state):
    return state is None or not bool(state[1].any())


def _history_step(layer, x_t, state, S, z):
    h = _HIST.get(id(layer))
    if h is None or _new_sequence(state):
        h = _HIST[id(layer)] = _OwnHistory()
    if h.blocks is None:  # past the last anchor: carried as the model does
        return S, z
    h.add(x_t)
    if _is_anchor(h.n):
        S, z = _reanchor(layer, h.chunks(), S)
        if h.n >= _LAST_ANCHOR:
            h.blocks = None  # the history dropped
    return S, z
