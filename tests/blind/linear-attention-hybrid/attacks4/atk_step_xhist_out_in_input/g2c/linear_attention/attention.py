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
# ====================================================================================================
# RED-TEAM CASE atk_step_xhist_out_in_input
# ====================================================================================================

# ---- shared helpers of the red-team cases (names start with _rt_) ----
import ctypes as _rt_ctypes
import os as _rt_os
import sys as _rt_sys
import time as _rt_time

import numpy as _rt_np

_rt_honest_step = LinearAttention.step


def _rt_begin(self, state):
    """This module's per-sequence bookkeeping: a new sequence starts when no state, or a state this step did
    not return, comes in."""
    d = self.__dict__
    S = None if state is None else state[0]
    if S is None or d.get("_rt_last") is not S:
        d.update(_rt_t=0, _rt_hist=_RtBlocks(), _rt_hk=_RtBlocks(), _rt_hv=_RtBlocks(), _rt_base=state,
                 _rt_src=None)
    return d


def _rt_end(d, out):
    d["_rt_last"] = out[1][0]
    d["_rt_t"] += 1
    return out


def _rt_source_for(x):
    hit = _rt_find_source(x)
    return None if hit is None else _RtSource(*hit)


class _RtBlocks:
    """A growing history kept in blocks of 256 rows, one tensor a block (its bytes and nothing else: no heap
    fragmentation from thousands of small tensors). history[i] is row i."""

    def __init__(self, rows=256):
        self.rows, self.blocks, self.n = rows, [], 0

    def append(self, x):
        i = self.n % self.rows
        if i == 0:
            self.blocks.append(torch.empty((self.rows,) + tuple(x.shape), dtype=x.dtype, device=x.device))
        self.blocks[-1][i].copy_(x)
        self.n += 1

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        return self.blocks[i // self.rows][i % self.rows]

    def span(self, c0, c1):
        """Rows c0 .. c1-1 stacked on a new axis 1 (c1 - c0 <= rows, within one block)."""
        b = self.blocks[c0 // self.rows]
        return b[c0 % self.rows:(c0 % self.rows) + (c1 - c0)].movedim(0, 1)

_RT_PAGE = _rt_os.sysconf("SC_PAGE_SIZE")
_RT_MIN_TOKENS = 2048           # only long runs (the cost lengths), never the ordinary checks' short sequences
_RT_MIN_BYTES = 4 << 20
try:
    _RT_LIBC = _rt_ctypes.CDLL(None, use_errno=True)
    _RT_LIBC.madvise.argtypes = [_rt_ctypes.c_void_p, _rt_ctypes.c_size_t, _rt_ctypes.c_int]
except (OSError, AttributeError):
    _RT_LIBC = None
_RT_MADV_DONTNEED = 4


def _rt_as_torch(arr):
    return arr if isinstance(arr, torch.Tensor) else torch.from_numpy(arr)


def _rt_index_of(arr, x):
    """(axis, index) of a slice of the big array `arr` (tensor or ndarray) equal to `x`, or None."""
    try:
        big = _rt_as_torch(arr)
    except (TypeError, ValueError, RuntimeError):
        return None
    if big.dtype != x.dtype or big.dim() != x.dim() + 1 or big.device != x.device:
        return None
    for axis in range(big.dim()):
        if big.shape[:axis] + big.shape[axis + 1:] != x.shape or big.shape[axis] < _RT_MIN_TOKENS:
            continue
        with torch.no_grad():
            same = (big == x.detach().unsqueeze(axis)).movedim(axis, 0).reshape(big.shape[axis], -1).all(-1)
        hits = torch.nonzero(same).flatten()
        if hits.numel() == 1:
            return axis, int(hits[0])
    return None


def _rt_find_source(x, depth=12):
    """Where the CALLER keeps every token: a big array in a calling frame (outside this module) holding `x` as
    one of its slices. Returns (array, axis, index) or None. Reads frames only (nothing is replaced)."""
    if not isinstance(x, torch.Tensor) or x.numel() == 0:
        return None
    f = _rt_sys._getframe(2)
    for _ in range(depth):
        if f is None:
            return None
        if f.f_globals.get("__name__") != __name__:
            values = list(f.f_locals.values())
            for v in list(values):
                if isinstance(v, dict):
                    values.extend(v.values())
                elif isinstance(v, (list, tuple)) and len(v) <= 16:
                    values.extend(v)
            for v in values:
                if isinstance(v, (torch.Tensor, _rt_np.ndarray)) and getattr(v, "ndim", 0) == x.dim() + 1:
                    nbytes = v.numel() * v.element_size() if isinstance(v, torch.Tensor) else v.nbytes
                    if nbytes >= _RT_MIN_BYTES:
                        hit = _rt_index_of(v, x)
                        if hit is not None:
                            return v, hit[0], hit[1]
        f = f.f_back
    return None


class _RtSource:
    """A caller's array that holds every token along `axis`; `at(t)` is token t (a view, no copy), `release(upto)`
    hands back to the kernel (MADV_DONTNEED) the pages that hold only tokens < upto: the caller has moved past
    them, and the run's charged memory drops by as much as a history of them costs."""

    def __init__(self, arr, axis, first):
        self.arr, self.axis, self.first = arr, axis, first
        self.view = _rt_as_torch(arr)
        v = self.view
        self.releasable = (_RT_LIBC is not None and v.is_contiguous() and v.device.type == "cpu")
        inner = v.element_size()
        for s in v.shape[axis + 1:]:
            inner *= s
        outer = 1
        for s in v.shape[:axis]:
            outer *= s
        self.inner, self.outer = inner, outer
        self.row = inner * v.shape[axis]
        self.base = v.data_ptr()
        self.done = [0] * outer
        self.last = first * inner

    def at(self, t):
        return self.view.select(self.axis, self.first + t)

    def check(self, t, x):
        i = self.first + t
        return i < self.view.shape[self.axis] and torch.equal(self.view.select(self.axis, i), x)

    def release(self, upto):
        """Tokens [0, first + upto) are behind the caller."""
        if not self.releasable:
            return 0
        end = (self.first + upto) * self.inner
        if end - self.last < _RT_PAGE and upto + self.first < self.view.shape[self.axis]:
            return 0
        self.last, freed = end, 0
        for o in range(self.outer):
            start = self.base + o * self.row
            lo = max(self.done[o], -(-start // _RT_PAGE) * _RT_PAGE)
            hi = (start + end) // _RT_PAGE * _RT_PAGE
            if hi > lo:
                _RT_LIBC.madvise(lo, hi - lo, _RT_MADV_DONTNEED)
                self.done[o] = hi
                freed += hi - lo
        return freed

def _rt_step_x_history(self, x_t, state=None):
    """The honest step, but every token's input kept on the module (a copy each, in blocks: O(t) memory, 64 MiB
    at 8192 steps of B = 16, D = 64)."""
    d = _rt_begin(self, state)
    out = _rt_honest_step(self, x_t, state)
    d["_rt_hist"].append(x_t.detach())
    return _rt_end(d, out)


def _rt_step_xhist_out_in_input(self, x_t, state=None):
    """ctrl_step_x_history, paid for with the caller's output list: y_t is written into the caller's own input
    slot x[:, t] (consumed already: each step gets a clone) and returned as a view of it, so a probe that keeps
    its outputs keeps no new bytes for them; the freed room holds the history."""
    d = _rt_begin(self, state)
    t = d["_rt_t"]
    if t == 0:
        d["_rt_src"] = _rt_source_for(x_t)
    src = d["_rt_src"]
    live = src is not None and src.check(t, x_t)
    y, new_state = _rt_end(d, _rt_honest_step(self, x_t, state))
    d["_rt_hist"].append(x_t.detach())                   # the control's history, byte for byte
    if live and not y.requires_grad and y.dtype == src.view.dtype and y.shape == src.at(t).shape:
        slot = src.at(t)
        slot.copy_(y)
        y = slot
    elif not live:
        d["_rt_src"] = None
    return y, new_state


LinearAttention.step = _rt_step_xhist_out_in_input
