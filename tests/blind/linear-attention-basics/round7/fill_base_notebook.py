import json
p = 'linear_attention.ipynb'
nb = json.load(open(p))
cells = nb['cells']

def set_src(i, text, must_contain):
    assert must_contain in ''.join(cells[i]['source']), (i, must_contain)
    lines = text.strip('\n').split('\n')
    cells[i]['source'] = [l + '\n' for l in lines[:-1]] + [lines[-1]]

# cell 7: keep the given code, add the third token
src7 = ''.join(cells[7]['source'])
assert src7.count('# read with q = (1, 1), and copy both reads into the answers cell below.') == 1
src7 = src7 + '''
k3, v3 = torch.tensor([0.0, 1.0]), torch.tensor([4.0, 2.0])
S_3 = S_ex + torch.outer(k3, v3)                                # [[2, 4], [4, 6]]
z_3 = z_ex + k3                                                 # (2, 2)
q_3 = torch.tensor([1.0, 1.0])
print("S =", S_3.tolist(), " z =", z_3.tolist(), " read =", ((q_3 @ S_3) / (q_3 @ z_3)).tolist())'''
set_src(7, src7, 'Your turn')

set_src(8, '''**Worked examples: your numbers** (vectors as `[a, b]`, two decimal places)

```yaml
example_1_1: [0.50, 3.00]
your_turn: [1.50, 2.50]
```''', 'example_1_1:')

set_src(29, '''d, t = 128, 100_000
attention_ops = 4 * t * d   # (about 4·t·d)
state_ops = 4 * d * d       # (about 4·d²)
print(f"attention {attention_ops:,} ops, state {state_ops:,} ops, ratio {attention_ops / state_ops:.2f}x")''', 'd, t = 128, 100_000')

set_src(30, '''**Cost per token: your number** (a number followed by `×`, three significant figures)

```yaml
cost_ratio_at_100k: 781×
```''', 'cost_ratio_at_100k:')

set_src(32, '''import torch
from linear_attention import linear_attention_parallel, linear_attention_recurrent

# Generate random Q, K, V of your choice. Confirm the parallel and recurrent
# forms match, then explain in one sentence WHY they must: what property of the
# sum over j lets you regroup it into a running state?

# Keep your inputs in Q1, K1, V1 and the two outputs in y_par1, y_rec1: the check cell below uses them.
torch.manual_seed(1)
Q1, K1, V1 = torch.randn(10, 6), torch.randn(10, 6), torch.randn(10, 5)
y_par1 = linear_attention_parallel(Q1, K1, V1)
y_rec1 = linear_attention_recurrent(Q1, K1, V1)
gap1 = (y_par1 - y_rec1).abs().max().item()
print(f"max |parallel - recurrent| = {gap1:.2e}  ->", "they agree" if gap1 < 1e-5 else "they DIFFER")''', 'Exercise 1')

set_src(35, '''**Answer:**

Because the sum over $j$ is linear: $\\sum_{j\\le i} (\\varphi(q_i)\\cdot\\varphi(k_j))\\, v_j = \\varphi(q_i)^\\top \\sum_{j\\le i} \\varphi(k_j) v_j^\\top$ (and likewise for the denominator), so by associativity $\\varphi(q_i)$ factors out of the sum and what is left, $S_i$ and $z_i$, only depends on $i$ through its upper limit: a running total that grows by one term per token, which is exactly what the recurrent form carries; both forms compute the same sums, only added in a different order.''', 'Type your answer')

set_src(37, '''import torch
from linear_attention import retention_parallel

# Retention with gamma=1 (no decay) and the identity feature map is exactly
# unnormalized causal attention: (Q Kᵀ ⊙ tril) V. Build that expression by hand
# with torch.tril and confirm it equals retention_parallel(Q, K, V, gamma=1.0).
# Then set gamma=0.0 and describe, in words, what the output becomes.

# Keep Q2, K2, V2, the hand-built product in by_hand and (q_n·k_n) v_n in only_self: the check cell uses them.
torch.manual_seed(2)
Q2, K2, V2 = torch.randn(8, 4), torch.randn(8, 4), torch.randn(8, 3)
by_hand = torch.tril(Q2 @ K2.T) @ V2                      # (Q Kᵀ ⊙ tril) V
only_self = (Q2 * K2).sum(-1, keepdim=True) * V2          # (q_n · k_n) v_n
gap_one = (retention_parallel(Q2, K2, V2, gamma=1.0) - by_hand).abs().max().item()
gap_zero = (retention_parallel(Q2, K2, V2, gamma=0.0) - only_self).abs().max().item()
print(f"gamma = 1: max |retention - by_hand|   = {gap_one:.2e}")
print(f"gamma = 0: max |retention - only_self| = {gap_zero:.2e}")''', 'Exercise 2')

set_src(40, '''**Answer:**

With $\\gamma = 0$ the decay matrix keeps only its diagonal ($0^0 = 1$, while $0^{n-m} = 0$ for every $m < n$), so each token sees only itself: $o_n = (q_n\\cdot k_n)\\, v_n$. In the recurrent form $S_n = 0\\cdot S_{n-1} + k_n^\\top v_n$ throws away the whole past at every step, so the model has no memory of earlier tokens at all.''', 'Type your answer')

set_src(42, '''import torch
from linear_attention import unified_recurrence

# Build Q, K, V (length 8). Using mode="gated", design a `gate` vector that keeps
# a HIGH gate (~0.95) only at positions 2 and 5 and a LOW gate (~0.1) elsewhere.
# Compare the output with mode="retention" and a single fixed gamma (say the mean gate):
# at which positions do they differ? Then print, for t = 2..7, the weight that token 2's
# own write k_2 v_2ᵀ still has in S_t (the product of the gates after position 2).

# Keep Q3, K3, V3, your gate in gate3 and the gated output in y_gated: the check cell uses them.
torch.manual_seed(3)
Q3, K3, V3 = torch.randn(8, 4), torch.randn(8, 4), torch.randn(8, 3)
gate3 = torch.full((8,), 0.1)
gate3[[2, 5]] = 0.95
y_gated = unified_recurrence(Q3, K3, V3, "gated", gate=gate3)
gamma_mean = gate3.mean().item()
y_fixed = unified_recurrence(Q3, K3, V3, "retention", gamma=gamma_mean)
diff = (y_gated - y_fixed).abs().amax(dim=-1)
print(f"fixed gamma = mean gate = {gamma_mean:.4f}")
print("max |gated - fixed| per position:", [f"{d:.3f}" for d in diff.tolist()])
for t in range(2, 8):
    print(f"t = {t}: weight of token 2's write in S_t = {gate3[3:t + 1].prod().item():.4g}")''', 'Exercise 3')

set_src(45, '''**Answer:**

The high gate at $t = 2$ multiplies the *old* state $S_1$, so it preserves what tokens 0 and 1 wrote; it does nothing for token 2's own write, which is scaled by the gates after it: weight $A_3 = 0.1$ in $S_3$ and $A_3 A_4 = 0.1 \\cdot 0.1 = 0.01$ in $S_4$ (it only survives longer thanks to the high gate at $t = 5$, which holds $S_4$). The gated and fixed-$\\gamma$ outputs agree at position 0 (the state starts empty, so the gate $A_0$ multiplies nothing) and differ at every later position $t \\ge 1$, because from then on the old state is scaled by $A_t \\ne \\bar\\gamma$. An input-dependent gate buys *selectivity*: the model decides per token (per content) what to keep and what to forget, e.g. holding memory across one important stretch and flushing it elsewhere, while a fixed $\\gamma$ forgets at the same geometric rate no matter what arrives.''', 'Type your answer')

json.dump(nb, open(p, 'w'), indent=1, ensure_ascii=False)
open(p, 'a').write('\n')
