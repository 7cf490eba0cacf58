"""Build the blind partial-rerun corpus under /tmp/blindloop from the clean folder /tmp/loop/b."""
import copy
import json
import shutil
from pathlib import Path

import yaml

SRC = Path("/tmp/loop/b")
OUT = Path("/tmp/blindloop")
MOD = "linear_attention.py"
NB = "linear_attention.ipynb"

ORIG_MOD = (SRC / MOD).read_text()
ORIG_NB = json.loads((SRC / NB).read_text())


def sub(text, old, new):
    assert text.count(old) == 1, (text.count(old), old)
    return text.replace(old, new)


def lines(src):
    src = src.strip("\n") + "\n"
    out = src.splitlines(keepends=True)
    out[-1] = out[-1].rstrip("\n")
    return out


def code_cell(cid, src):
    return {"cell_type": "code", "execution_count": None, "id": cid, "metadata": {}, "outputs": [],
            "source": lines(src)}


def index_of(nb, cid):
    ids = [c["id"] for c in nb["cells"]]
    return ids.index(cid)


def insert_after(nb, cid, *cells):
    i = index_of(nb, cid)
    nb["cells"][i + 1:i + 1] = list(cells)


def set_source(nb, cid, src):
    nb["cells"][index_of(nb, cid)]["source"] = lines(src)


def get_source(nb, cid):
    return "".join(nb["cells"][index_of(nb, cid)]["source"])


CASES = []


def case(name, control, description, readme, module=None, notebook=None, edits=(), naive=None):
    """module: fn(text)->text; notebook: fn(nb) (in place); edits: [(file, old, new)];
    naive: (cells run by a naive partial rerun, the trap cell) for my own simulation."""
    CASES.append(dict(name=name, control=control, description=description, readme=readme, module=module,
                      notebook=notebook, edits=list(edits), naive=naive))


# ============================================================================ controls

case("01_control_parallel_mask", True,
     "Honest bug: linear_attention_parallel's causal mask lets token i see token i+1 (triu(1) -> triu(2)).",
     """**Control.** No trap in the base: the folder is the clean template. The edit introduces an honest
bug in `linear_attention_parallel` (the causal mask `triu(1)` becomes `triu(2)`, so token i also sees token
i+1). Every cell that calls the parallel face (the two-faces cells, the plot, Exercise 1 and its check) and
every public test that reaches it (`test_equiv_linear_parallel_recurrent`, `test_equiv_state_step`,
`test_causal[linear_parallel]`, ...) must be rerun; nothing else changes. Expected: the partial rerun and the
full rerun agree exactly (same failing tests, same lost items, same printed/plotted cells; the Exercise 1
check still passes because it recomputes with the same buggy function).""",
     edits=[(MOD, "future = torch.ones(L, L, dtype=torch.bool, device=q.device).triu(1)",
             "future = torch.ones(L, L, dtype=torch.bool, device=q.device).triu(2)")])

case("02_control_chunkwise_cross_exponent", True,
     "Honest bug: retention_chunkwise reads the carried state with gamma**j instead of gamma**(j+1).",
     """**Control.** Clean base. The edit introduces an honest bug in `retention_chunkwise`: the
cross-chunk term uses `gamma ** j` instead of `gamma ** (j + 1)`. Cells that call the chunkwise face (the
three-forms cell, the `draw_faces` figure) print/plot different values; the chunkwise public tests
(`test_equiv_retention_chunkwise`, `test_equiv_retention_per_head_gamma`, `test_gamma_zero_sees_only_itself`)
fail, the state test (`test_chunkwise_state_after_short_last_chunk`) still passes. Expected: partial rerun ==
full rerun.""",
     edits=[(MOD, "cross = gamma ** (j + 1) * (q @ R)", "cross = gamma ** j * (q @ R)")])

case("03_control_unified_gated_raises", True,
     "Honest bug: unified_recurrence's gated mode builds A with a stray trailing dim and raises IndexError at t = 1.",
     """**Control.** Clean base. The edit makes `unified_recurrence` build the gate as
`torch.as_tensor(gate, ...)[..., None]`, so in gated mode `A[..., t, None, None]` raises `IndexError` at
t = 1. Exercise 3's cell now stops before `y_gated` exists and before its figure is drawn (one figure fewer);
the locked Exercise 3 check then fails with a `NameError` on `y_gated` (gate3 exists); `ex3_runs` is lost and
`test_equiv_unified_modes` fails. Expected: partial rerun == full rerun, including the cell error messages
and the missing figure.""",
     edits=[(MOD, "A = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)   # (..., L)",
             "A = torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)[..., None]   # (..., L)")])


# ============================================================================ 04 lru_cache + in-place mutation

def mod04(t):
    t = sub(t, "import torch\nimport torch.nn.functional as F\n",
            "import functools\n\nimport torch\nimport torch.nn.functional as F\n")
    t = sub(t, "def decay_matrix(gamma, L):\n", '''@functools.lru_cache(maxsize=None)
def _decay_table(gamma, L, dtype):
    """decay_matrix for one scalar decay, built once per (gamma, L, dtype) and shared by every caller."""
    n = torch.arange(L)
    distance = n[:, None] - n[None, :]                           # (L, L): n - m
    D = torch.tensor(gamma, dtype=dtype) ** distance.clamp(min=0).to(dtype)
    return D.masked_fill(distance < 0, 0.0)                      # (L, L)


def decay_matrix(gamma, L):
''')
    t = sub(t, '''    gamma = 0 follows 0**0 = 1: D is then the identity (each token sees only itself).
    """
''', '''    gamma = 0 follows 0**0 = 1: D is then the identity (each token sees only itself).
    A single decay on the CPU is served from a cache (_decay_table): callers must not modify D.
    """
    if gamma.numel() == 1 and gamma.device.type == "cpu":
        return _decay_table(gamma.item(), L, gamma.dtype)        # (L, L), the same tensor every time
''')
    return t


def nb04(nb):
    insert_after(nb, "code-019", code_cell("trap-one-chunk", '''
# One chunk as long as the whole sequence is the parallel form inside retention_chunkwise: it must still
# match the recurrent form. Fixed, non-random inputs.
from linear_attention import retention_chunkwise, retention_recurrent

Qd = torch.linspace(-1, 1, 72).reshape(12, 6)
Kd = torch.cos(torch.arange(72.0)).reshape(12, 6)
Vd = torch.sin(torch.arange(72.0)).reshape(12, 6)
one_chunk = retention_chunkwise(Qd, Kd, Vd, 0.9, chunk_size=12)
print("one chunk == recurrent:", torch.allclose(one_chunk, retention_recurrent(Qd, Kd, Vd, 0.9), atol=1e-4))
assert torch.allclose(one_chunk, retention_recurrent(Qd, Kd, Vd, 0.9), atol=1e-4), \\
    "retention_chunkwise with chunk_size = L must equal the recurrent form"
'''))


case("04_lru_cache_inplace_decay_table", False,
     "retention_parallel is edited to multiply the lru_cache'd decay table in place; a later cell that only calls "
     "retention_chunkwise/recurrent reads the corrupted cache.",
     """**Trap: shared `functools.lru_cache` result mutated in place.** In the base, `decay_matrix` serves a
scalar decay from `_decay_table`, an `lru_cache`d helper that returns *the same tensor object* for the same
(gamma, L, dtype). A new cell `trap-one-chunk` (after `draw_faces`) calls only `retention_chunkwise(...,
chunk_size=12)` and `retention_recurrent` on fixed inputs (no random draws, its own imports) and asserts they
agree. The edit is a plausible memory "optimisation" in `retention_parallel`: `return D.mul_(Q @ Kᵀ) @ V`. The
parallel output is still right the first time, but it corrupts the cached (0.9, 12, float32) table, which the
three-forms cell and `draw_faces` both hit before `trap-one-chunk`. Full rerun: `trap-one-chunk` fails
(AssertionError), and `draw_faces`' parallel curve is wrong. A naive partial rerun reruns only the cells that
call `retention_parallel` (three-forms, `draw_faces`, Exercise 2) and keeps `trap-one-chunk`'s cached *pass*,
because neither `retention_chunkwise`, `retention_recurrent` nor `decay_matrix` changed.""",
     module=mod04, notebook=nb04,
     edits=[(MOD, "    return (Q @ K.transpose(-2, -1) * D) @ V                     # (..., L, d_v)",
             "    return D.mul_(Q @ K.transpose(-2, -1)) @ V                   # (..., L, d_v), in place: no second L × L buffer")],
     naive=(["code-001", "code-018", "code-019", "ex2-037"], "trap-one-chunk"))


# ============================================================================ 05 class attribute + __init__ side effect

def mod05(t):
    t = sub(t, "import torch\nimport torch.nn.functional as F\n",
            "import weakref\n\nimport torch\nimport torch.nn.functional as F\n")
    t = sub(t, '''    broadcasting, so one object can decode a whole batch of heads.
    """

    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)
        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)
''', '''    broadcasting, so one object can decode a whole batch of heads.
    """

    live = weakref.WeakSet()      # class attribute, shared by every state: what state_numbers() counts

    def __init__(self, m, d_v):
        self.S = torch.zeros(m, d_v)                             # (m, d_v), becomes (..., m, d_v)
        self.z = torch.zeros(m)                                  # (m,), becomes (..., m)
        LinearAttentionState.live.add(self)
''')
    t = sub(t, '''        return num / (q * self.z).sum(-1, keepdim=True)          # (..., d_v) / (..., 1)
''', '''        return num / (q * self.z).sum(-1, keepdim=True)          # (..., d_v) / (..., 1)


def state_numbers():
    """How many numbers the LinearAttentionState objects alive right now hold (their S and z together)."""
    return sum(s.S.numel() + s.z.numel() for s in LinearAttentionState.live)
''')
    return t


def nb05(nb):
    insert_after(nb, "code-029", code_cell("trap-state-numbers", '''
from linear_attention import state_numbers

# The decoder of "The Two Faces" kept one state of width m = d_v = 8: d² + d numbers, however many tokens it
# folded in. That is all the memory a linear-attention decoder needs.
held = state_numbers()
print("numbers held by the decoding states so far:", held)
assert held == 8 * 8 + 8, f"expected one state of 8 × 8 + 8 numbers, found {held}"
'''))


case("05_class_attribute_live_states", False,
     "LinearAttentionState.__init__ registers every state in a class attribute; a later cell reads it through "
     "state_numbers(); the edit to step() changes the state's size.",
     """**Trap: class attribute filled by an `__init__` side effect, read elsewhere.** In the base,
`LinearAttentionState.__init__` adds each new state to the class attribute `LinearAttentionState.live` (a
WeakSet), and a module function `state_numbers()` sums `S.numel() + z.numel()` over it. A new cell
`trap-state-numbers` in the cost section calls only `state_numbers()` and asserts it is 8·8 + 8 = 72 (the one
decoder made in the "two faces" cell). The edit is an honest shape bug in `step`: `self.z = self.z +
k[..., None]` makes z (8, 8). Full rerun: the decoding cell errors at its `allclose` (shape mismatch) and
`trap-state-numbers` fails ("found 128"). A naive partial rerun reruns the decoding cell only (it is the only
cell that calls `step`) and keeps `trap-state-numbers`' cached *pass*: that cell names neither `step`, the
class, nor anything the decoding cell made. (An analyzer that does rerun it but without the decoding cell in
its kernel gets "found 0": still a different message from the full run.)""",
     module=mod05, notebook=nb05,
     edits=[(MOD, "        self.z = self.z + k                                      # (..., m)",
             "        self.z = self.z + k[..., None]                           # (..., m)")],
     naive=(["code-001", "code-005", "code-010", "code-012", "code-014"], "trap-state-numbers"))


# ============================================================================ 06 notebook monkeypatches the module

def nb06(nb):
    insert_after(nb, "code-007",
                 code_cell("trap-patch-phi", '''
# Example 1.1 through the module's code: swap φ for the identity (a score is then just q·k), as the public
# test does with monkeypatch. Every function in linear_attention looks feature_map up when it is called.
import linear_attention

phi_elu = linear_attention.feature_map
linear_attention.feature_map = lambda x: x
'''),
                 code_cell("trap-example-through-code", '''
import linear_attention as la_mod

y_ex = la_mod.linear_attention_recurrent(torch.stack([q_ex, q_ex]), keys, values)
print("second token's read, identity φ:", y_ex[1].tolist())
assert torch.allclose(y_ex[1], torch.tensor([0.5, 3.0])), "Example 1.1 through linear_attention_recurrent"
'''),
                 code_cell("trap-restore-phi", '''
linear_attention.feature_map = phi_elu   # back to elu + 1 for the rest of the notebook
'''))


case("06_notebook_monkeypatch_feature_map", False,
     "A variable-free notebook cell monkeypatches linear_attention.feature_map; the next cell calls the edited "
     "linear_attention_recurrent and only passes under the patch.",
     """**Trap: a notebook cell monkeypatches the student module.** Three new cells after Example 1.1:
`trap-patch-phi` sets `linear_attention.feature_map = lambda x: x`; `trap-example-through-code` (its own
`import linear_attention as la_mod`, plus `keys`, `values`, `q_ex` from the worked-example cell) runs
`la_mod.linear_attention_recurrent` on the example and asserts the read is [0.5, 3] (true only with the
identity φ); `trap-restore-phi` puts elu + 1 back. The edit is a semantically neutral refactor of the
normalizer in `linear_attention_recurrent` (`einsum` instead of `(q*z).sum`). Full rerun: identical to the
base, the check passes. A naive partial rerun reruns `trap-example-through-code` (it calls the edited
function) with only the cells that define its variables (imports, the worked example) — the patch cell
defines nothing it uses, so it is skipped, φ is elu + 1, and the cell *fails*
(read ≈ [0.82, 2.35] instead of [0.5, 3]).""",
     notebook=nb06,
     edits=[(MOD, "        den = (q[..., t, :] * z).sum(-1, keepdim=True)           # (..., 1):   φ(q_t)ᵀ z",
             '        den = torch.einsum("...m,...m->...", q[..., t, :], z)[..., None]   # (..., 1):   φ(q_t)ᵀ z')],
     naive=(["code-001", "code-005", "code-007", "trap-example-through-code"], "trap-example-through-code"))


# ============================================================================ 07 env var + importlib.reload

def mod07(t):
    t = sub(t, "import torch\nimport torch.nn.functional as F\n",
            "import os\n\nimport torch\nimport torch.nn.functional as F\n\n"
            "# retention_chunkwise's chunk size when the caller gives none; read once, when the module is (re)loaded.\n"
            "DEFAULT_CHUNK = int(os.environ.get(\"LA_CHUNK\", \"4\"))\n")
    t = sub(t, "def retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=False):",
            "def retention_chunkwise(Q, K, V, gamma, chunk_size=None, return_state=False):")
    t = sub(t, '''    the last token: what retention_recurrent's S ends as.
    """
    if chunk_size < 1:''', '''    the last token: what retention_recurrent's S ends as. chunk_size=None uses DEFAULT_CHUNK.
    """
    if chunk_size is None:
        chunk_size = DEFAULT_CHUNK
    if chunk_size < 1:''')
    return t


def nb07(nb):
    insert_after(nb, "code-019",
                 code_cell("trap-env-chunk", '''
# From here on, retention_chunkwise's default chunk is 5 (12 tokens: the last chunk is short). The module
# reads LA_CHUNK when it is loaded, so reload it.
import importlib

import linear_attention

os.environ["LA_CHUNK"] = "5"
importlib.reload(linear_attention)
print("default chunk size:", linear_attention.DEFAULT_CHUNK)
'''),
                 code_cell("trap-default-chunk", '''
import linear_attention as la_mod

y_default = la_mod.retention_chunkwise(Qr, Kr, Vr, 0.9)          # the default chunk size
assert torch.allclose(y_default, la_mod.retention_parallel(Qr, Kr, Vr, 0.9), atol=1e-5), \\
    "retention_chunkwise with its default chunk size must match the parallel form"
print("chunkwise with the default chunk size == parallel")
'''))


case("07_env_var_and_reload_default_chunk", False,
     "A variable-free cell sets os.environ and importlib.reloads the module (default chunk 4 -> 5); the edited "
     "retention_chunkwise only breaks on a short last chunk.",
     """**Trap: environment variable + `importlib.reload` in a cell that defines nothing used later.** In the
base, `retention_chunkwise(..., chunk_size=None)` falls back to the module constant `DEFAULT_CHUNK`, read from
`LA_CHUNK` (default 4) at import. New cell `trap-env-chunk` sets `os.environ["LA_CHUNK"] = "5"` and reloads
the module; `trap-default-chunk` calls `retention_chunkwise(Qr, Kr, Vr, 0.9)` with the default chunk size and
asserts it equals the parallel form. The edit is an honest bug in `retention_chunkwise` that only shows on a
short last chunk: `decay_matrix(gamma, chunk_size)` instead of `decay_matrix(gamma, n)` (a shape error for the
2-token tail of 12 = 5 + 5 + 2). Full rerun: `draw_faces` (chunk 5) errors (no figure) and
`trap-default-chunk` errors (RuntimeError). A naive partial rerun reruns `trap-default-chunk` with the cell
that defines `Qr, Kr, Vr`, but not `trap-env-chunk` (no variable from it is used), so the default chunk is 4,
which divides 12, and the cell *passes*. (The reload may also undo any runtime instrumentation the grader
put on the module's functions.)""",
     module=mod07, notebook=nb07,
     edits=[(MOD, "        intra = (q @ k.transpose(-2, -1) * decay_matrix(gamma, n)) @ v        # (..., n, d_v)",
             "        intra = (q @ k.transpose(-2, -1) * decay_matrix(gamma, chunk_size)) @ v   # (..., n, d_v)")],
     naive=(["code-001", "code-018", "trap-default-chunk"], "trap-default-chunk"))


# ============================================================================ 08 matplotlib colormap registry

def nb08(nb):
    insert_after(nb, "code-016",
                 code_cell("trap-register-cmap", '''
# A colormap for the decay-matrix figures from here on: white for 0, navy for 1, registered as "decay".
import matplotlib
from matplotlib.colors import LinearSegmentedColormap

decay_cmap = LinearSegmentedColormap.from_list("decay", ["white", "navy"])
matplotlib.colormaps.register(decay_cmap)
'''),
                 code_cell("trap-decay-readback", '''
# The decay matrix as retention_parallel applies it, read back from its output: with q_n = k_m = 1 every
# score is 1, and V = I copies row n of D into output n.
from linear_attention import retention_parallel

L_show = 10
ones = torch.ones(L_show, 1)
D_seen = retention_parallel(ones, ones, torch.eye(L_show), 0.8)
fig, ax = plt.subplots(figsize=(3.6, 3.2))
ax.imshow(D_seen, cmap="decay", vmin=0, vmax=1)
ax.set(title="D read back from retention_parallel, γ = 0.8", xlabel="key position m", ylabel="query position n")
plt.show()
'''))


case("08_matplotlib_registered_colormap", False,
     "A cell registers a matplotlib colormap by name (global registry); the next cell calls the edited "
     "retention_parallel and plots with cmap=\"decay\".",
     """**Trap: matplotlib global state (the colormap registry).** New cell `trap-register-cmap` (after
`draw_decay`) registers a colormap named "decay" with `matplotlib.colormaps.register`; the only variable it
defines, `decay_cmap`, is never used again. `trap-decay-readback` calls `retention_parallel` (its own import)
and draws `imshow(D_seen, cmap="decay")`: the colormap is referred to by a string. The edit is a
semantically neutral refactor of `retention_parallel`'s return (`torch.matmul(...)`). Full rerun: same as the
base, one figure, no error. A naive partial rerun reruns `trap-decay-readback` (it calls the edited function)
with only the cells that define `torch` and `plt`, not the registration cell, so `imshow` raises
`ValueError: 'decay' is not a valid value for cmap`: cell error and a different (empty or missing) figure.""",
     notebook=nb08,
     edits=[(MOD, "    return (Q @ K.transpose(-2, -1) * D) @ V                     # (..., L, d_v)",
             "    return torch.matmul(Q @ K.transpose(-2, -1) * D, V)          # (..., L, d_v)")],
     naive=(["code-001", "trap-decay-readback"], "trap-decay-readback"))


# ============================================================================ 09 file written by one cell, read by another

def nb09(nb):
    insert_after(nb, "code-018", code_cell("trap-save-run", '''
# Save the recurrent output of the 12-token example; a cell further down checks it against the formula.
from linear_attention import retention_recurrent

torch.save({"Q": Qr, "K": Kr, "V": Vr, "gamma": 0.9, "y": retention_recurrent(Qr, Kr, Vr, 0.9)}, "retention_run.pt")
'''))
    insert_after(nb, "code-021", code_cell("trap-load-run", '''
# Reload the saved run and check it against the decay-matrix formula written out by hand.
run = torch.load("retention_run.pt")
n_idx = torch.arange(run["Q"].shape[0])
D_hand = torch.where(n_idx[:, None] >= n_idx[None, :],
                     run["gamma"] ** (n_idx[:, None] - n_idx[None, :]).clamp(min=0).float(), torch.tensor(0.0))
by_formula = (run["Q"] @ run["K"].T * D_hand) @ run["V"]
os.remove("retention_run.pt")
print("saved recurrent run == (QKᵀ ⊙ D) V:", torch.allclose(run["y"], by_formula, atol=1e-4))
assert torch.allclose(run["y"], by_formula, atol=1e-4), "the saved retention_recurrent output does not match the formula"
'''))


case("09_file_written_then_read", False,
     "One cell torch.saves the edited retention_recurrent's output to a file; a later cell (no call, no shared "
     "variable) loads the file and checks it.",
     """**Trap: a file as the channel between cells.** New cell `trap-save-run` (after the three-forms cell)
calls `retention_recurrent` and `torch.save`s its output with the inputs to `retention_run.pt` in the working
directory. `trap-load-run` (after the multi-scale cell) uses no variable of that cell: it `torch.load`s the
file, compares the saved output with `(QKᵀ ⊙ D) V` built by hand, and deletes the file (so no data file is
left in the folder between runs). The edit is an honest bug in `retention_recurrent`: the decay is applied to
the write instead of the state (`S = S + gamma * k vᵀ`). Full rerun: `trap-load-run` fails. A naive partial
rerun reruns `trap-save-run` (and the other cells calling `retention_recurrent`) and keeps
`trap-load-run`'s cached *pass* — it calls nothing that changed and uses no variable a rerun cell made. (If it
were rerun without `trap-save-run` it would fail with FileNotFoundError instead: a different message.)""",
     notebook=nb09,
     edits=[(MOD, "        S = gamma * S + K[..., n, :, None] * V[..., n, None, :]  # (..., m, d_v): decay, then add k_nᵀ v_n",
             "        S = S + gamma * K[..., n, :, None] * V[..., n, None, :]  # (..., m, d_v): decay, then add k_nᵀ v_n")],
     naive=(["code-001", "code-018", "trap-save-run", "code-019"], "trap-load-run"))


# ============================================================================ 10 in-place mutation of a cell's inputs

def nb10(nb):
    src = get_source(nb, "code-005")
    src = sub(src, "V = torch.randn(6, 8) # (length, d_v)\n",
              "V = torch.randn(6, 8) # (length, d_v)\n"
              "Q_saved, K_saved, V_saved = Q.clone(), K.clone(), V.clone()  # to check below that no call changes them\n")
    set_source(nb, "code-005", src)
    insert_after(nb, "code-014", code_cell("trap-inputs-untouched", '''
# No function may change its arguments: Q, K, V are still the tensors drawn in the first linear-attention cell.
assert torch.equal(Q, Q_saved) and torch.equal(K, K_saved) and torch.equal(V, V_saved), \\
    "a function modified its inputs in place"
print("Q, K, V untouched")
'''))


case("10_inplace_mutation_of_cell_inputs", False,
     "The edit makes linear_attention_parallel apply elu in place on its argument Q; a later cell that only "
     "reads Q (made by an unaffected cell) sees the mutation.",
     """**Trap: aliasing / in-place mutation of a tensor passed between cells.** The first linear-attention
cell now also keeps `Q_saved, K_saved, V_saved = Q.clone(), ...`; a new cell `trap-inputs-untouched` (after
the decoding cell) asserts `torch.equal(Q, Q_saved)` etc. and calls no module function. The edit in
`linear_attention_parallel` computes φ(Q) "without a copy": `F.elu(Q, inplace=True).add_(1)` — same output,
but the caller's `Q` is overwritten. Full rerun: the two-faces cell turns the notebook's `Q` into φ(Q) (and
later calls see φ(φ(Q))...), so `trap-inputs-untouched` fails; the Exercise 1 check also fails (it recomputes
on the mutated `Q1`) — that part a partial rerun reproduces, since those cells call the edited function. A
naive partial rerun does not rerun `trap-inputs-untouched`: it uses only `Q`, `Q_saved` (made by a cell that
calls `linear_attention_recurrent`, not the edited function) and nothing the rerun cells assigned; it keeps
its cached *pass*. (Rerunning it with only its defining cell would also pass: the mutation happens in a cell
that defines none of its variables.)""",
     notebook=nb10,
     edits=[(MOD, "    q, k = feature_map(Q), feature_map(K)                        # (..., L, m)\n    L = q.shape[-2]",
             "    q, k = F.elu(Q, inplace=True).add_(1), feature_map(K)        # (..., L, m): φ(Q) without a copy\n    L = q.shape[-2]")],
     naive=(["code-001", "code-005", "code-010", "code-012", "code-014"], "trap-inputs-untouched"))


# ============================================================================ 11 decorator-filled registry

def mod11(t):
    start = t.index("    L = Q.shape[-2]\n    if mode == \"linear\":")
    end = t.index("    S = Q.new_zeros(Q.shape[-1], V.shape[-1])                    # (m, d_v); leading dims broadcast in\n    ys = []\n    for t in range(L):")
    t = t[:start] + '''    if not isinstance(mode, str) or mode not in _GATES:
        raise ValueError(f"mode must be 'linear', 'retention' or 'gated', got {mode!r}")
    L = Q.shape[-2]
    A = _GATES[mode](Q, L, gamma, gate)                          # (L,) or (..., L): A_t for every step
''' + t[end:]
    t = sub(t, "def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):\n", '''_GATES = {}                      # mode -> function building A_t, filled by @_gate below


def _gate(mode):
    """Register the function that builds unified_recurrence's A_t for one mode."""
    def register(fn):
        _GATES[mode] = fn
        return fn
    return register


@_gate("linear")
def _linear_gate(Q, L, gamma, gate):
    return Q.new_ones(L)                                         # (L,)


@_gate("retention")
def _retention_gate(Q, L, gamma, gate):
    if gamma is None:
        raise ValueError("mode='retention' needs gamma")
    return as_gamma(gamma, Q)[..., 0] * Q.new_ones(L)            # (..., L): gamma at every step


@_gate("gated")
def _input_gate(Q, L, gamma, gate):
    if gate is None:
        raise ValueError("mode='gated' needs gate")
    return torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)   # (..., L)


def unified_recurrence(Q, K, V, mode, gamma=None, gate=None):
''')
    return t


def nb11(nb):
    insert_after(nb, "ex3-043", code_cell("trap-constant-gate", '''
# A constant gate is retention: gated mode with A_t = 0.6 at every step must equal retention with γ = 0.6.
from linear_attention import retention_parallel, unified_recurrence

flat = unified_recurrence(Q3, K3, V3, "gated", gate=torch.full((8,), 0.6))
assert torch.allclose(flat, retention_parallel(Q3, K3, V3, 0.6), atol=1e-5), "gated mode with a constant gate ≠ retention"
print("constant gate == retention")
'''))


case("11_decorator_registry_gate", False,
     "unified_recurrence dispatches through a dict filled by a registering decorator; the edit is in the "
     "registered gated-mode function, which no caller names.",
     """**Trap: a function reached only through a decorator-filled registry.** In the base,
`unified_recurrence` looks up `A = _GATES[mode](...)`; the three gate builders are added to `_GATES` by
`@_gate("linear")`, `@_gate("retention")`, `@_gate("gated")` at import time, and nothing else names them. The
edit is an honest bug in `_input_gate` (the gated mode's builder): it returns `1 - gate`. Full rerun:
`test_equiv_unified_modes` fails, the hidden `unified_modes` check fails, the new notebook cell
`trap-constant-gate` (gated with a constant 0.6 gate must equal retention with γ = 0.6) fails, and Exercise 3's
figure changes (the Exercise 3 check still passes: it recomputes with the same function). A naive partial
rerun sees no cell and no test whose code reaches `_input_gate` (the call goes `unified_recurrence` →
`_GATES[mode]`, a dict subscript, not a name or a getattr), reruns nothing and keeps every cached pass and
the old Exercise 3 figure.""",
     module=mod11, notebook=nb11,
     edits=[(MOD, "    return torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)   # (..., L)",
             "    return 1 - torch.as_tensor(gate, dtype=Q.dtype, device=Q.device)   # (..., L)")],
     naive=(["code-001"], "trap-constant-gate"))


# ============================================================================ 12 import-time constant

def mod12(t):
    old = '''def multiscale_decays(num_heads):
    """Multi-scale retention's per-head decays gamma_h = 1 - 2**(-5 - h), h = 0 .. num_heads-1.

    Returns a tensor of shape (num_heads,) in the default float dtype.
    """
    h = torch.arange(num_heads, dtype=torch.get_default_dtype())
    return 1 - 2.0 ** (-5 - h)                                   # (H,)
'''
    new = '''def head_decay(h):
    """gamma_h = 1 - 2**(-5 - h) for a head index h (an int or a tensor of them)."""
    h = torch.as_tensor(h, dtype=torch.float64)
    return 1 - 2.0 ** (-5 - h)


# Multi-scale retention's decays for up to 256 heads, computed once when the module is imported.
_HEAD_DECAYS = head_decay(torch.arange(256))                   # (256,), float64


def multiscale_decays(num_heads):
    """Multi-scale retention's per-head decays gamma_h = 1 - 2**(-5 - h), h = 0 .. num_heads-1 (<= 256).

    Returns a tensor of shape (num_heads,) in the default float dtype.
    """
    return _HEAD_DECAYS[:num_heads].to(torch.get_default_dtype(), copy=True)   # (H,)
'''
    return sub(t, old, new)


def nb12(nb):
    insert_after(nb, "code-021", code_cell("trap-multiscale-values", '''
assert torch.allclose(multiscale_decays(4), torch.tensor([0.96875, 0.984375, 0.9921875, 0.99609375])), \\
    "multiscale_decays must give γ_h = 1 - 2^(-5-h)"
print("γ_h = 1 - 2^(-5-h) for h = 0..3")
'''))


case("12_import_time_constant_head_decays", False,
     "multiscale_decays reads a table computed at import by head_decay(); the edit is in head_decay, which no "
     "function body calls.",
     """**Trap: a module-level constant computed at import time by the edited function.** In the base,
`multiscale_decays(n)` returns a slice of `_HEAD_DECAYS`, a table built once at import by
`_HEAD_DECAYS = head_decay(torch.arange(256))`; no function body calls `head_decay`. A new cell
`trap-multiscale-values` (after the multi-scale cell) asserts the four values. The edit is an honest bug in
`head_decay` (`-4 - h` instead of `-5 - h`). Full rerun: `test_multiscale_decays_values` fails, the hidden
`multiscale` check fails (item `multiscale` lost), `trap-multiscale-values` fails and the multi-scale cell prints
other numbers. A naive partial rerun finds no cell, test or check whose code calls `head_decay` (the
dependency goes through a module global assigned at import), reruns nothing and reports the base's passes.""",
     module=mod12, notebook=nb12,
     edits=[(MOD, "    return 1 - 2.0 ** (-5 - h)\n", "    return 1 - 2.0 ** (-4 - h)\n")],
     naive=(["code-001"], "trap-multiscale-values"))


# ============================================================================ 13 globals() lookup

def mod13(t):
    return sub(t, "\n\ndef multiscale_decays(num_heads):", '''

def retention(Q, K, V, gamma, form="parallel", **kwargs):
    """Retention in any of its three forms: form = "parallel", "recurrent" or "chunkwise" (pass chunk_size)."""
    if form not in ("parallel", "recurrent", "chunkwise"):
        raise ValueError(f"form must be 'parallel', 'recurrent' or 'chunkwise', got {form!r}")
    return globals()[f"retention_{form}"](Q, K, V, gamma, **kwargs)


def multiscale_decays(num_heads):''')


def nb13(nb):
    insert_after(nb, "code-019", code_cell("trap-any-form", '''
# The three forms through one entry point, on fixed inputs: every form must give the same output.
from linear_attention import retention

Qf = torch.linspace(-1, 1, 60).reshape(10, 6)
Kf = torch.cos(torch.arange(60.0)).reshape(10, 6)
Vf = torch.sin(torch.arange(60.0)).reshape(10, 6)
outs = {form: retention(Qf, Kf, Vf, 0.7, form=form, **({"chunk_size": 3} if form == "chunkwise" else {}))
        for form in ("parallel", "recurrent", "chunkwise")}
for form, y in outs.items():
    assert torch.allclose(y, outs["parallel"], atol=1e-4), f"{form} differs from parallel"
print("all three forms agree")
'''))


case("13_globals_lookup_dispatcher", False,
     "A module dispatcher reaches retention_<form> through globals()[f\"retention_{form}\"] (no getattr); a cell "
     "uses only the dispatcher; the edit is in retention_recurrent.",
     """**Trap: dynamic lookup that is neither `eval`, `import *` nor `getattr`.** The base adds
`retention(Q, K, V, gamma, form=...)`, which returns `globals()[f"retention_{form}"](...)`. A new cell
`trap-any-form` (after `draw_faces`, fixed inputs, its own import) runs all three forms through `retention`
and asserts they agree. The edit is an honest bug in `retention_recurrent` (`S = gamma * (S + k vᵀ)`: decay
after the write). Full rerun: `trap-any-form` fails ("recurrent differs from parallel"), the three-forms cell
prints False, the recurrent tests fail. A naive partial rerun reruns the cells that name
`retention_recurrent` but not `trap-any-form`: the dispatcher's body names no student function, and a
subscript of `globals()` is not on the documented "cannot follow" list, so it keeps the cached *pass*.""",
     module=mod13, notebook=nb13,
     edits=[(MOD, "        S = gamma * S + K[..., n, :, None] * V[..., n, None, :]  # (..., m, d_v): decay, then add k_nᵀ v_n",
             "        S = gamma * (S + K[..., n, :, None] * V[..., n, None, :])  # (..., m, d_v): decay, then add k_nᵀ v_n")],
     naive=(["code-001", "code-018", "code-019"], "trap-any-form"))


# ============================================================================ 14 del, then a NameError fallback

def nb14(nb):
    insert_after(nb, "code-018", code_cell("trap-chunk-var", '''
chunk = 4          # a chunk size that divides the 12 tokens
print("chunk size:", chunk)
'''))
    insert_after(nb, "code-019",
                 code_cell("trap-del-chunk", '''
del chunk          # done with the divisible case; the next cell picks its own chunk size
'''),
                 code_cell("trap-chunk-fallback", '''
# Use the chunk size from above if it is still defined, else 5 (12 tokens: then the last chunk is short).
try:
    cs = chunk
except NameError:
    cs = 5
y_cs = retention_chunkwise(Qr, Kr, Vr, 0.9, chunk_size=cs)
assert torch.allclose(y_cs, retention_recurrent(Qr, Kr, Vr, 0.9), atol=1e-5), f"chunkwise with chunk_size={cs} ≠ recurrent"
print("chunk size", cs, "matches the recurrent form")
'''))


case("14_del_then_nameerror_fallback", False,
     "A cell `del`s a variable; a later cell calling the edited retention_chunkwise falls back on NameError. A "
     "partial rerun that runs the defining cell but not the `del` takes the other branch.",
     """**Trap: `del`.** New cells: `trap-chunk-var` sets `chunk = 4` (after the three-forms cell);
`trap-del-chunk` runs `del chunk` (after `draw_faces`); `trap-chunk-fallback` does `try: cs = chunk except
NameError: cs = 5`, calls `retention_chunkwise(Qr, Kr, Vr, 0.9, chunk_size=cs)` and asserts it equals the
recurrent form. In order, `cs` is 5. The edit is an honest bug in `retention_chunkwise` that only bites on a
short last chunk: `n = chunk_size` instead of `n = q.shape[-2]` (shape error on the 2-token tail). Full
rerun: `draw_faces` (chunk 5) and `trap-chunk-fallback` both error. A naive partial rerun reruns
`trap-chunk-fallback` (it calls the edited function) with the cells that *define* its free names — the
three-forms cell for `Qr, Kr, Vr` and `trap-chunk-var` for `chunk` — but not `trap-del-chunk`, which defines
nothing; so `cs = 4`, which divides 12, and the cell *passes*.""",
     notebook=nb14,
     edits=[(MOD, "        n = q.shape[-2]                                          # chunk_size, or fewer at the end",
             "        n = chunk_size                                           # chunk_size, or fewer at the end")],
     naive=(["code-001", "code-018", "trap-chunk-var", "trap-chunk-fallback"], "trap-chunk-fallback"))


# ============================================================================ 15 notebook function shadows the module's

def nb15(nb):
    insert_after(nb, "code-014",
                 code_cell("trap-shadow", '''
# A scratch recurrent face that also returns every state S_t, to look at the memory. From here on,
# `linear_attention_recurrent` in this notebook is this version, not the module's.
from linear_attention import feature_map as phi


def linear_attention_recurrent(Q, K, V, return_states=False):
    q, k = phi(Q), phi(K)
    S, z, ys, states = torch.zeros(Q.shape[-1], V.shape[-1]), torch.zeros(Q.shape[-1]), [], []
    for t in range(Q.shape[0]):
        S = S + torch.outer(k[t], V[t])
        z = z + k[t]
        ys.append(q[t] @ S / (q[t] @ z))
        states.append(S)
    y = torch.stack(ys)
    return (y, torch.stack(states)) if return_states else y
'''),
                 code_cell("trap-shadow-check", '''
y_mine, states = linear_attention_recurrent(Q, K, V, return_states=True)
print("states kept:", tuple(states.shape))
assert torch.allclose(y_mine, linear_attention_parallel(Q, K, V), atol=1e-5), "scratch recurrent face ≠ parallel face"
'''))


case("15_notebook_shadows_module_function", False,
     "A notebook cell defines its own linear_attention_recurrent (shadowing the import); a later cell calls that "
     "name. The edit is a bug in the module's linear_attention_recurrent.",
     """**Trap: a notebook `def` shadows the module's function of the same name.** New cell `trap-shadow`
(after the decoding cell) defines a notebook-level `linear_attention_recurrent(Q, K, V, return_states=False)`
(using `phi`, its own import of `feature_map`); `trap-shadow-check` calls
`linear_attention_recurrent(Q, K, V, return_states=True)` and compares with the module's parallel face. The
edit is an honest bug in the module's `linear_attention_recurrent` (`z = z + q_t` instead of `z + φ(k_t)`).
Full rerun: `trap-shadow-check` uses the notebook's version and *passes*, unchanged. The risk is a partial
rerun that decides `trap-shadow-check` "uses" the edited function because it names it, and then resolves
that name to the import cells (`from linear_attention import ... linear_attention_recurrent`) instead of the
later `def`: it reruns the cell without `trap-shadow`, and the module version rejects `return_states`
(TypeError) — a failure the full run does not have. (Not rerunning `trap-shadow-check` at all is correct
here.)""",
     notebook=nb15,
     edits=[(MOD, "        z = z + k[..., t, :]                                     # (..., m)",
             "        z = z + q[..., t, :]                                     # (..., m)")],
     naive=(["code-001", "code-005", "code-010", "trap-shadow-check"], "trap-shadow-check"))


# ============================================================================ 16 RNG drawn through tensor methods

def mod16(t):
    return sub(t, "\n\n# ----------------------------------------------------------------------------- optional extension", '''


# ----------------------------------------------------------------------------- random inputs for experiments

def random_gate(L, p=0.25, high=0.95, low=0.1, generator=None):
    """A random gate for unified_recurrence's gated mode: `high` with probability p at each step, else `low`.

    Draws with Tensor.uniform_, from `generator` or, by default, the global random stream.
    """
    hold = torch.empty(L).uniform_(generator=generator) < p
    return torch.where(hold, torch.tensor(high), torch.tensor(low))   # (L,)


def random_inputs(L, m, d_v, generator=None):
    """Q, K, V with standard normal entries, drawn with Tensor.normal_ (from `generator`, or the global stream)."""
    return tuple(torch.empty(L, d).normal_(generator=generator) for d in (m, m, d_v))


def replay_inputs(seed, gate_len, L, m, d_v):
    """What random_inputs(L, m, d_v) draws right after torch.manual_seed(seed); random_gate(gate_len)."""
    g = torch.Generator().manual_seed(seed)
    torch.empty(gate_len).uniform_(generator=g)                  # the gate's draws
    return random_inputs(L, m, d_v, generator=g)


# ----------------------------------------------------------------------------- optional extension''')


def nb16(nb):
    insert_after(nb, "ex3-043",
                 code_cell("trap-random-gate", '''
# A random gate instead of a hand-designed one.
from linear_attention import random_gate

torch.manual_seed(12)
gate_r = random_gate(8)
print("random gate:", [round(g, 2) for g in gate_r.tolist()])
'''),
                 code_cell("trap-after-gate", '''
# Fresh inputs, continuing the stream seeded above (no new seed: the notebook replays from that one seed,
# which the assert checks on a private generator).
from linear_attention import random_inputs, replay_inputs, unified_recurrence

Qg, Kg, Vg = random_inputs(8, 4, 3)
assert torch.equal(Qg, replay_inputs(12, 8, 8, 4, 3)[0]), "the global random stream is not where the seed put it"
y_half = unified_recurrence(Qg, Kg, Vg, "gated", gate=torch.full((8,), 0.5))
print("output norms:", [round(v, 3) for v in y_half.norm(dim=-1).tolist()])
'''))


case("16_rng_drawn_via_tensor_methods", False,
     "Random numbers are drawn with Tensor.uniform_/normal_ inside module helpers; the edit makes random_gate "
     "draw 8 more numbers from the global stream, which shifts what the next (non-seeding) cell draws.",
     """**Trap: global random state consumed inside student functions, through tensor methods.** The base adds
`random_gate` (draws with `torch.empty(L).uniform_(generator=...)`), `random_inputs` (`.normal_()`) and
`replay_inputs` (the same draws on a private `torch.Generator`). New cell `trap-random-gate` seeds
(`torch.manual_seed(12)`) and calls `random_gate(8)`; `trap-after-gate` draws `random_inputs(8, 4, 3)` from the
global stream *without* reseeding and asserts they equal the replay. The edit "jitters the low gates" in
`random_gate` with `torch.empty(L).uniform_()` — no generator, so 8 more draws from the global stream. Full
rerun: `trap-after-gate` fails. The documentation promises to rerun cells that "draw random numbers after" a
rerun cell, but neither cell contains `torch.rand*`/`randn`: the draws are `Tensor.uniform_`/`normal_` inside
module helpers. A naive partial rerun reruns `trap-random-gate` only and keeps `trap-after-gate`'s cached
*pass*. (A correct rerun must also run the seeding cell before it, although no variable links them.)""",
     module=mod16, notebook=nb16,
     edits=[(MOD, "    return torch.where(hold, torch.tensor(high), torch.tensor(low))   # (L,)",
             "    return torch.where(hold, torch.tensor(high), low * (1 + 0.1 * torch.empty(L).uniform_()))   # (L,), jittered low gates")],
     naive=(["code-001", "trap-random-gate"], "trap-after-gate"))


# ============================================================================ 17 default argument bound at def time

def mod17(t):
    t = sub(t, "def retention_recurrent(Q, K, V, gamma):", "def retention_recurrent(Q, K, V, gamma, check=as_gamma):")
    t = sub(t, '''    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v).
    """
    gamma = as_gamma(gamma, Q)                                   # (..., 1, 1)
    S = Q.new_zeros''', '''    Q, K: (..., L, m); V: (..., L, d_v) -> (..., L, d_v). `check` validates and shapes gamma.
    """
    gamma = check(gamma, Q)                                      # (..., 1, 1)
    S = Q.new_zeros''')
    return t


def nb17(nb):
    insert_after(nb, "code-019", code_cell("trap-rejects-bad-gamma", '''
# γ must lie in [0, 1]; NaN is not a decay either.
from linear_attention import retention_recurrent

x = torch.ones(3, 2)
for bad in (1.5, -0.1, float("nan")):
    try:
        retention_recurrent(x, x, x, bad)
    except ValueError:
        continue
    raise AssertionError(f"retention_recurrent accepted gamma = {bad}")
print("retention_recurrent rejects every γ outside [0, 1]")
'''))


case("17_default_argument_binding", False,
     "retention_recurrent reaches as_gamma only through a default argument (check=as_gamma); the edit to "
     "as_gamma lets NaN through.",
     """**Trap: a function reached through a default argument value.** In the base,
`retention_recurrent(Q, K, V, gamma, check=as_gamma)` validates with `gamma = check(gamma, Q)`: its body never
names `as_gamma`; the name appears only in the `def` line's default, evaluated once at import. A new cell
`trap-rejects-bad-gamma` calls only `retention_recurrent` with γ = 1.5, -0.1 and NaN and asserts each raises
ValueError. The edit is a plausible refactor of `as_gamma`'s test, `if bool(gamma.min() < 0) or
bool(gamma.max() > 1)`, which silently accepts NaN. Full rerun: `trap-rejects-bad-gamma` fails, the hidden
`gamma_validation` check fails for every form (`retention_recurrent` included). A naive partial rerun (an
analyzer that reads a function's body but not its defaults) reruns the cells that reach `as_gamma` through
`retention_parallel`/`retention_chunkwise`/`unified_recurrence`, but not `trap-rejects-bad-gamma`, which keeps
its cached *pass*; likewise the recurrent-only parts of the checks.""",
     module=mod17, notebook=nb17,
     edits=[(MOD, "    if not bool(((gamma >= 0) & (gamma <= 1)).all()):",
             "    if bool(gamma.min() < 0) or bool(gamma.max() > 1):")],
     naive=(["code-001"], "trap-rejects-bad-gamma"))


# ============================================================================ write everything

def build():
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    index = ["# Blind partial-rerun corpus (linear-attention-basics)", "",
             "Each case: `base/` (the student folder to grade first), `edit.yaml` (edits applied after the first,",
             "cached run), `README.md` (the trap and the predicted failure of a naive partial rerun). The promise",
             "under test: the report of the cached partial rerun after the edit must be identical to a full run",
             "from nothing on the edited folder.", "",
             "| case | control? | description |", "|---|---|---|"]
    for c in CASES:
        d = OUT / c["name"]
        base = d / "base"
        shutil.copytree(SRC, base, ignore=shutil.ignore_patterns(".lrkit-cache", "grade-report", "__pycache__"))
        text = ORIG_MOD
        if c["module"]:
            text = c["module"](text)
        (base / MOD).write_text(text)
        nb = copy.deepcopy(ORIG_NB)
        if c["notebook"]:
            c["notebook"](nb)
        (base / NB).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        edits = [{"file": f, "old": o, "new": n} for f, o, n in c["edits"]]
        (d / "edit.yaml").write_text(yaml.safe_dump(edits, allow_unicode=True, sort_keys=False, width=10**6))
        (d / "README.md").write_text(f"# {c['name']}\n\n" + c["readme"].strip() + "\n")
        if c["naive"]:
            nd = Path("/tmp/blindloop_build/naive"); nd.mkdir(exist_ok=True)
            (nd / f"{c['name']}.json").write_text(json.dumps({"cells": c["naive"][0], "trap": c["naive"][1]}))
        index.append(f"| `{c['name']}` | {'**control**' if c['control'] else 'trap'} | {c['description']} |")
    index += ["", "Controls: 01, 02, 03 (honest one-function bugs; partial and full must agree trivially).",
              "All edits touch one function body in `linear_attention.py`; no edit touches the notebook or the tests.",
              "Cases 06, 08, 15 use a semantically neutral edit (06, 08) or a bug the affected cell does not see (15):",
              "there the full run after the edit gives the base's report for the trap cell, so any failure of that",
              "cell in the partial report is wrong."]
    (OUT / "INDEX.md").write_text("\n".join(index) + "\n")


if __name__ == "__main__":
    build()
    print(len(CASES), "cases")
