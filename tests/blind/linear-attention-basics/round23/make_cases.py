"""Build the round-23 blind corpus: base/ from the student template, every case folder from base/, corpus.yaml.

Format follows round 22's builder (anchored edits, corpus.yaml layout); the base implementation, the notebook
answers, every case and ref_check.py are new. This round's twist: six of the eleven bugs are ONE misconception
written into every form of a family (or into the helper every form uses), the way a student who misread one
idea writes it everywhere; the other five are one edit in one function.

Every edit is exact and anchored; a missing or ambiguous anchor stops the build:

- base/: the template folder copied; in linear_attention.py the text from each stub's first hint comment through
  its `raise NotImplementedError(...)` line is replaced by a body (both anchors must occur once); the student
  cells of the notebook are edited by cell id.
- `fix(func, (old, new), ...)`: each `old` occurs exactly once inside `func`'s body in base's module (the body
  after the docstring, located with `ast`).
- `alt(func, new_body)`: replaces that whole body.
- a `family` bug carries one or more such edits, each in a different function; a `single` bug or an alternative
  carries exactly one edit in one function.
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
     '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    L = Q.shape[-2]
    keep = torch.ones(L, L, dtype=torch.bool, device=Q.device).tril()    # keep[i, j] = (j <= i)
    A = torch.where(keep, phi_q @ phi_k.transpose(-2, -1), 0.0)          # (..., L, L)
    den = A.sum(dim=-1, keepdim=True)                                     # φ(q_i)ᵀ z_i, (..., L, 1)
    return (A @ V) / den'''),
    ("    # 1. apply feature_map to Q and K\n    # 2. start S",
     'raise NotImplementedError("linear_attention_recurrent: write the running-state loop")',
     '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = V.new_zeros(K.shape[-1], V.shape[-1])                 # broadcasting adds the leading dims
    z = V.new_zeros(K.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        q_t, k_t, v_t = phi_q[..., t, :], phi_k[..., t, :], V[..., t, :]
        S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)          # write token t first: S += φ(k_t) v_tᵀ
        z = z + k_t
        num = torch.einsum("...m,...md->...d", q_t, S)         # then read: φ(q_t)ᵀ S
        den = torch.einsum("...m,...m->...", q_t, z).unsqueeze(-1)
        ys.append(num / den)
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)'''),
    ("        # Same three lines as one iteration",
     'raise NotImplementedError("LinearAttentionState.step: update the state, then read it")',
     '''        phi_q, phi_k = feature_map(q), feature_map(k)
        # fresh tensors every step (never an in-place add): the state follows v's dtype and device
        # and picks up the leading dims of the first token by broadcasting
        self.S = self.S.to(v) + phi_k.unsqueeze(-1) * v.unsqueeze(-2)
        self.z = self.z.to(v) + phi_k
        num = torch.einsum("...m,...md->...d", phi_q, self.S)
        den = torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1)
        return num / den'''),
    ("    # 1. torch.as_tensor(gamma, dtype=like.dtype, device=like.device)\n",
     'raise NotImplementedError("as_gamma: validate gamma and shape it for broadcasting")',
     '''    g = torch.as_tensor(gamma, dtype=like.dtype, device=like.device)
    if bool(torch.isnan(g).any()) or bool((g < 0).any()) or bool((g > 1).any()):
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}")
    return g.reshape(*g.shape, 1, 1)'''),
    ("    # distance[n, m] = n - m from torch.arange",
     'raise NotImplementedError("decay_matrix: build gamma**(n - m) below the diagonal")',
     '''    idx = torch.arange(L, device=gamma.device)
    dist = idx.unsqueeze(-1) - idx.unsqueeze(0)                   # (L, L): n - m
    powers = gamma ** dist.clamp(min=0).to(gamma.dtype)           # (..., L, L); 0**0 = 1 on the diagonal
    return torch.where(dist >= 0, powers, 0.0)                    # m > n: 0'''),
    ("    # as_gamma, then decay_matrix, then one masked matmul.\n",
     'raise NotImplementedError("retention_parallel: write (Q Kᵀ ⊙ D) V")',
     '''    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    return (Q @ K.transpose(-2, -1) * D) @ V'''),
    ("    # Like linear_attention_recurrent without φ",
     'raise NotImplementedError("retention_recurrent: write the decayed running-state loop")',
     '''    g = as_gamma(gamma, Q)                                      # (..., 1, 1)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # S_n = γ S_{n-1} + k_nᵀ v_n
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))          # o_n = q_n S_n
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)'''),
    ("    # 1. validate chunk_size and gamma; R = zeros (m, d_v)\n",
     'raise NotImplementedError("retention_chunkwise: write the chunk loop")',
     '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    g = as_gamma(gamma, Q)                                      # (..., 1, 1)
    L = Q.shape[-2]
    R = V.new_zeros(K.shape[-1], V.shape[-1])
    chunks = []
    for c0 in range(0, L, chunk_size):
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]                                          # the last chunk may be shorter
        j = torch.arange(n, device=V.device, dtype=V.dtype).unsqueeze(-1)   # local index, (n, 1)
        D = decay_matrix(g, n)
        intra = (q @ k.transpose(-2, -1) * D) @ v
        cross = g ** (j + 1) * (q @ R)                           # γ^(j+1) q_j R
        chunks.append(intra + cross)
        R = g ** n * R + (g ** (n - 1 - j) * k).transpose(-2, -1) @ v   # γ^n R + Σ_s γ^(n-1-s) k_sᵀ v_s
    out = torch.cat(chunks, dim=-2) if chunks else V.clone()
    return (out, R) if return_state else out'''),
    ('    raise NotImplementedError("multiscale_decays',
     'raise NotImplementedError("multiscale_decays: one gamma per head, from torch.arange")',
     '''    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1.0 - torch.pow(2.0, -5.0 - h)'''),
    ("    # 1. turn mode into a gate sequence A of length L",
     'raise NotImplementedError("unified_recurrence: one loop with a swappable gate A_t")',
     '''    L = Q.shape[-2]
    if mode == "linear":
        A = V.new_ones(L, 1, 1)                                  # (L, 1, 1)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        g = as_gamma(gamma, V)                                   # (..., 1, 1)
        A = g.unsqueeze(-3).expand(*g.shape[:-2], L, 1, 1)       # (..., L, 1, 1)
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)[..., None, None]   # (..., L, 1, 1)
    else:
        raise ValueError(f"unknown mode {mode!r}: expected 'linear', 'retention' or 'gated'")
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(L):
        S = A[..., t, :, :] * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)   # A_t scales the OLD S
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)'''),
    ("    # Optional: decay S by alpha_t",
     'raise NotImplementedError("gated_delta_rule: optional extension, not graded")',
     '''    alpha = torch.as_tensor(alpha, dtype=V.dtype, device=V.device)
    beta = torch.as_tensor(beta, dtype=V.dtype, device=V.device)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(Q.shape[-2]):
        k_t, v_t = K[..., t, :], V[..., t, :]
        S = alpha[..., t, None, None] * S                        # decay first ...
        pred = torch.einsum("...m,...md->...d", k_t, S)          # ... then predict from the decayed state
        S = S + beta[..., t, None, None] * k_t.unsqueeze(-1) * (v_t - pred).unsqueeze(-2)
        ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)'''),
]

EX1_WHY = (
    "They compute the same finite sums in a different order: the score $\\varphi(q_i)\\cdot\\varphi(k_j)$ is a dot "
    "product, so it is linear in $\\varphi(k_j)$ and $\\varphi(q_i)$ can be pulled out of the sum over $j$, "
    "$\\sum_{j\\le i}(\\varphi(q_i)^\\top\\varphi(k_j))v_j = \\varphi(q_i)^\\top\\sum_{j\\le i}\\varphi(k_j)v_j^\\top = "
    "\\varphi(q_i)^\\top S_i$ (the same for the denominator with $z_i$); what is left, $S_i$ and $z_i$, depends only "
    "on tokens $j \\le i$, so it is a prefix sum that can be carried along as $S_i = S_{i-1} + \\varphi(k_i)v_i^\\top$. "
    "Matrix multiplication is associative, $(QK^\\top)V = Q(K^\\top V)$, so only rounding can differ.")
EX2_GAMMA0 = (
    "It becomes $o_n = (q_n\\cdot k_n)\\,v_n$: every token only sees itself. With $\\gamma = 0$ the decay matrix "
    "has $0^{n-m} = 0$ for every earlier key ($n > m$) and $0^0 = 1$ on the diagonal, so $D$ is the identity and "
    "$(QK^\\top\\odot D)V$ keeps only the diagonal scores. In the recurrent form the old state is multiplied by 0 "
    "before each write, so $S_n = k_n^\\top v_n$: the memory is wiped at every step.")
EX3_SELECTIVITY = (
    "The high gate $A_2 = 0.95$ multiplies $S_1$, so it preserves what tokens 0 and 1 wrote (almost all of it, instead "
    "of a tenth). It does nothing for token 2's own write: that write is scaled by the gates after it, weight "
    "$A_3 = 0.10$ in $S_3$ and $A_3A_4 = 0.010$ in $S_4$. The gated output equals the fixed-$\\gamma$ output "
    "(γ = mean gate = 0.3125) only at $t = 0$, where the state is still empty and the gate multiplies zero; from "
    "$t = 1$ on the two states weight the earlier writes by different products of gates, so every later output "
    "differs. An input-dependent gate lets the model choose, token by token and from the content, when to keep the "
    "past and when to erase it (selective memory); a single fixed $\\gamma$ forgets at the same rate at every step "
    "whatever the input is.")

BASE_NB_EDITS = [
    ("code-007", "# read with q = (1, 1), and copy both reads into the answers cell below.",
     "# read with q = (1, 1), and copy both reads into the answers cell below.\n"
     "k3, v3 = torch.tensor([0.0, 1.0]), torch.tensor([4.0, 2.0])\n"
     "S_3 = S_ex + torch.outer(k3, v3)        # [[2, 4], [4, 6]]\n"
     "z_3 = z_ex + k3                         # (2, 2)\n"
     "q_3 = torch.tensor([1.0, 1.0])\n"
     "print(\"your turn: qS =\", (q_3 @ S_3).tolist(), \" q.z =\", (q_3 @ z_3).item(),\n"
     "      \" read =\", ((q_3 @ S_3) / (q_3 @ z_3)).tolist())"),
    ("markdown-008", "example_1_1:\nyour_turn:\n", "example_1_1: [0.5, 3.0]\nyour_turn: [1.5, 2.5]\n"),
    ("code-029", "# attention_ops = ...   (about 4·t·d)\n# state_ops = ...       (about 4·d²)",
     "attention_ops = 2 * (2 * t * d)   # t·d multiply-adds to score, t·d to blend\n"
     "state_ops = 2 * (2 * d * d)       # d² multiply-adds to write k vᵀ, d² to read qᵀS\n"
     "ratio = attention_ops / state_ops\n"
     "print(\"attention / state work at t =\", t, \":\", round(ratio, 2), \"=  t / d\")"),
    ("markdown-030", "cost_ratio_at_100k:\n", "cost_ratio_at_100k: 781×\n"),
    ("ex1-032", 'raise NotImplementedError("Exercise 1: replace this line with your code")',
     "gen = torch.Generator().manual_seed(23)\n"
     "Q1 = torch.randn(3, 12, 4, generator=gen, dtype=torch.float64)   # 3 sequences of 12 tokens, m = 4\n"
     "K1 = torch.randn(3, 12, 4, generator=gen, dtype=torch.float64)\n"
     "V1 = torch.randn(3, 12, 2, generator=gen, dtype=torch.float64)   # d_v = 2\n"
     "y_par1 = linear_attention_parallel(Q1, K1, V1)\n"
     "y_rec1 = linear_attention_recurrent(Q1, K1, V1)\n"
     "print(\"max |parallel - recurrent| =\", (y_par1 - y_rec1).abs().max().item())\n"
     "print(\"they agree:\", torch.allclose(y_par1, y_rec1))"),
    ("ex1-why-035", "_Type your answer here._", EX1_WHY),
    ("ex2-037", 'raise NotImplementedError("Exercise 2: replace this line with your code")',
     "gen = torch.Generator().manual_seed(230)\n"
     "Q2 = torch.randn(9, 3, generator=gen, dtype=torch.float64)\n"
     "K2 = torch.randn(9, 3, generator=gen, dtype=torch.float64)\n"
     "V2 = torch.randn(9, 4, generator=gen, dtype=torch.float64)\n"
     "by_hand = torch.tril(Q2 @ K2.T) @ V2                       # unnormalized causal attention\n"
     "print(\"gamma = 1:\", torch.allclose(retention_parallel(Q2, K2, V2, gamma=1.0), by_hand))\n"
     "only_self = (Q2 * K2).sum(-1, keepdim=True) * V2             # (q_n·k_n) v_n\n"
     "print(\"gamma = 0:\", torch.allclose(retention_parallel(Q2, K2, V2, gamma=0.0), only_self))"),
    ("ex2-gamma0-040", "_Type your answer here._", EX2_GAMMA0),
    ("ex3-042", 'raise NotImplementedError("Exercise 3: replace this line with your code")',
     "gen = torch.Generator().manual_seed(2300)\n"
     "Q3, K3, V3 = (torch.randn(8, 4, generator=gen) for _ in range(3))\n"
     "gate3 = torch.full((8,), 0.1)\n"
     "gate3[[2, 5]] = 0.95\n"
     "y_gated = unified_recurrence(Q3, K3, V3, \"gated\", gate=gate3)\n"
     "gamma_fixed = gate3.mean().item()\n"
     "y_fixed = unified_recurrence(Q3, K3, V3, \"retention\", gamma=gamma_fixed)\n"
     "diff = (y_gated - y_fixed).abs().amax(dim=-1)\n"
     "print(\"fixed gamma:\", gamma_fixed, \" differ at t =\", [t for t in range(8) if diff[t] > 1e-6])\n"
     "for t in range(2, 8):\n"
     "    print(\"t =\", t, \" weight of token 2's write:\", round(gate3[3:t + 1].prod().item(), 6))"),
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
    has_doc = isinstance(node.body[0], ast.Expr) and isinstance(getattr(node.body[0], "value", None), ast.Constant)
    first = node.body[1] if has_doc else node.body[0]
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
    return (qualname, b, new)


def alt(qualname, new_body):
    return (qualname, body(qualname), new_body)


def apply_py(text, old, new, name):
    assert text.count(old) == 1, f"{name}: module anchor occurs {text.count(old)} times: {old[:100]!r}"
    assert old != new, f"{name}: edit changes nothing"
    return text.replace(old, new)


CASES = []


def case(name, kind, about, should_lose, edits=(), module=None, source=BASE, scope="single"):
    CASES.append(dict(name=name, kind=kind, about=about, should_lose=list(should_lose), edits=list(edits),
                      module=module, source=source, scope=scope))


FM, LP, LR, ST_INIT, ST = ("feature_map", "linear_attention_parallel", "linear_attention_recurrent",
                           "LinearAttentionState.__init__", "LinearAttentionState.step")
ASG, DM, RP, RR, RC, MS, UR = ("as_gamma", "decay_matrix", "retention_parallel", "retention_recurrent",
                               "retention_chunkwise", "multiscale_decays", "unified_recurrence")

RUBRIC = yaml.safe_load((TEMPLATE / "rubric.yaml").read_text())["items"]
RUBRIC_IDS = [item["id"] for item in RUBRIC]
MANUAL_IDS = [item["id"] for item in RUBRIC if "manual" in item]          # ex1_why, ex2_gamma0, ex3_selectivity
AUTO_IDS = [i for i in RUBRIC_IDS if i not in MANUAL_IDS]
assert set(MANUAL_IDS) == {"ex1_why", "ex2_gamma0", "ex3_selectivity"}

# ============================================================================= family bugs: one misconception, every form

case("bug_family_feature_map_elu_of_shifted_input", "bug",
     "the student 'tidies' the provided feature map into F.elu(x + 1), reading 'elu(x) + 1' as elu of x + 1: the "
     "helper every linear form calls now gives x + 1 for x > -1 and exp(x + 1) - 1 below, which is NEGATIVE for "
     "x < -1. All three linear forms (parallel, recurrent, step) use it consistently, so they agree with each other "
     "(public equivalence tests pass) and one token / constant values still come back (the weights still sum to 1), "
     "but every output differs from the lesson's φ = elu + 1, and for very negative inputs the scores are negative "
     "and the normalizer can cross zero. Retention and unified do not use φ and are right.",
     ["feature_map", "linear_parallel", "linear_recurrent", "state_step"],
     [alt(FM, "    return F.elu(x + 1)\n")], scope="family")

case("bug_family_linear_eps_in_every_denominator", "bug",
     "the habit 'never divide without an epsilon': all three linear forms divide by φ(q_i)ᵀz_i + 1e-6 (parallel: "
     "row sums + 1e-6; recurrent and step: the einsum read + 1e-6). Consistent, so the three faces agree with each "
     "other; on ordinary inputs the outputs are off by a relative ~1e-7, but when φ(q)ᵀz is small (very negative "
     "queries/keys: the public constant-values test shifts by -3) the weights no longer sum to 1 and the outputs "
     "shrink toward 0 (relative error up to ~1e-2 at a shift of -4). The docstring says 'no epsilon anywhere'.",
     ["normalizer", "linear_parallel", "linear_recurrent", "state_step"],
     [fix(LP, ("den = A.sum(dim=-1, keepdim=True)  ", "den = A.sum(dim=-1, keepdim=True) + 1e-6")),
      fix(LR, ('den = torch.einsum("...m,...m->...", q_t, z).unsqueeze(-1)',
               'den = torch.einsum("...m,...m->...", q_t, z).unsqueeze(-1) + 1e-6   # never divide by 0')),
      fix(ST, ('den = torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1)',
               'den = torch.einsum("...m,...m->...", phi_q, self.z).unsqueeze(-1) + 1e-6   # never divide by 0'))],
     scope="family")

case("bug_family_retention_normalized_like_linear", "bug",
     "the student carries linear attention's normalizer over to retention in all three forms: parallel divides "
     "(QKᵀ ⊙ D)V by the row sums of QKᵀ ⊙ D; recurrent keeps z = γ z + k_n and returns q_n S_n / q_n·z_n; "
     "chunkwise carries a decayed key sum next to R and divides intra + cross numerators by intra + cross "
     "denominators. The three forms agree with each other for every γ and chunk size (the public parallel / "
     "recurrent / chunkwise tests pass), decay is in all three, the returned R is right, and out-of-range γ "
     "raises, but every output is a weighted average instead of the lesson's unnormalized sum (γ = 0 gives v_n, "
     "not (q_n·k_n) v_n), and since raw q·k can be negative the denominators can cross zero. unified_recurrence is "
     "the bare recurrence and right.",
     ["retention_parallel", "retention_recurrent", "retention_chunkwise"],
     [alt(RP, '''    D = decay_matrix(as_gamma(gamma, Q), Q.shape[-2])
    W = Q @ K.transpose(-2, -1) * D                              # decayed causal scores
    return (W @ V) / W.sum(dim=-1, keepdim=True)                 # normalized, like linear attention
'''),
      alt(RR, '''    g = as_gamma(gamma, Q)                                      # (..., 1, 1)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    z = V.new_zeros(K.shape[-1], 1)                              # decayed key sum, (m, 1)
    ys = []
    for t in range(Q.shape[-2]):
        S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)
        z = g * z + K[..., t, :].unsqueeze(-1)
        num = torch.einsum("...m,...md->...d", Q[..., t, :], S)
        den = torch.einsum("...m,...md->...d", Q[..., t, :], z)
        ys.append(num / den)
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)
'''),
      alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    g = as_gamma(gamma, Q)                                      # (..., 1, 1)
    L = Q.shape[-2]
    R = V.new_zeros(K.shape[-1], V.shape[-1])
    Rz = V.new_zeros(K.shape[-1], 1)                             # carried normalizer, like R
    chunks = []
    for c0 in range(0, L, chunk_size):
        q, k, v = Q[..., c0:c0 + chunk_size, :], K[..., c0:c0 + chunk_size, :], V[..., c0:c0 + chunk_size, :]
        n = q.shape[-2]
        j = torch.arange(n, device=V.device, dtype=V.dtype).unsqueeze(-1)
        W = q @ k.transpose(-2, -1) * decay_matrix(g, n)
        num = W @ v + g ** (j + 1) * (q @ R)
        den = W.sum(dim=-1, keepdim=True) + g ** (j + 1) * (q @ Rz)
        chunks.append(num / den)
        w = g ** (n - 1 - j)
        R = g ** n * R + (w * k).transpose(-2, -1) @ v
        Rz = g ** n * Rz + (w * k).sum(dim=-2).unsqueeze(-1)
    out = torch.cat(chunks, dim=-2) if chunks else V.clone()
    return (out, R) if return_state else out
''')], scope="family")

case("bug_family_loops_walk_the_first_axis", "bug",
     "the student believes the sequence is the FIRST axis (`for t in range(len(Q))`, Q[t], torch.stack / torch.cat "
     "on dim 0, `.T`) and writes every loop form that way: linear_attention_recurrent, retention_recurrent, "
     "retention_chunkwise (slices Q[c0:c0 + chunk_size]) and unified_recurrence. With unbatched (L, m) inputs all "
     "four are exactly right (public single-token and chunk-state tests pass); with any leading dim the loop walks "
     "the batch instead of the tokens, so outputs are wrong (no running state along the sequence, batch elements "
     "summed) or the call raises. The parallel forms, the step and the helpers are right.",
     ["linear_recurrent", "retention_recurrent", "retention_chunkwise", "unified_modes"],
     [alt(LR, '''    phi_q, phi_k = feature_map(Q), feature_map(K)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    z = V.new_zeros(K.shape[-1])
    ys = []
    for t in range(len(Q)):                                      # one token per step
        S = S + phi_k[t].unsqueeze(-1) * V[t].unsqueeze(-2)
        z = z + phi_k[t]
        num = torch.einsum("...m,...md->...d", phi_q[t], S)
        den = torch.einsum("...m,...m->...", phi_q[t], z).unsqueeze(-1)
        ys.append(num / den)
    return torch.stack(ys)
'''),
      alt(RR, '''    g = as_gamma(gamma, Q)
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(len(Q)):                                      # one token per step
        S = g * S + K[t].unsqueeze(-1) * V[t].unsqueeze(-2)
        ys.append(torch.einsum("...m,...md->...d", Q[t], S))
    return torch.stack(ys)
'''),
      alt(RC, '''    if isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1:
        raise ValueError(f"chunk_size must be a positive int, got {chunk_size!r}")
    g = as_gamma(gamma, Q)
    R = V.new_zeros(K.shape[-1], V.shape[-1])
    chunks = []
    for c0 in range(0, len(Q), chunk_size):                      # chunks of tokens
        q, k, v = Q[c0:c0 + chunk_size], K[c0:c0 + chunk_size], V[c0:c0 + chunk_size]
        n = len(q)
        j = torch.arange(n, device=V.device, dtype=V.dtype).unsqueeze(-1)
        intra = (q @ k.T * decay_matrix(g, n)) @ v
        chunks.append(intra + g ** (j + 1) * (q @ R))
        R = g ** n * R + (g ** (n - 1 - j) * k).T @ v
    out = torch.cat(chunks)
    return (out, R) if return_state else out
'''),
      alt(UR, '''    if mode == "linear":
        A = V.new_ones(len(Q), 1, 1)
    elif mode == "retention":
        if gamma is None:
            raise ValueError("mode 'retention' needs gamma")
        A = as_gamma(gamma, V).expand(len(Q), 1, 1)
    elif mode == "gated":
        if gate is None:
            raise ValueError("mode 'gated' needs gate")
        A = torch.as_tensor(gate, dtype=V.dtype, device=V.device)[..., None, None]
    else:
        raise ValueError(f"unknown mode {mode!r}: expected 'linear', 'retention' or 'gated'")
    S = V.new_zeros(K.shape[-1], V.shape[-1])
    ys = []
    for t in range(len(Q)):                                      # one token per step
        S = A[t] * S + K[t].unsqueeze(-1) * V[t].unsqueeze(-2)
        ys.append(torch.einsum("...m,...md->...d", Q[t], S))
    return torch.stack(ys)
''')], scope="family")

case("bug_family_state_stored_as_v_kT", "bug",
     "the student writes the state the fast-weight way, S = Σ v kᵀ (d_v × m), read as S q, in every form that "
     "carries one: LinearAttentionState (__init__ makes S zeros(d_v, m), step adds v φ(k)ᵀ), "
     "linear_attention_recurrent, retention_recurrent, retention_chunkwise (R is d_v × m) and unified_recurrence. "
     "Every OUTPUT is right (the read is transposed too), but the state the student exposes is the transpose of "
     "the lesson's: LinearAttentionState.S has shape (d_v, m), and retention_chunkwise(..., return_state=True) "
     "returns R of shape (d_v, m) (the public short-last-chunk test fails; the values are Rᵀ when m = d_v).",
     ["kv_orientation", "partial_chunk_state", "retention_chunkwise"],
     [fix(ST_INIT, ("self.S = torch.zeros(m, d_v)  ", "self.S = torch.zeros(d_v, m)  ")),
      fix(ST, ("self.S = self.S.to(v) + phi_k.unsqueeze(-1) * v.unsqueeze(-2)",
               "self.S = self.S.to(v) + v.unsqueeze(-1) * phi_k.unsqueeze(-2)       # S += v φ(k)ᵀ"),
          ('num = torch.einsum("...m,...md->...d", phi_q, self.S)',
           'num = torch.einsum("...dm,...m->...d", self.S, phi_q)                 # S φ(q)')),
      fix(LR, ("S = V.new_zeros(K.shape[-1], V.shape[-1])", "S = V.new_zeros(V.shape[-1], K.shape[-1])"),
          ("S = S + k_t.unsqueeze(-1) * v_t.unsqueeze(-2)", "S = S + v_t.unsqueeze(-1) * k_t.unsqueeze(-2)"),
          ('num = torch.einsum("...m,...md->...d", q_t, S)', 'num = torch.einsum("...dm,...m->...d", S, q_t)')),
      fix(RR, ("S = V.new_zeros(K.shape[-1], V.shape[-1])", "S = V.new_zeros(V.shape[-1], K.shape[-1])"),
          ("S = g * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)",
           "S = g * S + V[..., t, :].unsqueeze(-1) * K[..., t, :].unsqueeze(-2)"),
          ('ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))',
           'ys.append(torch.einsum("...dm,...m->...d", S, Q[..., t, :]))')),
      fix(RC, ("R = V.new_zeros(K.shape[-1], V.shape[-1])", "R = V.new_zeros(V.shape[-1], K.shape[-1])   # v kᵀ"),
          ("cross = g ** (j + 1) * (q @ R)  ", "cross = g ** (j + 1) * (q @ R.transpose(-2, -1))  "),
          ("R = g ** n * R + (g ** (n - 1 - j) * k).transpose(-2, -1) @ v",
           "R = g ** n * R + v.transpose(-2, -1) @ (g ** (n - 1 - j) * k)")),
      fix(UR, ("    S = V.new_zeros(K.shape[-1], V.shape[-1])\n", "    S = V.new_zeros(V.shape[-1], K.shape[-1])\n"),
          ("S = A[..., t, :, :] * S + K[..., t, :].unsqueeze(-1) * V[..., t, :].unsqueeze(-2)",
           "S = A[..., t, :, :] * S + V[..., t, :].unsqueeze(-1) * K[..., t, :].unsqueeze(-2)"),
          ('ys.append(torch.einsum("...m,...md->...d", Q[..., t, :], S))',
           'ys.append(torch.einsum("...dm,...m->...d", S, Q[..., t, :]))'))],
     scope="family")

case("bug_family_decay_matrix_split_powers", "bug",
     "decay_matrix, the helper both matrix forms of retention call, factors the decay as γ^(n-m) = γ^n · γ^(-m) "
     "(outer product of γ^n and γ^(-m), then tril) despite the docstring's 'never a negative power'. For 0 < γ ≤ 1 "
     "and short sequences it is right up to rounding, but γ = 0 gives 0 · inf = NaN everywhere below the diagonal "
     "and on it from n = 1, so retention_parallel and every chunk of length ≥ 2 of retention_chunkwise return NaN "
     "at γ = 0 (and a per-head γ containing 0); γ^(-m) also overflows for long sequences (float32, γ = 0.5, L > 128). "
     "retention_recurrent, which never calls the helper, is right.",
     ["gamma_validation", "retention_parallel", "retention_chunkwise"],
     [alt(DM, '''    idx = torch.arange(L, device=gamma.device).to(gamma.dtype)
    D = (gamma ** idx.unsqueeze(-1)) * (gamma ** -idx)          # γ^n · γ^(-m) = γ^(n-m)
    return D.tril()
''')], scope="family")

# ============================================================================= single bugs: one edit in one function

case("bug_linpar_divides_by_column_sums", "bug",
     "linear_attention_parallel sums A over the wrong axis for the normalizer: den = A.sum(dim=-2)[..., :, None], "
     "the column sums Σ_{i' ≥ i} A[i', i] (how much every later query attends to key i), instead of the row sums "
     "Σ_{j ≤ i} A[i, j]. Runs and has the right shape; the weights of a row no longer sum to 1 (constant values do "
     "not come back), and row i now depends on the later queries (non-causal). Only the last row's denominator "
     "is a single score. Recurrent face and step are right.",
     ["normalizer", "running_normalizer", "causal_mask", "linear_parallel"],
     [fix(LP, ("den = A.sum(dim=-1, keepdim=True)  ", "den = A.sum(dim=-2)[..., :, None]  "))])

case("bug_step_torch_outer_unbatched", "bug",
     "LinearAttentionState.step writes the state with torch.outer(phi_k, v): exactly right for one unbatched "
     "token (the notebook's decoding cell runs), but torch.outer only takes 1-D tensors, so any batch of heads "
     "(q, k, v of shape (..., m)) raises RuntimeError, although the class docstring says one object decodes a "
     "whole batch. Every other form is right.",
     ["state_step"],
     [fix(ST, ("self.S = self.S.to(v) + phi_k.unsqueeze(-1) * v.unsqueeze(-2)",
               "self.S = self.S.to(v) + torch.outer(phi_k, v)"))])

case("bug_as_gamma_rejects_zero", "bug",
     "as_gamma treats γ = 0 as invalid (the test is g <= 0 instead of g < 0, the student reading the range as "
     "(0, 1]): γ = 0 and any per-head γ containing 0 raise ValueError in every retention form and in unified "
     "retention mode, although the docstring and the lesson say 0 works (0**0 = 1, each token sees itself). "
     "1.5, -0.1 and NaN still raise, 0 < γ ≤ 1 is right. Side effect: the student's Exercise 2 cell (which calls "
     "retention_parallel with gamma=0.0) stops with ValueError.",
     ["gamma_validation", "ex2_runs"],
     [fix(ASG, ("bool((g < 0).any())", "bool((g <= 0).any())"))])

case("bug_chunk_slices_global_decay_matrix", "bug",
     "retention_chunkwise builds decay_matrix(g, L) for the WHOLE sequence once, before the loop, and slices each "
     "chunk's block out of it (D_full[..., c0:c0 + n, c0:c0 + n]): outputs and the returned state are exactly "
     "right for every chunk size, but the function holds an L × L matrix, so its memory and work grow as L², the "
     "very thing the chunkwise form exists to avoid.",
     ["chunkwise_memory", "chunk_boundaries", "partial_chunk_state", "retention_chunkwise"],
     [fix(RC, ("    R = V.new_zeros(K.shape[-1], V.shape[-1])\n",
               "    R = V.new_zeros(K.shape[-1], V.shape[-1])\n"
               "    D_full = decay_matrix(g, L)                                  # every chunk's block, built once\n"),
          ("D = decay_matrix(g, n)", "D = D_full[..., c0:c0 + n, c0:c0 + n]"))])

case("bug_unified_gate_indexed_on_first_axis", "bug",
     "unified_recurrence reads the gate of step t as A[t] instead of A[..., t, :, :]: right whenever A has no "
     "leading dims (linear mode, a float γ, a gate of shape (L,)); with a per-head γ (A is (H, L, 1, 1)) or a "
     "per-sequence gate of shape (B, L), A[t] picks head / sequence t's whole gate row and broadcasts it against "
     "the state's d_v axis, giving wrong outputs or an IndexError / shape error.",
     ["unified_modes"],
     [fix(UR, ("S = A[..., t, :, :] * S +", "S = A[t] * S +"))])

# ============================================================================= alternatives

case("alt_unified_gate_product_matrix", "alternative",
     "unified_recurrence computed in closed form instead of with a loop: the weight of token s's write in S_t, "
     "P[t, s] = A_{s+1} ⋯ A_t, is built for all pairs without any division (a masked (L, L) gate matrix, flipped "
     "cumulative product along s, shifted by one column, tril), then y = (QKᵀ ⊙ P) V; exact for gates equal to 0 "
     "or 1 and for per-head / per-sequence gates.",
     [],
     [alt(UR, '''    L = Q.shape[-2]
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
        raise ValueError(f"unknown mode {mode!r}: expected 'linear', 'retention' or 'gated'")
    t = torch.arange(L, device=V.device)
    # M[t, r] = A_r for 1 <= r <= t, else 1; P[t, s] = prod_{r = s+1 .. t} M[t, r] (a suffix product, no division)
    M = torch.where((t[None, :] <= t[:, None]) & (t[None, :] >= 1), A[..., None, :], torch.ones((), dtype=V.dtype))
    suffix = M.flip(-1).cumprod(dim=-1).flip(-1)                 # suffix[t, s] = prod_{r >= s} M[t, r]
    P = torch.cat([suffix[..., 1:], torch.ones_like(suffix[..., :1])], dim=-1)   # shift: r >= s + 1
    P = torch.where(t[None, :] <= t[:, None], P, torch.zeros((), dtype=V.dtype))
    return (Q @ K.transpose(-2, -1) * P) @ V
''')])

case("alt_linrec_via_decoder_state", "alternative",
     "linear_attention_recurrent reuses the decoding face: it creates a LinearAttentionState(m, d_v) and steps the "
     "tokens through it one by one, stacking the reads; the running state lives in the object (constant work per "
     "token, no L × L matrix).",
     [],
     [alt(LR, '''    state = LinearAttentionState(K.shape[-1], V.shape[-1])
    ys = [state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])]
    if not ys:
        return V.clone()
    return torch.stack(ys, dim=-2)
''')])

case("alt_chunk_carry_token_by_token", "alternative",
     "retention_chunkwise keeps the parallel intra-chunk term but carries the state between chunks with the "
     "recurrent rule, token by token inside the chunk (R = γ R + k_sᵀ v_s for each s), which unrolls to "
     "γ^n R + Σ_s γ^(n-1-s) k_sᵀ v_s without writing the exponents; still no L × L matrix.",
     [],
     [fix(RC, ("        R = g ** n * R + (g ** (n - 1 - j) * k).transpose(-2, -1) @ v   # γ^n R + Σ_s γ^(n-1-s) k_sᵀ v_s\n",
               "        for s in range(n):                                       # carry: the recurrent rule, token by token\n"
               "            R = g * R + k[..., s, :].unsqueeze(-1) * v[..., s, :].unsqueeze(-2)\n"))])

# ============================================================================= stub

def running_sum_stub(py):
    """The template with every graded raise replaced by a running sum of the values (right shapes, no real work)."""
    reps = {
        "linear_attention_parallel": "return V.cumsum(dim=-2)",
        "linear_attention_recurrent": "return V.cumsum(dim=-2)",
        "LinearAttentionState.step": "self.running = getattr(self, 'running', 0) + v\n        return self.running",
        "as_gamma": "return torch.as_tensor(gamma, dtype=like.dtype)[..., None, None]",
        "decay_matrix": "return torch.ones(L, L, dtype=gamma.dtype).tril()",
        "retention_parallel": "return V.cumsum(dim=-2)",
        "retention_recurrent": "return V.cumsum(dim=-2)",
        "multiscale_decays": "return torch.full((num_heads,), 0.5)",
        "unified_recurrence": "return V.cumsum(dim=-2)",
    }
    out = py
    for mt in re.finditer(r'( *)raise NotImplementedError\("([A-Za-z_.]+):[^"]*"\)', py):
        indent, name = mt.group(1), mt.group(2)
        if name == "gated_delta_rule":                           # optional: left as handed out
            continue
        if name == "retention_chunkwise":
            rep = (f"{indent}out = V.cumsum(dim=-2)\n"
                   f"{indent}if return_state:\n"
                   f"{indent}    return out, K.transpose(-2, -1) @ V\n"
                   f"{indent}return out")
        else:
            rep = indent + reps[name]
        assert out.count(mt.group(0)) == 1, name
        out = out.replace(mt.group(0), rep)
    assert out.count("raise NotImplementedError") == 1          # the optional extension only
    ast.parse(out)
    return out


TEMPLATE_PY = (TEMPLATE / PY).read_text()

case("stub_running_sum_of_values", "stub",
     "the template module with each graded raise replaced by the running sum of the values: every attention, "
     "retention and unified form returns V.cumsum(-2) (right shape, neither zeros nor V), the step returns the "
     "running sum of the v it has seen, as_gamma only reshapes (never raises), decay_matrix is a causal mask of "
     "ones, multiscale_decays returns 0.5 per head, chunkwise's state is the undecayed Kᵀ V; the optional extension "
     "still raises; the template notebook untouched (exercise cells raise, answers and written answers empty). "
     "Consistent with itself, so the public linear and unified equivalence and causality tests pass by accident. "
     "should_lose lists every automatically graded item (the three manually graded answers are blank too).",
     AUTO_IDS, module=running_sum_stub(TEMPLATE_PY), source=TEMPLATE, scope="stub")


# ============================================================================= build

BASE_ABOUT = ("complete submission written from the docstrings: parallel faces with a boolean tril mask and "
              "torch.where (row-sum normalizer; retention with a torch.where decay matrix over clamped distances), "
              "recurrent forms and the step writing before they read with einsum reads and fresh tensors, as_gamma "
              "with explicit isnan / < 0 / > 1 checks, chunkwise with each chunk's real length and no L × L matrix, "
              "unified recurrence with a (..., L, 1, 1) gate tensor and ValueError for an unknown mode or a missing "
              "gamma / gate, optional gated delta rule; notebook: third-token and cost cells, Exercises 1-3, answers "
              "example_1_1 [0.5, 3.0], your_turn [1.5, 2.5], cost 781×, three written answers")


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
        funcs = [qn for qn, _, _ in c["edits"]]
        for qn, old, new in c["edits"]:
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
            assert py != BASE_PY, c["name"]
            assert len(funcs) == len(set(funcs)), c["name"]
            if c["scope"] == "single":
                assert len(funcs) == 1, c["name"]
            else:
                assert c["scope"] == "family" and c["kind"] == "bug", c["name"]
        if c["source"] == BASE:
            assert (dest / NB).read_text() == base_nb, c["name"]
        entries.append(dict(name=c["name"], kind=c["kind"], about=c["about"], should_lose=lose))
    n_family = sum(1 for c in CASES if c["scope"] == "family")
    assert n_family >= 5, n_family
    write_corpus(entries)
    return entries


def write_corpus(entries):
    lines = ["# Blind corpus, round 23, linear-attention-basics: one entry per case folder.",
             "# should_lose: rubric.yaml item ids, judged from the rubric titles, the docstrings, the notebook and the",
             "# public tests only (never the grader or hidden checks). Judgement calls: README.md.",
             "# bug_family_*: one misconception written into every form of a family (or its shared helper).",
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
