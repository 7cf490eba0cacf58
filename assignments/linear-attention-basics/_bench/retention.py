"""Benchmark: retention's parallel face (O(L²)) against its chunkwise face (O(L·B)).

``python tasks.py bench basics`` calls `main`. For the solution module of
linear-attention-basics it times ``retention_parallel`` and ``retention_chunkwise``
(chunk 64, and the best of 32/64/128/256) at L = 1k, 4k, 16k with d = 64, one head,
float32, and prints a table, the log-log growth exponent of time in L and the ratios at
the longest length.

Every measurement runs in a fresh subprocess (this file with ``--worker``), so one
measurement's allocations cannot inflate the next one's peak. On the CPU the peak is the
child's own ``RUSAGE_SELF`` max-RSS after the runs minus the same figure just before the
first call (inputs already built). ``RUSAGE_CHILDREN`` seen from the parent would not do:
it is the maximum over every child reaped so far, so a small measurement after a large
one would report the large one. On CUDA the peak is ``torch.cuda.max_memory_allocated``.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the kit: assignments/<name>/_bench/retention.py
MODULE = "linear-attention-basics/linear_attention.py"
CANDIDATES = (ROOT / "solutions" / MODULE, ROOT / "assignments" / MODULE)
LENGTHS = (1024, 4096, 16384)
CHUNKS = (32, 64, 128, 256)
WORKER_TIMEOUT_S = 120


def module_path() -> Path:
    """The generated solution module, or the tagged source (it runs as-is) before a build."""
    for path in CANDIDATES:
        if path.is_file():
            return path
    raise FileNotFoundError(f"no solution module at {' or '.join(map(str, CANDIDATES))}; "
                            "run 'python tasks.py build linear-attention-basics' first")


# ----------------------------------------------------------------------------- the child

def _worker(spec: dict) -> dict:
    """Time one (form, L, chunk) in this fresh process; return seconds and peak bytes."""
    import resource

    import torch

    mod_spec = importlib.util.spec_from_file_location("linear_attention", spec["module"])
    la = importlib.util.module_from_spec(mod_spec)
    mod_spec.loader.exec_module(la)
    device = torch.device(spec["device"])
    if spec.get("threads"):
        torch.set_num_threads(spec["threads"])
    torch.manual_seed(0)
    L, d = spec["L"], spec["d"]
    Q, K, V = (torch.randn(L, d, device=device) / math.sqrt(d) for _ in range(3))   # (L, d) each
    if spec["form"] == "parallel":
        run = lambda: la.retention_parallel(Q, K, V, spec["gamma"])                  # noqa: E731
    else:
        run = lambda: la.retention_chunkwise(Q, K, V, spec["gamma"], spec["chunk"])  # noqa: E731

    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize()
        elif device.type == "mps":
            torch.mps.synchronize()

    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    sync()
    t0 = time.perf_counter()
    run()                                       # warm-up (kernels, allocator, page faults)
    sync()
    warm_up = time.perf_counter() - t0
    # A run slower than the budget is timed once: its warm-up is the measurement (cold, within a few %).
    times = [warm_up] if warm_up > spec["budget_s"] else []
    started = time.perf_counter()
    while len(times) < spec["repeats"] and (not times or time.perf_counter() - started < spec["budget_s"]):
        sync()
        t0 = time.perf_counter()
        run()
        sync()
        times.append(time.perf_counter() - t0)
    if device.type == "cuda":
        peak = torch.cuda.max_memory_allocated() - base
    else:
        kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before   # Linux reports KiB
        peak = kib * (1 if sys.platform == "darwin" else 1024)
    return {"seconds": statistics.median(times), "repeats": len(times), "peak_bytes": max(int(peak), 0)}


# ----------------------------------------------------------------------------- the parent

def measure(spec: dict) -> dict:
    """Run one measurement in a fresh subprocess; a crash or timeout is reported, not raised."""
    cmd = [sys.executable, __file__, "--worker", json.dumps(spec)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=WORKER_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {WORKER_TIMEOUT_S} s"}
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1]
        return {"error": last[:120]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def default_device() -> str:
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        return "mps"
    return "cpu"


def slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log y against log x: the growth exponent."""
    lx, ly = [math.log(x) for x in xs], [math.log(y) for y in ys]
    mx, my = statistics.fmean(lx), statistics.fmean(ly)
    return sum((a - mx) * (b - my) for a, b in zip(lx, ly)) / sum((a - mx) ** 2 for a in lx)


def _fmt_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return ""


def run_all(args: argparse.Namespace, module: Path) -> dict[str, dict[int, dict]]:
    """Every row of the table: parallel, chunkwise at --chunk, chunkwise at the best chunk."""
    base = {"module": str(module), "device": args.device, "d": args.d, "gamma": 0.97,
            "repeats": args.repeats, "budget_s": args.budget_s, "threads": args.threads}
    rows: dict[str, dict[int, dict]] = {"parallel": {}, f"chunkwise B={args.chunk}": {}, "chunkwise best B": {}}
    for L in args.lengths:
        rows["parallel"][L] = measure({**base, "form": "parallel", "L": L})
        by_chunk = {B: measure({**base, "form": "chunkwise", "L": L, "chunk": B}) for B in CHUNKS}
        if args.chunk not in by_chunk:
            by_chunk[args.chunk] = measure({**base, "form": "chunkwise", "L": L, "chunk": args.chunk})
        rows[f"chunkwise B={args.chunk}"][L] = by_chunk[args.chunk]
        ok = {B: r for B, r in by_chunk.items() if "error" not in r}
        best = min(ok, key=lambda B: ok[B]["seconds"]) if ok else None
        rows["chunkwise best B"][L] = {**ok[best], "chunk": best} if ok else {"error": "every chunk size failed"}
    return rows


def report(rows: dict[str, dict[int, dict]], lengths: list[int]) -> str:
    head = f"{'form':<20}" + "".join(f"{f'L={L}':>26}" for L in lengths) + f"{'time ~ L^k':>12}"
    lines = [head, "-" * len(head)]
    for name, by_length in rows.items():
        cells, ok = [], []
        for L in lengths:
            r = by_length[L]
            if "error" in r:
                cells.append(f"{'failed':>26}")
                continue
            tag = f" B={r['chunk']}" if "chunk" in r else ""
            cells.append(f"{r['seconds'] * 1e3:>9.1f} ms {_fmt_bytes(r['peak_bytes']):>10}{tag:>5}")
            ok.append((L, r["seconds"]))
        k = f"{slope(*zip(*ok)):.2f}" if len(ok) >= 2 else "n/a"
        lines.append(f"{name:<20}" + "".join(cells) + f"{k:>12}")
    longest = lengths[-1]
    par = rows["parallel"][longest]
    for name in list(rows)[1:]:
        chk = rows[name][longest]
        if "error" in par or "error" in chk:
            continue
        mem = par["peak_bytes"] / chk["peak_bytes"] if chk["peak_bytes"] else float("inf")
        lines.append(f"at L={longest}: parallel / {name}: time {par['seconds'] / chk['seconds']:.1f}x, "
                     f"peak memory {mem:.1f}x")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bench basics", description=__doc__.splitlines()[0])
    p.add_argument("--lengths", type=int, nargs="+", default=list(LENGTHS), help="sequence lengths L")
    p.add_argument("--d", type=int, default=64, help="head width (m = d_v = d)")
    p.add_argument("--chunk", type=int, default=64, help="the fixed chunk size of the second row")
    p.add_argument("--repeats", type=int, default=3, help="timed runs after one warm-up (median reported)")
    p.add_argument("--budget-s", type=float, default=4.0, help="stop repeating once timed runs exceed this")
    p.add_argument("--threads", type=int, default=0,
                   help="torch CPU threads per measurement (default: torch's own; use 1 on a busy machine, "
                        "where multi-threaded 64-wide matmuls can stall for seconds)")
    p.add_argument("--device", default=None, help="cpu, cuda or mps (default: the best available)")
    p.add_argument("--worker", help=argparse.SUPPRESS)
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(json.loads(args.worker))))
        return 0
    args.device = args.device or default_device()
    module = module_path()
    started = time.perf_counter()
    print(f"retention: parallel vs chunkwise, d={args.d}, float32, one head, device={args.device}")
    print(f"module: {module.relative_to(ROOT) if module.is_relative_to(ROOT) else module}")
    print("each cell: median time, peak memory above the inputs (fresh process per cell)\n")
    rows = run_all(args, module)
    print(report(rows, sorted(args.lengths)))
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    return 0 if all("error" not in r for by_length in rows.values() for r in by_length.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
