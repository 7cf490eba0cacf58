"""Fill base's notebook from a fresh copy of the template's (Exercise 5 scratch, answers block, written answers).

    python fill_base_notebook.py      # rewrites base/linear_attention_hybrid.ipynb (no outputs)
"""
from pathlib import Path

import nbformat

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE.parents[3] / "student_template" / "linear-attention-hybrid" / "linear_attention_hybrid.ipynb"
PLACEHOLDER = "**Answer:**\n\n_Type your answer here._"

SCRATCH = '''# Exercise 5 scratch: the decoding-state bill with my T, D, H, BYTES (one sequence, bytes)
d_h = D // H
mha_bytes = 2 * T * D * BYTES                      # K and V: one row of D values each, per token
gqa8_bytes = 2 * T * 8 * d_h * BYTES               # K and V for 8 KV heads of width d_h, per token
window_bytes = 2 * min(T, 4096) * D * BYTES        # MHA, but only the last 4096 tokens are kept
linear_bytes = (H * d_h * d_h + H * d_h) * BYTES   # S: H matrices d_h x d_h, z: H vectors d_h (any T)
all_mha_bytes = 4 * mha_bytes                      # four MHA layers
hybrid_bytes = 3 * linear_bytes + mha_bytes        # [L, L, L, F] with MHA in the full layer
# the two layer kinds memory_bill knows, and both stacks, as a cross-check
assert mha_bytes == memory_bill(["full"], T, D, H, bytes_per_value=BYTES).total_bytes
assert linear_bytes == memory_bill(["linear"], T, D, H, bytes_per_value=BYTES).total_bytes
assert all_mha_bytes == memory_bill(["full"] * 4, T, D, H, bytes_per_value=BYTES).total_bytes
assert hybrid_bytes == memory_bill(["linear"] * 3 + ["full"], T, D, H, bytes_per_value=BYTES).total_bytes
for name, value in [("MHA, one layer", mha_bytes), ("GQA-8, one layer", gqa8_bytes),
                    ("window 4096, one layer", window_bytes), ("linear (S, z), one layer", linear_bytes),
                    ("all-MHA stack, 4 layers", all_mha_bytes), ("[L, L, L, F] stack", hybrid_bytes)]:
    print(f"{name:26s} {value:>16,d} B = {value / 2**30:9.3f} GiB")
'''

ANSWERS = {
    "mha_cache_one_layer": "16384000000 B",
    "gqa8_cache_one_layer": "4096000000 B",
    "window4096_cache_one_layer": "67108864 B",
    "linear_state_one_layer": "1056768 B",
    "all_mha_stack_4_layers": "65536000000 B",
    "hybrid_lllf_stack_4_layers": "16387170304 B",
    "grows_with_t": "b",
}

WRITTEN = {
    "ex1-crossover-015":
        "In my grading-mode runs the full step became slower than the linear step from L = 1024 in one run "
        "and from L = 256 in another (the shared CPU is noisy); at L = 4096 it took 1.7-2.7 ms against 0.14 ms "
        "for the linear step. The cached full step does "
        "≈ 4·L·d_h work per head (q·K over L keys, then the weighted sum of L values) and `torch.cat` copies "
        "the whole cache every call, so its cost grows with L. The linear step does ≈ 4·d_h² per head (update "
        "S, z and read them) whatever L is, so its time is flat. For small L both are dominated by fixed "
        "overheads (Python, the projections, a handful of kernel calls), which is why the crossover is not at "
        "L ≈ d_h as the operation count alone suggests. On a GPU I would not expect the same crossover: "
        "launch overheads dominate for much longer and the L-dependent work is parallel, so the full step "
        "stays flat further and the crossover moves to larger L (or is not seen in this range).",
    "ex2-comparison-022":
        "In grading mode (4 training steps) the validation losses were 3.368 (full), 3.351 (linear) and "
        "3.355 (hybrid LLLF): all three are still near the untrained loss and their differences are noise, "
        "so they say nothing about which pattern is better. The samples are random characters for all three "
        "models, so they cannot show kept names or objects either. A full-budget run would be needed; even "
        "then the average loss may barely separate the models, because most next characters depend on the "
        "last few, and differences in copying (a name reused later) would show in the samples or in a recall "
        "probe rather than in the mean loss.",
    "ex3-recall-027":
        "All three curves were flat and low, 0.01-0.05 at every distance bin (full 0.05/0.02/0.04/0.01, "
        "linear 0.02/0.01/0.03/0.02, hybrid 0.02/0.01/0.02/0.04), even below chance (1/8), and the final "
        "losses were all about 5.52. This is not the textbook story: after 4 steps no model has learned the "
        "lookup (it has not even learned to answer with a pair token of the right key), so accuracy does not "
        "fall with distance for the linear model and the hybrid recovers nothing. To test the story I would "
        "train the full budget (1000 steps or more), over several seeds, and then vary the number of pairs "
        "and the width (d_h) to see the linear model's crosstalk grow with the number of stored pairs.",
    "ex4-gate-033":
        "With γ = 0.5 the S norm stays small and flat (about 5 after any number of tokens), γ = 0.9 "
        "plateaus around 14, γ = 0.99 keeps growing for a few hundred tokens (135 at token 511) and γ = 1 "
        "grows without bound (425 at token 511); a decay γ keeps about 1/(1-γ) tokens. z behaves the same "
        "way but grows even faster at γ = 1 (linearly, since φ(k) > 0). The output stays bounded anyway "
        "because y = φ(q)ᵀS / φ(q)ᵀz is a weighted average of values: S and z carry the same decayed "
        "weights, so their scale cancels. In grading mode the trained models kept their initial decays, "
        "0.75, 0.90, 0.96 and 0.98 per layer, since 4 steps barely move them. A fixed per-head decay "
        "forgets at the same rate after every token: it cannot keep a name for a long time and then clear "
        "the memory at a sentence or document boundary, which an input-dependent gate can; nor can it "
        "overwrite the value stored for a key, which a delta-rule write does.",
    "reassociation-040":
        "(φ(Q)φ(K)ᵀ)V forms a T × T matrix: O(T²·d) time and O(T²) memory. Grouping it as φ(Q)(φ(K)ᵀV) "
        "computes the d × d matrix φ(K)ᵀV first, so the cost is O(T·d²), linear in T, and in the causal "
        "case the prefix sums of φ(k)vᵀ become a running state S that a decoder updates in O(d²) per token "
        "with no KV cache. It is exact, not an approximation, because matrix products are associative; "
        "the softmax is what blocked it, since exp(q·k) does not factor into a query part times a key part. "
        "Removing the softmax costs sharpness and exact retrieval: φ(q)·φ(k) is a low-rank, positive, "
        "rather flat similarity, so the layer cannot focus on one token the way softmax can, and all pairs "
        "are summed into a fixed-size state where they interfere (crosstalk).",
    "why-hybrids-042":
        "The recurrent state is a fixed d_h × d_h sum per head: it cannot keep every token addressable. "
        "Pairs are superimposed, read back with crosstalk, and faded by the decay, so exact recall and "
        "copying of something written long ago degrade as the history grows. A few full-attention layers "
        "keep an exact, growing KV cache and can look up any earlier token; they put exact token identity "
        "back into the residual stream for the linear layers above. Hybrids keep most of the constant-"
        "memory, constant-time decoding (only the full layers' caches grow, e.g. one layer in four) while "
        "recovering most of the retrieval ability that a pure linear stack loses.",
    "quadratic-reference-044":
        "Because the two forms compute the same thing in different orders. At inference the recurrence "
        "folds each new token into (S, z), which hold H matrices d_h × d_h and H vectors d_h no matter how "
        "many tokens came before. The parallel reference instead computes all T outputs at once from the "
        "explicit T × T matrix of decayed scores (φ(q_t)·φ(k_i) γ^(t-i)), so it costs O(T²) time and memory. "
        "It is written that way because it is easy to read and to check against step and is parallel over "
        "positions for training; a linear-cost training form would need the chunkwise algorithm (parallel "
        "within chunks, recurrent across them), which this assignment does not build.",
    "delta-rule-046":
        "A delta-rule write first reads what the (decayed) memory currently returns for the key, "
        "prediction = k_tᵀS', and then writes only the error: S_t = S' + β_t k_t (v_t − prediction)ᵀ. With a "
        "unit-length key and β = 1 the old value stored for that key is replaced by v_t instead of being "
        "added to it; in general it is one step of online gradient descent on ‖Sᵀk_t − v_t‖². This "
        "assignment's layer does not do that: it has a fixed, input-independent decay per head and a purely "
        "additive write. KDA is a gated delta rule with a per-channel gate computed from each token, trained "
        "with a chunkwise algorithm and fused kernels, plus normalization and short convolutions. We only "
        "share the economics (a fixed state) and the parallel/recurrent equivalence, so calling it KDA would "
        "be wrong.",
}


def main():
    nb = nbformat.read(TEMPLATE, as_version=4)
    cells = {c.get("id"): c for c in nb.cells}
    cells["ex5-036"].source = SCRATCH.rstrip("\n")
    block = cells["ex5-037"].source
    for key, value in ANSWERS.items():
        assert block.count(f"\n{key}:\n") == 1, key
        block = block.replace(f"\n{key}:\n", f"\n{key}: {value}\n")
    cells["ex5-037"].source = block
    for cid, text in WRITTEN.items():
        assert cells[cid].source.strip() == PLACEHOLDER, cid
        cells[cid].source = "**Answer:**\n\n" + text
    nbformat.write(nb, HERE / "base" / "linear_attention_hybrid.ipynb")


if __name__ == "__main__":
    main()
