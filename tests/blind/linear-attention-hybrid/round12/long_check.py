import sys, torch
sys.path.insert(0, ".")
from check_cases import load, run_steps
torch.set_default_dtype(torch.float64)
base = load("base")
def mk(mod):
    torch.manual_seed(7)
    L = mod.LinearAttention(16, 4).double()
    with torch.no_grad():
        L.gamma_logit.copy_(torch.tensor([torch.log(torch.tensor(0.05/0.95)), 0.0, torch.log(torch.tensor(0.97/0.03)), 50.0]))
    return L
torch.manual_seed(8)
x = torch.randn(2, 300, 16)
Lb = mk(base); yb = Lb(x); sb = run_steps(Lb, x)
xx = x.clone().requires_grad_(True); Lb(xx).pow(2).sum().backward(); gb = torch.cat([xx.grad.flatten()]+[p.grad.flatten() for p in Lb.parameters()])
print("base fwd vs step", float((yb - sb[0]).abs().max()))
for name in sys.argv[1:]:
    m = load(name); L = mk(m)
    y = L(x); s = run_steps(L, x)
    xx = x.clone().requires_grad_(True); L(xx).pow(2).sum().backward(); g = torch.cat([xx.grad.flatten()]+[p.grad.flatten() for p in L.parameters()])
    f = lambda a, b: float((a - b).abs().nan_to_num(float("inf")).max())
    print(f"{name:40s} fwd {f(y, yb):.1e} step {f(s[0], sb[0]):.1e} S {f(s[1][0], sb[1][0]):.1e} z {f(s[1][1], sb[1][1]):.1e} grad {f(g, gb):.1e}")
