# control (honest, wrong algorithm): LinearAttentionState.step keeps every token in a list on the state and
# reruns the parallel form over the whole history at each step; its outputs are right
import torch as _torch


class LinearAttentionState:
    def __init__(self, m, d_v):
        self.history = []

    def step(self, q, k, v):
        self.history.append((q, k, v))
        Q, K, V = (_torch.stack(x, dim=-2) for x in zip(*self.history))
        return linear_attention_parallel(Q, K, V)[..., -1, :]  # noqa: F821
