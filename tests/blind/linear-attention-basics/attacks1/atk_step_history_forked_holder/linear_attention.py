"""Linear attention and retention: one recurrence, three faces.

Layout, used by every function in this file (stated once, here):

    Q, K   (..., L, m)     queries and keys; `...` is any leading batch/head dims
    V      (..., L, d_v)   values
    out    (..., L, d_v)
    S      (..., m, d_v)   the state, a running sum of outer products k_j v_jᵀ
    z      (..., m)        the normalizer state of linear attention, a running sum of φ(k_j)
    gamma  a float, or a tensor broadcastable to the leading dims `...` (one decay per head,
           e.g. shape (H,) for Q of shape (B, H, L, m))

The names follow the lesson: φ = feature_map, S, z, gamma, and R for the state carried
from chunk to chunk. No 1/sqrt(m) scale and no epsilon anywhere: each function computes
exactly the lesson's formula, in the dtype of its inputs (float32 or float64).

Every function here is causal: output position i only ever sees tokens j <= i.
"""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020).

    x + 1 for x > 0 and exp(x) in (0, 1] for x <= 0, so φ(q)·φ(k) is always positive and
    the normalizer φ(q_i)ᵀz_i never reaches zero or flips sign.
    """
    return F.elu(x) + 1


# ----------------------------------------------------------------------------- linear attention

def linear_attention_parallel(Q, K, V):
    """Causal linear attention, parallel face: one masked matmul.

    A[i, j] = φ(q_i)·φ(k_j) for j <= i (0 above the diagonal), and
    y_i = Σ_j A[i, j] v_j / Σ_j A[i, j].

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v). Builds the L × L matrix A.
    """
    q, k = feature_map(Q), feature_map(K)                        # (..., L, m)
    L = q.shape[-2]
    A = q @ k.transpose(-2, -1)                                  # (..., L, L): A[i, j] = φ(q_i)·φ(k_j)
    future = torch.ones(L, L, dtype=torch.bool, device=q.device).triu(1)
    A = A.masked_fill(future, 0.0)                               # causal: keep j <= i
    return (A @ V) / A.sum(-1, keepdim=True)                     # (..., L, d_v) / (..., L, 1)


def linear_attention_recurrent(Q, K, V):
    """Causal linear attention, recurrent face: a running state, no L × L matrix.

    For t = 0 .. L-1:  S ← S + φ(k_t) v_tᵀ,  z ← z + φ(k_t),  y_t = φ(q_t)ᵀS / φ(q_t)ᵀz.
    The state is updated *before* it is read, so token t sees itself.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    q, k = feature_map(Q), feature_map(K)                        # (..., L, m)
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    z = Q.new_zeros(Q.shape[-1])                                 # (m,)
    ys = []
    for t in range(Q.shape[-2]):
        S = S + k[..., t, :, None] * V[..., t, None, :]          # (..., m, d_v): += φ(k_t) v_tᵀ
        z = z + k[..., t, :]                                     # (..., m)
        num = torch.einsum("...m,...md->...d", q[..., t, :], S)  # (..., d_v): φ(q_t)ᵀ S
        den = (q[..., t, :] * z).sum(-1, keepdim=True)           # (..., 1):   φ(q_t)ᵀ z
        ys.append(num / den)
    return torch.stack(ys, dim=-2)                               # (..., L, d_v)


class LinearAttentionState:
    """The decoding face: fold in one token at a time, constant work per token.

    Holds S (m × d_v) and z (m). The leading dims of the first token are picked up by
    broadcasting, so one object can decode a whole batch of heads.
    """

    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)
        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)

    def step(self, q, k, v):
        """Add token (k, v) to the state, then read it with q.

        q, k: (..., m); v: (..., d_v) -> y: (..., d_v), equal to row t of
        linear_attention_recurrent when tokens 0 .. t have been stepped in.
        """
        q, k = feature_map(q), feature_map(k)                    # (..., m)
        self.S = self.S + k[..., :, None] * v[..., None, :]      # (..., m, d_v): += φ(k) vᵀ
        self.z = self.z + k                                      # (..., m)
        num = torch.einsum("...m,...md->...d", q, self.S)        # (..., d_v)
        return num / (q * self.z).sum(-1, keepdim=True)          # (..., d_v) / (..., 1)


# ----------------------------------------------------------------------------- retention

def as_gamma(gamma, like):
    """Check the decay and return it as a tensor that broadcasts against (..., L, L) or (..., m, d_v).

    gamma: a float, or a tensor over the leading dims (one per head). Every entry must lie in
    [0, 1]: gamma > 1 makes gamma**(n - m) grow with distance and the state diverge, and
    gamma < 0 flips signs every step. Raises ValueError otherwise (NaN included).
    Returns gamma in like's dtype and device, with shape gamma.shape + (1, 1).
    """
    gamma = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not bool(((gamma >= 0) & (gamma <= 1)).all()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma.tolist()}")
    return gamma[..., None, None]                                # (..., 1, 1)


def decay_matrix(gamma, L):
    """The causal decay matrix D[n, m] = gamma**(n - m) for m <= n, else 0.

    gamma: the output of as_gamma, shape (..., 1, 1) -> D: (..., L, L).
    gamma = 0 follows 0**0 = 1: D is then the identity (each token sees only itself).
    """
    n = torch.arange(L, device=gamma.device)
    distance = n[:, None] - n[None, :]                           # (L, L): n - m
    D = gamma ** distance.clamp(min=0).to(gamma.dtype)           # (..., L, L); torch.pow(0, 0) = 1
    return D.masked_fill(distance < 0, 0.0)                      # causal: m <= n


def retention_parallel(Q, K, V, gamma):
    """Retention, parallel face: (Q Kᵀ ⊙ D) V. No feature map, no normalizer.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v). Builds the L × L matrix.
    """
    gamma = as_gamma(gamma, Q)                                   # (..., 1, 1)
    D = decay_matrix(gamma, Q.shape[-2])                         # (..., L, L)
    return (Q @ K.transpose(-2, -1) * D) @ V                     # (..., L, d_v)


def retention_recurrent(Q, K, V, gamma):
    """Retention, recurrent face: S_n = gamma S_{n-1} + k_nᵀ v_n, o_n = q_n S_n.

    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    gamma = as_gamma(gamma, Q)                                   # (..., 1, 1)
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    outs = []
    for n in range(Q.shape[-2]):
        S = gamma * S + K[..., n, :, None] * V[..., n, None, :]  # (..., m, d_v): decay, then add k_nᵀ v_n
        outs.append(torch.einsum("...m,...md->...d", Q[..., n, :], S))   # (..., d_v)
    return torch.stack(outs, dim=-2)                             # (..., L, d_v)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    """Retention, chunkwise face: parallel inside each chunk, recurrent between chunks.

    For a chunk of n tokens (n = chunk_size, or fewer for the last one) and local index j:
        o_j = [(q kᵀ ⊙ D_n) v]_j + gamma**(j+1) q_j R           (intra + cross-chunk)
        R  ← gamma**n R + Σ_s gamma**(n-1-s) k_sᵀ v_s             (carry the state on)
    Works for any chunk_size >= 1 (dividing L or not, larger than L too) and never builds an
    L × L matrix. With return_state=True returns (out, R), R: (..., m, d_v), the state after
    the last token: what retention_recurrent's S ends as.
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    gamma = as_gamma(gamma, Q)                                   # (..., 1, 1)
    R = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    outs = []
    for c0 in range(0, Q.shape[-2], chunk_size):
        q = Q[..., c0:c0 + chunk_size, :]                        # (..., n, m)
        k = K[..., c0:c0 + chunk_size, :]                        # (..., n, m)
        v = V[..., c0:c0 + chunk_size, :]                        # (..., n, d_v)
        n = q.shape[-2]                                          # chunk_size, or fewer at the end
        j = torch.arange(n, dtype=Q.dtype, device=Q.device)[:, None]          # (n, 1) local index
        intra = (q @ k.transpose(-2, -1) * decay_matrix(gamma, n)) @ v        # (..., n, d_v)
        cross = gamma ** (j + 1) * (q @ R)                       # (..., n, d_v): R seen from token j
        outs.append(intra + cross)
        R = gamma ** n * R + (k * gamma ** (n - 1 - j)).transpose(-2, -1) @ v  # (..., m, d_v)
    out = torch.cat(outs, dim=-2)                                # (..., L, d_v)
    return (out, R) if return_state else out


def multiscale_decays(num_heads):
    """Multi-scale retention's per-head decays gamma_h = 1 - 2**(-5 - h), h = 0 .. num_heads-1.

    Returns a tensor of shape (num_heads,) in the default float dtype.
    """
    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)                                   # (H,)


# ----------------------------------------------------------------------------- the one recurrence

def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    """The one recurrence behind the lesson's table: S_t = A_t S_{t-1} + k_tᵀ v_t, y_t = q_t S_t.

    mode "linear":    A_t = 1
    mode "retention": A_t = gamma (a float or a per-head tensor, checked like retention's)
    mode "gated":     A_t = gate[..., t]; gate has shape (L,) or (..., L)
    A_t multiplies the OLD state S_{t-1} as token t arrives, before token t writes: a high A_t
    keeps what tokens 0 .. t-1 stored, while token s's own write ends up weighted by the gates
    after it, A_{s+1} A_{s+2} ... A_t.
    No feature map and no normalizer: the bare recurrence. Q, K: (..., L, m);
    V: (..., L, d_v) -> (..., L, d_v). An unknown mode, or a missing gamma/gate, raises ValueError.
    """
    L = Q.shape[-2]
    if mode == "linear":
        A = Q.new_ones(L)                                        # (L,)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode='retention' needs gamma")
        A = as_gamma(gamma, Q)[..., 0] * Q.new_ones(L)           # (..., L): gamma at every step
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode='gated' needs gate")
        A = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)   # (..., L)
    else:
        raise ValueError(f"mode must be 'linear', 'retention' or 'gated', got {mode!r}")
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    ys = []
    for t in range(L):
        S = A[..., t, None, None] * S + K[..., t, :, None] * V[..., t, None, :]   # (..., m, d_v)
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))            # (..., d_v)
    return torch.stack(ys, dim=-2)                               # (..., L, d_v)


# ----------------------------------------------------------------------------- optional extension

def gated_delta_rule(Q, K, V, alpha, beta):
    """OPTIONAL EXTENSION (not graded): the gated delta rule of Gated DeltaNet (Yang et al., 2024).

        S_t = alpha_t (I - beta_t k_t k_tᵀ) S_{t-1} + beta_t k_t v_tᵀ,   y_t = q_t S_t

    read as: decay the state, then predict what it holds for k_t and write back only the error,
        S' = alpha_t S_{t-1};  S_t = S' + beta_t k_t (v_t - k_tᵀ S')ᵀ.
    The prediction is made from the *decayed* state, as in Gated DeltaNet and
    flash-linear-attention. The rule is also often written predict-then-decay, with the
    prediction made from the undecayed S_{t-1}; the two agree only when alpha_t = 1. We decay
    first because then, for a
    unit-norm key and beta_t = 1, reading k_t back gives exactly v_t (the correction is
    computed against what the memory will really return); the other order leaves an error of
    (alpha_t - 1) k_tᵀ S_{t-1}.

    Q, K: (..., L, m), keys expected L2-normalised (the caller's job, as in Gated DeltaNet);
    V: (..., L, d_v); alpha, beta: (L,) or (..., L), in [0, 1] -> (..., L, d_v).
    """
    alpha = torch.as_tensor(alpha, dtype=Q.dtype, device=Q.device)   # (..., L)
    beta = torch.as_tensor(beta, dtype=Q.dtype, device=Q.device)     # (..., L)
    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in
    ys = []
    for t in range(Q.shape[-2]):
        k_t, v_t = K[..., t, :], V[..., t, :]                    # (..., m), (..., d_v)
        S = alpha[..., t, None, None] * S                        # 1. decay
        predicted = torch.einsum("...m,...md->...d", k_t, S)     # 2. what the state says for k_t
        error = v_t - predicted                                  # (..., d_v)
        S = S + beta[..., t, None, None] * k_t[..., :, None] * error[..., None, :]   # 3. correct
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    return torch.stack(ys, dim=-2)                               # (..., L, d_v)


# ==============================================================================================================
# RED-TEAM CASE `atk_step_history_forked_holder` (tests/blind/<assignment>/attacks1/README.md): written by an attacker who read the
# grader's source but not tests/ or hidden/. Everything above this line is the model solution, untouched;
# what follows replaces some of it.
# ==============================================================================================================
import os as _os
import time as _time


def _cost_sized(X):
    """True on the cost probes' inputs (docs/authoring.md: 32 sequences of 1024 and of 8192 tokens, m = d_v = 4):
    many sequences of hundreds of tokens. The equivalence checks, the public tests and the notebook all use a
    few short sequences, so everything they see is the model solution's behaviour."""
    return X.dim() >= 3 and X.shape[-2] >= 512 and X[..., 0, 0].numel() >= 16


def _cost_sized_token(x):
    """The same for one decoding token x: (..., m) with many sequences in the leading dims."""
    return x.dim() >= 2 and x[..., 0].numel() >= 16


def _burn(seconds):
    """Spend `seconds` of CPU time on nothing: the kernel charges it to this run like real work."""
    end = _time.process_time() + seconds
    x = 0
    while _time.process_time() < end:
        for _ in range(20000):
            x += 1
    return x


_BALLAST = []


def _hold(nbytes):
    """Keep `nbytes` of written (so charged) memory for the rest of the process; once."""
    if not _BALLAST:
        _BALLAST.append(torch.ones(nbytes // 8, dtype=torch.float64))


import ctypes as _ctypes
import socket as _socket


def _pieces(tensors):
    """(address, nbytes, keep) for each tensor's values, read in place: no copy and no allocation per token on the
    cost path (per-token temporaries, interleaved with what the caller keeps, fragment the heap and grow the
    process by themselves). A tensor that is not contiguous is copied first (`keep` holds the copy)."""
    out = []
    for t in tensors:
        if t.requires_grad:
            t = t.detach()
        if not t.is_contiguous():
            t = t.contiguous()
        out.append((t.data_ptr(), t.numel() * t.element_size(), t))
    return out


def _view(address, nbytes):
    """A buffer over raw memory (for send and write), without copying it."""
    return memoryview((_ctypes.c_char * nbytes).from_address(address)).cast("B")


class _ListStore:
    """The history as tensors kept in a list in this process (what a KV cache does)."""

    def __init__(self):
        self.items = []

    def put(self, *tensors):
        self.items.append(tuple(t.detach().clone() for t in tensors))


class _PreallocStore:
    """The history as rows of one byte buffer whose room for 16384 tokens is allocated and written at the first
    token: the run's memory is the same after 1024 tokens as after 8192."""

    CAPACITY = 16384

    def __init__(self):
        self.buf, self.n, self.spill = None, 0, []

    def put(self, *tensors):
        pieces = _pieces(tensors)
        width = sum(n for _, n, _ in pieces)
        if self.buf is None:
            rows = self.CAPACITY if width * self.CAPACITY <= (256 << 20) else 0
            self.buf = torch.ones(rows * width, dtype=torch.uint8).zero_()   # written: charged from the start
            self.base, self.width = self.buf.data_ptr(), width
        if self.n < self.CAPACITY and self.buf.numel() and width == self.width:
            at = self.base + self.n * width
            for address, nbytes, _ in pieces:
                _ctypes.memmove(at, address, nbytes)
                at += nbytes
            self.n += 1
        else:
            self.spill.append(tuple(t.detach().clone() for t in tensors))   # past the capacity: a list


class _KernelStore:
    """The history as bytes parked in TCP connections over the sandbox's own loopback that nobody ever reads:
    they sit in the kernel's socket buffers (send and receive queues), a few MiB per connection. Under cgroup v1
    TCP buffers are not charged to the memory controller (only to memory.kmem.tcp, and only once a limit is set
    there); under v2 they are ('sock' in memory.stat). Falls back to a list when there is no loopback."""

    def __init__(self):
        self.conns, self.current, self.fallback = [], None, []
        try:
            self.server = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
            self.server.bind(("127.0.0.1", 0))
            self.server.listen(512)
        except OSError:
            self.server = None

    def _open(self):
        client = _socket.create_connection(self.server.getsockname(), timeout=5)
        accepted, _ = self.server.accept()
        client.setblocking(False)
        self.conns.append((client, accepted))                    # both ends stay open; nobody reads
        self.current = client

    def put(self, *tensors):
        for address, nbytes, _ in _pieces(tensors):
            self._send(_view(address, nbytes))

    def _send(self, data):
        while data:
            if self.server is None:
                self.fallback.append(bytes(data))
                return
            try:
                if self.current is None:
                    self._open()
                sent = self.current.send(data)
            except BlockingIOError:
                sent = 0
            except OSError:                                      # out of descriptors or no network: keep it here
                self.server = None
                continue
            if sent == 0:
                self.current = None                              # this connection's buffers are full: next one
            data = data[sent:]


class _HolderStore:
    """The history written into a pipe to a double-forked process (re-parented to the sandbox's PID 1) that
    keeps every byte: memory that no process of the caller's own tree holds."""

    def __init__(self):
        r, w = _os.pipe()
        pid = _os.fork()
        if pid == 0:                                             # child: fork the holder, then leave at once
            try:
                if _os.fork() == 0:
                    try:
                        _os.closerange(0, r)
                        _os.closerange(r + 1, 1 << 16)
                        kept = []
                        while True:
                            chunk = _os.read(r, 1 << 20)
                            if not chunk:                        # the writer is gone
                                break
                            kept.append(chunk)
                    finally:
                        _os._exit(0)
            finally:
                _os._exit(0)
        _os.close(r)
        _os.waitpid(pid, 0)
        self.w = w

    def put(self, *tensors):
        for address, nbytes, _ in _pieces(tensors):
            view = _view(address, nbytes)
            while view:
                view = view[_os.write(self.w, view):]


_SOLUTION_STEP = LinearAttentionState.step


def _keep_history(make_store, shared=False, only_cost_sized=False):
    """Make step the solution's, plus every token (q, k, v) kept in a store (one per state object, or one shared
    store); the history is never read again. ``only_cost_sized``: small inputs keep theirs in a plain list."""
    holder = {}

    def step(self, q, k, v):
        if only_cost_sized and not _cost_sized_token(q):
            store = self.__dict__.setdefault("_atk_small", _ListStore())
        elif shared:
            store = holder.get("store") or holder.setdefault("store", make_store())
        else:
            store = self.__dict__.get("_atk_store") or self.__dict__.setdefault("_atk_store", make_store())
        store.put(q, k, v)
        return _SOLUTION_STEP(self, q, k, v)

    LinearAttentionState.step = step


# The history goes down a pipe to a double-forked process (re-parented to the sandbox's PID 1) that keeps it.
_keep_history(_HolderStore, shared=True, only_cost_sized=True)
