"""Build the example class for `grade similarity`: seventeen submissions of linear-attention-basics.

    python examples/integrity/make_class.py [DIR] [--check]     # DIR: examples/integrity/class

Made from solutions/linear-attention-basics/ by small programmatic edits (implementations.py holds the bodies):

    amara … jon    ten students working alone: each function body one of two or three correct ways to write
                   it (seeded choice), their own exercise cells and words; chen, emil, gita, ines and jon all
                   leave the causal mask out of linear_attention_parallel (a common mistake, two sections);
                   amara and hugo both read the state before updating it (the same wrong numbers, no copying)
    kai, lea       lea copies kai: local names renamed, comments dropped, re-indented, one answer reworded;
                   kai's decay matrix is symmetric (a peculiar bug), so both share that wrong output
    mo, noa, oli   noa and oli copy mo (renamed; re-indented and functions reordered): a cluster of three
    pat, quinn     the untouched template (quinn fills in one small function): sharing only the template

`--check` imports every generated module and compares each function with the solution on random inputs
(the planted mistakes must differ, everything else must match). expected.yaml says what the report must find.
"""
from __future__ import annotations

import argparse
import ast
import copy
import importlib.util
import io
import json
import random
import re
import shutil
import sys
import textwrap
import tokenize
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
from implementations import (  # noqa: E402  (beside this script, not a package)
    ALTERNATIVES,
    ANSWERS,
    EXERCISE_CELLS,
    NO_CAUSAL_MASK,
    READ_BEFORE_UPDATE,
    SYMMETRIC_DECAY,
)

ASSIGNMENT = "linear-attention-basics"
SOLUTION = REPO / "solutions" / ASSIGNMENT
TEMPLATE = REPO / "student_template" / ASSIGNMENT
MODULE, NOTEBOOK = "linear_attention.py", "linear_attention.ipynb"
ALONE = ["amara", "ben", "chen", "dara", "emil", "femi", "gita", "hugo", "ines", "jon"]
NO_MASK = {"chen", "emil", "gita", "ines", "jon"}
READS_FIRST = {"amara", "hugo"}
SECTIONS = {"A": ["amara", "ben", "chen", "dara", "emil", "kai", "lea", "mo", "pat"],
            "B": ["femi", "gita", "hugo", "ines", "jon", "noa", "oli", "quinn"]}
SEED = 26


# ----------------------------------------------------------------------------- editing a module

def _functions(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    found = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            found.update({n.name: n for n in node.body if isinstance(n, ast.FunctionDef) and n.name != "__init__"})
    return found


def with_bodies(source: str, bodies: dict[str, str]) -> str:
    """``source`` with the named functions' bodies (after their docstrings) replaced."""
    lines = source.splitlines(keepends=True)
    nodes = _functions(ast.parse(source))
    for name in sorted(bodies, key=lambda n: -nodes[n].lineno):
        node = nodes[name]
        first = node.body[1] if isinstance(node.body[0], ast.Expr) else node.body[0]
        indent = " " * first.col_offset
        lines[first.lineno - 1:node.end_lineno] = [textwrap.indent(bodies[name], indent)]
    return "".join(lines)


def _locals(node: ast.FunctionDef) -> set[str]:
    params = {a.arg for a in node.args.args + node.args.kwonlyargs}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)} - params


def renamed(source: str, mapping: dict[str, str]) -> str:
    """Local variables renamed (``mapping``), inside function bodies only; attributes and strings untouched."""
    tree = ast.parse(source)
    spans = [(n.lineno, n.end_lineno, _locals(n)) for n in _functions(tree).values()]
    lines = source.splitlines(keepends=True)
    edits = []
    previous = None
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string in mapping and (previous is None or previous.string != "."):
            row = tok.start[0]
            if any(a < row <= b and tok.string in names for a, b, names in spans):
                edits.append((row, tok.start[1], tok.end[1], mapping[tok.string]))
        if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            previous = tok
    for row, start, end, new in sorted(edits, reverse=True):
        line = lines[row - 1]
        lines[row - 1] = line[:start] + new + line[end:]
    return "".join(lines)


def reformatted(source: str) -> str:
    """Comments dropped, two-space indents, a blank line after every loop header: a student's own layout."""
    out = []
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    comments = {(t.start[0], t.start[1]) for t in tokens if t.type == tokenize.COMMENT}
    for n, line in enumerate(source.splitlines(), start=1):
        cut = next((col for row, col in comments if row == n), None)
        if cut is not None:
            line = line[:cut].rstrip()
            if not line.strip():
                continue
        stripped = line.lstrip(" ")
        line = " " * ((len(line) - len(stripped)) // 2) + stripped
        out.append(line)
        if stripped.startswith(("for ", "while ")):
            out.append("")
    return "\n".join(out) + "\n"


def reordered(source: str) -> str:
    """The retention half of the module moved before the linear-attention half."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    starts = [(n.decorator_list[0].lineno if getattr(n, "decorator_list", None) else n.lineno) for n in tree.body]
    chunks = ["".join(lines[a - 1:b - 1]) for a, b in zip(starts, starts[1:] + [len(lines) + 1])]
    names = [getattr(n, "name", "") for n in tree.body]
    head = [c for c, nm in zip(chunks, names) if nm in ("", "feature_map")]
    retention = [c for c, nm in zip(chunks, names) if nm in ("as_gamma", "decay_matrix") or "retention" in nm]
    rest = [c for c in chunks if c not in head and c not in retention]
    return "".join(lines[:starts[0] - 1]) + "".join(head + retention + rest)


def bodies_of(source: str) -> dict[str, str]:
    """Each function's body after its docstring, unindented."""
    lines = source.splitlines(keepends=True)
    out = {}
    for name, node in _functions(ast.parse(source)).items():
        first = node.body[1] if isinstance(node.body[0], ast.Expr) else node.body[0]
        out[name] = textwrap.dedent("".join(lines[first.lineno - 1:node.end_lineno]))
    return out


# the same code written another way: (pattern, the other ways), each occurrence one way or another (all exact)
REWRITES = [
    (r"\.transpose\(-2, -1\)", [".transpose(-1, -2)", ".mT"]),
    (r"\.transpose\(-1, -2\)", [".transpose(-2, -1)", ".mT"]),
    (r"\.sum\(-1, keepdim=True\)", [".sum(dim=-1, keepdim=True)", ".sum(-1, True)", ".sum(keepdim=True, dim=-1)"]),
    (r"(\w+)\.new_zeros\(([^()]*)\)", [r"torch.zeros(\2, dtype=\1.dtype, device=\1.device)",
                                       r"torch.zeros((\2), device=\1.device, dtype=\1.dtype)"]),
    (r"(\w+)\.shape\[(-?\d)\]", [r"\1.size(\2)", r"\1.size()[\2]"]),
    (r"\[\.\.\., (\w+), :, None\]", [r"[..., \1, :].unsqueeze(-1)", r"[..., \1, :][..., None]"]),
    (r"\[\.\.\., (\w+), None, :\]", [r"[..., \1, :].unsqueeze(-2)", r"[..., \1, :][..., None, :]"]),
    (r"\.unsqueeze\(-1\)", ["[..., None]", ".unsqueeze(dim=-1)"]),
    (r"\.unsqueeze\(-2\)", ["[..., None, :]", ".unsqueeze(dim=-2)"]),
    (r"torch\.(stack|cat)\((\w+), dim=-2\)", [r"torch.\1(\2, -2)", r"torch.\1(tuple(\2), dim=-2)"]),
    (r"torch\.(stack|cat)\((\w+), -2\)", [r"torch.\1(\2, dim=-2)", r"torch.\1(list(\2), -2)"]),
    (r"torch\.einsum\(\"\.\.\.m,\.\.\.md->\.\.\.d\", (\w+(?:\[[^\]]*\])?), ([\w.]+)\)",
     [r"(\1.unsqueeze(-2) @ \2).squeeze(-2)", r"(\1[..., None, :] @ \2)[..., 0, :]",
      r"(\1[..., :, None] * \2).sum(-2)"]),
    (r"torch\.einsum\(\"\.\.\.m,\.\.\.d->\.\.\.md\", (\w+(?:\[[^\]]*\])?), (\w+(?:\[[^\]]*\])?)\)",
     [r"\1[..., :, None] * \2[..., None, :]", r"\1.unsqueeze(-1) @ \2.unsqueeze(-2)"]),
    (r"(?<![\w.])([A-Za-z_]\w*) \*\* ([A-Za-z_]\w*|\([^()]*\))(?![\w.(\[])", [r"torch.pow(\1, \2)", r"\1**\2"]),
    (r"\.masked_fill\(([^()]*), 0\.0\)", [r".masked_fill(\1, 0)", r".masked_fill(\1, value=0.0)"]),
    (r"for (\w+) in range\(([\w.]+(?:\[-?\d\]|\(-?\d\))?)\):", [r"for \1 in range(0, \2):",
                                                                    r"for \1 in range(int(\2)):"]),
    (r"(?m)^(\s*)(\w+), (\w+) = (\w+\([^()]*\)), (\w+\([^()]*\))$", [r"\1\2 = \4\n\1\3 = \5",
                                                                      r"\1\3 = \5\n\1\2 = \4"]),
    (r"(?m)^(\s*)(\w+) = \2 \+ ((?:(?! if ).)+)$", [r"\1\2 = \3 + \2"]),
    (r"(?m)^(\s*)return ([^\n]+)$", [r"\1result = \2\n\1return result", r"\1output = \2\n\1return output"]),
]

def personal(cell: str, rng: random.Random) -> str:
    """An exercise cell with this student's own seed and sizes where the cell chooses them."""
    seed, L, m, dv = rng.randrange(1, 999), rng.randrange(6, 30), rng.randrange(3, 9), rng.randrange(2, 7)
    cell = re.sub(r"manual_seed\((\d+)\)", f"manual_seed({seed})", cell)
    return re.sub(r"torch\.randn\(3, 12, 4\)", f"torch.randn(3, {L}, {m})",
                  re.sub(r"torch\.randn\(3, 12, 2\)", f"torch.randn(3, {L}, {dv})", cell))


def rewritten(body: str, rng: random.Random) -> str:
    """``body`` with each occurrence of a REWRITES pattern kept or written one of its other ways."""
    for pattern, ways in REWRITES:
        def pick(match: re.Match) -> str:
            choice = rng.randrange(len(ways) + 1)
            return match.group(0) if choice == len(ways) else match.expand(ways[choice])

        body = re.sub(pattern, pick, body)
    return body


# ----------------------------------------------------------------------------- the students

def choices(rng: random.Random) -> dict[str, int]:
    return {name: rng.randrange(len(options)) for name, options in ALTERNATIVES.items()}


def module_of(picks: dict[str, int], template: str, solution: str, rng: random.Random, *, no_mask: bool = False,
              reads_first: bool = False, symmetric: bool = False) -> str:
    """The template's module with this student's function bodies (the optional extension stays a stub)."""
    own = bodies_of(solution)
    bodies = {name: ALTERNATIVES[name][i] or own[name] for name, i in picks.items()}
    if no_mask:
        bodies["linear_attention_parallel"] = NO_CAUSAL_MASK[picks["linear_attention_parallel"]]
    if reads_first:
        bodies["linear_attention_recurrent"] = READ_BEFORE_UPDATE[min(picks["linear_attention_recurrent"], 1)]
    if symmetric:
        bodies["decay_matrix"] = SYMMETRIC_DECAY
    return with_bodies(template, {name: rewritten(body, rng) for name, body in bodies.items()})


COST_CELL = "d, t = 128, 100_000"  # the cost-per-token cell starts so (it carries no exercise tag)


def _cell_key(cell: dict) -> str:
    tags = cell.get("metadata", {}).get("tags", [])
    if cell["cell_type"] != "code" or "locked" in tags:
        return ""
    if "".join(cell["source"]).startswith(COST_CELL):
        return "cost"
    return next((t.split(":", 1)[1] for t in tags if t.startswith("exercise:")), "")


def notebook_of(template: dict, solution: dict, cells: dict[str, int], answers: dict[str, str],
                rng: random.Random) -> dict:
    """The template's notebook with this student's code cells, the solution's numbers and their own words."""
    nb = copy.deepcopy(template)
    for cell, theirs in zip(nb["cells"], solution["cells"]):
        tags = cell.get("metadata", {}).get("tags", [])
        key = _cell_key(cell)
        if key in cells:
            cell["source"] = rewritten(personal(EXERCISE_CELLS[key][cells[key]] or "".join(theirs["source"]), rng),
                                       rng)
        if "answers" in tags:
            cell["source"] = theirs["source"]
        answer = next((t.split(":", 1)[1] for t in tags if t.startswith("answer:")), "")
        if answer:
            cell["source"] = "**Answer:**\n\n" + (answers.get(answer) or "_Type your answer here._")
    return nb


def reworded(text: str) -> str:
    for old, new in (("so ", "therefore "), ("The ", "the "), (" is ", " is simply "), ("Both", "Both forms")):
        text = text.replace(old, new, 1)
    return text


def cleared(nb: dict) -> dict:
    nb = copy.deepcopy(nb)
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"], cell["execution_count"] = [], None
    return nb


def build(extra: int = 0) -> dict[str, tuple[str, dict]]:
    """Every student's (module text, notebook) by name (``extra``: that many more working alone)."""
    solution = (SOLUTION / MODULE).read_text(encoding="utf-8")
    template = (TEMPLATE / MODULE).read_text(encoding="utf-8")
    solution_nb = json.loads((SOLUTION / NOTEBOOK).read_text(encoding="utf-8"))
    template_nb = cleared(json.loads((TEMPLATE / NOTEBOOK).read_text(encoding="utf-8")))
    rng = random.Random(SEED)
    made: dict[str, tuple[str, dict]] = {}
    for n, name in enumerate(ALONE + ["kai", "mo"]):
        picks = choices(rng)
        cells = {e: rng.randrange(len(v)) for e, v in EXERCISE_CELLS.items()}
        answers = {q: texts[n] for q, texts in ANSWERS.items() if n < len(texts) - 2}  # the last two: kai's, mo's
        if name in ("kai", "mo"):
            answers = {q: texts[-1 if name == "kai" else -2] for q, texts in ANSWERS.items()}
        code = module_of(picks, template, solution, rng, no_mask=name in NO_MASK, reads_first=name in READS_FIRST,
                         symmetric=name == "kai")
        made[name] = (code, notebook_of(template_nb, solution_nb, cells, answers, rng))
    _copies(made)
    for n in range(extra):  # more students working alone, for timing a class of hundreds
        picks, cells = choices(rng), {e: rng.randrange(len(v)) for e, v in EXERCISE_CELLS.items()}
        clauses = [c for texts in ANSWERS.values() for t in texts for c in re.split(r"[,;:] ", t)]
        answers = {q: ", ".join(rng.sample(clauses, 2)) + "." for q in ANSWERS}
        made[f"extra{n:03d}"] = (module_of(picks, template, solution, rng, no_mask=rng.random() < 0.2),
                                 notebook_of(template_nb, solution_nb, cells, answers, rng))
    made["pat"] = (template, template_nb)
    made["quinn"] = (with_bodies(template, {"multiscale_decays": ALTERNATIVES["multiscale_decays"][1]}),
                     copy.deepcopy(template_nb))
    return made


def _copies(made: dict[str, tuple[str, dict]]) -> None:
    """lea from kai (renamed, re-laid out, one answer reworded); noa and oli from mo."""
    kai_code, kai_nb = made["kai"]
    lea_nb = copy.deepcopy(kai_nb)
    for cell in lea_nb["cells"]:
        if "answer:ex1_why" in cell.get("metadata", {}).get("tags", []):
            cell["source"] = reworded("".join(cell["source"]))
    names = {"q": "qq", "k": "kk", "S": "state", "z": "norm", "ys": "outputs", "A": "att", "g": "decay",
             "distance": "dist", "positions": "pos", "num": "top", "den": "bottom", "outs": "res", "R": "carry",
             "phi_q": "fq", "phi_k": "fk", "scores": "w", "state": "mem", "rows": "acc", "out": "res"}
    made["lea"] = (reformatted(renamed(kai_code, names)), lea_nb)
    mo_code, mo_nb = made["mo"]
    made["noa"] = (renamed(mo_code, names), copy.deepcopy(mo_nb))
    made["oli"] = (reordered(reformatted(mo_code)), copy.deepcopy(mo_nb))


def write(out: Path, made: dict[str, tuple[str, dict]]) -> None:
    if out.exists():
        shutil.rmtree(out)
    for name, (code, nb) in sorted(made.items()):
        folder = out / name
        folder.mkdir(parents=True)
        (folder / MODULE).write_text(code, encoding="utf-8")
        (folder / NOTEBOOK).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    rows = sorted((s, name) for s, names in SECTIONS.items() for name in names)
    (out.parent / "sections.csv").write_text("submission,section\n" + "".join(f"{n},{s}\n" for s, n in rows))


# ----------------------------------------------------------------------------- --check

def _load(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _outputs(module, torch) -> dict[str, object]:
    g = torch.Generator().manual_seed(0)
    Q, K, V = (torch.randn(2, 3, 9, 4, generator=g, dtype=torch.float64) for _ in range(3))
    gamma = torch.tensor([0.9, 0.5, 0.0], dtype=torch.float64)
    state = module.LinearAttentionState(4, 4)
    return {
        "linear_attention_parallel": module.linear_attention_parallel(Q, K, V),
        "linear_attention_recurrent": module.linear_attention_recurrent(Q, K, V),
        "step": torch.stack([state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(9)], -2),
        "decay_matrix": module.decay_matrix(module.as_gamma(gamma, Q), 9),
        "retention_parallel": module.retention_parallel(Q, K, V, gamma),
        "retention_recurrent": module.retention_recurrent(Q, K, V, 0.8),
        "retention_chunkwise": module.retention_chunkwise(Q, K, V, gamma, 4, return_state=True),
        "multiscale_decays": module.multiscale_decays(4),
        "unified_recurrence": [module.unified_recurrence(Q, K, V, "linear"),
                               module.unified_recurrence(Q, K, V, "retention", gamma=gamma),
                               module.unified_recurrence(Q, K, V, "gated", gate=torch.rand(9, generator=g))],
    }


def _same(a, b, torch) -> bool:
    if isinstance(a, (tuple, list)):
        return all(_same(x, y, torch) for x, y in zip(a, b))
    return a.shape == b.shape and torch.allclose(a.double(), b.double(), atol=1e-6)


def check(out: Path) -> list[str]:
    """Problems with the generated class (empty when every function is right but the planted mistakes)."""
    import torch

    reference = _outputs(_load(SOLUTION / MODULE, "reference_la"), torch)
    planted = {**{n: {"linear_attention_parallel"} for n in NO_MASK},
               **{n: {"linear_attention_recurrent"} for n in READS_FIRST},
               "kai": {"decay_matrix", "retention_parallel", "retention_chunkwise"},
               "lea": {"decay_matrix", "retention_parallel", "retention_chunkwise"}}
    problems = []
    for folder in sorted(p for p in out.iterdir() if p.is_dir() and p.name not in ("pat", "quinn")):
        got = _outputs(_load(folder / MODULE, f"student_{folder.name}"), torch)
        for fn, value in got.items():
            wrong = not _same(value, reference[fn], torch)
            meant = fn in planted.get(folder.name, set())
            if wrong != meant:
                problems.append(f"{folder.name}: {fn} {'differs from' if wrong else 'matches'} the solution")
    return problems


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out", nargs="?", default=str(HERE / "class"))
    p.add_argument("--check", action="store_true", help="then import and compare every generated module")
    p.add_argument("--extra", type=int, default=0, metavar="N",
                   help="N more students working alone (extra000 ...; a fifth without the causal mask): a large class")
    args = p.parse_args(argv)
    out = Path(args.out)
    write(out, build(args.extra))
    print(f"wrote {len(list(out.iterdir()))} submissions into {out}")
    if args.check:
        problems = check(out)
        print("\n".join(problems) or "every function right but the planted mistakes")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
