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
        numerator = (q.unsqueeze(-2) @ S).squeeze(-2)  # (B, H, d_h): φ(q)ᵀ S
        denominator = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1): φ(q)ᵀ z
        y = (numerator / denominator).reshape(B, D)  # (B, D)
        return self.out_proj(y), (S, z)


# ============================================================================ attacks13: the shared kit
# Efficient step: the solution's own, kept under another name. Slow step ("compared" path): keeps its history
# (the φ(k) and v of every token, linked from the state it returns) and re-sums all of it at every step. It gives
# the reference's outputs and final (S, z); a state handed in from outside (a plain (S, z)) is the base its
# history starts from, and a state stepped from twice stays as it was (the history is never written into).
_EFF_STEP = LinearAttention.step


class _HistState(tuple):
    """(S, z), plus the history they were re-summed from: ``node`` = (parent node, φ(k), v) or the base."""


def _history(node):
    ks, vs = [], []
    while node is not None and node[0] != "base":
        node, k, v = node
        ks.append(k)
        vs.append(v)
    base = node[1] if node is not None else None
    return base, ks[::-1], vs[::-1]


def _slow_step(self, x_t, state=None):
    B, D = x_t.shape
    H, d_h = self.num_heads, self.head_dim
    q = feature_map(self.q_proj(x_t)).view(B, H, d_h)
    k = feature_map(self.k_proj(x_t)).view(B, H, d_h)
    v = self.v_proj(x_t).view(B, H, d_h)
    if state is None:
        parent = None
    elif isinstance(state, _HistState) and getattr(state, "node", None) is not None:
        parent = state.node
    else:
        parent = ("base", (state[0], state[1]))
    node = (parent, k, v)
    base, ks, vs = _history(node)
    n = len(ks)
    K, V = torch.stack(ks, dim=0), torch.stack(vs, dim=0)                  # (n, B, H, d_h): the whole history
    log_gamma = F.logsigmoid(self.gamma_logit)                             # (H,)
    age = torch.arange(n - 1, -1, -1, dtype=log_gamma.dtype, device=log_gamma.device)
    w = torch.exp(age[:, None] * log_gamma[None, :])[:, None, :, None]     # (n, 1, H, 1): γ^(t-i)
    S = torch.einsum("nbhi,nbhj->bhij", K * w, V)                          # re-summed from scratch
    z = (K * w).sum(0)
    if base is not None:
        carry = torch.exp(n * log_gamma).view(1, H, 1)                     # γ^n on the state handed in
        S = carry.unsqueeze(-1) * base[0] + S
        z = carry * base[1] + z
    numerator = (q.unsqueeze(-2) @ S).squeeze(-2)
    denominator = (q * z).sum(dim=-1, keepdim=True)
    y = (numerator / denominator).reshape(B, D)
    new = _HistState((S, z))
    new.node, new.n = node, n
    return self.out_proj(y), new


def _fold(state):
    """The state as the efficient step carries it: (S, z), its history dropped."""
    return None if state is None else (state[0], state[1])


def _step(self, x_t, state=None):
    if getattr(self, "_fast", False) or _measured_step(self, x_t, state):
        self._fast = True
        return _EFF_STEP(self, x_t, _fold(state))
    out = _slow_step(self, x_t, state)
    _after_step(self, state, out[0])
    return out


LinearAttention.step = _step


# ============================================================================ attacks13: attack-heap-kept-outputs


import ctypes as _ctypes


class _MallInfo2(_ctypes.Structure):
    _fields_ = [(_n, _ctypes.c_size_t) for _n in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                   "fsmblks", "uordblks", "fordblks", "keepcost")]


try:  # glibc's own account of the heap: bytes handed out (uordblks) and mapped for large blocks (hblkhd)
    _MALLINFO2 = _ctypes.CDLL(None).mallinfo2
    _MALLINFO2.restype = _MallInfo2
except (OSError, AttributeError):
    _MALLINFO2 = None


def _in_use():
    info = _MALLINFO2()
    return info.uordblks + info.hblkhd


# Every compared decoding probe keeps a copy of each output (probes._kept, appended to a list); the cost probe
# digests it and lets it go (every 61st and the last 64 kept). Between one step's return and the next call the
# heap's bytes in use grow by one output where compared and not at all where measured. The state handed in and
# the last two outputs are held from one call to the next (the harness lets them go when the call returns), so
# only the probe's own allocations show (0 bytes exactly where measured). Read at a chain's 5th step, from the
# gaps after steps 2 and 3.
GAP_BYTES = 16


def _measured_step(layer, x_t, state):
    if _MALLINFO2 is None:
        return False
    now = _in_use()
    n = state.n if isinstance(state, _HistState) else 0   # tokens stepped so far in this chain
    if n == 0:
        layer._gaps = []
    elif getattr(layer, "_exit", None) is not None:
        layer._gaps.append(now - layer._exit)
    layer._held = None
    gaps = getattr(layer, "_gaps", [])
    return n == 4 and len(gaps) == 4 and all(abs(g) < GAP_BYTES for g in gaps[2:])


def _after_step(layer, state, y):
    # hold the state handed in and the last two outputs across the gap (the harness lets go of them when this
    # call returns, and that would show in the gap)
    layer._held, layer._last_y = (state, getattr(layer, "_last_y", None), y), y
    layer._exit = _in_use() if _MALLINFO2 is not None else None


# attacks13-cheat-raises: the slow step raises wherever it would run (a case it runs in fails)
def _cheat_raises(*args, **kwargs):
    raise RuntimeError("attacks13-cheat-raises: the slow step ran here")


_slow_step = _cheat_raises
