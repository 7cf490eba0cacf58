"""The function bodies the example class is built from (examples/integrity/make_class.py).

For each function of linear-attention-basics' linear_attention.py, two or three correct implementations that a
student could write on their own (index 0 is the solution's own body, read from solutions/), and the wrong
ones the class plants: a mistake five students make alone (no causal mask), one two students make alone (read
before update), and one peculiar bug that one student writes and another copies (a symmetric decay matrix).
Bodies are written unindented; make_class.py indents them under the function's docstring.
"""

ALTERNATIVES = {
    "linear_attention_parallel": [
        None,
        '''phi_q = feature_map(Q)
phi_k = feature_map(K)
scores = torch.einsum("...im,...jm->...ij", phi_q, phi_k)
scores = torch.tril(scores)
numer = torch.einsum("...ij,...jd->...id", scores, V)
return numer / scores.sum(dim=-1).unsqueeze(-1)
''',
        '''fq, fk = feature_map(Q), feature_map(K)
length = Q.size(-2)
keep = torch.tril(torch.ones(length, length, dtype=Q.dtype, device=Q.device))
weights = torch.matmul(fq, fk.transpose(-1, -2)) * keep
normaliser = weights.sum(-1, keepdim=True)
return torch.matmul(weights, V) / normaliser
''',
    ],
    "linear_attention_recurrent": [
        None,
        '''fq, fk = feature_map(Q), feature_map(K)
kv = fk.unsqueeze(-1) * V.unsqueeze(-2)
running = torch.cumsum(kv, dim=-3)
norms = torch.cumsum(fk, dim=-2)
num = (fq.unsqueeze(-1) * running).sum(-2)
den = (fq * norms).sum(-1, keepdim=True)
return num / den
''',
        '''phi_q, phi_k = feature_map(Q), feature_map(K)
out = []
state = None
norm = None
for i in range(Q.shape[-2]):
    update = torch.einsum("...m,...d->...md", phi_k[..., i, :], V[..., i, :])
    state = update if state is None else state + update
    norm = phi_k[..., i, :] if norm is None else norm + phi_k[..., i, :]
    top = torch.einsum("...m,...md->...d", phi_q[..., i, :], state)
    bottom = torch.einsum("...m,...m->...", phi_q[..., i, :], norm).unsqueeze(-1)
    out.append(top / bottom)
return torch.stack(out, -2)
''',
    ],
    "step": [
        None,
        '''fq = feature_map(q)
fk = feature_map(k)
self.S = self.S + torch.einsum("...m,...d->...md", fk, v)
self.z = self.z + fk
return torch.einsum("...m,...md->...d", fq, self.S) / torch.einsum("...m,...m->...", fq, self.z)[..., None]
''',
        '''phi_q, phi_k = feature_map(q), feature_map(k)
self.S = self.S + phi_k.unsqueeze(-1) @ v.unsqueeze(-2)
self.z = self.z + phi_k
numerator = (phi_q.unsqueeze(-2) @ self.S).squeeze(-2)
denominator = (phi_q * self.z).sum(dim=-1, keepdim=True)
return numerator / denominator
''',
    ],
    "as_gamma": [
        None,
        '''g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
if torch.isnan(g).any() or (g < 0).any() or (g > 1).any():
    raise ValueError("gamma has to be between 0 and 1")
return g.unsqueeze(-1).unsqueeze(-1)
''',
        '''decay = torch.as_tensor(gamma).to(dtype=like.dtype, device=like.device)
ok = torch.logical_and(decay >= 0, decay <= 1)
if not ok.all():
    raise ValueError(f"invalid decay {decay}")
return decay.reshape(*decay.shape, 1, 1)
''',
    ],
    "decay_matrix": [
        None,
        '''idx = torch.arange(L, device=gamma.device)
gap = idx.unsqueeze(1) - idx.unsqueeze(0)
powers = torch.pow(gamma, gap.clamp(min=0).to(gamma.dtype))
return torch.where(gap >= 0, powers, torch.zeros_like(powers))
''',
        '''rows = torch.arange(L, device=gamma.device, dtype=gamma.dtype).view(-1, 1)
cols = torch.arange(L, device=gamma.device, dtype=gamma.dtype).view(1, -1)
lower = torch.tril(torch.ones(L, L, dtype=torch.bool, device=gamma.device))
exponent = torch.where(lower, rows - cols, torch.zeros_like(rows - cols))
return (gamma ** exponent) * lower
''',
    ],
    "retention_parallel": [
        None,
        '''g = as_gamma(gamma, Q)
scores = torch.einsum("...nm,...km->...nk", Q, K) * decay_matrix(g, Q.shape[-2])
return torch.einsum("...nk,...kd->...nd", scores, V)
''',
        '''decay = decay_matrix(as_gamma(gamma, Q), Q.size(-2))
attn = torch.matmul(Q, K.transpose(-1, -2)).mul(decay)
return torch.matmul(attn, V)
''',
    ],
    "retention_recurrent": [
        None,
        '''g = as_gamma(gamma, Q)
state = torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
rows = []
for i in range(Q.shape[-2]):
    state = g * state + torch.einsum("...m,...d->...md", K[..., i, :], V[..., i, :])
    rows.append((Q[..., i, :].unsqueeze(-2) @ state).squeeze(-2))
return torch.stack(rows, -2)
''',
        '''g = as_gamma(gamma, Q)
length = Q.shape[-2]
result = []
t = 0
while t < length:
    kv = K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
    memory = kv if t == 0 else g * memory + kv
    result.append(torch.einsum("...m,...md->...d", Q[..., t, :], memory))
    t += 1
return torch.stack(result, dim=-2)
''',
    ],
    "retention_chunkwise": [
        None,
        '''if chunk_size < 1:
    raise ValueError("chunk_size must be at least 1")
g = as_gamma(gamma, Q)
total = Q.shape[-2]
state = torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
pieces = []
start = 0
while start < total:
    stop = min(start + chunk_size, total)
    qc, kc, vc = Q[..., start:stop, :], K[..., start:stop, :], V[..., start:stop, :]
    size = stop - start
    pos = torch.arange(size, dtype=Q.dtype, device=Q.device).unsqueeze(-1)
    inner = torch.matmul(torch.matmul(qc, kc.transpose(-1, -2)) * decay_matrix(g, size), vc)
    carried = torch.pow(g, pos + 1) * torch.matmul(qc, state)
    pieces.append(inner + carried)
    weights = torch.pow(g, size - 1 - pos)
    state = torch.pow(g, size) * state + torch.matmul((kc * weights).transpose(-1, -2), vc)
    start = stop
out = torch.cat(pieces, dim=-2)
if return_state:
    return out, state
return out
''',
        '''if chunk_size < 1:
    raise ValueError(f"bad chunk size {chunk_size}")
g = as_gamma(gamma, Q)
carry = None
chunks = []
for begin in range(0, Q.shape[-2], chunk_size):
    part = slice(begin, begin + chunk_size)
    qc, kc, vc = Q[..., part, :], K[..., part, :], V[..., part, :]
    c = qc.shape[-2]
    local = torch.arange(c, dtype=Q.dtype, device=Q.device).unsqueeze(-1)
    y = torch.einsum("...ij,...jd->...id", torch.einsum("...im,...jm->...ij", qc, kc) * decay_matrix(g, c), vc)
    if carry is not None:
        y = y + torch.einsum("...im,...md->...id", qc, carry) * g ** (local + 1)
    chunks.append(y)
    write = torch.einsum("...jm,...jd->...md", kc * g ** (c - 1 - local), vc)
    carry = write if carry is None else g ** c * carry + write
if carry is None:
    carry = Q.new_zeros(Q.shape[-1], V.shape[-1])
y = torch.cat(chunks, dim=-2)
return (y, carry) if return_state else y
''',
    ],
    "multiscale_decays": [
        None,
        '''return torch.tensor([1 - 2.0 ** (-5 - h) for h in range(num_heads)], dtype=torch.get_default_dtype())
''',
    ],
    "unified_recurrence": [
        None,
        '''L = Q.shape[-2]
if mode not in ("linear", "retention", "gated"):
    raise ValueError(f"unknown mode {mode!r}")
if mode == "retention" and gamma is None:
    raise ValueError("retention needs a gamma")
if mode == "gated" and gate is None:
    raise ValueError("gated needs a gate")
if mode == "linear":
    gates = torch.ones(L, dtype=Q.dtype, device=Q.device)
elif mode == "retention":
    gates = as_gamma(gamma, Q).squeeze(-1).expand(*as_gamma(gamma, Q).shape[:-2], L)
else:
    gates = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)
memory = torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype, device=Q.device)
outputs = []
for t in range(L):
    a = gates[..., t].unsqueeze(-1).unsqueeze(-1)
    memory = a * memory + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
    outputs.append((Q[..., t, :].unsqueeze(-2) @ memory).squeeze(-2))
return torch.stack(outputs, dim=-2)
''',
    ],
}

# the same mistake, written in each style of linear_attention_parallel: the causal mask left out
NO_CAUSAL_MASK = [
    '''q, k = feature_map(Q), feature_map(K)
A = q @ k.transpose(-2, -1)
return (A @ V) / A.sum(-1, keepdim=True)
''',
    '''phi_q = feature_map(Q)
phi_k = feature_map(K)
scores = torch.einsum("...im,...jm->...ij", phi_q, phi_k)
numer = torch.einsum("...ij,...jd->...id", scores, V)
return numer / scores.sum(dim=-1).unsqueeze(-1)
''',
    '''fq, fk = feature_map(Q), feature_map(K)
weights = torch.matmul(fq, fk.transpose(-1, -2))
normaliser = weights.sum(-1, keepdim=True)
return torch.matmul(weights, V) / normaliser
''',
]

# linear_attention_recurrent reading the state before token t is added (and then dividing by a z that lags too);
# two students make it alone, in their own styles
READ_BEFORE_UPDATE = [
    '''q, k = feature_map(Q), feature_map(K)
S = Q.new_zeros(Q.shape[-1], V.shape[-1])
z = Q.new_zeros(Q.shape[-1]) + 1e-6
ys = []
for t in range(Q.shape[-2]):
    ys.append(torch.einsum("...m,...md->...d", q[..., t, :], S) / (q[..., t, :] * z).sum(-1, keepdim=True))
    S = S + k[..., t, :, None] * V[..., t, None, :]
    z = z + k[..., t, :]
return torch.stack(ys, dim=-2)
''',
    '''phi_q, phi_k = feature_map(Q), feature_map(K)
out = []
state = torch.zeros(Q.shape[-1], V.shape[-1], dtype=Q.dtype)
norm = torch.full((Q.shape[-1],), 1e-6, dtype=Q.dtype)
for i in range(Q.shape[-2]):
    top = torch.einsum("...m,...md->...d", phi_q[..., i, :], state)
    bottom = torch.einsum("...m,...m->...", phi_q[..., i, :], norm).unsqueeze(-1)
    out.append(top / bottom)
    state = state + torch.einsum("...m,...d->...md", phi_k[..., i, :], V[..., i, :])
    norm = norm + phi_k[..., i, :]
return torch.stack(out, -2)
''',
]

# the planted bug: |n - m| in place of the causal mask, so the decay matrix is symmetric (one student writes it)
SYMMETRIC_DECAY = '''positions = torch.arange(L, device=gamma.device)
distance = (positions[:, None] - positions[None, :]).abs()
return gamma ** distance.to(gamma.dtype)
'''

# code cells of the exercises (and the cost-per-token cell), as three students might write them (index 0: the
# solution's)
EXERCISE_CELLS = {
    "cost": [
        None,
        '''d, t = 128, 100_000
attention_ops = 2 * (2 * t * d)
state_ops = 2 * (2 * d ** 2)
ratio = attention_ops / state_ops
print("ratio", round(ratio, 1))
''',
        '''d, t = 128, 100_000
attention_ops, state_ops = 4 * d * t, 4 * d * d
print(attention_ops, state_ops, f"{attention_ops / state_ops:.3g}x")
''',
    ],
    "ex1": [
        None,
        '''import torch
from linear_attention import linear_attention_parallel, linear_attention_recurrent

torch.manual_seed(7)
Q1 = torch.randn(3, 12, 4)
K1 = torch.randn(3, 12, 4)
V1 = torch.randn(3, 12, 2)
y_par1 = linear_attention_parallel(Q1, K1, V1)
y_rec1 = linear_attention_recurrent(Q1, K1, V1)
gap = torch.max(torch.abs(y_par1 - y_rec1))
print(f"largest gap {gap:.2e}; allclose: {torch.allclose(y_par1, y_rec1, atol=1e-5)}")
''',
        '''import torch
from linear_attention import linear_attention_parallel as par, linear_attention_recurrent as rec

g = torch.Generator().manual_seed(11)
Q1, K1, V1 = (torch.randn(5, 3, generator=g), torch.randn(5, 3, generator=g), torch.randn(5, 6, generator=g))
y_par1, y_rec1 = par(Q1, K1, V1), rec(Q1, K1, V1)
for row in range(5):
    print(row, (y_par1[row] - y_rec1[row]).norm().item())
''',
    ],
    "ex2": [
        None,
        '''import torch
from linear_attention import retention_parallel

torch.manual_seed(5)
Q2 = torch.randn(6, 3)
K2 = torch.randn(6, 3)
V2 = torch.randn(6, 2)
mask = torch.tril(torch.ones(6, 6))
by_hand = ((Q2 @ K2.T) * mask) @ V2
print(torch.allclose(by_hand, retention_parallel(Q2, K2, V2, gamma=1.0), atol=1e-5))
only_self = torch.einsum("nd,nd->n", Q2, K2)[:, None] * V2
print(torch.allclose(only_self, retention_parallel(Q2, K2, V2, gamma=0.0), atol=1e-6))
''',
        '''import torch
from linear_attention import retention_parallel

Q2, K2, V2 = torch.rand(7, 5), torch.rand(7, 5), torch.rand(7, 4)
scores = Q2 @ K2.transpose(0, 1)
by_hand = torch.tril(scores) @ V2
diag = torch.diagonal(scores)
only_self = diag.unsqueeze(1) * V2
for gamma, expect in ((1.0, by_hand), (0.0, only_self)):
    print(gamma, (retention_parallel(Q2, K2, V2, gamma=gamma) - expect).abs().max().item())
''',
    ],
    "ex3": [
        None,
        '''import torch
from linear_attention import unified_recurrence

torch.manual_seed(9)
Q3, K3, V3 = torch.randn(8, 3), torch.randn(8, 3), torch.randn(8, 2)
gate3 = torch.tensor([0.1, 0.1, 0.95, 0.1, 0.1, 0.95, 0.1, 0.1])
y_gated = unified_recurrence(Q3, K3, V3, mode="gated", gate=gate3)
y_ret = unified_recurrence(Q3, K3, V3, mode="retention", gamma=float(gate3.mean()))
print((y_gated - y_ret).abs().sum(-1))
weights = torch.cumprod(gate3[3:], 0)
print("weight of token 2's write:", [1.0] + weights.tolist())
''',
        '''import torch
from linear_attention import unified_recurrence

Q3 = torch.linspace(-1, 1, 32).reshape(8, 4)
K3 = torch.linspace(1, -1, 32).reshape(8, 4)
V3 = torch.arange(24.0).reshape(8, 3) / 24
gate3 = torch.where(torch.isin(torch.arange(8), torch.tensor([2, 5])), 0.95, 0.1)
y_gated = unified_recurrence(Q3, K3, V3, "gated", gate=gate3)
print(y_gated.norm(dim=1))
w = 1.0
for t in range(3, 8):
    w *= gate3[t].item()
    print(t, round(w, 5))
''',
    ],
}

# free-text answers in students' own words (index i: student i of those who answer)
ANSWERS = {
    "ex1_why": [
        "The kernel splits into a product of a query part and a key part, so summing over the past keys can be "
        "done once and stored, and every row just reads that stored sum instead of redoing the whole matrix.",
        "Matrix multiplication is associative: (phi(Q) phi(K)^T) V equals phi(Q) (phi(K)^T V) when the mask is "
        "applied as a prefix, so the recurrent loop just keeps the prefix sums that the masked product uses.",
        "Both compute the same weighted sum; without a softmax the weight of token j is a dot product, which is "
        "linear, so I can move phi(q_i) outside the sum and keep a running state S and normaliser z.",
        "Since nothing nonlinear sits between q and k anymore, sum_j (q.k_j) v_j = q . (sum_j k_j v_j^T), a "
        "quantity that only grows by one term per step; that is exactly what the loop accumulates.",
        "They agree because of linearity. The masked matmul adds up contributions j <= i, and the loop adds the "
        "same contributions one at a time into S and z before reading them.",
        "Regrouping works because the sum over j is of products that factor; the parallel form sums first over "
        "pairs, the recurrent one folds keys and values into a state first, same numbers in the end.",
    ],
    "ex2_gamma0": [
        "With gamma zero the decay matrix keeps only its diagonal since zero to the power zero is one, so each "
        "position returns its own value scaled by q_n dot k_n and ignores all earlier tokens.",
        "It forgets instantly: the state is multiplied by 0 every step, so S_n is just k_n v_n and the output "
        "is (q_n . k_n) v_n. Only the current token counts.",
        "Output n becomes the product of the self-score q_n k_n with v_n. D turns into the identity matrix, "
        "no mixing between positions happens at all.",
        "gamma = 0 means no memory. In the parallel form D has ones on the diagonal and zeros elsewhere, in the "
        "recurrent one the old state is wiped before the new write.",
        "Every off-diagonal entry of D is 0^(n-m) = 0 for n > m, the diagonal is 0^0 = 1. So retention reduces "
        "to a per-token operation: o_n = (q_n k_n) v_n.",
        "It behaves like a model with no context: each token attends only to itself, weighted by how well its "
        "query matches its own key.",
    ],
    "ex3_selectivity": [
        "The high gate at t = 2 keeps what tokens 0 and 1 wrote; token 2's own write is multiplied by the gates "
        "after it, 0.1 at t = 3, 0.01 at t = 4, and 0.0095 at t = 5 because gate 5 is high.",
        "A gate scales the old state. So position 2 protects the earlier memory, not itself: its write decays "
        "with A_3 A_4 ... which are mostly 0.1, a fixed gamma can not make that choice per token.",
        "Holding at 2 preserves tokens 0-1. For token 2 to survive, the gates after it would need to be high; "
        "here its weight drops to 0.1 and then 0.01, and only gate 5 slows the decay.",
        "Selectivity: the gate depends on the position, so the model chooses when to keep the past. Token 2 is "
        "kept with weight prod of later gates (0.1, 0.01, 0.0095, ...), earlier tokens with 0.95.",
    ],
}
