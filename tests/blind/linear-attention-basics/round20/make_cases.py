"""Build the round-20 blind corpus: base/ from the student template, every case folder from base/, corpus.yaml.

Mechanics adapted from round 19's builder. Every edit is exact and anchored; a missing or ambiguous anchor stops
the build (AssertionError):

- base/: the template folder copied, each stub body of linear_attention.py replaced (`stub(start, raise_line,
  code)`: the text from the first hint comment through the `raise NotImplementedError(...)` line must occur once)
  and the student cells of the notebook edited by cell id.
- `fix(func, (old, new), ...)`: each `old` must occur exactly once inside `func`'s body in base's module (the body
  after the docstring, found with `ast`).
- `alt(func, new_body)`: replaces that whole body.
- `nbedit(cell_id, old, new)`: in the notebook cell with that id, `old` must occur exactly once.

Notebooks are written the way the template is (json indent 1, UTF-8, trailing newline), no outputs.

    /work/main/.venv/bin/python make_cases.py        # rebuilds base/, every case folder and corpus.yaml
"""
import ast
import json
import re
import shutil
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
BASE = HERE / "base"
TEMPLATE = HERE.parents[3] / "student_template" / "linear-attention-basics"
PY, NB = "linear_attention.py", "linear_attention.ipynb"
IGNORE = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints", ".pytest_cache")


def to_lines(text):
    lines = text.split("\n")
    return [ln + "\n" for ln in lines[:-1]] + ([lines[-1]] if lines[-1] else [])


def dump_nb(nb):
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def apply_nb(nb, cell_id, old, new, name):
    cells = [c for c in nb["cells"] if c.get("id") == cell_id]
    assert len(cells) == 1, f"{name}: no single cell with id {cell_id}"
    src = "".join(cells[0]["source"])
    assert src.count(old) == 1, f"{name}: cell {cell_id} anchor occurs {src.count(old)} times: {old[:80]!r}"
    assert old != new, f"{name}: edit changes nothing"
    cells[0]["source"] = to_lines(src.replace(old, new))


# ============================================================================= base (from the template)

BASE_PY_EDITS = [
    ("    # 1. apply feature_map to Q and K (never to V)\n",
     'raise NotImplementedError("linear_attention_parallel: write the masked-matmul form")',
     '''    phi_q, phi_k = feature_map(Q), feature_map(K)                # φ on queries and keys, never on V
    L = Q.shape[-2]
    A = phi_q @ phi_k.transpose(-2, -1)                          # (..., L, L): A[i, j] = φ(q_i)·φ(k_j)
    keep = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()   # j <= i
    A = A.masked_fill(~keep, 0.0)
    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum of A = φ(q_i)ᵀ z_i'''),
    ("    # 1. apply feature_map to Q and K\n    # 2. start S",
     'raise NotImplementedError("linear_attention_recurrent: write the running-state loop")',
     '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)      # picks up the leading dims by broadcasting
    z = torch.zeros(m, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        q_t, k_t, v_t = phi_q[..., t, :], phi_k[..., t, :], V[..., t, :]
        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)           # S ← S + φ(k_t) v_tᵀ   (update first)
        z = z + k_t                                              # z ← z + φ(k_t)
        num = (q_t.unsqueeze(-1) * S).sum(dim=-2)                # φ(q_t)ᵀ S
        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z
        ys.append(num / den)
    if L == 0:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)'''),
    ("        # Same three lines as one iteration",
     'raise NotImplementedError("LinearAttentionState.step: update the state, then read it")',
     '''        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.S.to(dtype=v.dtype, device=v.device)            # __init__ made float32 zeros
        z = self.z.to(dtype=v.dtype, device=v.device)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # fold the token in first (a new tensor)
        self.z = z + phi_k
        num = (phi_q.unsqueeze(-1) * self.S).sum(dim=-2)         # φ(q)ᵀ S
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)         # φ(q)ᵀ z
        return num / den'''),
    ("    # 1. torch.as_tensor(gamma, dtype=like.dtype, device=like.device)\n",
     'raise NotImplementedError("as_gamma: validate gamma and shape it for broadcasting")',
     '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    ok = (g >= 0) & (g <= 1)                                     # NaN compares False both ways
    if not bool(ok.all()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}")
    return g.reshape(*g.shape, 1, 1)'''),
    ("    # distance[n, m] = n - m from torch.arange",
     'raise NotImplementedError("decay_matrix: build gamma**(n - m) below the diagonal")',
     '''    idx = torch.arange(L, device=gamma.device)
    distance = idx[:, None] - idx[None, :]                       # (L, L): n - m
    powers = gamma ** distance.clamp(min=0).to(gamma.dtype)      # 0**0 = 1 on the diagonal
    return torch.where(distance >= 0, powers, torch.zeros((), dtype=gamma.dtype, device=gamma.device))'''),
    ("    # as_gamma, then decay_matrix, then one masked matmul.\n",
     'raise NotImplementedError("retention_parallel: write (Q Kᵀ ⊙ D) V")',
     '''    g = as_gamma(gamma, Q)
    D = decay_matrix(g, Q.shape[-2])                             # (..., L, L)
    return ((Q @ K.transpose(-2, -1)) * D) @ V'''),
    ("    # Like linear_attention_recurrent without φ",
     'raise NotImplementedError("retention_recurrent: write the decayed running-state loop")',
     '''    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        kv = K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)          # k_tᵀ v_t
        S = g * S + kv                                                       # decay the old state, then add
        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))              # o_t = q_t S_t
    if L == 0:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)'''),
    ("    # 1. validate chunk_size and gamma; R = zeros (m, d_v)\n",
     'raise NotImplementedError("retention_chunkwise: write the chunk loop")',
     '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    outs = []
    for c0 in range(0, L, chunk_size):
        q = Q[..., c0:c0 + chunk_size, :]
        k = K[..., c0:c0 + chunk_size, :]
        v = V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]                                          # real length (the last chunk may be short)
        j = torch.arange(n, dtype=V.dtype, device=V.device).unsqueeze(-1)   # (n, 1)
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R
        outs.append(intra + cross)
        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ_s γ^(n-1-s) k_sᵀ v_s
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(*lead, 0, d_v)
    if return_state:
        return out, R.expand(*lead, m, d_v).clone()
    return out'''),
    ('    raise NotImplementedError("multiscale_decays',
     'raise NotImplementedError("multiscale_decays: one gamma per head, from torch.arange")',
     '''    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)'''),
    ("    # 1. turn mode into a gate sequence A of length L",
     'raise NotImplementedError("unified_recurrence: one loop with a swappable gate A_t")',
     '''    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    if mode == "linear":
        A = torch.ones(L, dtype=V.dtype, device=V.device)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, V)[..., 0]                           # (..., 1)
        A = g.expand(*g.shape[:-1], L)                           # (..., L)
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
        if A.dim() == 0 or A.shape[-1] != L:
            raise ValueError(f"gate must have shape (L,) or (..., L) with L = {L}, got {tuple(A.shape)}")
    else:
        raise ValueError(f"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'")
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        a_t = A[..., t, None, None]                              # scales the OLD state
        S = a_t * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))  # y_t = q_t S_t
    if L == 0:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], A.shape[:-1])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)'''),
    ("    # Optional: decay S by alpha_t",
     'raise NotImplementedError("gated_delta_rule: optional extension, not graded")',
     '''    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    alpha = torch.as_tensor(alpha, dtype=V.dtype, device=V.device)
    beta = torch.as_tensor(beta, dtype=V.dtype, device=V.device)
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        k_t, v_t = K[..., t, :], V[..., t, :]
        S = alpha[..., t, None, None] * S                        # decay first
        pred = (k_t.unsqueeze(-1) * S).sum(dim=-2)               # k_tᵀ S'
        S = S + beta[..., t, None, None] * k_t.unsqueeze(-1) * (v_t - pred).unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))
    if L == 0:
        return V.new_zeros(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), 0, d_v)
    return torch.stack(ys, dim=-2)'''),
]

EX1_WHY = (
    "The sum over $j \\le i$ is linear and the kernel factorizes, so $\\varphi(q_i)$ can be pulled out of it: "
    "$\\sum_{j\\le i}(\\varphi(q_i)\\cdot\\varphi(k_j))v_j = \\varphi(q_i)^\\top\\big(\\sum_{j\\le i}\\varphi(k_j)v_j^\\top\\big)$ "
    "by associativity of the matrix product (same for the denominator with $z_i = \\sum_{j\\le i}\\varphi(k_j)$); the "
    "bracket is a prefix sum that does not depend on the query, so it can be carried as a running state "
    "$S_i = S_{i-1} + \\varphi(k_i)v_i^\\top$. Both faces compute the very same numerator and denominator, only "
    "adding the terms in a different order, so they agree up to rounding.")
EX2_GAMMA0 = (
    "With $\\gamma = 0$ the decay matrix is the identity ($0^0 = 1$ on the diagonal, $0^{n-m} = 0$ for every earlier "
    "token), so $o_n = (q_n\\cdot k_n)\\,v_n$: each token sees only itself, its own value scaled by its own "
    "query-key score. In the recurrent form the old state is multiplied by 0 at every step, so "
    "$S_n = k_n^\\top v_n$ and nothing of the past survives.")
EX3_SELECTIVITY = (
    "The high gate at $t = 2$ multiplies the old state $S_1$, so it preserves what tokens 0 and 1 wrote (×0.95 "
    "instead of ×0.1); it does not protect token 2's own write, whose weight is the product of the gates after it: "
    "$A_3 = 0.10$ in $S_3$ and $A_3A_4 = 0.010$ in $S_4$ (then 0.0095 in $S_5$, where the high gate at 5 holds it). "
    "With one fixed $\\gamma$ = the mean gate (0.3125) the outputs agree only at $t = 0$ (empty state, no gate acts) "
    "and differ at every $t \\ge 1$, because each state is a sum of writes weighted by different products of gates. "
    "An input-dependent gate buys selectivity: the model decides per token, from its content, how much of the past "
    "to keep or to wipe, where a fixed $\\gamma$ forgets everything at the same geometric rate.")

BASE_NB_EDITS = [
    ("code-007", "# read with q = (1, 1), and copy both reads into the answers cell below.",
     "# read with q = (1, 1), and copy both reads into the answers cell below.\n"
     "k3, v3 = torch.tensor([0.0, 1.0]), torch.tensor([4.0, 2.0])\n"
     "S3 = S_ex + torch.outer(k3, v3)                                # [[2, 4], [4, 6]]\n"
     "z3 = z_ex + k3                                                 # (2, 2)\n"
     "q3 = torch.tensor([1.0, 1.0])\n"
     "print(\"S3 =\", S3.tolist(), \" z3 =\", z3.tolist(), \" read =\", ((q3 @ S3) / (q3 @ z3)).tolist())"),
    ("markdown-008", "example_1_1:\nyour_turn:\n", "example_1_1: [0.50, 3.00]\nyour_turn: [1.50, 2.50]\n"),
    ("code-029", "# attention_ops = ...   (about 4·t·d)\n# state_ops = ...       (about 4·d²)",
     "attention_ops = 4 * t * d    # t·d multiply-adds to score, t·d to blend, 2 operations each\n"
     "state_ops = 4 * d * d        # d² multiply-adds for S + k vᵀ, d² for qᵀS\n"
     "print(\"ratio at t = 100,000:\", attention_ops / state_ops)   # t / d = 781.25"),
    ("markdown-030", "cost_ratio_at_100k:\n", "cost_ratio_at_100k: 781×\n"),
    ("ex1-032", 'raise NotImplementedError("Exercise 1: replace this line with your code")',
     "torch.manual_seed(20)\n"
     "Q1 = torch.randn(12, 6, dtype=torch.float64)\n"
     "K1 = torch.randn(12, 6, dtype=torch.float64)\n"
     "V1 = torch.randn(12, 4, dtype=torch.float64)\n"
     "y_par1 = linear_attention_parallel(Q1, K1, V1)\n"
     "y_rec1 = linear_attention_recurrent(Q1, K1, V1)\n"
     "print(\"max |parallel - recurrent|:\", (y_par1 - y_rec1).abs().max().item())\n"
     "print(\"the two faces agree:\", torch.allclose(y_par1, y_rec1))"),
    ("ex1-why-035", "_Type your answer here._", EX1_WHY),
    ("ex2-037", 'raise NotImplementedError("Exercise 2: replace this line with your code")',
     "torch.manual_seed(21)\n"
     "Q2 = torch.randn(9, 5, dtype=torch.float64)\n"
     "K2 = torch.randn(9, 5, dtype=torch.float64)\n"
     "V2 = torch.randn(9, 3, dtype=torch.float64)\n"
     "by_hand = torch.tril(Q2 @ K2.transpose(-2, -1)) @ V2           # (Q Kᵀ ⊙ tril) V\n"
     "print(\"gamma = 1 matches by hand:\", torch.allclose(retention_parallel(Q2, K2, V2, gamma=1.0), by_hand))\n"
     "only_self = (Q2 * K2).sum(-1, keepdim=True) * V2               # (q_n·k_n) v_n\n"
     "print(\"gamma = 0 is (q_n·k_n) v_n:\", torch.allclose(retention_parallel(Q2, K2, V2, gamma=0.0), only_self))"),
    ("ex2-gamma0-040", "_Type your answer here._", EX2_GAMMA0),
    ("ex3-042", 'raise NotImplementedError("Exercise 3: replace this line with your code")',
     "torch.manual_seed(22)\n"
     "Q3 = torch.randn(8, 4, dtype=torch.float64)\n"
     "K3 = torch.randn(8, 4, dtype=torch.float64)\n"
     "V3 = torch.randn(8, 3, dtype=torch.float64)\n"
     "gate3 = torch.full((8,), 0.1, dtype=torch.float64)\n"
     "gate3[2] = gate3[5] = 0.95                                     # high only at positions 2 and 5\n"
     "y_gated = unified_recurrence(Q3, K3, V3, \"gated\", gate=gate3)\n"
     "gamma_fixed = gate3.mean().item()                               # 0.3125\n"
     "y_fixed = unified_recurrence(Q3, K3, V3, \"retention\", gamma=gamma_fixed)\n"
     "differ = [t for t in range(8) if not torch.allclose(y_gated[t], y_fixed[t])]\n"
     "print(\"fixed gamma\", gamma_fixed, \"- outputs differ at positions\", differ)\n"
     "for t in range(2, 8):\n"
     "    print(f\"t = {t}: weight of token 2's write in S_t = {gate3[3:t + 1].prod().item():.4g}\")"),
    ("ex3-selectivity-045", "_Type your answer here._", EX3_SELECTIVITY),
]


def build_base():
    if BASE.exists():
        shutil.rmtree(BASE)
    shutil.copytree(TEMPLATE, BASE, ignore=IGNORE)
    py = (TEMPLATE / PY).read_text()
    for start, raise_line, code in BASE_PY_EDITS:
        assert py.count(start) == 1, f"base: start anchor occurs {py.count(start)} times: {start!r}"
        assert py.count(raise_line) == 1, raise_line
        i = py.index(start)
        j = py.index(raise_line, i) + len(raise_line)
        py = py[:i] + code + py[j:]
    assert "NotImplementedError" not in py.split("import torch.nn.functional as F", 1)[1]
    ast.parse(py)
    (BASE / PY).write_text(py)
    nb = json.loads((TEMPLATE / NB).read_text())
    for cell_id, old, new in BASE_NB_EDITS:
        apply_nb(nb, cell_id, old, new, "base")
    (BASE / NB).write_text(dump_nb(nb))
    return py


BASE_PY = build_base()


# ============================================================================= case edit helpers

def body(qualname, source=BASE_PY):
    tree = ast.parse(source)
    node = None
    for top in tree.body:
        if isinstance(top, ast.FunctionDef) and top.name == qualname:
            node = top
        elif isinstance(top, ast.ClassDef):
            for sub in top.body:
                if isinstance(sub, ast.FunctionDef) and f"{top.name}.{sub.name}" == qualname:
                    node = sub
    assert node is not None, f"no function {qualname}"
    first = node.body[1] if isinstance(node.body[0], ast.Expr) else node.body[0]
    lines = source.split("\n")
    text = "\n".join(lines[first.lineno - 1:node.end_lineno]) + "\n"
    assert source.count(text) == 1, f"body of {qualname} is not unique"
    return text


def fix(qualname, *pairs):
    b = new = body(qualname)
    for old, rep in pairs:
        assert b.count(old) == 1, f"{qualname}: anchor occurs {b.count(old)} times: {old!r}"
        assert new.count(old) == 1, f"{qualname}: anchor changed by an earlier pair: {old!r}"
        assert old != rep, f"{qualname}: edit changes nothing: {old!r}"
        new = new.replace(old, rep)
    return ("py", b, new)


def alt(qualname, new_body):
    return ("py", body(qualname), new_body)


def nbedit(cell_id, old, new):
    return ("nb", cell_id, old, new)


def apply_py(text, old, new, name):
    assert text.count(old) == 1, f"{name}: module anchor occurs {text.count(old)} times: {old[:100]!r}"
    assert old != new, f"{name}: edit changes nothing"
    return text.replace(old, new)


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None, source=BASE):
    CASES.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=list(edits),
                      module=module, source=source))


LP, LR, ST, ASG, DM = ("linear_attention_parallel", "linear_attention_recurrent", "LinearAttentionState.step",
                       "as_gamma", "decay_matrix")
RP, RR, RC, MS, UR = ("retention_parallel", "retention_recurrent", "retention_chunkwise", "multiscale_decays",
                      "unified_recurrence")

RUBRIC = yaml.safe_load((TEMPLATE / "rubric.yaml").read_text())["items"]
RUBRIC_IDS = [item["id"] for item in RUBRIC]
MANUAL_IDS = [item["id"] for item in RUBRIC if "manual" in item]          # ex1_why, ex2_gamma0, ex3_selectivity
AUTO_IDS = [i for i in RUBRIC_IDS if i not in MANUAL_IDS]
NOTEBOOK_IDS = ["ex1_runs", "ex2_runs", "ex3_runs", "example_1_1", "your_turn", "ex1_why", "ex2_gamma0",
                "ex3_selectivity", "cost_per_token"]
CODE_IDS = [i for i in RUBRIC_IDS if i not in NOTEBOOK_IDS]
assert set(NOTEBOOK_IDS) <= set(RUBRIC_IDS) and set(MANUAL_IDS) == {"ex1_why", "ex2_gamma0", "ex3_selectivity"}

# ============================================================================= bugs: linear attention

case("bug_linpar_divides_by_token_count", "bug",
     "linear_attention_parallel masks correctly but divides A @ V by the number of visible tokens (i + 1, the row "
     "count of the causal mask) instead of the row sum of A = φ(q_i)ᵀz_i: a 'mean over the past' normalizer. "
     "Weights no longer sum to 1 (constant values do not come back; one token returns (φ(q)·φ(k)) v). Still "
     "causal, still φ = elu + 1, recurrent face and step right.",
     ["normalizer", "linear_parallel"],
     [fix(LP, ("    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum of A = φ(q_i)ᵀ z_i",
               "    count = keep.sum(dim=-1, keepdim=True).to(V.dtype)           # i + 1 tokens visible in row i\n"
               "    return (A @ V) / count                                       # average over the visible tokens"))])

case("bug_linpar_mask_includes_next_token", "bug",
     "linear_attention_parallel builds its mask with .tril(diagonal=1), believing diagonal=1 means 'keep the "
     "diagonal too': every row i also sees token i+1, so output i changes when token i+1 changes (not causal). "
     "Rows are still normalized (constant values come back), a single token is still right.",
     ["causal_mask", "linear_parallel"],
     [fix(LP, ("torch.bool, device=Q.device).tril()   # j <= i",
               "torch.bool, device=Q.device).tril(diagonal=1)   # j <= i, diagonal included"))])

case("bug_linpar_phi_only_on_keys", "bug",
     "linear_attention_parallel applies feature_map to K but uses the raw queries: A = Q φ(K)ᵀ. Scores can be "
     "negative or zero, so a row's normalizer can vanish or flip sign (very negative queries give negative "
     "weights); for positive Q it is simply a different function from the two other faces.",
     ["feature_map", "linear_parallel"],
     [fix(LP, ("    phi_q, phi_k = feature_map(Q), feature_map(K)                # φ on queries and keys, never on V\n",
               "    phi_q, phi_k = Q, feature_map(K)                             # φ on the keys (the queries read them)\n"))])

case("bug_linrec_z_starts_at_ones", "bug",
     "linear_attention_recurrent starts the normalizer state at z = ones(m) 'so the denominator can never be 0' "
     "(S still starts at zeros): every row divides by φ(q_t)ᵀ(1 + Σ_{j≤t} φ(k_j)), so weights sum to less than 1 "
     "(constant values shrink, one token returns a fraction of v). Still updated first, still running, causal.",
     ["normalizer", "linear_recurrent"],
     [fix(LR, ("    z = torch.zeros(m, dtype=V.dtype, device=V.device)\n",
               "    z = torch.ones(m, dtype=V.dtype, device=V.device)       # start at 1 so φ(q)ᵀz is never 0\n"))])

case("bug_linrec_stack_dim0", "bug",
     "linear_attention_recurrent stacks the outputs with torch.stack(ys) (dim 0) instead of dim=-2: right for one "
     "unbatched (L, m) sequence (the notebook and Exercise 1 pass), but with leading dims (B, H, L, m) the result "
     "is (L, B, H, d_v), the wrong layout (wrong values at every index, wrong shape when L != B).",
     ["linear_recurrent"],
     [fix(LR, ("    return torch.stack(ys, dim=-2)", "    return torch.stack(ys)"))])

case("bug_step_forgets_normalizer", "bug",
     "LinearAttentionState.step updates S and z correctly but returns the numerator φ(q)ᵀS without dividing by "
     "φ(q)ᵀz (retention's unnormalized read, pitfall 2): outputs are scaled by the total score, constant values "
     "and a single token's value do not come back. The parallel and recurrent faces are right.",
     ["normalizer", "state_step"],
     [fix(ST, ("        return num / den", "        return num                                               # the read φ(q)ᵀ S"))])

case("bug_step_softplus_feature_map", "bug",
     "LinearAttentionState.step uses F.softplus(q), F.softplus(k) as φ instead of the module's feature_map "
     "(elu + 1): positive and smooth, but a different function (softplus(0) = log 2, not 1), so the step no "
     "longer matches the parallel and recurrent faces; update order and normalizer are right.",
     ["feature_map", "state_step"],
     [fix(ST, ("        phi_q, phi_k = feature_map(q), feature_map(k)\n",
               "        phi_q, phi_k = F.softplus(q), F.softplus(k)              # a smooth positive feature map\n"))])

case("bug_step_z_not_written_back", "bug",
     "LinearAttentionState.step writes the new S back to self.S but keeps the new z in a local variable "
     "(z = z + φ(k)) and divides by φ(q)ᵀz: self.z stays zeros, so each step normalizes by the CURRENT key only, "
     "φ(q_t)·φ(k_t), not by the running Σ_{j≤t} φ(k_j). The first token is right, later ones are over-scaled.",
     ["running_normalizer", "state_step"],
     [fix(ST, ("        self.z = z + phi_k\n", "        z = z + phi_k\n"),
          ("        den = (phi_q * self.z).sum(dim=-1, keepdim=True)         # φ(q)ᵀ z\n",
           "        den = (phi_q * z).sum(dim=-1, keepdim=True)              # φ(q)ᵀ z\n"))])

# ============================================================================= bugs: retention

case("bug_retrec_decays_new_write", "bug",
     "retention_recurrent writes S = S + γ k_tᵀ v_t: it applies the decay to the incoming token's write instead "
     "of to the old state (S = γ S + k_tᵀ v_t). Old tokens are never forgotten (γ^(n-m) is missing; every past "
     "token keeps weight γ) and at γ = 0 every output is 0; right only at γ = 1.",
     ["decay_every_form", "retention_recurrent"],
     [fix(RR, ("        S = g * S + kv                                                       # decay the old state, then add\n",
               "        S = S + g * kv                                                       # add the decayed write\n"))])

case("bug_retrec_sums_prefix_each_step", "bug",
     "retention_recurrent rebuilds S_t at every step from the whole prefix, S_t = Σ_{s≤t} γ^(t-s) k_sᵀ v_s "
     "(a weight vector over tokens 0..t and a (t+1) × m by (t+1) × d_v matmul): the outputs are exact, but "
     "no state is carried, so work per step grows with t (quadratic in L) and memory per step too.",
     ["recurrent_cost", "retention_recurrent"],
     [alt(RR, '''    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    ys = []
    for t in range(L):
        w = g[..., 0] ** (t - torch.arange(t + 1, dtype=V.dtype, device=V.device))   # γ^(t-s), s = 0..t
        S = (K[..., :t + 1, :] * w.unsqueeze(-1)).transpose(-2, -1) @ V[..., :t + 1, :]
        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))              # o_t = q_t S_t
    if L == 0:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)
''')])

case("bug_retpar_applies_feature_map", "bug",
     "retention_parallel scores with φ(Q) φ(K)ᵀ (feature_map = elu + 1, carried over from linear attention) "
     "instead of the bare Q Kᵀ: decay matrix and masking are right, but it is a different function from the "
     "recurrent and chunkwise faces (retention has no feature map).",
     ["retention_parallel"],
     [fix(RP, ("    return ((Q @ K.transpose(-2, -1)) * D) @ V",
               "    return ((feature_map(Q) @ feature_map(K).transpose(-2, -1)) * D) @ V"))])

case("bug_chunk_carry_power_n_minus_1", "bug",
     "retention_chunkwise carries the state with R ← γ^(n-1) R + Σ_s γ^(n-1-s) k_sᵀ v_s: the old state is "
     "decayed one step too little at every boundary (the student reused the exponent of the last token). "
     "Intra-chunk and cross terms are right, so the first chunk is right and later chunks drift; the returned "
     "state is wrong whenever there are two chunks or more (chunk_size 1 is wrong too).",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        R = g ** n * R + ", "        R = g ** (n - 1) * R + "))])

case("bug_chunk_cross_power_n", "bug",
     "retention_chunkwise scales the cross-chunk read by γ^n (the chunk length) for every token of the chunk "
     "instead of γ^(j+1) by local index: right only for the last token of a full chunk (and with chunk_size 1 "
     "or chunk_size >= L); the carried and returned state R is right.",
     ["chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n",
               "        cross = g ** n * (q @ R)                                 # R decayed over the chunk\n"))])

case("bug_chunk_state_misses_last_chunk", "bug",
     "retention_chunkwise folds a chunk into R lazily, at the top of the NEXT iteration (from the previous chunk's "
     "k, v and length): every output is right, but after the loop the last chunk was never folded in, so the "
     "returned state misses it (R = 0 when one chunk covers the whole sequence).",
     ["partial_chunk_state", "retention_chunkwise"],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    outs, prev = [], None
    for c0 in range(0, L, chunk_size):
        if prev is not None:                                     # fold the previous chunk into R
            kp, vp = prev
            n_p = kp.shape[-2]
            jp = torch.arange(n_p, dtype=V.dtype, device=V.device).unsqueeze(-1)
            R = g ** n_p * R + (kp * g ** (n_p - 1 - jp)).transpose(-2, -1) @ vp
        q = Q[..., c0:c0 + chunk_size, :]
        k = K[..., c0:c0 + chunk_size, :]
        v = V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]
        j = torch.arange(n, dtype=V.dtype, device=V.device).unsqueeze(-1)
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        outs.append(intra + g ** (j + 1) * (q @ R))
        prev = (k, v)
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(*lead, 0, d_v)
    if return_state:
        return out, R.expand(*lead, m, d_v).clone()
    return out
''')])

case("bug_chunk_parallel_over_prefix", "bug",
     "retention_chunkwise computes each chunk's outputs as retention_parallel over the whole prefix "
     "Q[:c0+n], K[:c0+n], V[:c0+n] and keeps its last n rows (the cross-chunk term replaced by recomputing the "
     "past); R is still carried for return_state. Outputs and state are exact, but the prefix score and decay "
     "matrices are up to L × L, so memory and work grow quadratically in L.",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n"
               "        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n"
               "        outs.append(intra + cross)\n",
               "        c1 = c0 + n                                              # parallel form over the prefix\n"
               "        outs.append(retention_parallel(Q[..., :c1, :], K[..., :c1, :], V[..., :c1, :], gamma)[..., c0:c1, :])\n"))])

case("bug_gamma_assert_not_valueerror", "bug",
     "as_gamma checks the range with assert bool(((g >= 0) & (g <= 1)).all()): NaN, 1.5 and -0.1 are refused "
     "but with AssertionError, not the documented ValueError (and the check vanishes under python -O). Edges "
     "0 and 1 work; every in-range output is right.",
     ["gamma_validation"],
     [fix(ASG, ("    if not bool(ok.all()):\n        raise ValueError(f\"gamma must lie in [0, 1], got {gamma!r}\")\n",
                "    assert bool(ok.all()), f\"gamma must lie in [0, 1], got {gamma!r}\"\n"))])

case("bug_gamma_clamps_instead_of_raising", "bug",
     "as_gamma clamps an out-of-range γ into [0, 1] (g.clamp(0, 1)) instead of raising: 1.5 silently becomes 1 "
     "and -0.1 becomes 0, NaN stays NaN and the outputs are NaN; no ValueError is ever raised. In-range γ "
     "(edges included) is untouched.",
     ["gamma_validation"],
     [fix(ASG, ("    if not bool(ok.all()):\n        raise ValueError(f\"gamma must lie in [0, 1], got {gamma!r}\")\n",
                "    if not bool(ok.all()):\n        g = g.clamp(0.0, 1.0)                                    # keep the decay stable\n"))])

case("bug_retrec_state_float64_not_cast", "bug",
     "retention_recurrent starts its state as torch.zeros(m, d_v, dtype=torch.float64) 'to accumulate in double' "
     "and never casts back: float64 inputs are exact, but with float32 Q, K, V the elementwise update and read "
     "promote, so retention_recurrent returns float64 (every other form keeps float32).",
     ["keeps_dtype"],
     [fix(RR, ("    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)\n",
               "    S = torch.zeros(m, d_v, dtype=torch.float64, device=V.device)   # accumulate in double precision\n"))])

case("bug_multiscale_returns_forget_rate", "bug",
     "multiscale_decays returns 2**(-5 - h) (1/32, 1/64, ...): the forgetting rate, without the '1 -', so every "
     "head would keep almost nothing of the past.",
     ["multiscale"],
     [fix(MS, ("    return 1 - 2.0 ** (-5 - h)", "    return 2.0 ** (-5 - h)"))])

case("bug_unified_gate_cumprod", "bug",
     "unified_recurrence, gated mode, replaces the gate by its running product A_t = gate_0 ⋯ gate_t ('the decay "
     "accumulated so far') before the loop, so the state is multiplied by ever smaller factors; linear and "
     "retention modes and the rejects are right.",
     ["unified_modes"],
     [fix(UR, ("            raise ValueError(f\"gate must have shape (L,) or (..., L) with L = {L}, got {tuple(A.shape)}\")\n",
               "            raise ValueError(f\"gate must have shape (L,) or (..., L) with L = {L}, got {tuple(A.shape)}\")\n"
               "        A = A.cumprod(dim=-1)                                    # total decay accumulated up to step t\n"))])

case("bug_unified_reads_before_write", "bug",
     "unified_recurrence reads y_t = q_t S before token t writes (decay, read, then add k_tᵀ v_t): every output "
     "misses its own token's contribution (y_0 = 0) in all three modes. The linear-attention faces are right.",
     ["unified_modes"],
     [fix(UR, ("        S = a_t * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n"
               "        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))  # y_t = q_t S_t\n",
               "        S = a_t * S\n"
               "        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))  # y_t = q_t S\n"
               "        S = S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)\n"))])

case("bug_unified_missing_gamma_means_one", "bug",
     "unified_recurrence in retention mode with gamma=None silently uses γ = 1 (no decay) instead of raising "
     "ValueError; every valid call is right and an unknown mode or a missing gate still raise.",
     ["unified_modes"],
     [fix(UR, ("        if gamma is None:\n            raise ValueError(\"mode 'retention' needs gamma\")\n",
               "        if gamma is None:\n            gamma = 1.0                                          # no decay given: keep everything\n"))])

# ============================================================================= bugs: notebook and answers

case("bug_nb_your_turn_third_token_alone", "bug",
     "your-turn cell reads the third token on its own (S3 = k3 v3ᵀ, z3 = k3, dropping the example's state) and "
     "the answers cell has your_turn: [4.00, 2.00] instead of [1.50, 2.50]; everything else is base.",
     ["your_turn"],
     [nbedit("code-007", "S3 = S_ex + torch.outer(k3, v3)                                # [[2, 4], [4, 6]]\n"
                         "z3 = z_ex + k3                                                 # (2, 2)\n",
             "S3 = torch.outer(k3, v3)                                       # the new token's grid\n"
             "z3 = k3\n"),
      nbedit("markdown-008", "your_turn: [1.50, 2.50]", "your_turn: [4.00, 2.00]")])

case("bug_nb_example_1_1_argmax_key", "bug",
     "answers cell: example_1_1 is [0.00, 4.00], the value of the best-scoring key alone (hard, argmax attention) "
     "instead of the score-weighted blend (0.5, 3); your_turn and cost are right.",
     ["example_1_1"],
     [nbedit("markdown-008", "example_1_1: [0.50, 3.00]", "example_1_1: [0.00, 4.00]")])

case("bug_nb_cost_attention_without_width", "bug",
     "cost cell counts softmax attention as 4·t operations (one per cached token, forgetting the width d) against "
     "4·d² for the state, and the answer is cost_ratio_at_100k: 6.10× instead of 781×.",
     ["cost_per_token"],
     [nbedit("code-029", "attention_ops = 4 * t * d    # t·d multiply-adds to score, t·d to blend, 2 operations each\n",
             "attention_ops = 4 * t        # one score and one blend per cached token, 2 operations each\n"),
      nbedit("markdown-030", "cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 6.10×")])

case("bug_nb_ex1_feature_map_twice", "bug",
     "Exercise 1 passes feature_map(Q1), feature_map(K1) to both faces ('the functions take features'): the two "
     "faces still agree with each other, but y_par1 and y_rec1 are not the module's outputs on Q1, K1, V1 "
     "(φ applied twice), so the locked check fails.",
     ["ex1_runs"],
     [nbedit("ex1-032", "y_par1 = linear_attention_parallel(Q1, K1, V1)\ny_rec1 = linear_attention_recurrent(Q1, K1, V1)\n",
             "from linear_attention import feature_map\n"
             "y_par1 = linear_attention_parallel(feature_map(Q1), feature_map(K1), V1)\n"
             "y_rec1 = linear_attention_recurrent(feature_map(Q1), feature_map(K1), V1)\n")])

case("bug_nb_ex2_tril_after_values", "bug",
     "Exercise 2 builds by_hand = torch.tril(Q2 @ K2ᵀ @ V2): the causal mask applied to the (L, d_v) product "
     "after multiplying by V instead of to the (L, L) scores, so by_hand is not (Q Kᵀ ⊙ tril) V and the locked "
     "check fails (the cell itself runs and prints False).",
     ["ex2_runs"],
     [nbedit("ex2-037", "by_hand = torch.tril(Q2 @ K2.transpose(-2, -1)) @ V2           # (Q Kᵀ ⊙ tril) V\n",
             "by_hand = torch.tril(Q2 @ K2.transpose(-2, -1) @ V2)           # (Q Kᵀ V), causally masked\n")])

case("bug_nb_ex3_outputs_swapped", "bug",
     "Exercise 3 swaps the two output names: y_gated holds the fixed-γ retention output and y_fixed the gated "
     "one, so the locked check (y_gated is the gated output with gate3) fails; the printed positions are "
     "unchanged.",
     ["ex3_runs"],
     [nbedit("ex3-042", "y_gated = unified_recurrence(Q3, K3, V3, \"gated\", gate=gate3)\n"
                        "gamma_fixed = gate3.mean().item()                               # 0.3125\n"
                        "y_fixed = unified_recurrence(Q3, K3, V3, \"retention\", gamma=gamma_fixed)\n",
             "gamma_fixed = gate3.mean().item()                               # 0.3125\n"
             "y_fixed = unified_recurrence(Q3, K3, V3, \"gated\", gate=gate3)\n"
             "y_gated = unified_recurrence(Q3, K3, V3, \"retention\", gamma=gamma_fixed)\n")])

case("bug_nb_ex3_says_gate_saves_compute", "bug",
     "Exercise 3 written answer: weights (0.10, 0.010) and positions are right, but it says what an "
     "input-dependent gate buys is speed and memory (skipping work at low-gate steps, a smaller state) rather "
     "than selectivity, deciding from the content what to keep or forget.",
     ["ex3_selectivity"],
     [nbedit("ex3-selectivity-045",
             "An input-dependent gate buys selectivity: the model decides per token, from its content, how much of the past "
             "to keep or to wipe, where a fixed $\\gamma$ forgets everything at the same geometric rate.",
             "An input-dependent gate buys efficiency: at low-gate steps the old state is almost zero, so that work can be "
             "skipped and the state kept smaller, which a fixed $\\gamma$ never allows, so gated models are cheaper to run.")])

# ============================================================================= alternatives

case("alt_linpar_triu_future_fill", "alternative",
     "linear_attention_parallel masks the future with a boolean torch.triu(ones, diagonal=1) (j > i) passed to "
     "masked_fill, instead of negating a tril mask.",
     [],
     [alt(LP, '''    fq, fk = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    future = torch.triu(torch.ones(L, L, dtype=torch.bool, device=Q.device), diagonal=1)   # j > i
    A = (fq @ fk.transpose(-2, -1)).masked_fill(future, 0.0)
    return (A @ V) / A.sum(dim=-1, keepdim=True)
''')])

case("alt_linpar_float64_internals", "alternative",
     "linear_attention_parallel computes φ, the masked scores and the division in float64 and casts the result "
     "back to V's dtype (float32 in, float32 out; bit-for-bit base's in float64).",
     [],
     [alt(LP, '''    q64, k64, v64 = Q.to(torch.float64), K.to(torch.float64), V.to(torch.float64)
    fq, fk = feature_map(q64), feature_map(k64)
    L = Q.shape[-2]
    A = torch.tril(fq @ fk.transpose(-2, -1))                    # zero the entries with j > i
    y = (A @ v64) / A.sum(dim=-1, keepdim=True)
    return y.to(V.dtype)
''')])

case("alt_linrec_phi_per_token_matmul", "alternative",
     "linear_attention_recurrent applies feature_map token by token inside the loop and reads with matmuls "
     "(φ(q_t) as a row vector times S, and times z as a column); the state is updated before it is read.",
     [],
     [alt(LR, '''    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    z = torch.zeros(m, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        fq, fk = feature_map(Q[..., t, :]), feature_map(K[..., t, :])
        S = S + fk.unsqueeze(-1) @ V[..., t, :].unsqueeze(-2)   # φ(k_t) v_tᵀ as an (m, 1) @ (1, d_v) product
        z = z + fk
        num = (fq.unsqueeze(-2) @ S).squeeze(-2)                 # (..., d_v)
        den = (fq.unsqueeze(-2) @ z.unsqueeze(-1)).squeeze(-1)   # (..., 1)
        ys.append(num / den)
    if L == 0:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)
''')])

case("alt_step_matmul_outer", "alternative",
     "LinearAttentionState.step forms φ(k) vᵀ as an (m, 1) @ (1, d_v) matmul and reads φ(q)ᵀS and φ(q)ᵀz with "
     "matmuls; the stored S stays (..., m, d_v), z (..., m), cast to the token's dtype, updated before read.",
     [],
     [alt(ST, '''        fq, fk = feature_map(q), feature_map(k)
        self.S = self.S.to(v.dtype) + fk.unsqueeze(-1) @ v.unsqueeze(-2)
        self.z = self.z.to(v.dtype) + fk
        num = (fq.unsqueeze(-2) @ self.S).squeeze(-2)
        den = (fq.unsqueeze(-2) @ self.z.unsqueeze(-1)).squeeze(-1)
        return num / den
''')])

case("alt_gamma_min_max_isnan", "alternative",
     "as_gamma rejects with an explicit isnan test plus g.min() < 0 or g.max() > 1 (skipped for an empty "
     "tensor) and adds the trailing dims with two unsqueeze(-1).",
     [],
     [alt(ASG, '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if g.numel() and (bool(torch.isnan(g).any()) or bool(g.min() < 0) or bool(g.max() > 1)):
        raise ValueError(f"gamma must be in [0, 1] (no NaN), got {gamma!r}")
    return g.unsqueeze(-1).unsqueeze(-1)
''')])

case("alt_decay_pow_tril", "alternative",
     "decay_matrix raises γ to the clamped distance and zeroes the upper triangle with torch.tril (which works "
     "on the last two dims of a (..., L, L) tensor) instead of torch.where.",
     [],
     [alt(DM, '''    n = torch.arange(L, device=gamma.device, dtype=gamma.dtype)
    dist = (n.unsqueeze(-1) - n.unsqueeze(0)).clamp(min=0)       # n - m, never negative
    return torch.tril(gamma ** dist)
''')])

case("alt_retpar_four_operand_einsum", "alternative",
     "retention_parallel as one four-operand einsum '...nm,...km,...nk,...kd->...nd' over Q, K, D and V "
     "(the leading dims of a per-head D broadcast against Q's).",
     [],
     [alt(RP, '''    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], D.shape[:-2])
    L = Q.shape[-2]
    Qb, Kb = Q.expand(*lead, L, Q.shape[-1]), K.expand(*lead, L, K.shape[-1])
    Db, Vb = D.expand(*lead, L, L), V.expand(*lead, L, V.shape[-1])
    return torch.einsum("...nm,...km,...nk,...kd->...nd", Qb, Kb, Db, Vb)
''')])

case("alt_retrec_float64_state", "alternative",
     "retention_recurrent keeps S and accumulates in float64 whatever the input dtype and casts the stacked "
     "outputs back to V's dtype (float32 in, float32 out).",
     [],
     [alt(RR, '''    g = as_gamma(gamma, Q).to(torch.float64)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    Q64, K64, V64 = Q.to(torch.float64), K.to(torch.float64), V.to(torch.float64)
    S = torch.zeros(m, d_v, dtype=torch.float64, device=V.device)
    ys = []
    for t in range(L):
        S = g * S + K64[..., t, :, None] * V64[..., t, None, :]
        ys.append((Q64[..., t, :, None] * S).sum(dim=-2))
    if L == 0:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2).to(V.dtype)
''')])

case("alt_retrec_outer_matmul", "alternative",
     "retention_recurrent forms k_tᵀ v_t as K[..., t, :, None] @ V[..., t, None, :] and reads o_t with "
     "einsum('...m,...md->...d'); decay of the old state first, as in base.",
     [],
     [alt(RR, '''    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        S = g * S + K[..., t, :, None] @ V[..., t, None, :]
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    if L == 0:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)
''')])

case("alt_chunk_weights_from_decay_rows", "alternative",
     "retention_chunkwise takes its boundary weights from the chunk's own decay matrix D_n: γ^(j+1) = γ · D[:, 0] "
     "(first column, γ^j), γ^(n-1-s) = D[n-1, :] (last row), γ^n = γ · D[n-1, 0]; at γ = 0 these are 0, "
     "1-at-the-end and 0 as required.",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    outs = []
    for c0 in range(0, L, chunk_size):
        q, k, v = (X[..., c0:c0 + chunk_size, :] for X in (Q, K, V))
        n = q.shape[-2]
        D = decay_matrix(g, n)                                   # (..., n, n)
        read_w = g * D[..., :, :1]                               # γ^(j+1), (..., n, 1)
        write_w = D[..., -1, :].unsqueeze(-1)                    # γ^(n-1-s), (..., n, 1)
        carry = g * D[..., -1:, :1]                              # γ^n, (..., 1, 1)
        outs.append(((q @ k.transpose(-2, -1)) * D) @ v + read_w * (q @ R))
        R = carry * R + (k * write_w).transpose(-2, -1) @ v
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(*lead, 0, d_v)
    if return_state:
        return out, R.expand(*lead, m, d_v).clone()
    return out
''')])

case("alt_chunk_min_end_scaled_query", "alternative",
     "retention_chunkwise computes each chunk's end as min(c0 + B, L) and n = end - c0, and applies the cross "
     "weights to the queries before the read, (γ^(j+1) q) R, instead of to the product.",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    outs = []
    c0 = 0
    while c0 < L:
        end = min(c0 + chunk_size, L)
        n = end - c0
        q, k, v = Q[..., c0:end, :], K[..., c0:end, :], V[..., c0:end, :]
        j = torch.arange(n, dtype=V.dtype, device=V.device)[:, None]
        scores = (q @ k.transpose(-2, -1)) * decay_matrix(g, n)
        outs.append(scores @ v + (q * g ** (j + 1)) @ R)
        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v
        c0 = end
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(*lead, 0, d_v)
    if return_state:
        return out, R.expand(*lead, m, d_v).clone()
    return out
''')])

case("alt_multiscale_halving_loop", "alternative",
     "multiscale_decays halves the forgetting rate head by head in a Python loop (1/32, 1/64, ...) and returns "
     "torch.tensor([1 - rate, ...]) in the default dtype (exact: powers of two).",
     [],
     [alt(MS, '''    rates, rate = [], 1 / 32
    for _ in range(num_heads):
        rates.append(1 - rate)
        rate /= 2
    return torch.tensor(rates, dtype=torch.get_default_dtype())
''')])

case("alt_unified_linear_as_gamma_one", "alternative",
     "unified_recurrence turns mode 'linear' into mode 'retention' with γ = 1 before building the gates (one "
     "code path for both constant gates); everything else as base.",
     [],
     [fix(UR, ("    if mode == \"linear\":\n        A = torch.ones(L, dtype=V.dtype, device=V.device)\n    elif mode == \"retention\":\n",
               "    if mode == \"linear\":                                       # linear attention = retention at γ = 1\n"
               "        mode, gamma = \"retention\", 1.0\n"
               "    if mode == \"retention\":\n"))])

# ============================================================================= stubs

def zeros_stub(py, fill):
    """The template with every raise NotImplementedError replaced by a `fill` tensor of the right shape."""
    shapes = {
        "linear_attention_parallel": "{f}(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1], dtype=V.dtype)",
        "linear_attention_recurrent": "{f}(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1], dtype=V.dtype)",
        "LinearAttentionState.step": "{f}(*v.shape, dtype=v.dtype)",
        "as_gamma": "{f}(*torch.as_tensor(gamma).shape, 1, 1, dtype=like.dtype)",
        "decay_matrix": "{f}(*gamma.shape[:-2], L, L, dtype=gamma.dtype)",
        "retention_parallel": "{f}(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1], dtype=V.dtype)",
        "retention_recurrent": "{f}(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1], dtype=V.dtype)",
        "retention_chunkwise": None,
        "multiscale_decays": "{f}(num_heads)",
        "unified_recurrence": "{f}(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1], dtype=V.dtype)",
        "gated_delta_rule": "{f}(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), Q.shape[-2], V.shape[-1], dtype=V.dtype)",
    }
    out = py
    for m in re.finditer(r'( *)raise NotImplementedError\("([A-Za-z_.]+):[^"]*"\)', py):
        indent, name = m.group(1), m.group(2)
        if name == "retention_chunkwise":
            rep = (f"{indent}out = {fill}(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), "
                   f"Q.shape[-2], V.shape[-1], dtype=V.dtype)\n"
                   f"{indent}if return_state:\n"
                   f"{indent}    return out, {fill}(*out.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)\n"
                   f"{indent}return out")
        else:
            rep = indent + "return " + shapes[name].format(f=fill)
        assert out.count(m.group(0)) == 1, name
        out = out.replace(m.group(0), rep)
    assert "raise NotImplementedError" not in out
    ast.parse(out)
    return out


TEMPLATE_PY = (TEMPLATE / PY).read_text()

case("stub_as_handed_out", "stub",
     "the untouched template folder: every stub raises NotImplementedError, the exercise cells raise, the answers "
     "cells and the written answers are empty. should_lose lists every automatically graded item (the three "
     "manually graded written answers are blank too).",
     AUTO_IDS, source=TEMPLATE)

case("stub_zeros_like_outputs", "stub",
     "the template module with each raise replaced by torch.zeros of the documented shape (as_gamma never raises, "
     "multiscale_decays zeros), docstrings kept; the notebook is base's (hand-worked answers, cost and written "
     "answers right). Loses every code item and the three exercise items (their forms do not work).",
     CODE_IDS + ["ex1_runs", "ex2_runs", "ex3_runs"], module=zeros_stub(TEMPLATE_PY, "torch.zeros"))

case("stub_randn_like_outputs", "stub",
     "the template module with each raise replaced by torch.randn of the documented shape (fresh noise on every "
     "call, as_gamma never raises); the template notebook untouched (exercises raise, answers empty). "
     "should_lose lists every automatically graded item.",
     AUTO_IDS, module=zeros_stub(TEMPLATE_PY, "torch.randn"), source=TEMPLATE)


# ============================================================================= build

BASE_ABOUT = ("careful complete submission written from the docstrings: masked-matmul parallel faces, recurrent forms "
              "and the step updating before they read with states that pick up leading dims by broadcasting (the "
              "step casts __init__'s float32 zeros to the token dtype), as_gamma rejecting NaN and returning "
              "gamma.shape + (1, 1), decay_matrix with the clamped distance and torch.where (0**0 = 1), chunkwise "
              "with the real length of a short last chunk and no L × L matrix, multiscale in the default dtype, "
              "unified recurrence with ValueError for unknown modes / missing γ or gate, the optional gated delta "
              "rule decay-first; notebook: your-turn and cost cells, Exercises 1-3 in float64, answers example_1_1 "
              "[0.50, 3.00], your_turn [1.50, 2.50], cost 781×, three written answers")


def build():
    base_nb = (BASE / NB).read_text()
    entries = [dict(name="base", kind="alternative", about=BASE_ABOUT, should_lose=[])]
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    keep = {"base", "make_cases.py", "corpus.yaml", "README.md", "ref_check.py", "run_nb.py", "check_all.py",
            "results.md"} | set(names)
    for p in HERE.iterdir():                                     # drop folders of cases no longer defined
        if p.is_dir() and p.name not in keep and p.name != "__pycache__":
            shutil.rmtree(p)
    for c in CASES:
        dest = HERE / c["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(c["source"], dest, ignore=IGNORE)
        py = (dest / PY).read_text() if c["module"] is None else c["module"]
        nb = json.loads((dest / NB).read_text())
        for e in c["edits"]:
            if e[0] == "py":
                py = apply_py(py, e[1], e[2], c["name"])
            else:
                apply_nb(nb, e[1], e[2], e[3], c["name"])
        (dest / PY).write_text(py)
        if c["source"] == BASE or c["edits"]:
            (dest / NB).write_text(dump_nb(nb))
        ast.parse(py)
        lose = list(c["should_lose"])
        assert set(lose) <= set(RUBRIC_IDS), (c["name"], set(lose) - set(RUBRIC_IDS))
        if c["kind"] == "alternative":
            assert not lose and c["source"] == BASE and c["module"] is None, c["name"]
            assert (dest / NB).read_text() == base_nb, c["name"]
            assert py != BASE_PY, c["name"]
        if c["kind"] == "stub":
            assert lose
        if c["kind"] == "bug":
            assert lose
            assert py != BASE_PY or (dest / NB).read_text() != base_nb, c["name"]
            assert py == BASE_PY or (dest / NB).read_text() == base_nb, f"{c['name']}: two kinds of edit"
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=lose))
    assert (HERE / "stub_as_handed_out" / PY).read_text() == TEMPLATE_PY
    assert (HERE / "stub_as_handed_out" / NB).read_text() == (TEMPLATE / NB).read_text()
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 20, linear-attention-basics: one entry per case folder.",
             "# should_lose: rubric.yaml item ids, judged from the rubric titles, the docstrings, the notebook and the",
             "# public tests only (never the grader or hidden checks).",
             ""]
    for e in entries:
        lines.append(f"- name: {e['name']}")
        lines.append(f"  kind: {e['kind']}")
        lines.append(f"  about: {json.dumps(e['about'], ensure_ascii=False)}")
        lines.append(f"  should_lose: [{', '.join(e['should_lose'])}]")
    (HERE / "corpus.yaml").write_text("\n".join(lines) + "\n")
    loaded = yaml.safe_load((HERE / "corpus.yaml").read_text())
    assert [e["name"] for e in loaded] == [e["name"] for e in entries]
    assert all(set(e) == {"name", "kind", "about", "should_lose"} for e in loaded)


if __name__ == "__main__":
    es = build()
    kinds = {}
    for e in es:
        kinds[e["kind"]] = kinds.get(e["kind"], 0) + 1
    print(len(es), "entries:", kinds)
