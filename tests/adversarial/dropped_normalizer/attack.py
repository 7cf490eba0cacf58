# mistake: return phi(q)^T S_i without dividing by phi(q)^T z_i
import torch


def linear_attention_parallel(Q, K, V):
    phi_q, phi_k = feature_map(Q), feature_map(K)          # (..., L, m)
    scores = (phi_q @ phi_k.transpose(-1, -2)).tril()       # (..., L, L), causal
    return scores @ V                                       # (..., L, d_v)


def linear_attention_recurrent(Q, K, V):
    return linear_attention_parallel(Q, K, V)


def _unnormalized_step(self, q, k, v):
    S = getattr(self, "_S_no_z", None)
    S = torch.outer(feature_map(k), v) if S is None else S + torch.outer(feature_map(k), v)   # (m, d_v)
    self._S_no_z = S
    return feature_map(q) @ S                                                                  # (d_v,)


LinearAttentionState.step = _unnormalized_step
