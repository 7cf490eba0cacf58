"""Build the round-19 blind corpus: base/ from the student template, every case folder from base/, corpus.yaml.

Every edit is exact and anchored; a missing or ambiguous anchor stops the build (AssertionError):

- base/: the template folder copied, each stub body of linear_attention.py replaced (`stub(start, raise_line,
  code)`: the text from the first hint comment through the `raise NotImplementedError(...)` line must occur once)
  and the student cells of the notebook edited by cell id.
- `fix(func, (old, new), ...)`: each `old` must occur exactly once inside `func`'s body in base's
  linear_attention.py (the body after the docstring, found with `ast`; that body must itself occur once).
- `alt(func, new_body)`: replaces that whole body.
- `mod(old, new)`: a module-level replacement (old must occur once in the module, e.g. for __init__).
- `nbedit(cell_id, old, new)`: in the notebook cell with that id, `old` must occur exactly once.

Notebooks are written the way the template is (json indent 1, UTF-8, trailing newline), no outputs.
Stubs start from the untouched template folder, or from base/ with the module replaced.

    /work/main/.venv/bin/python make_cases.py        # rebuilds base/, every case folder and corpus.yaml
"""
import ast
import json
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

def stub(start, raise_line, code):
    return (start, raise_line, code)


BASE_PY_EDITS = [
    stub("    # 1. apply feature_map to Q and K (never to V)\n",
         'raise NotImplementedError("linear_attention_parallel: write the masked-matmul form")',
         '''    phi_q, phi_k = feature_map(Q), feature_map(K)                # φ on queries and keys only
    L = Q.shape[-2]
    A = phi_q @ phi_k.transpose(-2, -1)                          # (..., L, L): A[i, j] = φ(q_i)·φ(k_j)
    causal = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()
    A = A.masked_fill(~causal, 0.0)                              # zero the future, j > i
    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum of A = φ(q_i)ᵀ z_i'''),
    stub("    # 1. apply feature_map to Q and K\n    # 2. start S",
         'raise NotImplementedError("linear_attention_recurrent: write the running-state loop")',
         '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)      # grows the leading dims on the first update
    z = torch.zeros(m, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        k_t, q_t = phi_k[..., t, :], phi_q[..., t, :]
        S = S + k_t.unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # S ← S + φ(k_t) v_tᵀ   (update first)
        z = z + k_t                                              # z ← z + φ(k_t)
        num = (q_t.unsqueeze(-1) * S).sum(dim=-2)                # φ(q_t)ᵀ S, (..., d_v)
        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)
        ys.append(num / den)
    if not ys:                                                   # L = 0
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)'''),
    stub("        # Same three lines as one iteration",
         'raise NotImplementedError("LinearAttentionState.step: update the state, then read it")',
         '''        phi_q, phi_k = feature_map(q), feature_map(k)
        S = self.S.to(dtype=v.dtype, device=v.device)            # __init__'s zeros are float32
        z = self.z.to(dtype=v.dtype, device=v.device)
        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # update first: S + φ(k) vᵀ (a new tensor)
        self.z = z + phi_k
        num = (phi_q.unsqueeze(-1) * self.S).sum(dim=-2)         # φ(q)ᵀ S
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)         # φ(q)ᵀ z
        return num / den'''),
    stub("    # 1. torch.as_tensor(gamma, dtype=like.dtype, device=like.device)\n",
         'raise NotImplementedError("as_gamma: validate gamma and shape it for broadcasting")',
         '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    inside = (g >= 0) & (g <= 1)                                 # False for NaN too
    if not bool(inside.all()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}")
    return g.reshape(*g.shape, 1, 1)'''),
    stub("    # distance[n, m] = n - m from torch.arange",
         'raise NotImplementedError("decay_matrix: build gamma**(n - m) below the diagonal")',
         '''    idx = torch.arange(L, device=gamma.device)
    distance = idx[:, None] - idx[None, :]                       # (L, L): n - m
    powers = gamma ** distance.clamp(min=0).to(gamma.dtype)      # never a negative power; 0**0 = 1
    return torch.where(distance >= 0, powers, torch.zeros((), dtype=gamma.dtype, device=gamma.device))'''),
    stub("    # as_gamma, then decay_matrix, then one masked matmul.\n",
         'raise NotImplementedError("retention_parallel: write (Q Kᵀ ⊙ D) V")',
         '''    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    D = decay_matrix(g, Q.shape[-2])                             # (..., L, L)
    return ((Q @ K.transpose(-2, -1)) * D) @ V'''),
    stub("    # Like linear_attention_recurrent without φ",
         'raise NotImplementedError("retention_recurrent: write the decayed running-state loop")',
         '''    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # decay, then add k_tᵀ v_t
        ys.append((Q[..., t, :].unsqueeze(-2) @ S).squeeze(-2))             # o_t = q_t S_t
    if not ys:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)'''),
    stub("    # 1. validate chunk_size and gamma; R = zeros (m, d_v)\n",
         'raise NotImplementedError("retention_chunkwise: write the chunk loop")',
         '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    outs = []
    for c0 in range(0, L, chunk_size):
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]                                          # the real length: the last chunk can be short
        j = torch.arange(n, dtype=V.dtype, device=V.device).unsqueeze(-1)   # (n, 1): local index
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R
        outs.append(intra + cross)
        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(*lead, 0, d_v)
    if return_state:
        return out, R.expand(*lead, m, d_v).clone()
    return out'''),
    stub('    raise NotImplementedError("multiscale_decays',
         'raise NotImplementedError("multiscale_decays: one gamma per head, from torch.arange")',
         '''    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)'''),
    stub("    # 1. turn mode into a gate sequence A of length L",
         'raise NotImplementedError("unified_recurrence: one loop with a swappable gate A_t")',
         '''    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    if mode == "linear":
        A = torch.ones(L, dtype=V.dtype, device=V.device)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, V)[..., 0]                           # (..., 1), checked like retention's
        A = g.expand(*g.shape[:-1], L)                           # (..., L): gamma at every step
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
        a_t = A[..., t].unsqueeze(-1).unsqueeze(-1)              # (..., 1, 1): scales the OLD state
        S = a_t * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))  # y_t = q_t S_t
    if not ys:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], A.shape[:-1])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)'''),
    stub("    # Optional: decay S by alpha_t",
         'raise NotImplementedError("gated_delta_rule: optional extension, not graded")',
         '''    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    alpha = torch.as_tensor(alpha, dtype=V.dtype, device=V.device)
    beta = torch.as_tensor(beta, dtype=V.dtype, device=V.device)
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        k_t, v_t = K[..., t, :], V[..., t, :]
        S = alpha[..., t, None, None] * S                        # decay first
        pred = (k_t.unsqueeze(-1) * S).sum(dim=-2)               # what the decayed state returns for k_t
        S = S + beta[..., t, None, None] * k_t.unsqueeze(-1) * (v_t - pred).unsqueeze(-2)
        ys.append((Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2))
    if not ys:
        return V.new_zeros(*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2]), 0, d_v)
    return torch.stack(ys, dim=-2)'''),
]

EX1_WHY = (
    "Because the sum over $j \\le i$ is linear and the score factors, "
    "$\\sum_{j\\le i} (\\varphi(q_i)\\cdot\\varphi(k_j))\\, v_j = \\varphi(q_i)^\\top \\sum_{j\\le i} \\varphi(k_j) v_j^\\top$ "
    "(associativity of the matrix product): $\\varphi(q_i)$ comes out of the sum, and what is left, $S_i$ (and "
    "likewise $z_i = \\sum_{j\\le i}\\varphi(k_j)$ for the denominator), is a prefix sum that does not involve the "
    "query, so it can be carried as $S_i = S_{i-1} + \\varphi(k_i) v_i^\\top$; both faces compute the same numerator "
    "and denominator, only adding the terms in a different order (equal up to rounding).")
EX2_GAMMA0 = (
    "With $\\gamma = 0$ the decay matrix becomes the identity: $0^0 = 1$ on the diagonal and $0^{n-m} = 0$ for every "
    "earlier token, so $o_n = (q_n\\cdot k_n)\\, v_n$. Each token sees only itself: its own value, scaled by its own "
    "query-key score, with no memory of the past (the state is wiped at every step, $S_n = k_n^\\top v_n$).")
EX3_SELECTIVITY = (
    "The high gate at $t = 2$ multiplies the *old* state $S_1$, so it preserves what tokens 0 and 1 wrote (kept "
    "×0.95 instead of ×0.1); it does nothing for token 2's own write, which is weighted by the gates *after* it: 1 in "
    "$S_2$, $A_3 = 0.10$ in $S_3$, $A_3A_4 = 0.010$ in $S_4$ (then $0.0095$ in $S_5$, since the high gate at 5 holds "
    "it). With a fixed $\\gamma$ equal to the mean gate (0.3125) the outputs agree at $t = 0$, where the state starts "
    "empty and no gate acts, and differ at every $t \\ge 1$: from there each state is a sum of writes weighted by "
    "different products of gates (0.1 or 0.95 per step against 0.3125 per step). An input-dependent gate buys "
    "selectivity: the model decides per token, from its content, how much of the past to keep (hold an important "
    "memory for a long time) or to forget (wipe the state at a boundary), while one fixed $\\gamma$ forgets "
    "everything at the same geometric rate whatever the content.")

BASE_NB_EDITS = [
    ("code-007", "# read with q = (1, 1), and copy both reads into the answers cell below.",
     "# read with q = (1, 1), and copy both reads into the answers cell below.\n"
     "S3 = S_ex + torch.outer(torch.tensor([0.0, 1.0]), torch.tensor([4.0, 2.0]))\n"
     "z3 = z_ex + torch.tensor([0.0, 1.0])\n"
     "q3 = torch.tensor([1.0, 1.0])\n"
     "print(\"S3 =\", S3.tolist(), \" z3 =\", z3.tolist(), \" read =\", ((q3 @ S3) / (q3 @ z3)).tolist())"),
    ("markdown-008", "example_1_1:\nyour_turn:\n", "example_1_1: [0.50, 3.00]\nyour_turn: [1.50, 2.50]\n"),
    ("code-029", "# attention_ops = ...   (about 4·t·d)\n# state_ops = ...       (about 4·d²)",
     "attention_ops = 4 * t * d   # t·d multiply-adds for the scores, t·d for the blend, 2 operations each\n"
     "state_ops = 4 * d * d       # d² multiply-adds for S + k vᵀ, d² for qᵀS\n"
     "print(\"attention / state at t = 100,000:\", attention_ops / state_ops)   # t / d = 781.25"),
    ("markdown-030", "cost_ratio_at_100k:\n", "cost_ratio_at_100k: 781×\n"),
    ("ex1-032", 'raise NotImplementedError("Exercise 1: replace this line with your code")',
     "g1 = torch.Generator().manual_seed(1)\n"
     "Q1 = torch.randn(10, 5, generator=g1, dtype=torch.float64)\n"
     "K1 = torch.randn(10, 5, generator=g1, dtype=torch.float64)\n"
     "V1 = torch.randn(10, 3, generator=g1, dtype=torch.float64)\n"
     "y_par1 = linear_attention_parallel(Q1, K1, V1)\n"
     "y_rec1 = linear_attention_recurrent(Q1, K1, V1)\n"
     "print(\"max |parallel - recurrent|:\", (y_par1 - y_rec1).abs().max().item())\n"
     "print(\"the two faces agree:\", torch.allclose(y_par1, y_rec1))"),
    ("ex1-why-035", "_Type your answer here._", EX1_WHY),
    ("ex2-037", 'raise NotImplementedError("Exercise 2: replace this line with your code")',
     "g2 = torch.Generator().manual_seed(2)\n"
     "Q2 = torch.randn(8, 4, generator=g2, dtype=torch.float64)\n"
     "K2 = torch.randn(8, 4, generator=g2, dtype=torch.float64)\n"
     "V2 = torch.randn(8, 3, generator=g2, dtype=torch.float64)\n"
     "by_hand = torch.tril(Q2 @ K2.transpose(-2, -1)) @ V2           # unnormalized causal attention\n"
     "print(\"gamma = 1 equals (Q Kᵀ ⊙ tril) V:\", torch.allclose(retention_parallel(Q2, K2, V2, gamma=1.0), by_hand))\n"
     "only_self = (Q2 * K2).sum(-1, keepdim=True) * V2               # (q_n·k_n) v_n\n"
     "print(\"gamma = 0 equals (q_n·k_n) v_n:\", torch.allclose(retention_parallel(Q2, K2, V2, gamma=0.0), only_self))"),
    ("ex2-gamma0-040", "_Type your answer here._", EX2_GAMMA0),
    ("ex3-042", 'raise NotImplementedError("Exercise 3: replace this line with your code")',
     "g3 = torch.Generator().manual_seed(3)\n"
     "Q3 = torch.randn(8, 4, generator=g3, dtype=torch.float64)\n"
     "K3 = torch.randn(8, 4, generator=g3, dtype=torch.float64)\n"
     "V3 = torch.randn(8, 3, generator=g3, dtype=torch.float64)\n"
     "gate3 = torch.full((8,), 0.1, dtype=torch.float64)\n"
     "gate3[[2, 5]] = 0.95                                            # high only at positions 2 and 5\n"
     "y_gated = unified_recurrence(Q3, K3, V3, \"gated\", gate=gate3)\n"
     "gamma_fixed = gate3.mean().item()                               # 0.3125\n"
     "y_fixed = unified_recurrence(Q3, K3, V3, \"retention\", gamma=gamma_fixed)\n"
     "differ = ((y_gated - y_fixed).abs().amax(dim=-1) > 1e-9).nonzero().flatten().tolist()\n"
     "print(f\"fixed gamma = {gamma_fixed}; gated and fixed outputs differ at positions {differ}\")\n"
     "for t in range(2, 8):\n"
     "    print(f\"t = {t}: weight of token 2's write k_2 v_2ᵀ in S_t = {gate3[3:t + 1].prod().item():.4g}\")"),
    ("ex3-selectivity-045", "_Type your answer here._", EX3_SELECTIVITY),
]


def build_base():
    if BASE.exists():
        shutil.rmtree(BASE)
    shutil.copytree(TEMPLATE, BASE, ignore=IGNORE)
    py = (TEMPLATE / PY).read_text()
    for start, raise_line, code in BASE_PY_EDITS:
        assert py.count(start) == 1, f"base: start anchor occurs {py.count(start)} times: {start!r}"
        i = py.index(start)
        j = py.index(raise_line, i) + len(raise_line)
        assert py.count(raise_line) == 1, raise_line
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


def mod(old, new):
    return ("py", old, new)


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
RP, RR, RC, MS, UR, GD = ("retention_parallel", "retention_recurrent", "retention_chunkwise", "multiscale_decays",
                          "unified_recurrence", "gated_delta_rule")

RUBRIC_IDS = [item["id"] for item in yaml.safe_load((TEMPLATE / "rubric.yaml").read_text())["items"]]
NOTEBOOK_IDS = ["ex1_runs", "ex2_runs", "ex3_runs", "example_1_1", "your_turn", "ex1_why", "ex2_gamma0",
                "ex3_selectivity", "cost_per_token"]
CODE_IDS = [i for i in RUBRIC_IDS if i not in NOTEBOOK_IDS]
assert set(NOTEBOOK_IDS) <= set(RUBRIC_IDS)

# ============================================================================= bugs: linear attention

case("bug_linrec_den_total_key_mass", "bug",
     "linear_attention_recurrent divides by z.sum(-1), the total key mass Σ_j Σ_c φ(k_j)_c, instead of "
     "φ(q_t)ᵀz_t: the query is left out of the denominator, so the weights of a row no longer sum to 1 "
     "(constant values do not come back, one token returns (φ(q)·φ(k) / Σφ(k)) v instead of v; the output of "
     "a token is still proportional to what it should be read from, and the state is still updated first and "
     "still running). The parallel face and the step are right.",
     ["normalizer", "linear_recurrent"],
     [fix(LR, ("        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z, (..., 1)\n",
               "        den = z.sum(dim=-1, keepdim=True)                        # the key mass seen so far, Σ z\n"))])

case("bug_linrec_whole_sequence_z", "bug",
     "linear_attention_recurrent precomputes the normalizer once as z = φ(K).sum(dim=-2) over the WHOLE sequence "
     "and never updates it in the loop: the numerator is still the running φ(q_t)ᵀS_t, but every row divides by "
     "φ(q_t)·Σ_{all j} φ(k_j), so early rows are shrunk and change when later keys change (not causal); only the "
     "last row is right.",
     ["running_normalizer", "causal_mask", "linear_recurrent"],
     [fix(LR, ("    z = torch.zeros(m, dtype=V.dtype, device=V.device)\n",
               "    z = phi_k.sum(dim=-2)                                        # Σ_j φ(k_j), the normalizer\n"),
          ("        z = z + k_t                                              # z ← z + φ(k_t)\n", ""))])

case("bug_linpar_strictly_lower_mask", "bug",
     "linear_attention_parallel keeps only j < i with .tril(diagonal=-1) ('attend to the past'): token i never "
     "sees its own key and value (the recurrent face updates before it reads), so row 0 is 0/0 = NaN and every "
     "later row misses its own token; still causal, rows ≥ 1 still normalized.",
     ["update_before_read", "linear_parallel"],
     [fix(LP, ("    causal = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()\n",
               "    causal = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril(diagonal=-1)\n"))])

case("bug_linpar_relu_feature_map", "bug",
     "linear_attention_parallel uses F.relu(Q), F.relu(K) as φ (the pitfalls list ReLU as a non-negative map) "
     "instead of the module's feature_map = elu + 1: a different function from the two other faces, and for "
     "very negative queries or keys every score is 0, so the row divides 0 by 0 (NaN).",
     ["feature_map", "linear_parallel"],
     [fix(LP, ("    phi_q, phi_k = feature_map(Q), feature_map(K)                # φ on queries and keys only\n",
               "    phi_q, phi_k = F.relu(Q), F.relu(K)                          # a non-negative feature map\n"))])

case("bug_linpar_dot_T_batched", "bug",
     "linear_attention_parallel transposes the keys with phi_k.T: right for one unbatched (L, m) sequence (the "
     "notebook and Exercise 1 pass), but on (..., L, m) .T reverses ALL dims (a deprecation warning), so batched "
     "or multi-head inputs raise in the matmul (or give garbage where the sizes happen to match).",
     ["linear_parallel"],
     [fix(LP, ("    A = phi_q @ phi_k.transpose(-2, -1)                          # (..., L, L): A[i, j] = φ(q_i)·φ(k_j)\n",
               "    A = phi_q @ phi_k.T                                          # (L, L): A[i, j] = φ(q_i)·φ(k_j)\n"))])

case("bug_step_state_stored_dv_by_m", "bug",
     "LinearAttentionState keeps its state transposed: __init__ makes S = zeros(d_v, m), step adds v φ(k)ᵀ and "
     "reads S φ(q). The outputs are right, but the documented interface says the object holds S (m × d_v), a sum "
     "of φ(k) vᵀ: state.S is v kᵀ of shape (..., d_v, m), the orientation the rubric rules out.",
     ["kv_orientation"],
     [mod("        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)\n",
          "        self.S = torch.zeros(d_v, m)                             # (d_v, m): one row per value channel\n"),
      fix(ST, ("        self.S = S + phi_k.unsqueeze(-1) * v.unsqueeze(-2)       # update first: S + φ(k) vᵀ (a new tensor)\n",
               "        self.S = S + v.unsqueeze(-1) * phi_k.unsqueeze(-2)       # update first: S + v φ(k)ᵀ\n"),
          ("        num = (phi_q.unsqueeze(-1) * self.S).sum(dim=-2)         # φ(q)ᵀ S\n",
           "        num = (self.S * phi_q.unsqueeze(-2)).sum(dim=-1)         # S φ(q)\n"))])

case("bug_step_keeps_token_history", "bug",
     "LinearAttentionState.step keeps every φ(k) and v it has seen in two lists (a KV cache) and rebuilds S and z "
     "from the whole history at each step: the outputs (and S, z) are exact, but memory and work per step grow "
     "with t, which is what the state was meant to avoid.",
     ["recurrent_cost", "state_step"],
     [mod("        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)\n",
          "        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)\n"
          "        self.keys, self.values = [], []                          # every token seen so far\n"),
      alt(ST, '''        phi_q, phi_k = feature_map(q), feature_map(k)
        self.keys.append(phi_k)
        self.values.append(v)
        Ks = torch.stack(self.keys, dim=-2)                      # (..., t+1, m)
        Vs = torch.stack(self.values, dim=-2)                    # (..., t+1, d_v)
        self.S = Ks.transpose(-2, -1) @ Vs                       # Σ_j φ(k_j) v_jᵀ over the history
        self.z = Ks.sum(dim=-2)
        num = (phi_q.unsqueeze(-1) * self.S).sum(dim=-2)         # φ(q)ᵀ S
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)         # φ(q)ᵀ z
        return num / den
''')])

# ============================================================================= bugs: gamma, retention

case("bug_gamma_nan_slips_through", "bug",
     "as_gamma raises only if (g < 0).any() or (g > 1).any(): 1.5 and -0.1 raise, but every comparison with NaN "
     "is False, so γ = NaN is accepted and the retention forms return NaN instead of raising ValueError.",
     ["gamma_validation"],
     [fix(ASG, ("    inside = (g >= 0) & (g <= 1)                                 # False for NaN too\n"
                "    if not bool(inside.all()):\n",
                "    if bool((g < 0).any()) or bool((g > 1).any()):\n"))])

case("bug_gamma_checks_python_floats_only", "bug",
     "as_gamma validates only a Python number (isinstance(gamma, (int, float)) and not 0 <= gamma <= 1): floats "
     "1.5, -0.1 and NaN raise, but a tensor of decays (per head, or a 0-d tensor) is trusted as given, so "
     "torch.tensor([0.5, 1.5]) or torch.tensor(-0.1) runs every retention form without a ValueError.",
     ["gamma_validation"],
     [fix(ASG, ("    inside = (g >= 0) & (g <= 1)                                 # False for NaN too\n"
                "    if not bool(inside.all()):\n",
                "    if isinstance(gamma, (int, float)) and not 0 <= gamma <= 1:  # a tensor of decays is trusted\n"))])

case("bug_retpar_scores_K_Qt", "bug",
     "retention_parallel computes the scores as K Qᵀ instead of Q Kᵀ: entry [n, m] is k_n·q_m, so "
     "o_n = Σ_{m≤n} γ^(n-m) (k_n·q_m) v_m. Still causal and still decayed (and right at γ = 0, where only the "
     "diagonal q_n·k_n survives), but a different function from the recurrent and chunkwise faces.",
     ["retention_parallel"],
     [fix(RP, ("    return ((Q @ K.transpose(-2, -1)) * D) @ V\n",
               "    return ((K @ Q.transpose(-2, -1)) * D) @ V\n"))])

case("bug_retrec_forgets_decay", "bug",
     "retention_recurrent validates γ but never uses it: S ← S + k_tᵀ v_t (linear attention's update without φ "
     "and z), so the recurrent face is undecayed retention (right only at γ = 1).",
     ["decay_every_form", "retention_recurrent"],
     [fix(RR, ("        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # decay, then add k_tᵀ v_t\n",
               "        S = S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)       # add k_tᵀ v_t\n"))])

case("bug_retrec_reuses_parallel_form", "bug",
     "retention_recurrent returns ((Q Kᵀ) ⊙ D) V with decay_matrix ('the forms are equal anyway'): the numbers "
     "are exact, but the recurrent face builds an L × L matrix and carries no state, so its memory and work "
     "grow quadratically in L.",
     ["recurrent_cost", "retention_recurrent"],
     [alt(RR, '''    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    D = decay_matrix(g, Q.shape[-2])                             # γ^(n-m) for every pair m <= n
    return ((Q @ K.transpose(-2, -1)) * D) @ V                   # the same numbers as the running state
''')])

case("bug_chunk_intra_abs_distance", "bug",
     "retention_chunkwise weights the intra-chunk scores by γ^|j-s| (abs() to avoid negative powers) instead of "
     "decay_matrix: nothing zeroes s > j, so inside a chunk every token reads the LATER tokens of its chunk too "
     "(not causal; right only for chunk_size = 1 or γ = 0). The cross term and the carried R are right.",
     ["causal_mask", "retention_chunkwise"],
     [fix(RC, ("        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n",
               "        dist = (j - j.transpose(-2, -1)).abs()                   # |j - s| inside the chunk\n"
               "        intra = ((q @ k.transpose(-2, -1)) * g ** dist) @ v\n"))])

case("bug_chunk_intra_no_decay", "bug",
     "retention_chunkwise masks the intra-chunk scores causally with .tril() but forgets the decay inside the "
     "chunk: intra = tril(q kᵀ) v, i.e. γ^(j-s) replaced by 1 (the cross term and R are decayed correctly), so "
     "the chunkwise face differs from the others whenever a chunk holds 2 or more tokens and γ < 1.",
     ["decay_every_form", "retention_chunkwise"],
     [fix(RC, ("        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n",
               "        intra = (q @ k.transpose(-2, -1)).tril() @ v               # causal inside the chunk\n"))])

case("bug_chunk_cross_power_j", "bug",
     "retention_chunkwise scales the cross-chunk term by γ^j instead of γ^(j+1) (local index j = 0 .. n-1): every "
     "token after the first chunk reads the carried state R one decay step too strong; outputs of the first "
     "chunk and the returned state are right.",
     ["chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n",
               "        cross = g ** j * (q @ R)                                 # γ^j q_j R\n"))])

case("bug_chunk_write_power_n_minus_s", "bug",
     "retention_chunkwise carries R ← γ^n R + Σ_s γ^(n-s) k_sᵀ v_s (exponent n - s instead of n - 1 - s): each "
     "chunk's writes enter R one decay step too weak, so every chunk after the first reads a wrong R and the "
     "returned state is γ × too small in its last chunk's part (wrong for every chunk size, short last chunk "
     "included).",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n",
               "        R = g ** n * R + (k * g ** (n - j)).transpose(-2, -1) @ v       # γ^n R + Σ γ^(n-s) k_sᵀ v_s\n"))])

case("bug_chunk_state_uses_chunk_size", "bug",
     "retention_chunkwise updates R with chunk_size where the real length n belongs: R ← γ^B R + Σ γ^(B-1-s) k_sᵀ v_s "
     "with B = chunk_size even for a short last chunk. Every output is exact (the R after the last chunk is never "
     "read), but the state returned with return_state=True is wrong by γ^(B-n) whenever the last chunk is short "
     "(chunk_size not dividing L, or chunk_size > L).",
     ["partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n",
               "        R = g ** chunk_size * R + (k * g ** (chunk_size - 1 - j)).transpose(-2, -1) @ v   # γ^B R + ...\n"))])

case("bug_chunk_full_scores_sliced", "bug",
     "retention_chunkwise computes all scores Q Kᵀ once before the loop and slices each chunk's block out of it: "
     "outputs and state are exact, but the form holds an L × L matrix, so its memory and work are quadratic in "
     "L; the items that require the chunkwise cost go with it.",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("    outs = []\n",
               "    scores = Q @ K.transpose(-2, -1)                             # every q·k, computed once\n"
               "    outs = []\n"),
          ("        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v\n",
           "        intra = (scores[..., c0:c0 + n, c0:c0 + n] * decay_matrix(g, n)) @ v\n"))])

case("bug_multiscale_exponent_sign", "bug",
     "multiscale_decays writes 1 - 2.0 ** -(5 - h), i.e. 1 - 2^(h-5), instead of 1 - 2^(-5-h): the first head is "
     "right (0.96875) but the decays then shrink (0.9375, 0.875, 0.75, …) instead of approaching 1, and head 5 "
     "gets γ = 0.",
     ["multiscale"],
     [fix(MS, ("    return 1 - 2.0 ** (-5 - h)\n",
               "    return 1 - 2.0 ** -(5 - h)\n"))])

# ============================================================================= bugs: the unified recurrence

case("bug_unified_state_in_float64", "bug",
     "unified_recurrence accumulates its state in double precision (S = zeros(..., dtype=torch.float64)): float64 "
     "inputs are unchanged, but for float32 inputs S and every y_t are promoted, so the output comes back float64 "
     "instead of float32 (the numbers themselves are right; the public float32 test does not call this function).",
     ["keeps_dtype"],
     [fix(UR, ("    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)\n",
               "    S = torch.zeros(m, d_v, dtype=torch.float64, device=V.device)   # accumulate in double precision\n"))])

case("bug_unified_linear_mode_is_linear_attention", "bug",
     "unified_recurrence's mode 'linear' returns linear_attention_recurrent(Q, K, V) (elu + 1 feature map and the "
     "normalizer) instead of the bare recurrence with A_t = 1 that the docstring asks for: the retention and gated "
     "modes are right, the linear mode is a different function ((Q Kᵀ ⊙ tril) V is expected).",
     ["unified_modes"],
     [fix(UR, ("    if mode == \"linear\":\n"
               "        A = torch.ones(L, dtype=V.dtype, device=V.device)\n",
               "    if mode == \"linear\":\n"
               "        return linear_attention_recurrent(Q, K, V)               # A_t = 1 is linear attention\n"))])

case("bug_unified_unknown_mode_runs_linear", "bug",
     "unified_recurrence treats every mode other than 'retention' and 'gated' as linear (the last branch is "
     "`else: A = ones`): the three modes are right, but a misspelt or unknown mode (\"softmax\", \"Linear\") runs "
     "silently instead of raising ValueError.",
     ["unified_modes"],
     [fix(UR, ("    if mode == \"linear\":\n"
               "        A = torch.ones(L, dtype=V.dtype, device=V.device)\n"
               "    elif mode == \"retention\":\n",
               "    if mode == \"retention\":\n"),
          ("    else:\n"
           "        raise ValueError(f\"unknown mode {mode!r}: use 'linear', 'retention' or 'gated'\")\n",
           "    else:                                                        # \"linear\"\n"
           "        A = torch.ones(L, dtype=V.dtype, device=V.device)\n"))])

case("bug_delta_predicts_with_query", "bug",
     "gated_delta_rule (the OPTIONAL, ungraded extension) predicts what the state returns with the query q_t "
     "instead of the key k_t (pred = q_tᵀ S'), so it writes the wrong error unless q_t = k_t (the public optional "
     "test queries with the keys and still passes). Every graded function and the notebook are base's: a fair "
     "grader takes no points for the optional extension.",
     [],
     [fix(GD, ("        pred = (k_t.unsqueeze(-1) * S).sum(dim=-2)               # what the decayed state returns for k_t\n",
               "        pred = (Q[..., t, :].unsqueeze(-1) * S).sum(dim=-2)      # what the decayed state returns\n"))])

# ============================================================================= bugs: the notebook

case("bug_nb_your_turn_reads_with_old_query", "bug",
     "Your-turn cell: the third token is folded in correctly (S3 = [[2, 4], [4, 6]], z3 = (2, 2)) but the state is "
     "read with the example's query (1, 2) instead of (1, 1): (10, 16) / 6, so the answers cell says "
     "your_turn: [1.67, 2.67] (right: [1.50, 2.50]).",
     ["your_turn"],
     [nbedit("code-007", "q3 = torch.tensor([1.0, 1.0])\n", "q3 = q_ex                                  # the query\n"),
      nbedit("markdown-008", "your_turn: [1.50, 2.50]", "your_turn: [1.67, 2.67]")])

case("bug_nb_example_1_1_not_divided", "bug",
     "Answers cell: example_1_1 is written as the numerator qᵀS = (2, 12) without dividing by q·z = 4: "
     "example_1_1: [2.00, 12.00] (right: [0.50, 3.00]); everything else as base.",
     ["example_1_1"],
     [nbedit("markdown-008", "example_1_1: [0.50, 3.00]", "example_1_1: [2.00, 12.00]")])

case("bug_nb_cost_counts_memory", "bug",
     "Cost cell: compares what is STORED, not the work per token: the KV cache's 2·t·d numbers against the state's "
     "d² + d, 2·100000·128 / 16512 = 1550.4, and the answers cell says cost_ratio_at_100k: 1550× (the question "
     "asks for operations, 4td / 4d² = t/d = 781×).",
     ["cost_per_token"],
     [nbedit("code-029",
             "attention_ops = 4 * t * d   # t·d multiply-adds for the scores, t·d for the blend, 2 operations each\n"
             "state_ops = 4 * d * d       # d² multiply-adds for S + k vᵀ, d² for qᵀS\n",
             "attention_ops = 2 * t * d   # the KV cache: t keys and t values of width d\n"
             "state_ops = d * d + d       # the state S and the normalizer z\n"),
      nbedit("code-029", "   # t / d = 781.25", ""),
      nbedit("markdown-030", "cost_ratio_at_100k: 781×", "cost_ratio_at_100k: 1550×")])

case("bug_nb_ex1_redraws_V1", "bug",
     "Exercise 1 computes y_par1 and y_rec1, then draws new values into V1 to 'try again' and only prints the "
     "second comparison: the two faces still agree, but y_par1 and y_rec1 are no longer the module's outputs on "
     "(Q1, K1, V1), so the locked check cell fails.",
     ["ex1_runs"],
     [nbedit("ex1-032",
             "print(\"the two faces agree:\", torch.allclose(y_par1, y_rec1))",
             "print(\"the two faces agree:\", torch.allclose(y_par1, y_rec1))\n"
             "V1 = torch.randn(10, 3, generator=g1, dtype=torch.float64)      # try again with other values\n"
             "print(\"again:\", torch.allclose(linear_attention_parallel(Q1, K1, V1), linear_attention_recurrent(Q1, K1, V1)))")])

case("bug_nb_ex2_only_self_is_V", "bug",
     "Exercise 2 sets only_self = V2 ('with γ = 0 each token sees only itself, so it gets its own value back'), "
     "forgetting the score q_n·k_n: the cell runs (it prints False for the γ = 0 comparison) but the locked check "
     "rejects only_self. The written γ = 0 answer is base's (right).",
     ["ex2_runs"],
     [nbedit("ex2-037",
             "only_self = (Q2 * K2).sum(-1, keepdim=True) * V2               # (q_n·k_n) v_n\n",
             "only_self = V2                                                  # each token sees only itself\n")])

case("bug_nb_ex3_gate_as_column", "bug",
     "Exercise 3 builds the gate as a column, torch.full((8, 1), 0.1) with rows 2 and 5 set to 0.95: "
     "unified_recurrence reads its last axis as the sequence (length 1, not 8) and raises ValueError, so the "
     "exercise cell stops before y_gated exists and the check cell fails.",
     ["ex3_runs"],
     [nbedit("ex3-042", "gate3 = torch.full((8,), 0.1, dtype=torch.float64)\n",
             "gate3 = torch.full((8, 1), 0.1, dtype=torch.float64)            # one gate per position\n")])

case("bug_nb_ex1_why_approximation", "bug",
     "Exercise 1 written answer: says the faces agree because both approximate softmax attention closely (the "
     "elu + 1 kernel is close to exp), i.e. only approximately; it never names the linearity/associativity of "
     "the sum over j ≤ i that lets φ(q_i) be pulled out and S_i be kept as a prefix sum.",
     ["ex1_why"],
     [nbedit("ex1-why-035", EX1_WHY,
             "They must agree because both are approximations of the same softmax attention: elu(x) + 1 is close "
             "to exp(x) for small x, so the parallel scores and the recurrent running state both approximate "
             "exp(q·k) and give nearly the same outputs, up to the approximation error and rounding.")])

case("bug_nb_ex2_gamma0_says_no_forgetting", "bug",
     "Exercise 2 written answer: claims that with γ = 0 nothing decays any more, so every past token keeps weight "
     "1 and retention becomes the plain causal sum (Q Kᵀ ⊙ tril) V (that is γ = 1); the right answer is that "
     "D becomes the identity and o_n = (q_n·k_n) v_n, each token seeing only itself.",
     ["ex2_gamma0"],
     [nbedit("ex2-gamma0-040", EX2_GAMMA0,
             "With $\\gamma = 0$ there is no decay left to apply, so no token is ever forgotten: every past token "
             "keeps weight 1 and retention becomes plain unnormalized causal attention, $(QK^\\top \\odot "
             "\\text{tril})\\,V$, the same as linear attention with the identity feature map.")])

case("bug_nb_ex3_says_gate_keeps_own_write", "bug",
     "Exercise 3 written answer: says the high gate at t = 2 keeps token 2's OWN write, with weight 0.95 at t = 3 and "
     "0.90 at t = 4, and that the gated and fixed-γ outputs differ only at the high positions 2 and 5; A_t scales "
     "the old state S_(t-1), so token 2's write has weight A_3 = 0.10 at t = 3 and 0.010 at t = 4, and the outputs "
     "differ at every t ≥ 1.",
     ["ex3_selectivity"],
     [nbedit("ex3-selectivity-045", EX3_SELECTIVITY,
             "The high gate at $t = 2$ keeps token 2's own write $k_2 v_2^\\top$ in memory: it is still there with "
             "weight 0.95 at $t = 3$ and $0.95^2 \\approx 0.90$ at $t = 4$. The gated and fixed-$\\gamma$ outputs "
             "differ only at the two high positions, 2 and 5, where the gate is not the mean. An input-dependent "
             "gate lets the model choose which tokens to remember, which a single fixed $\\gamma$ cannot.")])

# ============================================================================= correct alternatives

case("alt_linpar_einsum_cumsum_den", "alternative",
     "linear_attention_parallel with einsum: A = einsum('...im,...jm->...ij').tril(), numerator "
     "einsum('...ij,...jd->...id', A, V), and the denominator from the running normalizer itself, "
     "φ(q_i)·cumsum(φ(K))_i, instead of the row sums of A (the same Σ_{j≤i} φ(q_i)·φ(k_j)).",
     [],
     [alt(LP, '''    fq, fk = feature_map(Q), feature_map(K)
    A = torch.einsum("...im,...jm->...ij", fq, fk).tril()        # causal scores φ(q_i)·φ(k_j), j <= i
    num = torch.einsum("...ij,...jd->...id", A, V)
    z = fk.cumsum(dim=-2)                                        # z_i = Σ_{j<=i} φ(k_j)
    den = torch.einsum("...im,...im->...i", fq, z).unsqueeze(-1) # φ(q_i)ᵀ z_i
    return num / den
''')])

case("alt_linpar_ones_column", "alternative",
     "linear_attention_parallel appends a column of ones to V and does ONE masked matmul: the last output column "
     "is the row sum Σ_j A[i, j] = φ(q_i)ᵀz_i, the others the numerator; divide and drop the extra column.",
     [],
     [alt(LP, '''    fq, fk = feature_map(Q), feature_map(K)
    A = torch.tril(fq @ fk.transpose(-2, -1))                    # masked scores
    V1 = torch.cat([V, torch.ones_like(V[..., :1])], dim=-1)     # (..., L, d_v + 1)
    out = A @ V1                                                 # last column: Σ_j A[i, j]
    return out[..., :-1] / out[..., -1:]
''')])

case("alt_linrec_preallocated_einsum", "alternative",
     "linear_attention_recurrent pre-broadcasts S and z to the leading dims, updates them in place (+=) with "
     "einsum outer products and writes each y_t into a preallocated output (no list, no stack); still one token "
     "at a time, updated before read.",
     [],
     [alt(LR, '''    fq, fk = feature_map(Q), feature_map(K)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    out = V.new_empty(*lead, L, d_v)
    S = V.new_zeros(*lead, m, d_v)
    z = V.new_zeros(*lead, m)
    for t in range(L):
        S += torch.einsum("...m,...d->...md", fk[..., t, :], V[..., t, :])
        z += fk[..., t, :]
        num = torch.einsum("...m,...md->...d", fq[..., t, :], S)
        out[..., t, :] = num / torch.einsum("...m,...m->...", fq[..., t, :], z).unsqueeze(-1)
    return out
''')])

case("alt_step_einsum_expanded", "alternative",
     "LinearAttentionState.step expands the stored state to the token's leading dims first, then updates with "
     "einsum('...m,...d->...md') and reads with einsum('...m,...md->...d'); S stays (..., m, d_v), z (..., m).",
     [],
     [alt(ST, '''        fq, fk = feature_map(q), feature_map(k)
        lead = torch.broadcast_shapes(q.shape[:-1], k.shape[:-1], v.shape[:-1], self.z.shape[:-1])
        m, d_v = self.S.shape[-2:]
        S = self.S.to(dtype=v.dtype, device=v.device).expand(*lead, m, d_v)
        z = self.z.to(dtype=v.dtype, device=v.device).expand(*lead, m)
        self.S = S + torch.einsum("...m,...d->...md", fk, v)     # fold the token in first
        self.z = z + fk
        return torch.einsum("...m,...md->...d", fq, self.S) / (fq * self.z).sum(dim=-1, keepdim=True)
''')])

case("alt_gamma_isnan_check", "alternative",
     "as_gamma rejects NaN explicitly (torch.isnan(g).any()) besides g < 0 and g > 1, and adds the trailing "
     "dims with g[..., None, None].",
     [],
     [alt(ASG, '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if bool(torch.isnan(g).any()) or bool((g < 0).any()) or bool((g > 1).any()):
        raise ValueError(f"gamma must be a number in [0, 1], got {gamma!r}")
    return g[..., None, None]
''')])

case("alt_decay_mask_multiply", "alternative",
     "decay_matrix multiplies γ^(clamped distance) by a float lower-triangular mask instead of torch.where: the "
     "upper entries are γ^0 = 1 times 0, never inf, and 0**0 = 1 keeps the diagonal at γ = 0.",
     [],
     [alt(DM, '''    n = torch.arange(L, device=gamma.device, dtype=gamma.dtype)
    dist = n.unsqueeze(-1) - n                                   # n - m
    lower = (dist >= 0).to(gamma.dtype)                          # 1 on and below the diagonal
    return gamma ** dist.clamp(min=0) * lower
''')])

case("alt_retpar_einsum", "alternative",
     "retention_parallel written with two einsums, scores '...nm,...km->...nk' times D, then '...nk,...kd->...nd'.",
     [],
     [alt(RP, '''    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    scores = torch.einsum("...nm,...km->...nk", Q, K) * D
    return torch.einsum("...nk,...kd->...nd", scores, V)
''')])

case("alt_retrec_decay_after_read", "alternative",
     "retention_recurrent adds k_tᵀ v_t, reads o_t = q_t S, and only then decays S by γ for the next token: "
     "decaying at the end of step t-1 is the same as decaying at the start of step t, so every o_t equals base's "
     "(also at γ = 0 and γ = 1, and per head).",
     [],
     [alt(RR, '''    g = as_gamma(gamma, Q)
    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    S = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)
    ys = []
    for t in range(L):
        S = S + K[..., t, :, None] * V[..., t, None, :]          # add k_tᵀ v_t
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
        S = g * S                                                # decay now, ready for token t+1
    if not ys:
        lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
        return V.new_zeros(*lead, 0, d_v)
    return torch.stack(ys, dim=-2)
''')])

case("alt_chunk_split_einsum", "alternative",
     "retention_chunkwise iterates over zip(Q.split(B), K.split(B), V.split(B)) (torch.split leaves the short "
     "last chunk as it is), starts R pre-broadcast to the leading dims, and writes the intra, cross and carry "
     "terms with einsum; same γ^(j+1) and γ^(n-1-s) with the real n.",
     [],
     [alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be an int >= 1, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    m, d_v = K.shape[-1], V.shape[-1]
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], g.shape[:-2])
    R = V.new_zeros(*lead, m, d_v)
    outs = []
    for q, k, v in zip(Q.split(chunk_size, dim=-2), K.split(chunk_size, dim=-2), V.split(chunk_size, dim=-2)):
        n = q.shape[-2]
        pos = torch.arange(n, dtype=V.dtype, device=V.device).unsqueeze(-1)   # (n, 1)
        inner = torch.einsum("...jm,...sm->...js", q, k) * decay_matrix(g, n)
        outs.append(inner @ v + g ** (pos + 1) * torch.einsum("...jm,...md->...jd", q, R))
        R = g ** n * R + torch.einsum("...sm,...sd->...md", k * g ** (n - 1 - pos), v)
    out = torch.cat(outs, dim=-2) if outs else V.new_zeros(*lead, 0, d_v)
    return (out, R) if return_state else out
''')])

case("alt_chunk_state_kept_transposed", "alternative",
     "retention_chunkwise carries the state transposed internally, Rᵀ (d_v × m): the cross term reads "
     "q (Rᵀ)ᵀ, the carry is Rᵀ ← γ^n Rᵀ + vᵀ (k ⊙ γ^(n-1-s)), and the returned state is transposed back, so the "
     "documented (..., m, d_v) interface holds.",
     [],
     [fix(RC, ("    R = torch.zeros(m, d_v, dtype=V.dtype, device=V.device)\n",
               "    Rt = torch.zeros(d_v, m, dtype=V.dtype, device=V.device)     # the carried state, kept as Rᵀ\n"),
          ("        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n",
           "        cross = g ** (j + 1) * (q @ Rt.transpose(-2, -1))        # γ^(j+1) q_j R\n"),
          ("        R = g ** n * R + (k * g ** (n - 1 - j)).transpose(-2, -1) @ v   # γ^n R + Σ γ^(n-1-s) k_sᵀ v_s\n",
           "        Rt = g ** n * Rt + v.transpose(-2, -1) @ (k * g ** (n - 1 - j))   # (γ^n R + Σ γ^(n-1-s) k_sᵀ v_s)ᵀ\n"),
          ("        return out, R.expand(*lead, m, d_v).clone()\n",
           "        return out, Rt.transpose(-2, -1).expand(*lead, m, d_v).clone()\n"))])

case("alt_multiscale_list", "alternative",
     "multiscale_decays from a Python list, torch.tensor([1 - 2.0 ** (-5 - h) for h in range(num_heads)]) (the "
     "default float dtype, shape (num_heads,)).",
     [],
     [alt(MS, '''    return torch.tensor([1 - 2.0 ** (-5 - h) for h in range(num_heads)])
''')])

case("alt_unified_einsum_prebroadcast", "alternative",
     "unified_recurrence checks the mode first (ValueError for any other), builds the gate sequence A "
     "(retention: as_gamma(γ)[..., 0] times ones(L)), pre-broadcasts S and the output to all leading dims and "
     "runs the loop with einsum, S ← A_t S + k_tᵀ v_t, y_t = q_t S written into a preallocated output.",
     [],
     [alt(UR, '''    L, m, d_v = Q.shape[-2], K.shape[-1], V.shape[-1]
    if mode not in ("linear", "retention", "gated"):
        raise ValueError(f"mode must be 'linear', 'retention' or 'gated', got {mode!r}")
    if mode == "linear":
        A = V.new_ones(L)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        A = as_gamma(gamma, V)[..., 0] * V.new_ones(L)           # (..., L)
    else:
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
        if A.dim() == 0 or A.shape[-1] != L:
            raise ValueError(f"gate must end in the sequence length {L}, got {tuple(A.shape)}")
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2], A.shape[:-1])
    out = V.new_zeros(*lead, L, d_v)
    S = V.new_zeros(*lead, m, d_v)
    for t in range(L):
        S = torch.einsum("...,...md->...md", A[..., t], S) + torch.einsum("...m,...d->...md", K[..., t, :], V[..., t, :])
        out[..., t, :] = torch.einsum("...m,...md->...d", Q[..., t, :], S)
    return out
''')])

# ============================================================================= stubs

STUB_HEAD = '''"""Linear attention and retention: {what}."""
import torch
import torch.nn.functional as F


def feature_map(x):
    """φ(x) = elu(x) + 1 (Katharopoulos et al., 2020)."""
    return F.elu(x) + 1
'''

STUB_BODY = '''

def _like(Q, K, V):
    lead = torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    return FILL(*lead, Q.shape[-2], V.shape[-1], dtype=V.dtype)


def linear_attention_parallel(Q, K, V):
    return _like(Q, K, V)


def linear_attention_recurrent(Q, K, V):
    return _like(Q, K, V)


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)
        self.z = torch.zeros(m)

    def step(self, q, k, v):
        return FILL(*v.shape, dtype=v.dtype)


def as_gamma(gamma, like):
    g = torch.as_tensor(gamma, dtype=like.dtype)
    return FILL(*g.shape, 1, 1, dtype=like.dtype)


def decay_matrix(gamma, L):
    return FILL(*gamma.shape[:-2], L, L, dtype=gamma.dtype)


def retention_parallel(Q, K, V, gamma):
    return _like(Q, K, V)


def retention_recurrent(Q, K, V, gamma):
    return _like(Q, K, V)


def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):
    out = _like(Q, K, V)
    if return_state:
        return out, FILL(*out.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)
    return out


def multiscale_decays(num_heads):
    return FILL(num_heads)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
    return _like(Q, K, V)


def gated_delta_rule(Q, K, V, alpha, beta):
    return _like(Q, K, V)
'''

STUB_ZEROS = STUB_HEAD.replace("{what}", "every function returns zeros of the right shape") + \
    STUB_BODY.replace("FILL", "torch.zeros")
STUB_RANDOM = STUB_HEAD.replace("{what}", "every function returns random numbers of the right shape") + \
    STUB_BODY.replace("FILL", "torch.randn")

case("stub_template_untouched", "stub",
     "the untouched template folder: every stub raises NotImplementedError, the exercise cells raise, the answers "
     "cells and the written answers are empty.",
     RUBRIC_IDS, source=TEMPLATE)

case("stub_zeros_module_base_notebook", "stub",
     "linear_attention.py replaced by a module whose every function returns zeros of the right shape (feature_map "
     "as provided, as_gamma never raises); the notebook is base's. Loses every code item and the three exercise "
     "items (their forms do not work); the hand-worked answers and the written answers are base's and stand.",
     CODE_IDS + ["ex1_runs", "ex2_runs", "ex3_runs"], module=STUB_ZEROS)

case("stub_random_template_notebook", "stub",
     "every function returns torch.randn tensors of the right shape (multiscale_decays too, as_gamma never "
     "raises); the template notebook left as given (exercise cells raise, answers empty).",
     RUBRIC_IDS, module=STUB_RANDOM, source=TEMPLATE)


# ============================================================================= build

BASE_ABOUT = ("careful complete submission: every function written from its docstring (update-before-read running "
              "states in the recurrent forms and the step, masked-matmul parallel faces, per-head γ, γ validated "
              "with NaN rejected, chunkwise with the real length of a short last chunk and no L × L matrix, "
              "unified recurrence with ValueError for unknown modes, the optional gated delta rule decay-first); "
              "notebook: your-turn and cost cells, the three exercises (float64, m ≠ d_v), answers "
              "example_1_1 [0.50, 3.00], your_turn [1.50, 2.50], cost 781×, three written answers")


def build():
    base_nb = (BASE / NB).read_text()
    template_py = (TEMPLATE / PY).read_text()
    entries = [dict(name="base", kind="alternative", about=BASE_ABOUT, should_lose=[])]
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
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
            assert py != BASE_PY or (dest / NB).read_text() != base_nb, c["name"]
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=lose))
    assert (HERE / "stub_template_untouched" / PY).read_text() == template_py
    assert (HERE / "stub_template_untouched" / NB).read_text() == (TEMPLATE / NB).read_text()
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 19, linear-attention-basics: one entry per case folder.",
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
