"""Public tests for linear_attention.py. Run from the assignment folder:

    pytest tests                 # everything
    pytest tests -k equiv        # the forms agree with each other
    pytest tests -k causal       # later tokens never change earlier outputs

The official grade comes from hidden checks against an independent reference; passing
these tests is a good sign, not a guarantee.
"""
import sys
from pathlib import Path

import pytest
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import linear_attention as la  # noqa: E402

SHAPES = [((), 5, 4, 3), ((2,), 7, 3, 5), ((2, 3), 6, 4, 4)]   # (leading dims, L, m, d_v)
GAMMAS = [0.0, 0.5, 0.9, 1.0]
L_CHUNK = 9
CHUNKS = [1, 3, 4, 5, L_CHUNK, L_CHUNK + 3]                      # 4 and 5 do not divide 9


def qkv(lead, L, m, d_v, seed=0, dtype=torch.float64):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*lead, L, m, generator=g, dtype=dtype), torch.randn(*lead, L, m, generator=g, dtype=dtype),
            torch.randn(*lead, L, d_v, generator=g, dtype=dtype))


def by_steps(Q, K, V):
    state = la.LinearAttentionState(Q.shape[-1], V.shape[-1])
    return torch.stack([state.step(Q[..., t, :], K[..., t, :], V[..., t, :]) for t in range(Q.shape[-2])], dim=-2)


LINEAR_FORMS = {"parallel": la.linear_attention_parallel, "recurrent": la.linear_attention_recurrent,
                "step": by_steps}


# ----------------------------------------------------------------------------- provided parts (pass from the start)

# Example 1.1 of the notebook: keys (1, 0) and (1, 1) hold values (2, 0) and (0, 4); the query is (1, 2).
KEYS = torch.tensor([[1.0, 0.0], [1.0, 1.0]])
VALUES = torch.tensor([[2.0, 0.0], [0.0, 4.0]])
QUERY = torch.tensor([1.0, 2.0])


def test_feature_map_is_positive():
    x = torch.linspace(-30, 30, 601, dtype=torch.float64)
    assert (la.feature_map(x) > 0).all()


def test_worked_example_by_hand():
    """Example 1.1 with the identity feature map: score-blend-divide equals fold-first."""
    scores = KEYS @ QUERY                                          # q · k_j = (1, 3)
    direct = (scores[:, None] * VALUES).sum(0) / scores.sum()
    S = sum(torch.outer(k, v) for k, v in zip(KEYS, VALUES))       # Σ k vᵀ = [[2, 4], [0, 4]]
    z = KEYS.sum(0)                                                # (2, 1)
    folded = (QUERY @ S) / (QUERY @ z)
    torch.testing.assert_close(direct, torch.tensor([0.5, 3.0]))
    torch.testing.assert_close(folded, direct)


# ----------------------------------------------------------------------------- the worked example through your code

@pytest.mark.parametrize("form", LINEAR_FORMS)
def test_worked_example_through_your_code(form, monkeypatch):
    """Your linear attention, with φ swapped for the identity, reproduces Example 1.1."""
    monkeypatch.setattr(la, "feature_map", lambda x: x)
    Q = torch.stack([QUERY, QUERY])                                # token 2 reads with (1, 2)
    y = LINEAR_FORMS[form](Q, KEYS, VALUES)
    torch.testing.assert_close(y[1], torch.tensor([0.5, 3.0]))


# ----------------------------------------------------------------------------- linear attention

@pytest.mark.parametrize("lead, L, m, d_v", SHAPES)
def test_equiv_linear_parallel_recurrent(lead, L, m, d_v):
    Q, K, V = qkv(lead, L, m, d_v)
    y = la.linear_attention_parallel(Q, K, V)
    assert y.shape == (*lead, L, d_v)
    torch.testing.assert_close(la.linear_attention_recurrent(Q, K, V), y)


@pytest.mark.parametrize("lead, L, m, d_v", SHAPES)
def test_equiv_state_step(lead, L, m, d_v):
    Q, K, V = qkv(lead, L, m, d_v, seed=1)
    torch.testing.assert_close(by_steps(Q, K, V), la.linear_attention_parallel(Q, K, V))


@pytest.mark.parametrize("form", LINEAR_FORMS)
def test_single_token_reads_its_own_value(form):
    """With one token, normalized attention returns v itself: the state is updated before it is read."""
    Q, K, V = qkv((2,), 1, 3, 4, seed=2)
    torch.testing.assert_close(LINEAR_FORMS[form](Q, K, V), V)


@pytest.mark.parametrize("form", LINEAR_FORMS)
def test_constant_values_come_back_unchanged(form):
    """Every weight is positive and the weights of row i sum to 1, so equal values come back unchanged."""
    Q, K, _ = qkv((), 6, 3, 2, seed=3)
    V = torch.tensor([1.0, -2.0], dtype=torch.float64).expand(6, 2)
    torch.testing.assert_close(LINEAR_FORMS[form](Q - 3, K - 3, V), V)


# ----------------------------------------------------------------------------- causality

def _retention_chunkwise(Q, K, V):
    return la.retention_chunkwise(Q, K, V, 0.9, chunk_size=4)


CAUSAL_FORMS = {"linear_parallel": la.linear_attention_parallel, "linear_step": by_steps,
                "retention_parallel": lambda Q, K, V: la.retention_parallel(Q, K, V, 0.9),
                "retention_chunkwise": _retention_chunkwise}


@pytest.mark.parametrize("name", CAUSAL_FORMS)
def test_causal(name):
    """Changing tokens 5.. must leave outputs 0..4 exactly as they were."""
    Q, K, V = qkv((2,), 9, 4, 3, seed=4)
    Q2, K2, V2 = Q.clone(), K.clone(), V.clone()
    for a in (Q2, K2, V2):
        a[..., 5:, :] = 10 * torch.randn_like(a[..., 5:, :])
    y, y2 = CAUSAL_FORMS[name](Q, K, V), CAUSAL_FORMS[name](Q2, K2, V2)
    torch.testing.assert_close(y[..., :5, :], y2[..., :5, :])


# ----------------------------------------------------------------------------- retention

@pytest.mark.parametrize("gamma", GAMMAS)
def test_equiv_retention_parallel_recurrent(gamma):
    Q, K, V = qkv((2, 3), 7, 4, 3, seed=5)
    torch.testing.assert_close(la.retention_recurrent(Q, K, V, gamma), la.retention_parallel(Q, K, V, gamma))


@pytest.mark.parametrize("chunk_size", CHUNKS)
def test_equiv_retention_chunkwise(chunk_size):
    Q, K, V = qkv((2,), L_CHUNK, 4, 3, seed=6)
    torch.testing.assert_close(la.retention_chunkwise(Q, K, V, 0.8, chunk_size), la.retention_parallel(Q, K, V, 0.8))


def test_equiv_retention_per_head_gamma():
    Q, K, V = qkv((2, 3), L_CHUNK, 4, 3, seed=7)
    gamma = torch.tensor([0.0, 0.5, 1.0], dtype=torch.float64)   # one per head (the last leading dim)
    y = la.retention_parallel(Q, K, V, gamma)
    for h in range(3):
        torch.testing.assert_close(y[:, h], la.retention_parallel(Q[:, h], K[:, h], V[:, h], float(gamma[h])))
    torch.testing.assert_close(la.retention_recurrent(Q, K, V, gamma), y)
    torch.testing.assert_close(la.retention_chunkwise(Q, K, V, gamma, 4), y)


@pytest.mark.parametrize("chunk_size", [2, 4, 5])
def test_chunkwise_state_after_short_last_chunk(chunk_size):
    """R after the last token is Σ_m gamma**(L-1-m) k_mᵀ v_m, even when the last chunk is short."""
    Q, K, V = qkv((), L_CHUNK, 4, 3, seed=8)
    gamma = 0.7
    _, R = la.retention_chunkwise(Q, K, V, gamma, chunk_size, return_state=True)
    w = gamma ** torch.arange(L_CHUNK - 1, -1, -1, dtype=torch.float64)   # gamma**(L-1-m)
    torch.testing.assert_close(R, (K * w[:, None]).T @ V)


@pytest.mark.parametrize("form", ["parallel", "recurrent", "chunkwise"])
@pytest.mark.parametrize("gamma", [1.5, -0.1])
def test_gamma_out_of_range_raises(form, gamma):
    Q, K, V = qkv((), 4, 3, 3)
    with pytest.raises(ValueError):
        if form == "chunkwise":
            la.retention_chunkwise(Q, K, V, gamma, 2)
        else:
            getattr(la, f"retention_{form}")(Q, K, V, gamma)


def test_gamma_zero_sees_only_itself():
    """gamma = 0 follows 0**0 = 1: o_n = (q_n·k_n) v_n."""
    Q, K, V = qkv((), 6, 3, 2, seed=9)
    want = (Q * K).sum(-1, keepdim=True) * V
    torch.testing.assert_close(la.retention_parallel(Q, K, V, 0.0), want)
    torch.testing.assert_close(la.retention_chunkwise(Q, K, V, 0.0, 4), want)


def test_multiscale_decays_values():
    gamma = la.multiscale_decays(4)
    assert gamma.shape == (4,)
    torch.testing.assert_close(gamma.double(), torch.tensor([0.96875, 0.984375, 0.9921875, 0.99609375],
                                                            dtype=torch.float64))


# ----------------------------------------------------------------------------- one recurrence, dtypes

def test_equiv_unified_modes():
    Q, K, V = qkv((2,), 7, 4, 3, seed=10)
    torch.testing.assert_close(la.unified_recurrence(Q, K, V, "linear"), la.retention_parallel(Q, K, V, 1.0))
    torch.testing.assert_close(la.unified_recurrence(Q, K, V, "retention", gamma=0.6),
                               la.retention_parallel(Q, K, V, 0.6))
    gate = torch.full((7,), 0.6, dtype=torch.float64)
    torch.testing.assert_close(la.unified_recurrence(Q, K, V, "gated", gate=gate), la.retention_parallel(Q, K, V, 0.6))


def test_float32_stays_float32():
    Q, K, V = qkv((2,), 6, 4, 3, dtype=torch.float32)
    outs = [la.linear_attention_parallel(Q, K, V), la.linear_attention_recurrent(Q, K, V), by_steps(Q, K, V),
            la.retention_parallel(Q, K, V, 0.9), la.retention_recurrent(Q, K, V, 0.9),
            la.retention_chunkwise(Q, K, V, 0.9, 4)]
    assert [y.dtype for y in outs] == [torch.float32] * len(outs)


# ----------------------------------------------------------------------------- optional extension

def test_gated_delta_rule_optional():
    """Optional (not graded): with beta = 1 and a unit-norm key, reading that key back gives its value."""
    Q, K, V = qkv((), 5, 4, 3, seed=11)
    K = K / K.norm(dim=-1, keepdim=True)
    alpha = torch.full((5,), 0.9, dtype=torch.float64)
    beta = torch.ones(5, dtype=torch.float64)
    try:
        y = la.gated_delta_rule(K, K, V, alpha, beta)              # query each token with its own key
    except NotImplementedError:
        pytest.skip("gated_delta_rule is an optional extension")
    torch.testing.assert_close(y, V)
