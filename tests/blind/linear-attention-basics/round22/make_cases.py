"""Build the round-22 blind corpus: base/ from the student template, every case folder from base/, corpus.yaml.

Format follows round 21's builder (anchored edits, corpus.yaml layout); the base implementation, the notebook
answers and every case are new. Every edit is exact and anchored; a missing or ambiguous anchor stops the build:

- base/: the template folder copied; in linear_attention.py the text from each stub's first hint comment through
  its `raise NotImplementedError(...)` line is replaced by a body (the anchor must occur once); the student cells
  of the notebook are edited by cell id.
- `fix(func, (old, new), ...)`: each `old` occurs exactly once inside `func`'s body in base's module (the body
  after the docstring, located with `ast`).
- `alt(func, new_body)`: replaces that whole body.
- the stub starts from the template module, not from base.

Notebooks are written the way the template is (json indent 1, UTF-8, trailing newline), without outputs. The
build is deterministic: rerunning it rewrites byte-identical files.

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
     '''    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    A = torch.tril(phi_q @ phi_k.transpose(-2, -1))              # (..., L, L), zero where j > i
    return (A @ V) / A.sum(dim=-1, keepdim=True)                 # row sum = φ(q_i)ᵀ z_i'''),
    ("    # 1. apply feature_map to Q and K\n    # 2. start S",
     'raise NotImplementedError("linear_attention_recurrent: write the running-state loop")',
     '''    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    m, d_v = K.shape[-1], V.shape[-1]
    S = V.new_zeros(m, d_v)                                      # grows the leading dims on the first update
    z = V.new_zeros(m)
    out = []
    for t in range(Q.shape[-2]):
        k_t, v_t, q_t = phi_k[..., t, :], V[..., t, :], phi_q[..., t, :]
        S = S + k_t[..., :, None] * v_t[..., None, :]            # S += φ(k_t) v_tᵀ   (write first ...)
        z = z + k_t                                              # z += φ(k_t)
        num = (q_t[..., None, :] @ S).squeeze(-2)                # (... then read) φ(q_t)ᵀ S
        den = (q_t * z).sum(dim=-1, keepdim=True)                # φ(q_t)ᵀ z
        out.append(num / den)
    if not out:                                                  # L = 0
        return V.clone()
    return torch.stack(out, dim=-2)'''),
    ("        # Same three lines as one iteration",
     'raise NotImplementedError("LinearAttentionState.step: update the state, then read it")',
     '''        phi_q = feature_map(q)
        phi_k = feature_map(k)
        # new tensors (no in-place add): the state takes v's dtype and grows the leading dims
        self.S = self.S.to(v) + phi_k[..., :, None] * v[..., None, :]
        self.z = self.z.to(v) + phi_k
        num = (phi_q[..., None, :] @ self.S).squeeze(-2)
        den = (phi_q * self.z).sum(dim=-1, keepdim=True)
        return num / den'''),
    ("    # 1. torch.as_tensor(gamma, dtype=like.dtype, device=like.device)\n",
     'raise NotImplementedError("as_gamma: validate gamma and shape it for broadcasting")',
     '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if not bool(((g >= 0) & (g <= 1)).all()):                    # NaN fails both comparisons
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}")
    return g[..., None, None]'''),
    ("    # distance[n, m] = n - m from torch.arange",
     'raise NotImplementedError("decay_matrix: build gamma**(n - m) below the diagonal")',
     '''    pos = torch.arange(L, device=gamma.device)
    dist = pos[:, None] - pos[None, :]                           # (L, L): n - m
    D = gamma ** dist.clamp(min=0).to(gamma.dtype)               # (..., L, L); 0**0 = 1 on the diagonal
    return D.masked_fill(dist < 0, 0.0)                          # future keys (m > n) get 0'''),
    ("    # as_gamma, then decay_matrix, then one masked matmul.\n",
     'raise NotImplementedError("retention_parallel: write (Q Kᵀ ⊙ D) V")',
     '''    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    return ((Q @ K.transpose(-2, -1)) * D) @ V'''),
    ("    # Like linear_attention_recurrent without φ",
     'raise NotImplementedError("retention_recurrent: write the decayed running-state loop")',
     '''    g = as_gamma(gamma, Q)                                       # (..., 1, 1)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    out = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :, None] * V[..., t, None, :]      # S_n = γ S_{n-1} + k_nᵀ v_n
        out.append((Q[..., t, None, :] @ S).squeeze(-2))         # o_n = q_n S_n
    if not out:
        return V.clone()
    return torch.stack(out, dim=-2)'''),
    ("    # 1. validate chunk_size and gamma; R = zeros (m, d_v)\n",
     'raise NotImplementedError("retention_chunkwise: write the chunk loop")',
     '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    L = Q.shape[-2]
    R = V.new_zeros(K.shape[-1], V.shape[-1])
    outs = []
    for c0 in range(0, L, chunk_size):
        q = Q[..., c0:c0 + chunk_size, :]
        k = K[..., c0:c0 + chunk_size, :]
        v = V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]                                          # real length: the last chunk may be short
        j = torch.arange(n, dtype=V.dtype, device=V.device)[:, None]   # local index, (n, 1)
        intra = ((q @ k.transpose(-2, -1)) * decay_matrix(g, n)) @ v
        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R
        outs.append(intra + cross)
        R = g ** n * R + (g ** (n - 1 - j) * k).transpose(-2, -1) @ v   # γ^n R + Σ_s γ^(n-1-s) k_sᵀ v_s
    out = torch.cat(outs, dim=-2) if outs else V.clone()
    if return_state:
        return out, R
    return out'''),
    ('    raise NotImplementedError("multiscale_decays',
     'raise NotImplementedError("multiscale_decays: one gamma per head, from torch.arange")',
     '''    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)'''),
    ("    # 1. turn mode into a gate sequence A of length L",
     'raise NotImplementedError("unified_recurrence: one loop with a swappable gate A_t")',
     '''    L = Q.shape[-2]
    if mode == "linear":
        A = V.new_ones(L)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, V)[..., 0]                           # (..., 1)
        A = g.expand(*g.shape[:-1], L)                           # (..., L)
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)
    else:
        raise ValueError(f"unknown mode {mode!r}; expected 'linear', 'retention' or 'gated'")
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    out = []
    for t in range(L):
        S = A[..., t, None, None] * S + K[..., t, :, None] * V[..., t, None, :]   # A_t scales the OLD state
        out.append((Q[..., t, None, :] @ S).squeeze(-2))
    if not out:
        return V.clone()
    return torch.stack(out, dim=-2)'''),
    ("    # Optional: decay S by alpha_t",
     'raise NotImplementedError("gated_delta_rule: optional extension, not graded")',
     '''    alpha = torch.as_tensor(alpha, dtype=V.dtype, device=V.device)
    beta = torch.as_tensor(beta, dtype=V.dtype, device=V.device)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    out = []
    for t in range(Q.shape[-2]):
        k_t, v_t = K[..., t, :], V[..., t, :]
        S = alpha[..., t, None, None] * S                        # decay first
        err = v_t - (k_t[..., None, :] @ S).squeeze(-2)          # v_t - k_tᵀ S'
        S = S + beta[..., t, None, None] * k_t[..., :, None] * err[..., None, :]
        out.append((Q[..., t, None, :] @ S).squeeze(-2))
    if not out:
        return V.clone()
    return torch.stack(out, dim=-2)'''),
]

EX1_WHY = (
    "Both faces compute the same two sums, $\\sum_{j\\le i}(\\varphi(q_i)\\cdot\\varphi(k_j))\\,v_j$ and "
    "$\\sum_{j\\le i}\\varphi(q_i)\\cdot\\varphi(k_j)$. Because the kernel factors and the sum is linear, $\\varphi(q_i)$ "
    "comes out of it: $\\varphi(q_i)^\\top\\sum_{j\\le i}\\varphi(k_j)v_j^\\top = \\varphi(q_i)^\\top S_i$ (and "
    "$\\varphi(q_i)^\\top z_i$ below). $S_i$ and $z_i$ don't involve the query and are prefix sums over $j \\le i$, so "
    "$S_i = S_{i-1} + \\varphi(k_i)v_i^\\top$ can be carried token by token; only the order of the additions "
    "differs, so the outputs agree up to rounding.")
EX2_GAMMA0 = (
    "At $\\gamma = 0$ every off-diagonal entry of $D$ is $0^{n-m} = 0$ and the diagonal is $0^0 = 1$, so $D = I$ and "
    "$o_n = (q_n\\cdot k_n)\\,v_n$: each token only sees itself, its value scaled by its own query-key score. In the "
    "recurrent form the old state is multiplied by 0 each step, so $S_n = k_n^\\top v_n$ and no memory of earlier "
    "tokens is kept.")
EX3_SELECTIVITY = (
    "The gate $A_t$ multiplies the old state $S_{t-1}$, so the high gate at $t = 2$ keeps what tokens 0 and 1 wrote "
    "(×0.95 instead of ×0.1). Token 2's own write is only scaled by the gates after it: weight $A_3 = 0.10$ in $S_3$ "
    "and $A_3A_4 = 0.010$ in $S_4$. Against a fixed $\\gamma$ equal to the mean gate (0.3125) the outputs are equal "
    "at $t = 0$ only (the state starts empty, so the first gate multiplies zero) and differ from $t = 1$ on, since "
    "every later state weights the earlier writes by different products of gates. An input-dependent gate gives "
    "selectivity: the model can decide token by token, from the content, to hold on to the past or to wipe it, "
    "while one $\\gamma$ forgets at the same rate everywhere.")

BASE_NB_EDITS = [
    ("code-007", "# read with q = (1, 1), and copy both reads into the answers cell below.",
     "# read with q = (1, 1), and copy both reads into the answers cell below.\n"
     "S_ex3 = S_ex + torch.outer(torch.tensor([0.0, 1.0]), torch.tensor([4.0, 2.0]))   # [[2, 4], [4, 6]]\n"
     "z_ex3 = z_ex + torch.tensor([0.0, 1.0])                                          # (2, 2)\n"
     "q_new = torch.tensor([1.0, 1.0])\n"
     "print(\"third token: S =\", S_ex3.tolist(), \" z =\", z_ex3.tolist(),\n"
     "      \" read =\", ((q_new @ S_ex3) / (q_new @ z_ex3)).tolist())   # (6, 10) / 4"),
    ("markdown-008", "example_1_1:\nyour_turn:\n", "example_1_1: [0.50, 3.00]\nyour_turn: [1.50, 2.50]\n"),
    ("code-029", "# attention_ops = ...   (about 4·t·d)\n# state_ops = ...       (about 4·d²)",
     "attention_ops = 4 * t * d   # score against t keys + blend t values, 2 ops per multiply-add\n"
     "state_ops = 4 * d ** 2      # write k vᵀ into S + read qᵀS\n"
     "print(f\"softmax / state at t = {t}: {attention_ops / state_ops:.2f}x\")   # = t / d"),
    ("markdown-030", "cost_ratio_at_100k:\n", "cost_ratio_at_100k: 781×\n"),
    ("ex1-032", 'raise NotImplementedError("Exercise 1: replace this line with your code")',
     "g1 = torch.Generator().manual_seed(2222)\n"
     "Q1 = torch.randn(2, 10, 5, generator=g1, dtype=torch.float64)   # a batch of 2, 10 tokens\n"
     "K1 = torch.randn(2, 10, 5, generator=g1, dtype=torch.float64)\n"
     "V1 = torch.randn(2, 10, 3, generator=g1, dtype=torch.float64)\n"
     "y_par1 = linear_attention_parallel(Q1, K1, V1)\n"
     "y_rec1 = linear_attention_recurrent(Q1, K1, V1)\n"
     "print(\"largest difference:\", (y_par1 - y_rec1).abs().max().item())\n"
     "print(\"parallel == recurrent:\", torch.allclose(y_par1, y_rec1))"),
    ("ex1-why-035", "_Type your answer here._", EX1_WHY),
    ("ex2-037", 'raise NotImplementedError("Exercise 2: replace this line with your code")',
     "g2 = torch.Generator().manual_seed(2223)\n"
     "Q2 = torch.randn(7, 4, generator=g2, dtype=torch.float64)\n"
     "K2 = torch.randn(7, 4, generator=g2, dtype=torch.float64)\n"
     "V2 = torch.randn(7, 2, generator=g2, dtype=torch.float64)\n"
     "by_hand = torch.tril(Q2 @ K2.T) @ V2\n"
     "print(\"gamma = 1 equals (Q Kᵀ ⊙ tril) V:\", torch.allclose(retention_parallel(Q2, K2, V2, gamma=1.0), by_hand))\n"
     "only_self = (Q2 * K2).sum(dim=-1, keepdim=True) * V2\n"
     "print(\"gamma = 0 equals (q_n·k_n) v_n:\", torch.allclose(retention_parallel(Q2, K2, V2, gamma=0.0), only_self))"),
    ("ex2-gamma0-040", "_Type your answer here._", EX2_GAMMA0),
    ("ex3-042", 'raise NotImplementedError("Exercise 3: replace this line with your code")',
     "g3 = torch.Generator().manual_seed(2224)\n"
     "Q3 = torch.randn(8, 3, generator=g3)\n"
     "K3 = torch.randn(8, 3, generator=g3)\n"
     "V3 = torch.randn(8, 2, generator=g3)\n"
     "gate3 = torch.tensor([0.1, 0.1, 0.95, 0.1, 0.1, 0.95, 0.1, 0.1])\n"
     "y_gated = unified_recurrence(Q3, K3, V3, \"gated\", gate=gate3)\n"
     "mean_gate = gate3.mean().item()\n"
     "y_fixed = unified_recurrence(Q3, K3, V3, \"retention\", gamma=mean_gate)\n"
     "print(\"fixed gamma =\", round(mean_gate, 4))\n"
     "print(\"positions where gated and fixed differ:\",\n"
     "      [t for t in range(8) if not torch.allclose(y_gated[t], y_fixed[t], atol=1e-6)])\n"
     "for t in range(2, 8):\n"
     "    print(f\"weight of token 2's write in S_{t}: {torch.prod(gate3[3:t + 1]).item():.3g}\")"),
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
    return (b, new)


def alt(qualname, new_body):
    return (body(qualname), new_body)


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
assert set(MANUAL_IDS) == {"ex1_why", "ex2_gamma0", "ex3_selectivity"}

# ============================================================================= bugs: linear attention

case("bug_linpar_strict_lower_mask", "bug",
     "linear_attention_parallel masks with torch.tril(..., diagonal=-1): the diagonal is dropped as well as the "
     "future, so token i attends to j < i only (the parallel-form version of reading before the update). Row 0 "
     "has no weight at all and is 0/0 = NaN; every other row is a normalized average over the strictly earlier "
     "tokens. Recurrent face and step are right.",
     ["update_before_read", "linear_parallel"],
     [fix(LP, ("A = torch.tril(phi_q @ phi_k.transpose(-2, -1))", "A = torch.tril(phi_q @ phi_k.transpose(-2, -1), diagonal=-1)"))])

case("bug_linrec_feature_map_on_values", "bug",
     "linear_attention_recurrent also passes the values through the feature map (v_t = φ(V[..., t, :])) while "
     "folding them into S: the output is a normalized average of elu(v) + 1 instead of v. Feature map on Q and K, "
     "running normalizer, update-then-read order and the k vᵀ layout are all right; the parallel face and the step "
     "are right.",
     ["linear_recurrent"],
     [fix(LR, ("k_t, v_t, q_t = phi_k[..., t, :], V[..., t, :], phi_q[..., t, :]",
               "k_t, v_t, q_t = phi_k[..., t, :], feature_map(V[..., t, :]), phi_q[..., t, :]"))])

case("bug_linrec_normalizer_in_float64", "bug",
     "linear_attention_recurrent keeps the normalizer z in float64 'to be safe' (torch.zeros(m, dtype=torch.float64)) "
     "instead of the inputs' dtype: with float64 inputs nothing changes, with float32 inputs the denominator and "
     "hence every output are promoted to float64. Values are right in both dtypes. Side effect: the lesson's "
     "provided cell code-010 (torch.allclose of the float32 parallel and the float64 recurrent output) raises "
     "RuntimeError when the notebook is run; the exercise cells themselves run.",
     ["keeps_dtype"],
     [fix(LR, ("z = V.new_zeros(m)", "z = torch.zeros(m, dtype=torch.float64, device=V.device)"))])

case("bug_step_raw_query", "bug",
     "LinearAttentionState.step reads the state with the raw query q instead of φ(q) (phi_q = q, used in both the "
     "numerator and the denominator): weights (q·φ(k_j)) can be negative and the normalizer qᵀz can cross zero. "
     "The keys go through φ, the state is updated before it is read, and the weights still sum to 1 (a single "
     "token, or constant values, still come back exactly).",
     ["feature_map", "state_step"],
     [fix(ST, ("phi_q = feature_map(q)", "phi_q = q"))])

# ============================================================================= bugs: retention

case("bug_as_gamma_nan_slips_through", "bug",
     "as_gamma checks `if ((g < 0) | (g > 1)).any(): raise ValueError`, the negation written out by hand: NaN "
     "compares False to both bounds, so gamma = NaN (or a per-head tensor with a NaN) is accepted and the "
     "retention forms return NaN instead of raising. 1.5 and -0.1 still raise; 0 and 1 work.",
     ["gamma_validation"],
     [fix(ASG, ("if not bool(((g >= 0) & (g <= 1)).all()):                    # NaN fails both comparisons",
                "if bool(((g < 0) | (g > 1)).any()):"))])

case("bug_decay_matrix_keeps_upper_triangle", "bug",
     "decay_matrix clamps the distance and stops there (returns gamma ** clamp(n - m, 0) without zeroing m > n): "
     "the entries above the diagonal are gamma**0 = 1, so every query also reads every later key with weight 1. "
     "retention_parallel and the intra-chunk term of retention_chunkwise become non-causal (chunkwise is right "
     "only for chunk_size = 1); retention_recurrent and the carried state are right.",
     ["causal_mask", "retention_parallel", "retention_chunkwise", "chunk_boundaries"],
     [fix(DM, ("return D.masked_fill(dist < 0, 0.0)                          # future keys (m > n) get 0",
               "return D                                                     # clamp keeps the exponent >= 0"))])

case("bug_retpar_tril_forgets_decay", "bug",
     "retention_parallel validates gamma and builds D but multiplies by a plain causal mask, "
     "(Q Kᵀ).tril() @ V (Exercise 2's gamma = 1 expression): no decay at all in the parallel form. Right at "
     "gamma = 1 only; recurrent and chunkwise forms are right.",
     ["decay_every_form", "retention_parallel"],
     [fix(RP, ("return ((Q @ K.transpose(-2, -1)) * D) @ V", "return (Q @ K.transpose(-2, -1)).tril() @ V"))])

case("bug_retrec_gamma_squeezed", "bug",
     "retention_recurrent squeezes the decay to 'a number', g = as_gamma(gamma, Q).squeeze(): right for a float "
     "gamma, but a per-head gamma of shape (H,) then broadcasts against the LAST axis of S (d_v) instead of the "
     "head axis — silently wrong when d_v == H, a shape error otherwise. Parallel and chunkwise forms are right.",
     ["retention_recurrent"],
     [fix(RR, ("g = as_gamma(gamma, Q)                                       # (..., 1, 1)",
               "g = as_gamma(gamma, Q).squeeze()                             # the decay as a number"))])

case("bug_chunk_carry_before_cross", "bug",
     "retention_chunkwise updates the carried state R with the current chunk BEFORE it computes that chunk's "
     "cross term (the two lines swapped): cross = γ^(j+1) q_j R_new counts the current chunk a second time, "
     "including keys later in the chunk (non-causal inside a chunk). Intra-chunk term and the returned state are "
     "right; outputs right only at gamma = 0.",
     ["causal_mask", "chunk_boundaries", "retention_chunkwise"],
     [fix(RC, ("        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n",
               "        R = g ** n * R + (g ** (n - 1 - j) * k).transpose(-2, -1) @ v   # carry the chunk\n"
               "        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R\n"),
          ("        outs.append(intra + cross)\n"
           "        R = g ** n * R + (g ** (n - 1 - j) * k).transpose(-2, -1) @ v   # γ^n R + Σ_s γ^(n-1-s) k_sᵀ v_s\n",
           "        outs.append(intra + cross)\n"))])

case("bug_chunk_state_not_carried", "bug",
     "retention_chunkwise replaces the carried state by the current chunk's contribution, "
     "R = Σ_s γ^(n-1-s) k_sᵀ v_s, dropping the γ^n R term: each chunk sees only the chunk right before it. "
     "Right when chunk_size >= L (one chunk) or for the first two chunks, and at gamma = 0; from the third chunk "
     "on the outputs miss everything older, and the returned state holds the last chunk only.",
     ["chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("R = g ** n * R + (g ** (n - 1 - j) * k)", "R = (g ** (n - 1 - j) * k)"))])

case("bug_unified_unknown_mode_is_linear", "bug",
     "unified_recurrence treats every mode other than 'retention' and 'gated' as linear (the final `else` sets "
     "A = ones instead of raising): 'linear', 'retention' and 'gated' are right, missing gamma / gate still raise, "
     "but a typo such as 'Linear' or 'mamba' silently runs linear attention instead of raising ValueError.",
     ["unified_modes"],
     [fix(UR, ('    if mode == "linear":\n        A = V.new_ones(L)\n    elif mode == "retention":\n',
               '    if mode == "retention":\n'),
          ('    else:\n        raise ValueError(f"unknown mode {mode!r}; expected \'linear\', \'retention\' or \'gated\'")\n',
           '    else:                                                        # "linear": no gate\n'
           '        A = V.new_ones(L)\n'))])

# ============================================================================= alternatives

case("alt_chunk_short_chunk_first", "alternative",
     "retention_chunkwise aligns the chunks to the END of the sequence: when chunk_size does not divide L the short "
     "chunk is the first one (L = 9, chunk_size = 4: [0:1], [1:5], [5:9]); each chunk still uses its real length "
     "in the exponents, so outputs and the returned state are the same.",
     [],
     [fix(RC, ("    for c0 in range(0, L, chunk_size):\n"
               "        q = Q[..., c0:c0 + chunk_size, :]\n"
               "        k = K[..., c0:c0 + chunk_size, :]\n"
               "        v = V[..., c0:c0 + chunk_size, :]\n",
               "    ends = list(range(L, 0, -chunk_size))[::-1]                  # chunk ends, counted back from L\n"
               "    starts = [0] + ends[:-1]                                     # the short chunk (if any) comes first\n"
               "    for c0, c1 in zip(starts, ends):\n"
               "        q = Q[..., c0:c1, :]\n"
               "        k = K[..., c0:c1, :]\n"
               "        v = V[..., c0:c1, :]\n"))])

case("alt_linrec_ones_column_state", "alternative",
     "linear_attention_recurrent carries the normalizer inside the state: V gets an extra column of ones, so "
     "S (m × (d_v + 1)) = Σ φ(k_j) [v_j, 1]ᵀ and its last column is z; one read φ(q_t)ᵀS gives numerator and "
     "denominator together.",
     [],
     [alt(LR, '''    phi_q = feature_map(Q)
    phi_k = feature_map(K)
    V1 = torch.cat([V, torch.ones_like(V[..., :1])], dim=-1)     # [v, 1]: last column accumulates z
    S = V.new_zeros(K.shape[-1], V.shape[-1] + 1)
    out = []
    for t in range(Q.shape[-2]):
        S = S + phi_k[..., t, :, None] * V1[..., t, None, :]
        read = (phi_q[..., t, None, :] @ S).squeeze(-2)          # (φ(q)ᵀS, φ(q)ᵀz)
        out.append(read[..., :-1] / read[..., -1:])
    if not out:
        return V.clone()
    return torch.stack(out, dim=-2)
''')])

case("alt_decay_matrix_cumprod_lookup", "alternative",
     "decay_matrix builds the powers by repeated multiplication, p = cumprod([1, γ, γ, …]) = [1, γ, γ², …, γ^(L-1)] "
     "(per head), then looks them up by distance, p[..., n - m], and zeroes m > n; no pow call, and γ = 0 gives "
     "[1, 0, 0, …] (the identity) by construction.",
     [],
     [alt(DM, '''    pos = torch.arange(L, device=gamma.device)
    dist = pos[:, None] - pos[None, :]                           # (L, L): n - m
    g = gamma[..., 0]                                            # (..., 1)
    steps = torch.cat([torch.ones_like(g), g.expand(*g.shape[:-1], max(L - 1, 0))], dim=-1)
    powers = torch.cumprod(steps, dim=-1)                        # (..., L): γ^0, γ^1, ..., γ^(L-1)
    D = powers[..., dist.clamp(min=0)]                           # (..., L, L): γ^(n-m)
    return D.masked_fill(dist < 0, 0.0)
''')])

# ============================================================================= stub

def values_stub(py):
    """The template with every graded raise replaced by the values themselves (or ones where there are none)."""
    lead = "*torch.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])"
    reps = {
        "linear_attention_parallel": "return V.expand(" + lead + ", *V.shape[-2:]).clone()",
        "linear_attention_recurrent": "return V.expand(" + lead + ", *V.shape[-2:]).clone()",
        "LinearAttentionState.step": "return v.clone()",
        "as_gamma": "return torch.ones(*torch.as_tensor(gamma).shape, 1, 1, dtype=like.dtype)",
        "decay_matrix": "return torch.ones(*gamma.shape[:-2], L, L, dtype=gamma.dtype)",
        "retention_parallel": "return V.expand(" + lead + ", *V.shape[-2:]).clone()",
        "retention_recurrent": "return V.expand(" + lead + ", *V.shape[-2:]).clone()",
        "multiscale_decays": "return torch.ones(num_heads)",
        "unified_recurrence": "return V.expand(" + lead + ", *V.shape[-2:]).clone()",
    }
    out = py
    for mt in re.finditer(r'( *)raise NotImplementedError\("([A-Za-z_.]+):[^"]*"\)', py):
        indent, name = mt.group(1), mt.group(2)
        if name == "gated_delta_rule":                           # optional: left as handed out
            continue
        if name == "retention_chunkwise":
            rep = (f"{indent}out = V.expand({lead}, *V.shape[-2:]).clone()\n"
                   f"{indent}if return_state:\n"
                   f"{indent}    return out, torch.ones(*out.shape[:-2], K.shape[-1], V.shape[-1], dtype=V.dtype)\n"
                   f"{indent}return out")
        else:
            rep = indent + reps[name]
        assert out.count(mt.group(0)) == 1, name
        out = out.replace(mt.group(0), rep)
    assert out.count("raise NotImplementedError") == 1          # the optional extension only
    ast.parse(out)
    return out


TEMPLATE_PY = (TEMPLATE / PY).read_text()

case("stub_returns_values_and_ones", "stub",
     "the template module with each graded raise replaced by the values themselves (every attention / retention "
     "form returns V, the step returns v), ones elsewhere (as_gamma never raises, decay_matrix all ones, "
     "multiscale_decays ones, chunkwise state ones); the optional extension still raises; the template notebook "
     "untouched (exercise cells raise, answers cells and written answers empty). Passes the public single-token, "
     "constant-value, causal and dtype tests by accident. should_lose lists every automatically graded item (the "
     "three manually graded written answers are blank too).",
     AUTO_IDS, module=values_stub(TEMPLATE_PY), source=TEMPLATE)


# ============================================================================= build

BASE_ABOUT = ("complete submission written from the docstrings: parallel faces as one masked matmul (torch.tril, "
              "row-sum normalizer; retention with a masked_fill decay matrix), recurrent forms and the step writing "
              "before they read with batched matmul reads, as_gamma rejecting NaN via the positive test, chunkwise "
              "with each chunk's real length and no L × L matrix, unified recurrence raising ValueError for unknown "
              "modes or a missing gamma / gate, optional gated delta rule; notebook: third-token and cost cells, "
              "Exercises 1-3, answers example_1_1 [0.50, 3.00], your_turn [1.50, 2.50], cost 781×, three written "
              "answers")


def build():
    base_nb = (BASE / NB).read_text()
    entries = [dict(name="base", kind="alternative", about=BASE_ABOUT, should_lose=[])]
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    keep = {"base"} | set(names)
    for p in sorted(HERE.iterdir()):                             # drop folders of cases no longer defined
        if p.is_dir() and p.name not in keep and p.name != "__pycache__":
            shutil.rmtree(p)
    for c in CASES:
        dest = HERE / c["name"]
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(c["source"], dest, ignore=IGNORE)
        py = (dest / PY).read_text() if c["module"] is None else c["module"]
        for old, new in c["edits"]:
            py = apply_py(py, old, new, c["name"])
        (dest / PY).write_text(py)
        ast.parse(py)
        lose = list(c["should_lose"])
        assert set(lose) <= set(RUBRIC_IDS), (c["name"], set(lose) - set(RUBRIC_IDS))
        if c["kind"] == "alternative":
            assert not lose and c["source"] == BASE and c["module"] is None, c["name"]
        else:
            assert lose, c["name"]
        if c["kind"] in ("alternative", "bug"):
            assert py != BASE_PY and len(c["edits"]) == 1, c["name"]
        if c["source"] == BASE:
            assert (dest / NB).read_text() == base_nb, c["name"]
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=lose))
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 22, linear-attention-basics: one entry per case folder.",
             "# should_lose: rubric.yaml item ids, judged from the rubric titles, the docstrings, the notebook and the",
             "# public tests only (never the grader or hidden checks). Judgement calls: README.md.",
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
