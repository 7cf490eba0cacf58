"""Fill base/'s notebook as a careful student would: the Exercise 5 scratch cell, the answers block and
the eight written answers. Run once, after copying the template to base/ (it refuses to run twice)."""
import json
from pathlib import Path

NB = Path(__file__).parent / "base" / "linear_attention_hybrid.ipynb"

ANSWERS = {
    "ex1_crossover": """**Answer:**

On a single CPU core (grading-mode run) the linear step stayed flat at about 150 µs for every L, while the
cached full step started lower (about 135 µs at L = 256, less below) and became slower from L = 1024 on
(227 µs, then 1 ms at 4096); the crossover printed was 1024. The full step's arithmetic is about 4·L·d_h per head (scores against L keys, then the weighted
sum of L values) and it also copies the whole cache in `torch.cat`, so its cost grows linearly with L.
The linear step does about 4·d_h² per head (the rank-one write plus the read), independent of L. At
small L both are dominated by fixed overheads — Python, a dozen small kernel launches, the four
projections — and the linear step issues a few more small ops (outer product, two reductions, a
division), which is why it loses at first. On a GPU the launch overhead is larger and the arithmetic is
almost free until memory bandwidth for the cache matters, so I would expect the crossover to move to a
much larger L (tens of thousands of tokens), with the KV-cache bytes, not FLOPs, eventually deciding it.""",
    "ex2_comparison": """**Answer:**

In grading mode the three validation losses are within a few hundredths of each other (all near the
unigram loss), because 12 steps only teach the character frequencies. With the full budget the full
model ended lowest, the hybrid close behind it, and the pure linear stack a little higher — a gap of a
few hundredths of a nat per character, which is small because most next characters depend on the last
few, which the decaying state keeps well. The samples show more than the loss: the full and hybrid
models repeat the story's name (\"Lily ... Lily\") and bring back the object mentioned earlier, while
the pure linear model more often switches names mid-story or forgets the object. That is a copying
failure, rare per character, so the average loss hardly moves.""",
    "ex3_recall": """**Answer:**

In grading mode (20 steps) all three curves sit at about chance, 1/8, at every distance: the models have
only learned the answer format. At the full budget the full-attention model climbs well above chance at
every distance, flat with distance, since a softmax lookup finds the matching pair token wherever it is.
The pure linear model stays much lower and falls with distance: the oldest pairs are both decayed and
buried under the crosstalk of later writes in 4 × 4 states. The hybrid with one full layer recovers most
of the gap, but it left its plateau later than the full model. With one seed this is one draw; to test
the story properly I would run several seeds, more steps, and vary the number of pairs and the head width
so that the state capacity (d_h²) is compared with the number of stored associations.""",
    "ex4_gate": """**Answer:**

With γ = 0.5 the state norm settles after a few tokens at about ‖φ(k)vᵀ‖/(1−γ); γ = 0.9 and 0.99 settle
later at higher levels (an effective memory of about 1/(1−γ) tokens), and γ = 1 grows without bound,
like √t for random values in S and like t in z, since φ(k) is positive. The output stays bounded anyway
because it is a ratio: S and z carry the same decayed weights, so y_t is a weighted average of the values
with weights summing to one. The trained models learned decays spread from about 0.7 to 0.99, mostly
staying near their initial spread, with the slow heads in the upper layers. A fixed per-head decay forgets
at the same rate after every token: it cannot decide to keep a name for a long time and clear the memory at
a sentence boundary, and it cannot overwrite one key's old value. An input-dependent gate can hold or
clear depending on the token, and a delta-rule write replaces the value stored under a key instead of
adding to it.""",
    "reassociation": """**Answer:**

(φ(Q)φ(K)ᵀ)V builds the T × T matrix first: O(T²·d) work and T² memory. φ(Q)(φ(K)ᵀV) first sums
φ(k_i)v_iᵀ into a d × d matrix, so the cost is O(T·d²), and with a causal prefix sum it becomes a
recurrence with a fixed state — constant memory and work per decoded token. Removing the softmax costs
sharpness: exp(q·k) can concentrate nearly all weight on one token, while a sum of positive feature
products spreads weight over everything and superimposes every pair in d² numbers, so exact retrieval of
one token among many degrades; the feature map also has to keep weights positive and a normalizer is
needed.""",
    "why_hybrids": """**Answer:**

A recurrent state is a fixed-size summary: every key–value pair is added into the same d_h × d_h numbers,
so old pairs fade (decay) or blur into crosstalk, and the model cannot go back and look up one exact token
far in the past — copying, exact recall, in-context retrieval. A few full-attention layers keep every
token addressable and put exact identities back into the residual stream, while the many linear layers
keep the memory and the per-token cost fixed. The hybrid pays a growing KV cache only in those few layers
(e.g. one in four), getting most of the recall of full attention at a fraction of the memory.""",
    "quadratic_reference": """**Answer:**

The recurrent form only ever needs the running sums (S, z): each step decays them, adds one rank-one term
and reads, so the state is H·d_h² + H·d_h numbers whatever t is. The parallel forward in this assignment
is written as an explicit T × T matrix of decayed scores, γ^(t−i)·φ(q_t)·φ(k_i), so that every position is
computed in one batched product and is easy to check — that materialization is quadratic in T in time and
memory. It is a reference, not a training kernel: a chunkwise algorithm (parallel inside chunks, recurrent
across them) would train in linear time with the same results.""",
    "delta_rule": """**Answer:**

Before writing, the delta rule reads what the (decayed) state currently returns for the key, prediction =
k_tᵀS', and writes only the error: S_t = S' + β_t k_t (v_t − prediction)ᵀ. If the key was already stored
with an old value, that old association is removed rather than added to; with a unit key and β = 1,
reading k_t afterwards returns exactly v_t. It is one step of online gradient descent on ‖Sᵀk_t − v_t‖².
This assignment does not implement KDA: our layer has one fixed learned decay per head (not a channel-wise
gate computed from each token), an additive write rather than a delta rule, no chunkwise kernel, no
normalization or short convolutions. It only shares the economics (fixed state versus growing cache) and
the two-forms equivalence.""",
}

SCRATCH = '''# Exercise 5 scratch: decoding state after T tokens, one sequence, in bytes
d_h = D // H
mha = 2 * T * D * BYTES  # K and V: one row of D values per token each
gqa8 = 2 * T * 8 * d_h * BYTES  # K and V for 8 KV heads of width d_h
window = 2 * min(T, 4096) * D * BYTES  # only the last 4096 tokens are kept
linear = (H * d_h * d_h + H * d_h) * BYTES  # S: H x d_h x d_h, z: H x d_h
all_mha = 4 * mha
hybrid = 3 * linear + mha

# cross-check the MHA and linear layers against the provided bill
assert memory_bill(["full"], T, D, H, bytes_per_value=BYTES).total_bytes == mha
assert memory_bill(["linear"], T, D, H, bytes_per_value=BYTES).total_bytes == linear
assert memory_bill(["full"] * 4, T, D, H, bytes_per_value=BYTES).total_bytes == all_mha
assert memory_bill(["linear", "linear", "linear", "full"], T, D, H, bytes_per_value=BYTES).total_bytes == hybrid

for name, b in [("MHA", mha), ("GQA-8", gqa8), ("window 4096", window), ("linear (S, z)", linear),
                ("4 x MHA", all_mha), ("L, L, L, F", hybrid)]:
    print(f"{name:14s} {b:>16,} B  = {b / 1e9:10.4f} GB = {b / 2**30:10.4f} GiB")
'''

ANSWER_BLOCK = '''**Exercise 5 — your answers**, worked out with your own T, D, H and BYTES. Bytes, with a unit (`B`, `kB`, `MB`, `GB`, `KiB`, `MiB`, `GiB`), to
three significant figures (four for `linear_state_one_layer`).
For `grows_with_t`, write the letter of one option:
(a) every state listed: MHA, GQA, the window and (S, z);
(b) only the full-attention caches (MHA and GQA);
(c) the full-attention caches and the sliding-window cache;
(d) none of them.

```yaml
mha_cache_one_layer: 16384000000 B
gqa8_cache_one_layer: 4096000000 B
window4096_cache_one_layer: 67108864 B
linear_state_one_layer: 1056768 B
all_mha_stack_4_layers: 65536000000 B
hybrid_lllf_stack_4_layers: 16387170304 B
grows_with_t: b
```'''


def lines(text):
    out = text.split("\n")
    return [l + "\n" for l in out[:-1]] + [out[-1]]


nb = json.loads(NB.read_text())
done = set()
for cell in nb["cells"]:
    tags = cell.get("metadata", {}).get("tags", [])
    src = "".join(cell["source"])
    for tag in tags:
        if tag.startswith("answer:") and tag[7:] in ANSWERS:
            assert "_Type your answer here._" in src, tag
            cell["source"] = lines(ANSWERS[tag[7:]])
            done.add(tag)
    if "solution" in tags and "exercise:ex5" in tags:
        assert "YOUR CODE HERE" in src
        cell["source"] = lines(SCRATCH.rstrip("\n"))
        done.add("scratch")
    if "answers" in tags and "exercise:ex5" in tags:
        assert "mha_cache_one_layer:\n" in src
        cell["source"] = lines(ANSWER_BLOCK)
        done.add("answers")
assert len(done) == 10, done
NB.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
print("filled", sorted(done))
