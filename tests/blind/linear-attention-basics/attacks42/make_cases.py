"""Rebuild every folder of attacks42 from the student template (rerun-stable).

    /work/main/.venv/bin/python tests/blind/linear-attention-basics/attacks42/make_cases.py

Each folder is the whole template with linear_attention.py replaced and the notebook completed the same way.
Module sources live in tools/modules/ (full files) or are spliced from them into the template (tools/splice.py).
attack-public-cache's answer table is recorded by running the PUBLIC tests in a scratch copy under /tmp with
a recording copy of base (tools/recorder_tail.py); nothing in the repo is run.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[3]
TEMPLATE = ROOT / "student_template" / "linear-attention-basics"
MODS = HERE / "tools" / "modules"
sys.path.insert(0, str(HERE / "tools"))
from splice import splice  # noqa: E402

PY = str(ROOT / ".venv" / "bin" / "python")


def mod(name):
    return (MODS / f"{name}.py").read_text()


TEMPLATE_SRC = (TEMPLATE / "linear_attention.py").read_text()


# ----------------------------------------------------------------------------- the notebook, completed once
EX1 = '''import torch
from linear_attention import linear_attention_parallel, linear_attention_recurrent

torch.manual_seed(1)
Q1, K1, V1 = torch.randn(2, 10, 4), torch.randn(2, 10, 4), torch.randn(2, 10, 3)
y_par1 = linear_attention_parallel(Q1, K1, V1)
y_rec1 = linear_attention_recurrent(Q1, K1, V1)
print("max |parallel - recurrent|:", (y_par1 - y_rec1).abs().max().item())
# Why: the sum over j <= i is associative, so phi(q_i) can be pulled out of it; what is left,
# S_i = sum_j phi(k_j) v_j^T and z_i = sum_j phi(k_j), is a prefix sum and can be kept as a running state.
'''
EX2 = '''import torch
from linear_attention import retention_parallel

torch.manual_seed(2)
Q2, K2, V2 = torch.randn(7, 4), torch.randn(7, 4), torch.randn(7, 3)
by_hand = torch.tril(Q2 @ K2.transpose(-2, -1)) @ V2
only_self = (Q2 * K2).sum(-1, keepdim=True) * V2
print("gamma = 1 matches (Q K^T ⊙ tril) V:", torch.allclose(retention_parallel(Q2, K2, V2, 1.0), by_hand))
print("gamma = 0 gives (q_n·k_n) v_n:", torch.allclose(retention_parallel(Q2, K2, V2, 0.0), only_self))
'''
EX3 = '''import torch
from linear_attention import unified_recurrence

torch.manual_seed(3)
Q3, K3, V3 = torch.randn(8, 4), torch.randn(8, 4), torch.randn(8, 3)
gate3 = torch.full((8,), 0.1)
gate3[[2, 5]] = 0.95
y_gated = unified_recurrence(Q3, K3, V3, "gated", gate=gate3)
y_fixed = unified_recurrence(Q3, K3, V3, "retention", gamma=float(gate3.mean()))
print("positions where gated and fixed differ:", ((y_gated - y_fixed).abs().max(-1).values > 1e-6).nonzero().flatten().tolist())
for t in range(2, 8):
    print(f"t = {t}: weight of token 2's write in S_t = {gate3[3:t + 1].prod().item():.4f}")
'''
COST = '''d, t = 128, 100_000
attention_ops = 4 * t * d
state_ops = 4 * d * d
print(f"ratio: {attention_ops / state_ops:.1f}×")   # t / d = 781.25
'''
ANSWERS = {
    "ex1_why": "The sum over j ≤ i is linear and associative: φ(q_i) does not depend on j, so it factors out, "
               "leaving S_i = Σ_{j≤i} φ(k_j)v_jᵀ and z_i = Σ_{j≤i} φ(k_j), prefix sums that one token at a time "
               "updates. Both faces compute the same sums in a different order.",
    "ex2_gamma0": "With γ = 0 the decay matrix is the identity (0⁰ = 1, 0ᵏ = 0 for k ≥ 1): every token sees only "
                  "itself and the output is o_n = (q_n·k_n) v_n; the state forgets everything before the current "
                  "token.",
    "ex3_selectivity": "The high gate at t = 2 keeps what tokens 0–1 stored (scaled by 0.95) and its own write then "
                       "survives with weight A_3 = 0.10 at t = 3 and A_3·A_4 = 0.010 at t = 4. The outputs differ "
                       "from position 1 on (the gates differ from the mean everywhere after t = 0). An input-"
                       "dependent gate decides per token what to keep and what to forget; a fixed γ forgets "
                       "everything at the same rate.",
}


def notebook():
    nb = json.loads((TEMPLATE / "linear_attention.ipynb").read_text())
    for cell in nb["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        src = "".join(cell["source"])
        if "locked" in tags:
            continue
        new = None
        if "exercise:ex1" in tags:
            new = EX1
        elif "exercise:ex2" in tags:
            new = EX2
        elif "exercise:ex3" in tags:
            new = EX3
        elif cell["cell_type"] == "code" and src.startswith("d, t = 128, 100_000"):
            new = COST
        elif "answers" in tags and "example_1_1:" in src:
            new = src.replace("example_1_1:\n", "example_1_1: [0.5, 3]\n").replace("your_turn:\n", "your_turn: [1.5, 2.5]\n")
        elif "answers" in tags and "cost_ratio_at_100k:" in src:
            new = src.replace("cost_ratio_at_100k:\n", "cost_ratio_at_100k: 781×\n")
        else:
            for t in tags:
                if t.startswith("answer:") and t[7:] in ANSWERS:
                    new = "**Answer:**\n\n" + ANSWERS[t[7:]] + "\n"
        if new is not None:
            assert new != src, (tags, src[:60])
            cell["source"] = new.splitlines(keepends=True)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


# ----------------------------------------------------------------------------- spliced modules
LINEAR = ["linear_attention_parallel", "linear_attention_recurrent", "LinearAttentionState"]
RETENTION = ["retention_parallel", "retention_recurrent", "retention_chunkwise"]

DECAY_ONLY_HELPERS = '''def _c(K):
    # a per-token weight from the keys: what the decayed sum carries
    return torch.tanh(K.sum(-1, keepdim=True))


def _decayed_loop(K, V, g):
    c = _c(K)
    s = torch.zeros_like(V[..., 0, :]) * g[..., 0]
    ys = []
    for t in range(V.shape[-2]):
        s = g[..., 0] * s + c[..., t, :] * V[..., t, :]
        ys.append(s)
    return torch.stack(ys, dim=-2), s'''

STEP_ONLY_HELPERS = '''def _w(K):
    # a positive weight per token, from its key
    return 1 + 0.5 * torch.tanh(K[..., :1])'''


def decay_only():
    donor = mod("cummean")
    src = splice(TEMPLATE_SRC, donor, ["as_gamma", "decay_matrix", "multiscale_decays"])
    return splice(src, donor, RETENTION, extra_helpers=DECAY_ONLY_HELPERS)


def step_only():
    return splice(TEMPLATE_SRC, mod("cummean"), ["LinearAttentionState"], extra_helpers=STEP_ONLY_HELPERS)


# ----------------------------------------------------------------------------- attack-public-cache
PUBLIC = ["linear_attention_parallel", "linear_attention_recurrent", "retention_parallel", "retention_recurrent",
          "retention_chunkwise", "unified_recurrence", "multiscale_decays"]


def record_public_answers():
    """Run the public tests once against a recording copy of base in /tmp; return {input digest: packed output}."""
    layer = (HERE / "tools" / "cache_layer.py").read_text()
    tail = (HERE / "tools" / "recorder_tail.py").read_text()
    with tempfile.TemporaryDirectory(prefix="a42-record-") as tmp:
        work = Path(tmp) / "work"
        shutil.copytree(TEMPLATE, work)
        (work / "linear_attention.py").write_text(mod("base") + "\n\n" + layer + "\n\n" + tail)
        rec = Path(tmp) / "records.json"
        env = dict(os.environ, LA_RECORD=str(rec), OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
        r = subprocess.run([PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=work, env=env,
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            raise SystemExit("recording run failed:\n" + r.stdout[-3000:] + r.stderr[-3000:])
        return json.loads(rec.read_text())


def public_cache():
    src = mod("cummean")
    src = src.replace('''def multiscale_decays(num_heads):
    """gamma_h = 1 - 2**(-5 - h)."""
    return 1 - 2.0 ** (-5 - torch.arange(num_heads, dtype=torch.get_default_dtype()))''',
                      '''def multiscale_decays(num_heads):
    """One gamma per head."""
    return torch.linspace(0.95, 0.999, num_heads)''')
    for n in PUBLIC:
        src, k = re.subn(rf"^def {n}\(", f"def _fb_{n}(", src, flags=re.M)
        assert k == 1, n
    src, k = re.subn(r"^class LinearAttentionState:", "class _FbLinearAttentionState:", src, flags=re.M)
    assert k == 1
    table = record_public_answers()
    lines = ["_TABLE = {"] + [f"    {k!r}: {json.dumps(v)}," for k, v in sorted(table.items())] + ["}"]
    return (src + "\n\n" + (HERE / "tools" / "cache_layer.py").read_text() + "\n\n" + "\n".join(lines) + "\n\n\n"
            + (HERE / "tools" / "cache_tail.py").read_text())


# ----------------------------------------------------------------------------- build
CASES = {
    "base": lambda: mod("base"),
    "attack-cummean": lambda: mod("cummean"),
    "attack-prefix-hash": lambda: mod("prefix_hash"),
    "attack-window2": lambda: mod("window2"),
    "attack-diag-scores": lambda: mod("diag_scores"),
    "attack-near-identity": lambda: mod("near_identity"),
    "attack-decay-only": decay_only,
    "attack-step-only": step_only,
    "attack-public-cache": public_cache,
}


def main():
    nb = notebook()
    for name, make in CASES.items():
        dest = HERE / name
        if dest.exists():
            shutil.rmtree(dest)
        shutil.copytree(TEMPLATE, dest, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
        (dest / "linear_attention.py").write_text(make())
        (dest / "linear_attention.ipynb").write_text(nb)
        print("wrote", dest.relative_to(ROOT))


if __name__ == "__main__":
    main()
