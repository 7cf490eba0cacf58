"""The course content, read as a student would: what the trees say, and whether it is true.

* Student trees name nothing that only makes sense to the kit's authors (course-material labels,
  other courses' module numbers, lesson files) and hold no dead relative link.
* A public-test section that says its tests pass from the start holds exactly the tests that pass
  on the untouched template.
* Every model answer that states a number is recomputed here from the solution code.
* The hybrid recall probe's recorded run takes minutes to recompute, so it is held to the cell that
  makes it instead: the same settings, one row per pattern and seed, the margin the answer claims.
* The template notebooks fail fast: a cell that needs unwritten code stops within seconds, with the
  stub's own error (never a NameError left behind by an earlier cell), even at full budgets.
* The interactive figures run with and without ipywidgets, and headless in grading mode.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import torch
import yaml

ROOT = Path(__file__).resolve().parent.parent
NAMES = sorted(p.name for p in (ROOT / "assignments").iterdir() if (p / "assignment.yaml").is_file())
BASICS, HYBRID = ROOT / "solutions" / "linear-attention-basics", ROOT / "solutions" / "linear-attention-hybrid"

# What a student cannot know: labels of the material the kit was written from, and other courses' layout.
AUTHOR_ONLY = {
    r"\bseeds?\s*#?\d{2,}": "a label of the source material ('seed 003')",
    r"\bseeds/": "a path into the source material",
    r"\bm\d{2}(?:_\w+)?\b": "another course's module folder ('m05', 'm19_state_space')",
    r"\.qmd\b": "a lesson file students do not have",
    r"\bcourse notes?\b": "'the course notes', which students do not have",
    r"\bthe course's\b": "'the course's ...', which students do not have",
    r"\bModules?\s+\d+": "another course's module number ('Module 22')",
    r"\blesson\s+\d+": "another course's lesson number",
    r"\bBeyond module\b|\bStoryLM\b|\bnotebook\.sh\b|\bdatasets\.sh\b|G2C_APPLY_SOLUTIONS|\binsideout\b":
        "a tool or name of the source course",
}
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def student_texts(name: str) -> list[tuple[str, str]]:
    """(where, text) for every readable file of a student tree; notebooks give one entry per cell."""
    tree = ROOT / "student_template" / name
    texts = []
    for path in sorted(tree.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(ROOT)
        if path.suffix == ".ipynb":
            for n, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
                texts.append((f"{rel} cell {n}", "".join(cell["source"])))
        elif path.suffix in {".py", ".md", ".yaml", ".yml", ".txt", ".cfg", ".toml"}:
            texts.append((str(rel), path.read_text(encoding="utf-8")))
    return texts


@pytest.mark.parametrize("name", NAMES)
def test_student_tree_names_nothing_only_the_authors_know(name):
    """Does any student file mention a course-material label, another course's module or a lesson file?"""
    found = [f"{where}: {match.group(0)!r} is {why}"
             for where, text in student_texts(name)
             for pattern, why in AUTHOR_ONLY.items()
             for match in re.finditer(pattern, text, flags=re.IGNORECASE)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("name", NAMES)
def test_student_tree_has_no_dead_relative_link(name):
    """Does every relative Markdown link in a student file point at a file of the student tree?"""
    tree = ROOT / "student_template" / name
    dead = []
    for where, text in student_texts(name):
        for target in MARKDOWN_LINK.findall(text):
            if re.match(r"(https?|mailto):|#", target):
                continue
            if not (tree / target.split("#")[0]).exists():
                dead.append(f"{where}: link to {target!r}")
    assert not dead, "\n".join(dead)


def test_the_author_only_patterns_catch_what_they_are_for():
    """Would the scan above have caught the labels that once leaked?"""
    leaked = ["worked example (seed 003)", "[Module 05: Attention](../m05_attention/lesson.qmd)",
              "The course notes' schematic", "Two modules ago (m19)", "# Module 22: Linear"]
    for text in leaked:
        assert any(re.search(p, text, flags=re.IGNORECASE) for p in AUTHOR_ONLY), text
    for fine in ["torch.manual_seed(0)", "seed=0", "a 4096-token sliding window", "modules: [linear_attention]"]:
        assert not any(re.search(p, fine, flags=re.IGNORECASE) for p in AUTHOR_ONLY), fine


# ---------------------------------------------------------------- public-test sections say what they hold

def sections(test_file: Path) -> dict[str, str]:
    """Test function name -> title of the `# ---- title` section it sits in."""
    where, title = {}, ""
    for line in test_file.read_text(encoding="utf-8").splitlines():
        header = re.match(r"#\s*-{4,}\s*(.+)$", line)
        if header:
            title = header.group(1).strip()
        test = re.match(r"\s*def (test\w*)\(", line)
        if test:
            where[test.group(1)] = title
    return where


def template_passes(name: str, test_file: str, xml: Path) -> set[str]:
    """Names of the public tests that pass (in every parametrization) on the untouched template."""
    tree = ROOT / "student_template" / name
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "LRKIT_GRADING": "1", "MPLBACKEND": "Agg"}
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tree),
                    "-c", os.devnull, f"--junitxml={xml}", test_file], cwd=tree, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=600)
    outcome: dict[str, bool] = {}
    for case in ET.parse(xml).iter("testcase"):
        ok = not any(child.tag in ("failure", "error", "skipped") for child in case)
        test = case.get("name", "").split("[", 1)[0]
        outcome[test] = outcome.get(test, True) and ok
    return {test for test, ok in outcome.items() if ok}


@pytest.mark.parametrize("name", NAMES)
def test_section_passing_from_the_start_holds_exactly_the_tests_that_do(name, tmp_path):
    """Is a section titled '... (pass from the start)' exactly the set of tests the template passes?"""
    config = yaml.safe_load((ROOT / "assignments" / name / "assignment.yaml").read_text(encoding="utf-8"))
    where = sections(ROOT / "student_template" / name / config["public_tests"])
    promised = {test for test, title in where.items() if "pass from the start" in title}
    passing = template_passes(name, config["public_tests"], tmp_path / "junit.xml")
    assert len(passing) == config["baseline"]["passed"]
    assert promised == passing, (f"in the section but failing on the template: {sorted(promised - passing)}; "
                                 f"passing but elsewhere: {sorted(passing - promised)}")


# ---------------------------------------------------------------- model answers against the solution code

def notebook(tree: Path, name: str) -> list[dict]:
    return json.loads((tree / name).read_text(encoding="utf-8"))["cells"]


def cell_text(cells: list[dict], tag: str) -> str:
    return next("".join(c["source"]) for c in cells if tag in c.get("metadata", {}).get("tags", []))


def answers_given(cells: list[dict]) -> dict[str, str]:
    """id -> value as written in the solution notebook's answers cells."""
    given = {}
    for c in cells:
        if "answers" in c.get("metadata", {}).get("tags", []):
            block = re.search(r"```yaml\n(.*?)```", "".join(c["source"]), flags=re.S).group(1)
            for line in block.splitlines():
                if ":" in line and not line.lstrip().startswith("#"):
                    key, value = line.split(":", 1)
                    given[key.strip()] = value.split("#", 1)[0].strip()
    return given


def number(text: str) -> float:
    return float(re.match(r"[-+]?[\d,]*\.?\d+(?:e[-+]?\d+)?", text.strip()).group(0).replace(",", ""))


def load_basics():
    spec = importlib.util.spec_from_file_location("basics_solution", BASICS / "linear_attention.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_basics_worked_example_answers_come_from_the_code(monkeypatch):
    """Do Example 1.1 and 'your turn' (notebook, answer key) equal the solution's linear attention with φ = id?"""
    la = load_basics()
    monkeypatch.setattr(la, "feature_map", lambda x: x)
    K = torch.tensor([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], dtype=torch.float64)
    V = torch.tensor([[2.0, 0.0], [0.0, 4.0], [4.0, 2.0]], dtype=torch.float64)
    Q = torch.tensor([[1.0, 2.0], [1.0, 2.0], [1.0, 1.0]], dtype=torch.float64)
    y = la.linear_attention_recurrent(Q, K, V)
    computed = {"example_1_1": y[1].tolist(), "your_turn": y[2].tolist()}
    key = yaml.safe_load((BASICS / "answer_key.yaml").read_text(encoding="utf-8"))
    given = answers_given(notebook(BASICS, "linear_attention.ipynb"))
    for answer_id, want in computed.items():
        assert key[answer_id]["value"] == pytest.approx(want, abs=1e-9), answer_id
        assert yaml.safe_load(given[answer_id]) == pytest.approx(want, abs=1e-9), answer_id


def test_basics_cost_ratio_comes_from_the_solution_cell():
    """Is the 781× key what the solution's scratch cell computes, and the precision the question states?"""
    cells = notebook(BASICS, "linear_attention.ipynb")
    scratch = next("".join(c["source"]) for c in cells if "attention_ops" in "".join(c["source"])
                   and c["cell_type"] == "code")
    namespace: dict = {}
    exec(scratch, namespace)  # noqa: S102 - our own solution cell
    ratio = namespace["attention_ops"] / namespace["state_ops"]
    assert ratio == pytest.approx(100_000 / 128)
    key = yaml.safe_load((BASICS / "answer_key.yaml").read_text(encoding="utf-8"))["cost_ratio_at_100k"]
    assert key["value"] == pytest.approx(ratio) and key["rtol"] == 0.01
    assert number(answers_given(cells)["cost_ratio_at_100k"]) == pytest.approx(ratio, rel=0.01)
    question = next("".join(c["source"]) for c in cells if "Question (cost per token)" in "".join(c["source"]))
    assert "three significant" in question and "1%" in question


def gate_write_weight(la, gate, s: int) -> list[float]:
    """The weight token s's write has in S_t, for every t, measured through unified_recurrence."""
    L = len(gate)
    Q = torch.zeros(L, 1, dtype=torch.float64)
    Q[:, 0] = 1.0
    K = Q.clone()
    V = torch.zeros(L, 1, dtype=torch.float64)
    V[s, 0] = 1.0  # only token s writes, so y_t = (weight of that write in S_t) · q·k = weight
    return la.unified_recurrence(Q, K, V, "gated", gate=torch.tensor(gate, dtype=torch.float64))[:, 0].tolist()


def test_basics_exercise3_answer_states_what_the_gate_does():
    """Are the weights, the mean gate and the positions in the Exercise 3 answer what the solution computes?"""
    la = load_basics()
    gate = [0.1] * 8
    gate[2] = gate[5] = 0.95
    weights = gate_write_weight(la, gate, s=2)
    answer = cell_text(notebook(BASICS, "linear_attention.ipynb"), "answer:ex3_selectivity")
    for stated, value in (("0.1", weights[3]), ("0.01", weights[4]), ("0.0095", weights[5]),
                          ("0.3125", sum(gate) / len(gate))):
        assert stated in answer and float(stated) == pytest.approx(value), stated
    assert weights[1] == 0 and weights[2] == 1  # nothing before the write, full weight at its own step
    torch.manual_seed(3)  # the solution cell's inputs
    Q, K, V = torch.randn(8, 4), torch.randn(8, 4), torch.randn(8, 3)
    g = torch.tensor(gate)
    differ = (la.unified_recurrence(Q, K, V, "gated", gate=g)
              - la.unified_recurrence(Q, K, V, "retention", gamma=g.mean().item())).norm(dim=-1)
    assert differ[0] < 1e-6 and bool((differ[1:] > 1e-3).all())
    assert "equal at $t = 0$" in answer and "every $t \\ge 1$" in answer


def test_basics_gate_figure_caption_numbers():
    """With a high gate only at step 3 (0.2 elsewhere), token 3's write weighs 0.2, then 0.04 — as the text says."""
    la = load_basics()
    gate = [0.2] * 16
    gate[3] = 0.95
    weights = gate_write_weight(la, gate, s=3)
    assert weights[4] == pytest.approx(0.2) and weights[5] == pytest.approx(0.04)
    held = [0.2] * 4 + [0.95] * 12
    assert gate_write_weight(la, held, s=3)[-1] == pytest.approx(0.95 ** 12)
    text = next("".join(c["source"]) for c in notebook(BASICS, "linear_attention.ipynb")
                if "you *are* the gate" in "".join(c["source"]))
    assert "weight $0.2$ one step later and $0.04$ two steps later" in text


def test_basics_gamma_zero_answer():
    """Does retention with γ = 0 give (q_n·k_n) v_n, as the Exercise 2 answer says?"""
    la = load_basics()
    Q, K, V = (torch.randn(6, 3, dtype=torch.float64) for _ in range(3))
    torch.testing.assert_close(la.retention_parallel(Q, K, V, 0.0), (Q * K).sum(-1, keepdim=True) * V)
    assert "(q_n\\cdot k_n)\\,v_n" in cell_text(notebook(BASICS, "linear_attention.ipynb"), "answer:ex2_gamma0")


@pytest.fixture()
def hybrid_package(monkeypatch):
    monkeypatch.syspath_prepend(str(HYBRID))
    for module in [m for m in sys.modules if m == "g2c" or m.startswith("g2c.")]:
        monkeypatch.delitem(sys.modules, module)
    import g2c.linear_attention as package

    return package


def test_hybrid_exercise4_answer_matches_the_measured_norms(hybrid_package):
    """Do the norms quoted in the Exercise 4 answer come out of the solution layer, run as the notebook runs it?"""
    torch.manual_seed(0)
    fixed = [0.5, 0.9, 0.99, 1.0]
    layer = hybrid_package.LinearAttention(32, 4)
    with torch.no_grad():
        g = torch.tensor(fixed).clamp(max=1 - 1e-7)
        layer.gamma_logit.copy_(torch.log(g) - torch.log1p(-g))
    x = torch.randn(1, 512, 32)
    z_norms, S_norms, y_norms, state = [], [], [], None
    with torch.no_grad():
        for t in range(x.shape[1]):
            y, state = layer.step(x[:, t], state)
            y_norms.append(y[0].norm().item())
            S_norms.append(state[0][0].flatten(1).norm(dim=1))
            z_norms.append(state[1][0].norm(dim=1))
    z, S = torch.stack(z_norms), torch.stack(S_norms)  # (T, H)
    answer = cell_text(notebook(HYBRID, "linear_attention_hybrid.ipynb"), "answer:ex4_gate")
    phi_k = z[-1, 3].item() / 512  # γ = 1: z is the plain sum of the φ(k)
    assert phi_k == pytest.approx(3, rel=0.15) and "‖φ(k)‖ ≈ 3" in answer
    for h, stated in ((0, 6), (1, 29), (2, 300)):
        assert z[-1, h].item() == pytest.approx(stated, rel=0.15), fixed[h]
        assert z[-1, h].item() * (1 - fixed[h]) == pytest.approx(phi_k, rel=0.15)
    assert z[50, 3].item() == pytest.approx(160, rel=0.1) and z[511, 3].item() == pytest.approx(1600, rel=0.1)
    assert "≈ 160 at t = 50, ≈ 1,600 at t = 511" in answer
    growth_S = S[511, 3].item() / S[50, 3].item()
    assert 1 < growth_S < 511 / 50  # S grows, more slowly than z
    assert 0.4 <= min(y_norms) and max(y_norms) <= 2.2 and "between about 0.5 and 2" in answer


def test_hybrid_memory_bill_key_and_answers_come_from_the_code(hybrid_package):
    """Are the Exercise 5 keys the bytes memory_bill gives, for the default numbers and every student's, and the
    solution's answers (worked out with the defaults) right?"""
    import itertools

    from grader.config import load_assignment
    from grader.grading.answers import check_answer, load_key
    from grader.grading.answers.formulas import variant_key

    variants = load_assignment(HYBRID).variants
    key = load_key(HYBRID / "answer_key.yaml", variants=variants)
    names = [p.name for p in variants.parameters]
    for values in itertools.product(*(p.values for p in variants.parameters)):
        numbers = dict(zip(names, values))
        T, D, H, BYTES = (numbers[n] for n in ("T", "D", "H", "BYTES"))
        bill = functools.partial(hybrid_package.memory_bill, bytes_per_value=BYTES)
        computed = {
            "mha_cache_one_layer": bill(["full"], T, D, H).total_bytes,
            "gqa8_cache_one_layer": 2 * T * 8 * (D // H) * BYTES,
            "window4096_cache_one_layer": bill(["full"], 4096, D, H).total_bytes,
            "linear_state_one_layer": bill(["linear"], T, D, H).total_bytes,
            "all_mha_stack_4_layers": bill(["full"] * 4, T, D, H).total_bytes,
            "hybrid_lllf_stack_4_layers": bill(["linear", "linear", "linear", "full"], T, D, H).total_bytes,
        }
        theirs = variant_key(key, numbers)
        assert {a: theirs[a].value for a in computed} == computed, numbers
    given = answers_given(notebook(HYBRID, "linear_attention_hybrid.ipynb"))
    for answer_id in computed:
        assert check_answer(key[answer_id], given[answer_id]).status == "correct", answer_id
    assert check_answer(key["grows_with_t"], given["grows_with_t"]).status == "correct"
    assert (key["mha_cache_one_layer"].value, key["linear_state_one_layer"].value) == (16_384_000_000, 1_056_768)


def test_hybrid_recall_record_is_the_run_the_notebook_makes():
    """Is the recall probe's solution record filled in, for the settings the cell runs, with the margin it claims?

    Recomputing it takes minutes (three models, 1000 steps each, per seed), so this test holds the record
    to the cell instead: same task, steps and learning rate; one row per pattern and seed; the hybrid at
    least 0.2 above pure linear attention in every seed; and none of it in the student tree.
    """
    cells = notebook(HYBRID, "linear_attention_hybrid.ipynb")
    code = next("".join(c["source"]) for c in cells
                if c["cell_type"] == "code" and "RecallTask(" in "".join(c["source"]))
    measured = next("".join(c["source"]) for c in cells if "**Measured (solution run).**" in "".join(c["source"]))
    answer = cell_text(cells, "answer:ex3_recall")
    assert "placeholder" not in (measured + answer).lower()
    task = re.search(r"RecallTask\([^)]*\)", code).group(0)
    steps = re.search(r"RECALL_STEPS = \d+ if GRADING else (\d+)", code).group(1)
    lr = re.search(r"train_recall\(.*lr=([\d.e-]+)", code).group(1)
    width, heads = re.search(r"HybridTransformerLM\(task\.vocab_size, (\d+), (\d+),", code).groups()
    assert f"`{task}`" in measured and f"{steps} steps" in measured and f"learning rate {float(lr):g}" in measured
    assert f"width {width}, {heads} heads" in measured
    rows = re.findall(r"^\|\s*(full|linear|hybrid LLLF)\s*\|\s*(\d+)\s*\|\s*([\d.]+)\s*\|", measured, flags=re.M)
    accuracy = {(pattern, int(seed)): float(acc) for pattern, seed, acc in rows}
    seeds = {seed for _, seed in accuracy}
    assert len(seeds) >= 2 and len(accuracy) == 3 * len(seeds), "one row per pattern and seed"
    for seed in seeds:
        assert accuracy[("hybrid LLLF", seed)] >= accuracy[("linear", seed)] + 0.2, seed
    assert f"seeds {', '.join(map(str, sorted(seeds)))}" in answer.replace(" and ", ", ")
    template = notebook(ROOT / "student_template" / "linear-attention-hybrid", "linear_attention_hybrid.ipynb")
    assert not any("Measured (solution run)" in "".join(c["source"]) for c in template)
    student_answer = cell_text(template, "answer:ex3_recall")
    assert student_answer.startswith("**Answer:**")
    assert not [line for line in answer.splitlines()[1:] if line.strip() and line in student_answer]


def test_stated_precision_matches_the_keys():
    """Does each numeric question state the precision its key accepts?"""
    hybrid = yaml.safe_load((HYBRID / "answer_key.yaml").read_text(encoding="utf-8"))
    cells = notebook(HYBRID, "linear_attention_hybrid.ipynb")
    text = "\n".join("".join(c["source"]) for c in cells if "exercise:ex5" in c.get("metadata", {}).get("tags", []))
    assert "within\n1%" in text or "within 1%" in text
    assert {e["rtol"] for k, e in hybrid.items() if k != "linear_state_one_layer" and "rtol" in e} == {0.01}
    assert hybrid["linear_state_one_layer"]["rtol"] == 0.005 and "0.5%" in text
    basics = yaml.safe_load((BASICS / "answer_key.yaml").read_text(encoding="utf-8"))
    worked = next("".join(c["source"]) for c in notebook(BASICS, "linear_attention.ipynb")
                  if "**Your turn.**" in "".join(c["source"]))
    assert basics["your_turn"]["atol"] == basics["example_1_1"]["atol"] == 0.01 and "±0.01" in worked


# ---------------------------------------------------------------- notebooks, executed cell by cell

RUN_CELLS = r"""
import json, os, sys, time
path = sys.argv[1]
os.chdir(os.path.dirname(path)); sys.path.insert(0, os.path.dirname(path))
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
shown = []
plt.show = lambda *a, **k: (shown.append(len(plt.get_fignums())), plt.close("all"))
namespace, report = {"__name__": "__main__"}, []
for n, cell in enumerate(json.load(open(path, encoding="utf-8"))["cells"]):
    if cell["cell_type"] != "code":
        continue
    source = "\n".join(line for line in "".join(cell["source"]).splitlines() if not line.lstrip().startswith("%"))
    before, start, error = len(shown), time.perf_counter(), None
    try:
        exec(compile(source, f"cell {n}", "exec"), namespace)
    except BaseException as exc:
        error = f"{type(exc).__name__}: {str(exc)[:200]}"
    report.append({"cell": n, "tags": cell.get("metadata", {}).get("tags", []), "error": error,
                   "seconds": round(time.perf_counter() - start, 2), "figures": sum(shown[before:])})
    plt.close("all")
print("REPORT" + json.dumps(report))
"""


def run_cells(notebook_path: Path, grading: bool, extra_path: Path | None = None, timeout: float = 300) -> list[dict]:
    env = {k: v for k, v in os.environ.items() if k not in ("LRKIT_GRADING", "PYTHONPATH")}
    env.update({"MPLBACKEND": "Agg", "OMP_NUM_THREADS": "1"})
    if grading:
        env["LRKIT_GRADING"] = "1"
    if extra_path:
        env["PYTHONPATH"] = str(extra_path)
    done = subprocess.run([sys.executable, "-c", RUN_CELLS, str(notebook_path)], env=env, capture_output=True,
                          text=True, timeout=timeout)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("REPORT")), None)
    assert line, f"the cell runner died:\n{done.stderr[-2000:]}"
    return json.loads(line[len("REPORT"):])


@pytest.mark.slow  # runs both template notebooks cell by cell at full budget
@pytest.mark.parametrize("name, notebook_name", [("linear-attention-basics", "linear_attention.ipynb"),
                                                 ("linear-attention-hybrid", "linear_attention_hybrid.ipynb")])
def test_template_notebook_fails_fast_at_full_budget(name, notebook_name):
    """Run at full budget, does every template cell stop within seconds, with the stub's own error?"""
    report = run_cells(ROOT / "student_template" / name / notebook_name, grading=False)
    slow = [r for r in report if r["error"] and r["seconds"] > 30]  # minutes of training, then the error
    assert not slow, f"cells that ran long before they failed: {slow}"
    errors = [r["error"] for r in report if r["error"]]
    assert errors, "the untouched template ran without a single NotImplementedError"
    unexplained = [e for e in errors if not e.startswith(("NotImplementedError", "RuntimeError: There are no"))]
    assert not unexplained, unexplained


FAKE_IPYWIDGETS = '''
"""A stand-in for ipywidgets: each control has a value; interact and interactive_output call f once."""
class _Control:
    def __init__(self, value=None, **kwargs):
        self.value = value
class FloatSlider(_Control): pass
class IntSlider(_Control): pass
class Checkbox(_Control): pass
class HTML(_Control): pass
class Layout:
    def __init__(self, **kwargs): pass
class HBox:
    def __init__(self, children=()): self.children = list(children)
class VBox(HBox): pass
CALLS = []
def interact(f, **controls):
    CALLS.append("interact")
    f(**{k: c.value for k, c in controls.items()})
def interactive_output(f, controls):
    CALLS.append("interactive_output")
    f(**{k: c.value for k, c in controls.items()})
    return HBox()
'''


@pytest.mark.slow  # runs the basics solution notebook twice
def test_basics_figures_with_and_without_widgets(tmp_path):
    """Does the solution notebook run headless in grading mode, and through the widget code when widgets exist?"""
    notebook_path = BASICS / "linear_attention.ipynb"
    static = run_cells(notebook_path, grading=True)
    assert [r for r in static if r["error"]] == []
    fake = tmp_path / "ipywidgets"
    fake.mkdir()
    (fake / "__init__.py").write_text(FAKE_IPYWIDGETS)
    interactive = run_cells(notebook_path, grading=False, extra_path=tmp_path)
    assert [r for r in interactive if r["error"]] == []
    # the static versions draw more settings at once than a widget's single setting
    assert sum(r["figures"] for r in static) > sum(r["figures"] for r in interactive) > 0


# "γ ∈ [0, 1]", "$\gamma \in (0,1]$", "0 <= gamma <= 1", "0 < γ ≤ 1": a range the text states for the decay
GAMMA_INTERVAL = re.compile(r"(?:γ|\\gamma|gamma)\s*(?:∈|\\in|in)\s*\$?\s*([\[(])\s*0\s*,\s*1\s*([\])])")
GAMMA_CHAIN = re.compile(r"0\s*(<=|≤|\\le|<)\s*(?:γ|\\gamma|gamma)\s*(<=|≤|\\le|<)\s*1")


def stated_gamma_ranges(name: str) -> list[tuple[str, bool, bool]]:
    """(where, 0 included, 1 included) for every range of γ the student tree states."""
    found = []
    for where, text in student_texts(name):
        for m in GAMMA_INTERVAL.finditer(text):
            found.append((where, m.group(1) == "[", m.group(2) == "]"))
        for m in GAMMA_CHAIN.finditer(text):
            found.append((where, m.group(1) != "<", m.group(2) != "<"))
    return found


def test_the_gamma_range_the_text_states_is_the_one_the_code_accepts():
    """Does every range of γ the notebook, module and rubric state match what the solution's as_gamma accepts?"""
    la = load_basics()
    like = torch.zeros(2, 2)

    def accepted(gamma: float) -> bool:
        try:
            la.as_gamma(gamma, like)
        except ValueError:
            return False
        return True

    assert not accepted(-1e-6) and not accepted(1 + 1e-6)
    truth = (accepted(0.0), accepted(1.0))
    ranges = stated_gamma_ranges("linear-attention-basics")
    assert len(ranges) >= 3, ranges  # the notebook's text, the module's docstring, the rubric
    wrong = [where for where, zero, one in ranges if (zero, one) != truth]
    assert not wrong, f"these state a range of γ other than the code's {truth}: {wrong}"
