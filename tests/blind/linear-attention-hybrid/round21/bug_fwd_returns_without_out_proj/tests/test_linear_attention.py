"""Public tests for g2c/linear_attention. Run from the assignment folder:

    pytest tests/test_linear_attention.py -x         # stop at the first failure
    pytest tests/test_linear_attention.py -k equiv   # parallel-vs-recurrent equivalence
    pytest tests/test_linear_attention.py -k causal  # causality

Everything runs in float64 so that tolerances can be tight. Tests that compare the two forms set
out_proj to the identity, so a mismatch can be reported per head.
"""
import pytest
import torch
from g2c.linear_attention import (
    HybridTransformerLM,
    LinearAttention,
    assert_outputs_match,
    feature_map,
    memory_bill,
    state_nbytes,
)

torch.set_default_dtype(torch.float64)

# (B, T, D, H, γ per head): several head counts, decays from quick (0.3) to none (1.0)
CONFIGS = [
    (1, 1, 4, 1, [0.5]),
    (2, 7, 8, 2, [0.3, 0.95]),
    (3, 13, 12, 3, [0.6, 0.9, 1.0]),
    (2, 33, 16, 4, [0.8, 0.99, 0.5, 0.7]),
]


def make_layer(D: int, H: int, gammas, seed: int = 0, identity_out: bool = True) -> LinearAttention:
    torch.manual_seed(seed)
    layer = LinearAttention(D, H)
    with torch.no_grad():
        g = torch.tensor(gammas).clamp(max=1 - 1e-16)
        layer.gamma_logit.copy_(torch.where(g >= 1 - 1e-16, torch.tensor(50.0), torch.log(g) - torch.log1p(-g)))
        if identity_out:
            layer.out_proj.weight.copy_(torch.eye(D))
            layer.out_proj.bias.zero_()
    return layer


def run_steps(layer: LinearAttention, x: torch.Tensor) -> torch.Tensor:
    """Feed x (B, T, D) through step one token at a time, starting from an empty state."""
    state, ys = None, []
    for t in range(x.shape[1]):
        y_t, state = layer.step(x[:, t], state)
        ys.append(y_t)
    return torch.stack(ys, dim=1)  # (B, T, D)


def undecayed_reference(layer: LinearAttention, x: torch.Tensor) -> torch.Tensor:
    """γ = 1: y_t = φ(q_t)ᵀ Σ_{i≤t} φ(k_i)v_iᵀ / φ(q_t)ᵀ Σ_{i≤t} φ(k_i), via cumulative sums."""
    B, T, D = x.shape
    H, d_h = layer.num_heads, layer.head_dim
    q = feature_map(layer.q_proj(x)).view(B, T, H, d_h)
    k = feature_map(layer.k_proj(x)).view(B, T, H, d_h)
    v = layer.v_proj(x).view(B, T, H, d_h)
    S = torch.cumsum(k.unsqueeze(-1) * v.unsqueeze(-2), dim=1)  # (B, T, H, d_h, d_h)
    z = torch.cumsum(k, dim=1)  # (B, T, H, d_h)
    y = torch.einsum("bthd,bthde->bthe", q, S) / (q * z).sum(-1, keepdim=True)
    return layer.out_proj(y.reshape(B, T, D))


# ---------------------------------------------------------------- provided parts (pass from the start)

def test_feature_map_is_elu_plus_one():
    x = torch.linspace(-5, 5, 101)
    assert torch.allclose(feature_map(x), torch.nn.functional.elu(x) + 1)
    assert (feature_map(x) > 0).all(), "φ must be positive so that φ(q)·z > 0"


def test_construction_and_decay():
    layer = LinearAttention(32, 4)
    for name in ("q_proj", "k_proj", "v_proj", "out_proj"):
        assert getattr(layer, name).weight.shape == (32, 32), name
    assert layer.gamma_logit.shape == (4,)
    assert isinstance(layer.gamma_logit, torch.nn.Parameter)
    assert torch.allclose(layer.decay, torch.sigmoid(layer.gamma_logit))
    assert ((layer.decay > 0) & (layer.decay < 1)).all()
    with pytest.raises(ValueError, match="divisible"):
        LinearAttention(30, 4)


def test_init_state_shapes():
    S, z = LinearAttention(24, 3).init_state(5, dtype=torch.float32)
    assert S.shape == (5, 3, 8, 8) and z.shape == (5, 3, 8)
    assert S.dtype == torch.float32 and not S.any() and not z.any()


def test_memory_bill_per_layer_and_total():
    bill = memory_bill(["linear", "linear", "linear", "full"], T=1000, embedding_dim=64, num_heads=4)
    linear = 4 * 16 * 16 + 4 * 16  # H·d_h² + H·d_h values
    full = 2 * 1000 * 64  # K and V
    assert [m.bytes for m in bill.layers] == [2 * linear] * 3 + [2 * full]
    assert bill.total_bytes == 2 * (3 * linear + full)


def test_memory_bill_growth_flags():
    short = memory_bill(["linear", "full"], T=10, embedding_dim=32, num_heads=4)
    long = memory_bill(["linear", "full"], T=10_000, embedding_dim=32, num_heads=4)
    assert [m.grows_with_T for m in long.layers] == [False, True]
    assert long.layers[0].bytes == short.layers[0].bytes
    assert long.layers[1].bytes == 1000 * short.layers[1].bytes


def test_memory_bill_matches_a_real_kv_cache():
    """The bill of an all-full model equals the bytes its KV caches actually hold after T tokens."""
    torch.manual_seed(0)
    lm = HybridTransformerLM(30, 16, 2, ["full"] * 3, 40)
    states = lm.init_states(2)
    for position in range(25):
        _, states = lm.step(torch.tensor([1, 2]), position, states)
    assert state_nbytes(states) == lm.memory_bill(25, batch_size=2).total_bytes == 3 * 2 * (2 * 25 * 16) * 8


def test_hybrid_stacking_pattern():
    pattern = ["linear", "linear", "linear", "full"] * 2
    lm = HybridTransformerLM(vocab_size=40, embedding_dim=32, num_heads=4, pattern=pattern, max_seq_len=64)
    kinds = [type(block.attn).__name__ for block in lm.blocks]
    assert kinds == ["LinearAttention"] * 3 + ["CausalSelfAttention"] + ["LinearAttention"] * 3 + [
        "CausalSelfAttention"]
    full = HybridTransformerLM(40, 32, 4, ["full"] * 8, 64)
    # a linear layer adds only H decay logits over a full one: near-identical parameter counts
    assert lm.num_parameters() - full.num_parameters() == 6 * 4
    with pytest.raises(ValueError):
        HybridTransformerLM(40, 32, 4, ["linear", "sparse"], 64)


def test_full_attention_lm_cached_decoding_matches_forward():
    """The provided KV-cache path: generate's logits equal teacher-forced logits (all full layers)."""
    torch.manual_seed(0)
    lm = HybridTransformerLM(30, 16, 2, ["full"] * 2, 40)
    tokens, logits = lm.generate(torch.tensor([[1, 2, 3], [4, 5, 6]]), 20, greedy=True, return_logits=True)
    assert torch.allclose(logits, lm(tokens[:, :-1]), atol=1e-10)


# ---------------------------------------------------------------- your forward: shape and finiteness

def test_forward_output_shape():
    layer = make_layer(12, 3, [0.9, 0.8, 0.7], identity_out=False)
    y = layer(torch.randn(2, 5, 12))
    assert y.shape == (2, 5, 12)
    assert torch.isfinite(y).all()


# ---------------------------------------------------------------- your forward and step agree

class TestEquivalence:
    def test_parallel_matches_recurrent(self):
        """forward(x) and repeated step(x_t, state) give the same numbers, token by token."""
        for seed, (B, T, D, H, gammas) in enumerate(CONFIGS):
            layer = make_layer(D, H, gammas, seed)
            x = torch.randn(B, T, D)
            assert_outputs_match(run_steps(layer, x), layer(x), num_heads=H, atol=1e-10, rtol=1e-8)

    def test_forward_matches_undecayed_reference_at_gamma_one(self):
        """At γ = 1 both forms must equal explicitly normalized linear attention (not just each other)."""
        for seed, (B, T, D, H, _) in enumerate(CONFIGS):
            layer = make_layer(D, H, [1.0] * H, seed)
            x = torch.randn(B, T, D)
            want = undecayed_reference(layer, x)
            assert_outputs_match(layer(x), want, num_heads=H, got_name="forward()", want_name="reference",
                                 atol=1e-10, rtol=1e-8)
            assert_outputs_match(run_steps(layer, x), want, num_heads=H, got_name="step()",
                                 want_name="reference", atol=1e-10, rtol=1e-8)

    def test_step_matches_forward_after_many_tokens(self):
        """Hundreds of steps, quick and slow decays: errors must not accumulate, nothing may underflow."""
        layer = make_layer(16, 4, [0.05, 0.5, 0.97, 1.0], seed=7)
        x = torch.randn(2, 300, 16)
        assert_outputs_match(run_steps(layer, x), layer(x), num_heads=4, atol=1e-9, rtol=1e-7)

    def test_hybrid_lm_cached_decoding_matches_forward(self):
        """[linear, linear, linear, full]: generate (KV cache + (S, z)) agrees with teacher forcing."""
        torch.manual_seed(0)
        lm = HybridTransformerLM(30, 16, 2, ["linear", "linear", "linear", "full"], 40)
        tokens, logits = lm.generate(torch.tensor([[1, 2, 3], [4, 5, 6]]), 20, greedy=True, return_logits=True)
        want = lm(tokens[:, :-1])
        assert torch.allclose(logits, want, atol=1e-9), (
            f"cached decoding differs from teacher forcing by {float((logits - want).abs().max()):.3g}; "
            "run -k test_parallel_matches_recurrent first")


# ---------------------------------------------------------------- your forward is causal

class TestCausality:
    def test_future_token_does_not_change_the_past(self):
        layer = make_layer(8, 2, [0.9, 1.0], seed=3, identity_out=False)
        x = torch.randn(2, 10, 8)
        for t in (0, 4, 9):
            x2 = x.clone()
            x2[:, t] += torch.randn(2, 8)
            y, y2 = layer(x), layer(x2)
            assert torch.allclose(y[:, :t], y2[:, :t], atol=1e-12), f"changing token {t} changed an earlier output"
            assert not torch.allclose(y[:, t], y2[:, t]), f"changing token {t} did not change output {t}"

    def test_gradient_does_not_flow_from_the_future(self):
        layer = make_layer(8, 2, [0.7, 0.99], seed=4, identity_out=False)
        x = torch.randn(1, 9, 8, requires_grad=True)
        layer(x)[0, 4].sum().backward()
        assert x.grad[0, 5:].abs().max() == 0, "output 4 depends on tokens after 4"
        assert x.grad[0, :5].abs().sum(-1).min() > 0, "output 4 should depend on every token 0..4"
