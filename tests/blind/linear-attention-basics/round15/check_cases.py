"""Compare every case with base/ on small probes (float64 unless a probe says otherwise).

For each case folder: load its linear_attention.py, run the probes below on fresh copies of fixed random
inputs, and list the probes whose result differs from base's (tensors: shape, dtype and values to 1e-10 in
float64 / 1e-5 in float32; exceptions: their type). Notebook-only differences are found by running both
notebooks with run_nb.py and comparing the printed output, failing cells and the answers / written answers.
Alternatives must differ nowhere; bugs must differ somewhere.

    /work/main/.venv/bin/python check_cases.py            # every case folder
    /work/main/.venv/bin/python check_cases.py NAME ...   # some of them
"""
import importlib.util
import json
import re
import sys
from pathlib import Path

import torch
import yaml

import run_nb

HERE = Path(__file__).resolve().parent
torch.set_num_threads(1)


def load(folder):
    spec = importlib.util.spec_from_file_location(f"la_{folder.name}", folder / "linear_attention.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def data(lead, L, m, d_v, seed, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*lead, L, m, generator=g, dtype=dtype), torch.randn(*lead, L, m, generator=g, dtype=dtype),
            torch.randn(*lead, L, d_v, generator=g, dtype=dtype))


SHAPES = [((), 1, 3, 2), ((), 9, 4, 3), ((2,), 7, 3, 5), ((2, 3), 6, 4, 4)]


def steps(la, Q, K, V):
    st = la.LinearAttentionState(K.shape[-1], V.shape[-1])
    return torch.stack([st.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


def probes():
    P = {}
    for i, shp in enumerate(SHAPES):
        P[f"linpar{shp}"] = lambda la, s=shp: la.linear_attention_parallel(*data(*s, 1))
        P[f"linrec{shp}"] = lambda la, s=shp: la.linear_attention_recurrent(*data(*s, 1))
        P[f"step{shp}"] = lambda la, s=shp: steps(la, *data(*s, 1))
        for gm in [0.0, 0.5, 0.9, 1.0]:
            P[f"retpar{shp} g={gm}"] = lambda la, s=shp, gm=gm: la.retention_parallel(*data(*s, 2), gm)
            P[f"retrec{shp} g={gm}"] = lambda la, s=shp, gm=gm: la.retention_recurrent(*data(*s, 2), gm)
            P[f"uni-ret{shp} g={gm}"] = lambda la, s=shp, gm=gm: la.unified_recurrence(*data(*s, 2), "retention", gamma=gm)
        P[f"uni-lin{shp}"] = lambda la, s=shp: la.unified_recurrence(*data(*s, 3), "linear")
    # very negative inputs, constant values
    P["linear very negative"] = lambda la: [f(la, *((lambda Q, K, V: (Q - 8, K - 8, V))(*data((2,), 6, 3, 2, 4))))
                                            for f in (lambda la, *a: la.linear_attention_parallel(*a),
                                                      lambda la, *a: la.linear_attention_recurrent(*a), steps)]
    P["linear constant V"] = lambda la: [f(la, *data((), 6, 3, 2, 5)[:2], torch.tensor([1.0, -2.0], dtype=torch.float64).expand(6, 2))
                                         for f in (lambda la, *a: la.linear_attention_parallel(*a),
                                                   lambda la, *a: la.linear_attention_recurrent(*a), steps)]
    # chunkwise: L = 9, every chunk size, with the state
    for gm in [0.0, 0.7, 1.0]:
        for B in [1, 2, 3, 4, 5, 9, 12]:
            P[f"chunk B={B} g={gm}"] = lambda la, B=B, gm=gm: la.retention_chunkwise(*data((2,), 9, 4, 3, 6), gm, B,
                                                                                     return_state=True)
    P["chunk unbatched B=4"] = lambda la: la.retention_chunkwise(*data((), 9, 4, 3, 7), 0.8, 4, return_state=True)
    P["chunk default no state"] = lambda la: la.retention_chunkwise(*data((2,), 9, 4, 3, 7), 0.8, 4)
    # per-head gamma, reused twice (the same tensor object)
    def per_head(la):
        Q, K, V = data((2, 3), 9, 4, 3, 8)
        gh = torch.tensor([0.0, 0.5, 1.0], dtype=torch.float64)
        out = []
        for _ in range(2):
            out += [la.retention_parallel(Q, K, V, gh), la.retention_recurrent(Q, K, V, gh),
                    la.retention_chunkwise(Q, K, V, gh, 4), la.unified_recurrence(Q, K, V, "retention", gamma=gh)]
        return out + [gh]
    P["per-head gamma"] = per_head
    P["per-head gamma single"] = lambda la: [la.retention_parallel(*data((2, 3), 5, 4, 3, 9), torch.tensor([0.3, 0.6, 0.9], dtype=torch.float64))]
    # validation
    for bad in [1.5, -0.1, float("nan")]:
        for name in ["parallel", "recurrent"]:
            P[f"ret{name} bad {bad}"] = lambda la, b=bad, n=name: getattr(la, f"retention_{n}")(*data((), 4, 3, 3, 0), b)
        P[f"chunk bad {bad}"] = lambda la, b=bad: la.retention_chunkwise(*data((), 4, 3, 3, 0), b, 2)
        P[f"uni bad {bad}"] = lambda la, b=bad: la.unified_recurrence(*data((), 4, 3, 3, 0), "retention", gamma=b)
    P["retpar bad tensor"] = lambda la: la.retention_parallel(*data((3,), 4, 3, 3, 0), torch.tensor([0.5, 1.5, 0.2], dtype=torch.float64))
    P["retpar nan tensor"] = lambda la: la.retention_parallel(*data((3,), 4, 3, 3, 0), torch.tensor([0.5, float("nan"), 0.2], dtype=torch.float64))
    for B in [0, -1, 2.0, True]:
        P[f"chunk size {B!r}"] = lambda la, B=B: la.retention_chunkwise(*data((), 4, 3, 3, 0), 0.5, B)
    # unified: gates and errors
    P["uni gated (L,)"] = lambda la: la.unified_recurrence(*data((2,), 7, 4, 3, 10), "gated",
                                                           gate=torch.linspace(0.1, 0.9, 7, dtype=torch.float64))
    P["uni gated (..., L)"] = lambda la: la.unified_recurrence(*data((2,), 7, 4, 3, 10), "gated",
                                                               gate=torch.rand(2, 7, generator=torch.Generator().manual_seed(1),
                                                                               dtype=torch.float64))
    P["uni unknown"] = lambda la: la.unified_recurrence(*data((), 4, 3, 3, 0), "softmax")
    P["uni no gamma"] = lambda la: la.unified_recurrence(*data((), 4, 3, 3, 0), "retention")
    P["uni no gate"] = lambda la: la.unified_recurrence(*data((), 4, 3, 3, 0), "gated")
    # multiscale
    P["multiscale 4"] = lambda la: la.multiscale_decays(4)
    P["multiscale 1"] = lambda la: la.multiscale_decays(1)
    # float32 stays float32
    def f32(la):
        Q, K, V = data((2,), 6, 4, 3, 11, dtype=torch.float32)
        return [la.linear_attention_parallel(Q, K, V), la.linear_attention_recurrent(Q, K, V), steps(la, Q, K, V),
                la.retention_parallel(Q, K, V, 0.9), la.retention_recurrent(Q, K, V, 0.9),
                *la.retention_chunkwise(Q, K, V, 0.9, 4, return_state=True),
                la.unified_recurrence(Q, K, V, "retention", gamma=0.9), la.unified_recurrence(Q, K, V, "linear"),
                la.unified_recurrence(Q, K, V, "gated", gate=torch.full((6,), 0.5))]
    P["float32"] = f32
    # inputs never written
    def untouched(la):
        Q, K, V = data((2,), 9, 4, 3, 12)
        la.linear_attention_parallel(Q, K, V), la.linear_attention_recurrent(Q, K, V), steps(la, Q, K, V)
        la.retention_parallel(Q, K, V, 0.8), la.retention_recurrent(Q, K, V, 0.8)
        la.retention_chunkwise(Q, K, V, 0.8, 4, return_state=True)
        la.unified_recurrence(Q, K, V, "retention", gamma=0.8)
        return [Q, K, V]
    P["inputs untouched"] = untouched
    # causality: change tokens 5.. and keep outputs 0..4
    def causal(la):
        Q, K, V = data((2,), 9, 4, 3, 13)
        Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
        for a in (Q2, K2, V2):
            a[..., 5:, :] = 10 * torch.randn(a[..., 5:, :].shape, generator=torch.Generator().manual_seed(2), dtype=a.dtype)
        fs = [la.linear_attention_parallel, la.linear_attention_recurrent, lambda *a: steps(la, *a),
              lambda *a: la.retention_parallel(*a, 0.9), lambda *a: la.retention_chunkwise(*a, 0.9, 4)]
        return [(f(Q, K, V)[..., :5, :] - f(Q2, K2, V2)[..., :5, :]).abs().max() < 1e-12 for f in fs]
    P["causal"] = causal
    # two states never share
    def indep(la):
        Q, K, V = data((), 3, 4, 3, 14)
        a, b = la.LinearAttentionState(4, 3), la.LinearAttentionState(4, 3)
        a.step(Q[0], K[0], V[0])
        return b.step(Q[1], K[1], V[1])
    P["independent states"] = indep
    # L = 0
    P["L = 0"] = lambda la: [la.linear_attention_parallel(*data((2,), 0, 4, 3, 0)), la.linear_attention_recurrent(*data((2,), 0, 4, 3, 0)),
                             la.retention_parallel(*data((2,), 0, 4, 3, 0), 0.5), la.retention_recurrent(*data((2,), 0, 4, 3, 0), 0.5),
                             *la.retention_chunkwise(*data((2,), 0, 4, 3, 0), 0.5, 3, return_state=True)]
    # decay matrix itself
    P["decay_matrix"] = lambda la: [la.decay_matrix(la.as_gamma(g, torch.zeros(1, dtype=torch.float64)), 6) for g in (0.0, 0.5, 1.0)]
    return P


def run_probe(la, f):
    try:
        return f(la)
    except Exception as e:  # noqa: BLE001
        return ("raises", type(e).__name__)


def same(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if not a.is_floating_point():
            return torch.equal(a, b)
        tol = 1e-10 if a.dtype == torch.float64 else 1e-5
        return torch.allclose(a, b, rtol=tol, atol=tol, equal_nan=True)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        return False
    return a == b


def notebook_view(folder):
    fails, outs = run_nb.run(folder)
    cells = json.loads((folder / "linear_attention.ipynb").read_text())["cells"]
    written = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"
               and any(t == "answers" or t.startswith("answer:") for t in c.get("metadata", {}).get("tags", []))]
    # printed numbers are compared to 1e-6 (an alternative may print max |diff| 0.0 where base prints 2e-16)
    num = re.compile(r"-?\d+\.?\d*(?:e[-+]?\d+)?")
    printed = [(i, num.sub(lambda m: f"{round(float(m.group()), 6) + 0.0:g}", o)) for i, o in outs]
    return dict(failing=[(i, e.split(":")[0]) for i, _, e in fails], printed=printed, written=written)


def main(names):
    base = load(HERE / "base")
    P = probes()
    base_res = {k: run_probe(base, f) for k, f in P.items()}
    raised = [k for k, v in base_res.items() if isinstance(v, tuple) and v and v[0] == "raises"]
    print("base raises on:", raised)
    base_nb = notebook_view(HERE / "base")
    assert not base_nb["failing"], base_nb["failing"]
    corpus = {e["name"]: e for e in yaml.safe_load((HERE / "corpus.yaml").read_text())}
    bad = []
    for name in names:
        folder = HERE / name
        kind = corpus[name]["kind"]
        try:
            la = load(folder)
            diffs = [k for k, f in P.items() if not same(run_probe(la, f), base_res[k])]
        except Exception as e:  # noqa: BLE001
            diffs = [f"module does not import: {type(e).__name__}"]
        view = notebook_view(folder)
        nb_diffs = [key for key in ("failing", "printed", "written") if view[key] != base_nb[key]]
        verdict = "ok"
        if kind == "alternative" and (diffs or nb_diffs):
            verdict = "ALTERNATIVE DIFFERS"
        if kind != "alternative" and not (diffs or nb_diffs):
            verdict = "NO DIFFERENCE"
        if verdict != "ok":
            bad.append(name)
        shown = diffs[:8] + ([f"... {len(diffs) - 8} more"] if len(diffs) > 8 else [])
        print(f"{name:36s} {kind:11s} {verdict:6s} probes differing: {len(diffs):3d} {shown}")
        if nb_diffs:
            print(f"{'':48s} notebook differs in {nb_diffs}; failing cells {view['failing']}")
    print("problems:", bad or "none")
    return not bad


if __name__ == "__main__":
    sel = sys.argv[1:] or [e["name"] for e in yaml.safe_load((HERE / "corpus.yaml").read_text()) if e["name"] != "base"]
    sys.exit(0 if main(sel) else 1)
