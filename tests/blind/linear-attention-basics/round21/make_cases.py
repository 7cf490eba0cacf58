"""Build the round-21 blind corpus: base/ from the student template, every case folder from base/, corpus.yaml.

Mechanics and base/ construction adapted from round 20's builder. Every edit is exact and anchored; a missing or
ambiguous anchor stops the build (AssertionError):

- base/: the template folder copied, each stub body of linear_attention.py replaced (`stub(start, raise_line,
  code)`: the text from the first hint comment through the `raise NotImplementedError(...)` line must occur once)
  and the student cells of the notebook edited by cell id.
- `fix(func, (old, new), ...)`: each `old` must occur exactly once inside `func`'s body in base's module (the body
  after the docstring, found with `ast`).
- `alt(func, new_body)`: replaces that whole body.

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

case("bug_linpar_feature_map_on_scores", "bug",
     "linear_attention_parallel applies feature_map to the score matrix, A = elu(Q Kᵀ) + 1, instead of to Q and K "
     "separately (φ in the wrong place: the kernel φ(q)·φ(k) is not φ(q·k)). Scores are positive, the mask and "
     "the row-sum normalizer are right (constant values come back, one token returns its value, causal), but it "
     "is a different function from the recurrent face and the step.",
     ["feature_map", "linear_parallel"],
     [fix(LP, ("    phi_q, phi_k = feature_map(Q), feature_map(K)                # φ on queries and keys, never on V\n", ""),
          ("A = phi_q @ phi_k.transpose(-2, -1)", "A = feature_map(Q @ K.transpose(-2, -1))"))])

case("bug_linpar_scores_keys_times_queries", "bug",
     "linear_attention_parallel builds the score matrix the other way round, A = φ(K) φ(Q)ᵀ (A[i, j] = φ(k_i)·φ(q_j), "
     "the transpose of the intended layout), then masks j > i and normalizes by the row sum. Row i pairs key i "
     "with the queries of tokens j ≤ i: still causal, rows still sum to 1 (constant values and a single token "
     "come back), φ applied to both, but the values differ from the recurrent face for L ≥ 2.",
     ["linear_parallel"],
     [fix(LP, ("A = phi_q @ phi_k.transpose(-2, -1)", "A = phi_k @ phi_q.transpose(-2, -1)"))])

case("bug_linrec_raw_keys", "bug",
     "linear_attention_recurrent applies feature_map to the queries only and folds the raw keys into S and z "
     "(phi_k = K): scores φ(q)·k can be negative or zero, so the running normalizer can vanish or change sign for "
     "very negative keys. Update order, running sums and layout are right; the parallel face and step are right.",
     ["feature_map", "linear_recurrent"],
     [fix(LR, ("phi_q, phi_k = feature_map(Q), feature_map(K)\n", "phi_q, phi_k = feature_map(Q), K\n"))])

case("bug_linrec_normalizer_over_all_keys", "bug",
     "linear_attention_recurrent precomputes the normalizer once before the loop as z = Σ_j φ(k_j) over the WHOLE "
     "sequence (and no longer updates z in the loop), while S is still a running sum: every row divides by "
     "φ(q_t)ᵀ Σ_{all j} φ(k_j), so weights sum to less than 1 except at the last token (which is right), and the "
     "normalizer depends on later keys.",
     ["running_normalizer", "linear_recurrent"],
     [fix(LR, ("    z = torch.zeros(m, dtype=V.dtype, device=V.device)\n",
               "    z = phi_k.sum(dim=-2)                                        # Σ_j φ(k_j), the normalizer\n"),
          ("        z = z + k_t                                              # z ← z + φ(k_t)\n", ""))])

case("bug_step_denominator_sums_every_axis", "bug",
     "LinearAttentionState.step computes the normalizer as (φ(q) * z).sum() with no dim: for one unbatched token "
     "this is φ(q)ᵀz (right), but with leading dims (batch, heads) it sums over all heads and batch entries into "
     "one scalar, so every head is divided by the grand total (wrong reduction axis). S and z are updated right.",
     ["state_step"],
     [fix(ST, ("den = (phi_q * self.z).sum(dim=-1, keepdim=True)", "den = (phi_q * self.z).sum()"))])

# ============================================================================= bugs: retention

case("bug_retpar_scaled_dot_product", "bug",
     "retention_parallel carries over softmax attention's 1/√m scaling: ((Q Kᵀ / √m) ⊙ D) V (an extra term). "
     "Decay, mask and γ validation are right, but every output is scaled by 1/√m, so it no longer matches the "
     "recurrent and chunkwise forms (which are right) nor (q_n·k_n) v_n at γ = 0.",
     ["retention_parallel"],
     [fix(RP, ("return ((Q @ K.transpose(-2, -1)) * D) @ V",
               "return ((Q @ K.transpose(-2, -1)) / Q.shape[-1] ** 0.5 * D) @ V"))])

case("bug_retrec_decay_power_t", "bug",
     "retention_recurrent decays the old state by γ^t at step t (S = γ^t S + k_tᵀ v_t), confusing the per-step "
     "decay with the total decay since the start: token s ends up weighted by γ^(s+1 + … + t) instead of γ^(t-s). "
     "Right at γ = 0 and γ = 1 and for the first two tokens; wrong for 0 < γ < 1 from t = 2 on.",
     ["decay_every_form", "retention_recurrent"],
     [fix(RR, ("S = g * S + kv", "S = g ** t * S + kv"))])

case("bug_chunk_state_weights_use_chunk_size", "bug",
     "retention_chunkwise folds each chunk into R with the NOMINAL chunk_size, R ← γ^chunk_size R + Σ_s "
     "γ^(chunk_size-1-s) k_sᵀ v_s, instead of the real length n of the chunk: identical for full chunks, so every "
     "output is right (the short chunk is always the last), but the returned state is wrong whenever L is not a "
     "multiple of chunk_size (and when chunk_size > L).",
     ["partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("R = g ** n * R + (k * g ** (n - 1 - j))", "R = g ** chunk_size * R + (k * g ** (chunk_size - 1 - j))"))])

case("bug_chunk_cross_exponent_j", "bug",
     "retention_chunkwise reads the carried state with γ^j (local index j = 0 for the first token of a chunk) "
     "instead of γ^(j+1): the first token of a chunk sees the previous chunks undecayed by its own step. Off by "
     "one power of γ in every cross-chunk term; intra-chunk term and the carried / returned state are right; "
     "right only when one chunk covers the sequence or at γ = 1.",
     ["chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("cross = g ** (j + 1) * (q @ R)", "cross = g ** j * (q @ R)"))])

case("bug_decay_matrix_exp_log", "bug",
     "decay_matrix computes the powers as exp(d · log γ) instead of γ ** d: equal for 0 < γ ≤ 1, but at γ = 0 the "
     "diagonal is exp(0 · (-inf)) = NaN instead of 0**0 = 1, so retention_parallel and retention_chunkwise (which "
     "uses decay_matrix inside a chunk) return NaN at γ = 0 (and per-head γ containing 0); retention_recurrent is right.",
     ["gamma_validation", "retention_parallel", "retention_chunkwise"],
     [fix(DM, ("powers = gamma ** distance.clamp(min=0).to(gamma.dtype)      # 0**0 = 1 on the diagonal",
               "powers = torch.exp(distance.clamp(min=0).to(gamma.dtype) * torch.log(gamma))   # γ^d = e^(d log γ)"))])

case("bug_unified_gate_index_lags", "bug",
     "unified_recurrence scales the old state S_{t-1} by the PREVIOUS gate A_{t-1} (A[..., t - 1]; at t = 0 it "
     "reads A[..., -1] but the state is zero), reasoning that the gate belongs to the state it scales. With a "
     "constant gate (linear, retention, constant gated) this is invisible; with an input-dependent gate every "
     "state uses the gate shifted by one token.",
     ["unified_modes"],
     [fix(UR, ("a_t = A[..., t, None, None]", "a_t = A[..., t - 1, None, None]"))])

# ============================================================================= alternatives

case("alt_retrec_value_major_state", "alternative",
     "retention_recurrent stores its state transposed, S (d_v × m) = Σ γ^(t-s) v_s k_sᵀ, and reads it with a "
     "matmul S q_t: the same outputs as the k vᵀ state read with q_tᵀ S.",
     [],
     [alt(RR, '''    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S = torch.zeros(d_v, m, dtype=V.dtype, device=V.device)      # (d_v, m): v kᵀ, read with S q
    ys = []
    for t in range(L):
        S = g * S + V[..., t, :].unsqueeze(-1) * K[..., t, :].unsqueeze(-2)
        ys.append((S @ Q[..., t, :].unsqueeze(-1)).squeeze(-1))   # (q_t·k_s) v_s summed
    if L == 0:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)
''')])

case("alt_linpar_cumsum_prefix_states", "alternative",
     "linear_attention_parallel without a score matrix: all prefix states at once with torch.cumsum, "
     "S_i = Σ_{j≤i} φ(k_j) v_jᵀ (an L × m × d_v tensor) and z_i = Σ_{j≤i} φ(k_j), then φ(q_i)ᵀS_i / φ(q_i)ᵀz_i.",
     [],
     [alt(LP, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = torch.cumsum(phi_k.unsqueeze(-1) * V.unsqueeze(-2), dim=-3)    # (..., L, m, d_v): prefix states
    z = torch.cumsum(phi_k, dim=-2)                                      # (..., L, m)
    num = (phi_q.unsqueeze(-1) * S).sum(dim=-2)                          # φ(q_i)ᵀ S_i
    den = (phi_q * z).sum(dim=-1, keepdim=True)                          # φ(q_i)ᵀ z_i
    return num / den
''')])

case("alt_unified_einsum_update", "alternative",
     "unified_recurrence writes the outer product and the read with torch.einsum ('...m,...d->...md' and "
     "'...m,...md->...d') instead of broadcasting and sum.",
     [],
     [fix(UR, ("S = a_t * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)",
               "S = a_t * S + torch.einsum(\"...m,...d->...md\", K[..., t, :], V[..., t, :])"),
          ("ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))",
           "ys.append(torch.einsum(\"...m,...md->...d\", Q[..., t, :], S))"))])

# ============================================================================= stub

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

case("stub_zero_tensors_blank_notebook", "stub",
     "the template module with each raise replaced by torch.zeros of the documented shape (chunkwise returns a "
     "zero state too, as_gamma never raises, multiscale_decays zeros); the template notebook untouched (exercise "
     "cells raise, answers cells and written answers empty). should_lose lists every automatically graded item "
     "(the three manually graded written answers are blank too).",
     AUTO_IDS, module=zeros_stub(TEMPLATE_PY, "torch.zeros"), source=TEMPLATE)


# ============================================================================= build

BASE_ABOUT = ("complete submission written from the docstrings (same construction as round 20's base): masked-matmul "
              "parallel faces, recurrent forms and the step updating before they read, as_gamma rejecting NaN, "
              "decay_matrix with the clamped distance and torch.where (0**0 = 1), chunkwise with the real length of "
              "a short last chunk and no L × L matrix, unified recurrence with ValueError for unknown modes / "
              "missing γ or gate; notebook: your-turn and cost cells, Exercises 1-3, answers example_1_1 "
              "[0.50, 3.00], your_turn [1.50, 2.50], cost 781×, three written answers")


def build():
    base_nb = (BASE / NB).read_text()
    entries = [dict(name="base", kind="alternative", about=BASE_ABOUT, should_lose=[])]
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    keep = {"base", "make_cases.py", "corpus.yaml", "README.md", "ref_check.py"} | set(names)
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
            py = apply_py(py, e[1], e[2], c["name"])
        (dest / PY).write_text(py)
        if c["source"] == BASE or c["edits"]:
            (dest / NB).write_text(dump_nb(nb))
        ast.parse(py)
        lose = list(c["should_lose"])
        assert set(lose) <= set(RUBRIC_IDS), (c["name"], set(lose) - set(RUBRIC_IDS))
        if c["kind"] == "alternative":
            assert not lose and c["source"] == BASE and c["module"] is None, c["name"]
            assert py != BASE_PY, c["name"]
        else:
            assert lose, c["name"]
        if c["kind"] == "bug":
            assert py != BASE_PY, c["name"]
        if c["source"] == BASE:
            assert (dest / NB).read_text() == base_nb, c["name"]
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=lose))
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 21, linear-attention-basics: one entry per case folder.",
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
