"""Per-step time of LinearAttention.step at t ≈ 256 and t ≈ 4096 (B = 1, D = 32, H = 4, float64, no_grad),
plus the tensor values the module holds afterwards. Run with cwd = a case folder; prints one JSON line."""
import json
import statistics
import sys
import time

import torch

sys.path.insert(0, ".")
torch.set_default_dtype(torch.float64)
torch.set_num_threads(1)
from g2c.linear_attention import LinearAttention  # noqa: E402

torch.manual_seed(0)
layer = LinearAttention(32, 4).eval()
xs = torch.randn(4096 + 128, 1, 32)
ts, st = [], None
with torch.no_grad():
    for t in range(xs.shape[0]):
        t0 = time.perf_counter()
        _, st = layer.step(xs[t], st)
        ts.append(time.perf_counter() - t0)
early = statistics.median(ts[256:384])
late = statistics.median(ts[4096:4096 + 128])
held = 0
for v in layer.__dict__.values():
    if isinstance(v, torch.Tensor):
        held += v.numel()
    elif isinstance(v, (list, tuple)):
        held += sum(e.numel() for e in v if isinstance(e, torch.Tensor))
        held += sum(sum(f.numel() for f in e if isinstance(f, torch.Tensor)) for e in v if isinstance(e, (list, tuple)))
print(json.dumps({"us_t256": round(early * 1e6, 1), "us_t4096": round(late * 1e6, 1),
                  "ratio": round(late / early, 2), "held_values": held}))
