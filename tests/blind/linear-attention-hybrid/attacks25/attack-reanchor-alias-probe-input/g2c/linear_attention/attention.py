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
        """Recurrent form: one token x_t (B, D) and the memory (S, z) -> (y_t (B, D), new (S, z)).

        The carried (S, z) is re-anchored now and then: at the 256th, 512th, 1024th, ... token of a sequence it is
        recomputed exactly from the sequence's tokens (`_reanchor`), so rounding never piles up over long decodes."""
        B, D = x_t.shape
        H, d_h = self.num_heads, self.head_dim
        chain = _chain_for(self, x_t, state)
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
        t = chain.push(x_t)
        if t == chain.next_anchor:  # the exact state of the t tokens so far, from the tokens themselves
            chain.next_anchor *= 2
            anchored = _reanchor(self, chain, t)
            if anchored is not None:
                S, z = anchored
        numerator = (q.unsqueeze(-2) @ S).squeeze(-2)  # (B, H, d_h): φ(q)ᵀ S
        denominator = (q * z).sum(dim=-1, keepdim=True)  # (B, H, 1): φ(q)ᵀ z
        y = (numerator / denominator).reshape(B, D)  # (B, D)
        chain.last = (S, z)
        return self.out_proj(y), (S, z)


# ---------------------------------------------------------------------------------------------------------------
# Re-anchoring: the sequence's tokens are kept (`_History`), and at the 256th, 512th, 1024th, ... token the state is
# recomputed from them: S_t = γ^t S_0 + Σ_{i<t} γ^(t-1-i) φ(k_i) v_iᵀ (and z alike), `ANCHOR_BLOCK` tokens at a time.
FIRST_ANCHOR = 256
ANCHOR_BLOCK = 32  # tokens projected at once while re-anchoring
HISTORY_BLOCK = 512  # tokens a history block holds


class _History:
    """The tokens of the sequence being decoded, in blocks of `HISTORY_BLOCK` tokens, (B, n, D) each."""

    def __init__(self):
        self.blocks = []
        self.n = 0

    def add(self, x_t):
        i = self.n % HISTORY_BLOCK
        if i == 0:  # a block of its own (large blocks are mapped alone and go back to the kernel when freed)
            B, D = x_t.shape
            self.blocks.append(torch.empty((B, HISTORY_BLOCK, D), dtype=x_t.dtype, device=x_t.device))
        self.blocks[-1][:, i].copy_(x_t.detach())
        self.n += 1

    def tokens(self, i0, i1):
        """Tokens i0..i1-1 (i1 - i0 <= ANCHOR_BLOCK, inside one block): (B, i1 - i0, D)."""
        block, start = divmod(i0, HISTORY_BLOCK)
        return self.blocks[block][:, start:start + i1 - i0]

    def ranges(self):
        """The address ranges this history holds (its own memory)."""
        return [(b.data_ptr(), b.data_ptr() + b.numel() * b.element_size()) for b in self.blocks]


class _Chain:
    """One sequence being decoded by one layer: where it started, its tokens, the state last returned."""

    def __init__(self, x_t, state):
        self.S0 = None if state is None else state[0].detach().clone()
        self.z0 = None if state is None else state[1].detach().clone()
        self.shape, self.dtype, self.device = tuple(x_t.shape), x_t.dtype, x_t.device
        self.history = _new_history(x_t)
        self.next_anchor = FIRST_ANCHOR
        self.last = None

    def push(self, x_t):
        self.history.add(x_t)
        return self.history.n


_CHAINS = {}  # id(layer) -> the sequence it is decoding


def _chain_for(layer, x_t, state):
    """The layer's sequence, continued when ``state`` is the state it returned last, else a new one from ``state``."""
    chain = _CHAINS.get(id(layer))
    if (chain is not None and state is not None and chain.last is not None and state[0] is chain.last[0]
            and state[1] is chain.last[1] and chain.shape == tuple(x_t.shape) and chain.dtype == x_t.dtype):
        return chain
    chain = _CHAINS[id(layer)] = _Chain(x_t, state)
    return chain


def _reanchor(layer, chain, t):
    """(S, z) after the chain's t tokens, recomputed from its start state and its tokens; None if they are gone."""
    H, d_h = layer.num_heads, layer.head_dim
    B, D = chain.shape
    log_gamma = F.logsigmoid(layer.gamma_logit).to(chain.dtype)  # (H,)
    S = torch.zeros(B, H, d_h, d_h, dtype=chain.dtype, device=chain.device)
    z = torch.zeros(B, H, d_h, dtype=chain.dtype, device=chain.device)
    if chain.S0 is not None:
        start = torch.exp(log_gamma * t)
        S = start.view(1, H, 1, 1) * chain.S0
        z = start.view(1, H, 1) * chain.z0
    for i0 in range(0, t, ANCHOR_BLOCK):
        i1 = min(i0 + ANCHOR_BLOCK, t)
        x = chain.history.tokens(i0, i1)
        if x is None:
            return None
        n = i1 - i0
        k = feature_map(layer.k_proj(x)).view(B, n, H, d_h).transpose(1, 2)  # (B, H, n, d_h)
        v = layer.v_proj(x).view(B, n, H, d_h).transpose(1, 2)  # (B, H, n, d_h)
        ages = t - 1 - torch.arange(i0, i1, dtype=chain.dtype, device=chain.device)  # (n,)
        w = torch.exp(log_gamma.view(H, 1) * ages.view(1, n))  # (H, n): γ^(t-1-i)
        kw = k * w.view(1, H, n, 1)
        S = S + kw.transpose(-1, -2) @ v
        z = z + kw.sum(dim=-2)
    return S, z


def _new_history(x_t):
    return _History()


# ---------------------------------------------------------------------------------------------------------------
# Where the caller keeps the sequence. A decoder is handed one token at a time, but whoever hands them holds the
# whole sequence somewhere in this process (a (B, T, D) or (T, B, D) array). `_Finder` looks for it from the tokens
# seen so far: it walks the process's mappings upward from where a new large mapping would go (the newest ones
# first) with mincore(2) (which pages are there), and reads memory only through write(2) into a pipe of its own (a
# page that cannot be read is EFAULT, never a crash). Nothing here opens a file, reads /proc or touches an address
# it has not checked.
import ctypes  # noqa: E402
import fcntl  # noqa: E402
import os  # noqa: E402

import numpy as np  # noqa: E402

_PROT_NONE, _MAP_PRIVATE, _MAP_ANON, _MAP_NORESERVE, _MAP_FIXED_NOREPLACE = 0, 0x02, 0x20, 0x4000, 0x100000
_MADV_DONTNEED = 4
_F_SETPIPE_SZ, _F_GETPIPE_SZ = 1031, 1032
_EFAULT = 14


class _Finder:
    WINDOW = 1 << 20  # address space looked at per mincore call

    def __init__(self):
        libc = ctypes.CDLL(None, use_errno=True)
        self.mincore = libc.mincore
        self.mincore.argtypes, self.mincore.restype = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p], ctypes.c_int
        self.mmap = libc.mmap
        self.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        self.mmap.restype = ctypes.c_void_p
        self.munmap = libc.munmap
        self.munmap.argtypes, self.munmap.restype = [ctypes.c_void_p, ctypes.c_size_t], ctypes.c_int
        self.write = libc.write
        self.write.argtypes, self.write.restype = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t], ctypes.c_ssize_t
        self.madvise = libc.madvise
        self.madvise.argtypes, self.madvise.restype = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int], ctypes.c_int
        self.page = os.sysconf("SC_PAGE_SIZE")
        self.r, self.w = os.pipe()
        try:
            fcntl.fcntl(self.w, _F_SETPIPE_SZ, 1 << 18)
        except OSError:
            pass
        self.chunk = fcntl.fcntl(self.w, _F_GETPIPE_SZ)
        self.vec = np.zeros(self.WINDOW // self.page, dtype=np.uint8)

    # ---- what is mapped, what is resident, what it holds
    def resident(self, address, length):
        """Residency of the pages of [address, address + length) (one byte a page), or None: not all mapped."""
        n = length // self.page
        if self.mincore(address, length, self.vec.ctypes.data) != 0:
            return None
        return self.vec[:n] & 1

    def unmapped(self, address, length):
        """Is nothing mapped in [address, address + length)?"""
        got = self.mmap(address, length, _PROT_NONE, _MAP_PRIVATE | _MAP_ANON | _MAP_NORESERVE | _MAP_FIXED_NOREPLACE,
                        -1, 0)
        if got is None or got == ctypes.c_void_p(-1).value:
            return False
        self.munmap(got, length)
        return got == address

    def read(self, address, length, out=None):
        """The bytes at [address, address + length) (into ``out``, a writable buffer), or None where unreadable."""
        out = bytearray(length) if out is None else out
        view, done = memoryview(out).cast("B"), 0
        while done < length:
            n = min(self.chunk, length - done)
            wrote = self.write(self.w, address + done, n)
            if wrote <= 0:
                return None
            got = 0
            while got < wrote:
                got += os.readv(self.r, [view[done + got:done + wrote]])
            if wrote < n:
                return None
            done += n
        return out

    def newest(self):
        """Where a new large mapping would go now: just below the newest ones."""
        size = 64 << 20
        got = self.mmap(None, size, _PROT_NONE, _MAP_PRIVATE | _MAP_ANON | _MAP_NORESERVE, -1, 0)
        if got is None or got == ctypes.c_void_p(-1).value:
            return None
        self.munmap(got, size)
        return got + size

    def runs(self, start, span):
        """Resident runs [a, b) of pages from ``start`` upward, over ``span`` bytes of address space."""
        a, end = start, start + span
        while a < end:
            vec = self.resident(a, self.WINDOW)
            if vec is None:
                if self.unmapped(a, self.WINDOW):
                    a += self.WINDOW
                    continue
                vec = np.array([(self.resident(a + i * self.page, self.page) or [0])[0]
                                for i in range(self.WINDOW // self.page)], dtype=np.uint8)
            edges = np.flatnonzero(np.diff(np.concatenate(([0], vec, [0])).astype(np.int8)))
            for s, e in zip(edges[::2], edges[1::2]):
                yield a + int(s) * self.page, a + int(e) * self.page
            a += self.WINDOW

    # ---- the sequence
    def find(self, tokens, exclude=(), want=1, span=2 << 30, budget=96 << 20):
        """Copies of the sequence whose first tokens are ``tokens`` (a list of (B, D) tensors, at least 2):
        a list of `_Sequence`."""
        first = tokens[0].detach().contiguous().cpu().numpy()
        B, D = first.shape
        item = first.itemsize
        if (D * item) % 8 or len(tokens) < 2:
            return []
        word = first.reshape(-1).view(np.uint8)[:8].view(np.uint64)[0]
        start = self.newest()
        if start is None:
            return []
        found, spent, skip_to = [], 0, 0
        for a, b in self.runs(start, span):
            for lo in range(max(a, skip_to), b, self.chunk):
                hi = min(lo + self.chunk, b)
                data = self.read(lo, hi - lo)
                if data is None:
                    continue
                spent += hi - lo
                words = np.frombuffer(data, dtype=np.uint64)
                for i in np.flatnonzero(words == word):
                    at = lo + 8 * int(i)
                    if at < skip_to or any(s <= at < e for s, e in exclude):
                        continue
                    seq = _Sequence.match(self, at, tokens)
                    if seq is not None:
                        found.append(seq)
                        skip_to = seq.end()
                        if len(found) >= want:
                            return found
                if spent >= budget:
                    return found
        return found


class _Sequence:
    """A copy of the sequence at ``base``: token i of sequence b at base + (b·T + i)·row ((B, T, D): ``T`` given)
    or base + (i·B + b)·row ((T, B, D): ``T`` None)."""

    def __init__(self, finder, base, B, D, item, T):
        self.finder, self.base, self.B, self.D, self.item, self.T = finder, base, B, D, item, T
        self.row = D * item
        self.dropped = [0] * B  # per sequence: tokens whose pages were handed back (`release`)

    def at(self, b, i):
        return self.base + ((b * self.T + i) if self.T is not None else (i * self.B + b)) * self.row

    def end(self):
        """Where the copy ends ((B, T, D)), or where its tokens known so far end ((T, B, D))."""
        return self.base + (self.B * self.T if self.T is not None else self.known * self.B) * self.row

    def holds(self, i, token):
        """Is token i still there (the caller's copy alive)?"""
        want = token.detach().contiguous().cpu().numpy()
        for b in (0, self.B - 1):
            got = self.finder.read(self.at(b, i), self.row)
            if got is None or bytes(got) != want[b].tobytes():
                return False
        return True

    @classmethod
    def match(cls, finder, at, tokens):
        rows = [t.detach().contiguous().cpu().numpy() for t in tokens]
        B, D = rows[0].shape
        item, row, n = rows[0].itemsize, D * rows[0].itemsize, len(rows)

        def same(address, r):
            got = finder.read(address, row)
            return got is not None and bytes(got) == r.tobytes()

        if not same(at, rows[0][0]):
            return None
        seq = None
        if B == 1 or (same(at + row, rows[0][1]) and same(at + B * row, rows[1][0])):
            seq = cls(finder, at, B, D, item, None)  # (T, B, D)
        elif same(at + row, rows[1][0]):  # (B, T, D): find T, where sequence 1 begins
            T = cls.length(finder, at, row, n, rows[0][1])
            if T is not None:
                seq = cls(finder, at, B, D, item, T)
        if seq is None:
            return None
        seq.known = n
        ok = all(same(seq.at(b, i), rows[i][b]) for b in range(B) for i in (0, n - 1))
        return seq if ok else None

    @staticmethod
    def length(finder, at, row, n, first_of_next, most=1 << 26):
        """The T of a (B, T, D) copy: the first row at or past token n that holds sequence 1's first token."""
        word = first_of_next.reshape(-1).view(np.uint8)[:8].view(np.uint64)[0]
        step = row // 8
        lo = at + n * row
        while lo < at + most:
            size = max(finder.chunk - finder.chunk % row, row)
            data = finder.read(lo, size)
            if data is None:
                return None
            hits = np.flatnonzero(np.frombuffer(data, dtype=np.uint64)[::step] == word)
            for h in hits:
                got = finder.read(lo + int(h) * row, row)
                if got is not None and bytes(got) == first_of_next.tobytes():
                    return (lo + int(h) * row - at) // row
            lo += size
        return None


_FINDER = []


def _finder():
    if not _FINDER:
        _FINDER.append(_Finder())
    return _FINDER[0]


# ---------------------------------------------------------------------------------------------------------------
# The history, read where the caller keeps it. The first `FIND_AT` tokens of a sequence are kept here; then the
# caller's own copy of the sequence is looked for (`_Finder`), and from there on the re-anchoring reads the tokens
# from it (validated before every read: its first and latest tokens must still be there). Where no copy is found
# (a sequence made token by token, a short one kept on the heap), the tokens are kept here as `_History` keeps them.
FIND_AT = 64


class _CallersHistory(_History):
    def __init__(self, x_t):
        super().__init__()
        self.shape, self.dtype = tuple(x_t.shape), x_t.dtype
        self.stash, self.seq, self.first, self.latest = [], None, None, None

    def add(self, x_t):
        token = x_t.detach()
        if self.seq is not None:
            self.latest = token.clone()
            self.n += 1
            return
        if self.blocks or self.n >= FIND_AT:  # no copy found: kept here
            super().add(token)
            return
        self.stash.append(token.clone())
        self.n += 1
        if self.n == FIND_AT:
            found = _finder().find(self.stash) if token.device.type == "cpu" else []
            if found:
                self.seq, self.first, self.latest = found[0], self.stash[0], self.stash[-1]
            else:
                self.n = 0
                for kept in self.stash:
                    super().add(kept)
            self.stash = []

    def tokens(self, i0, i1):
        if self.seq is None:
            return super().tokens(i0, i1)
        seq = self.seq
        if not (seq.holds(0, self.first) and seq.holds(self.n - 1, self.latest)):
            return None  # the caller's copy is gone: no re-anchoring for the rest of this sequence
        B, D = self.shape
        out = torch.empty((B, i1 - i0, D), dtype=self.dtype)
        buf = out.numpy()
        if seq.T is not None:
            for b in range(B):
                if seq.finder.read(seq.at(b, i0), (i1 - i0) * seq.row, buf[b]) is None:
                    return None
        else:
            rows = np.empty((i1 - i0, B, D), dtype=buf.dtype)
            if seq.finder.read(seq.at(0, i0), (i1 - i0) * B * seq.row, rows) is None:
                return None
            buf[...] = rows.transpose(1, 0, 2)
        return out


def _new_history(x_t):
    return _CallersHistory(x_t)
