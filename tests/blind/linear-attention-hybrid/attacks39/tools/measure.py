import os, sys, time, json
os.environ.setdefault("OMP_NUM_THREADS", "1")
folder, T, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
sys.path.insert(0, folder)
import numpy as np, torch
torch.set_num_threads(1)
from g2c.linear_attention import attention as la
B, D, H = 16, 64, 4
res = {}
def run_part(name, layer, dtype, seed):
    rng = np.random.default_rng(seed)
    state, ys = None, []
    ssum = 0; ssq = 0
    with torch.no_grad():
        for t in range(T):
            x = torch.from_numpy(rng.standard_normal((B, D))).to(dtype)
            y, state = layer.step(x, state)
            yd = y.double()
            ssum = ssum + yd; ssq = ssq + yd * yd
            if t % 61 == 0 or t >= T - 64:
                ys.append(yd.numpy().copy())
    res[name] = dict(sum=ssum.numpy(), sq=ssq.numpy(), kept=np.stack(ys), S=state[0].double().numpy(), z=state[1].double().numpy())
torch.manual_seed(1)
l1 = la.LinearAttention(D, H)
g = la.initial_decays(H) 
with torch.no_grad():
    logit = torch.log(g) - torch.log1p(-g) + torch.tensor([0.3, -0.2, 0.1, 0.35])
    l1.gamma_logit.copy_(logit)
l1 = l1.float(); l1.train()
xx = torch.randn(16, 64, 64)
l1(xx).pow(2).mean().backward(); l1.eval()
run_part("p1", l1, torch.float32, 11)
torch.manual_seed(2)
l2 = la.LinearAttention(D, H).double()
with torch.no_grad():
    gg = torch.tensor([0.62, 0.9991, 0.41, 0.85], dtype=torch.float64)
    l2.gamma_logit.copy_(torch.log(gg) - torch.log1p(-gg))
l2.train()
run_part("p2", l2, torch.float64, 12)
np.savez(out, **{f"{p}_{k}": v for p in res for k, v in res[p].items()},
         **{f"w1_{k}": v.detach().double().numpy() for k, v in l1.state_dict().items()},
         **{f"w2_{k}": v.detach().double().numpy() for k, v in l2.state_dict().items()})
print(json.dumps({"huge_chunks": getattr(la, "HUGE_CHUNKS", None), "process_time": time.process_time()}))
